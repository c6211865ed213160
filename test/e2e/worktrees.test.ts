// A git worktree per conversation, in real VS Code (code-server) with the scripted agent as a real
// process: two conversations, each in its own worktree, edit the same file differently at the same
// time; each strip shows only its own edit and the workspace none; Apply brings the first over, the
// second conflicts and is resolved in VS Code's merge editor. A review note on a strip hunk reaches
// the agent's next prompt (its received-messages log). After a restart of VS Code the conversation
// is back in its worktree. This file restarts its own code-server (the run's shared one cannot be).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { scenario } from './harness/e2e';
import { useRestartableE2e } from './harness/restartable';
import { storedConversations, storedTranscripts } from './harness/storage';
import { runCommand, waitUntil, type Chat } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';
import type { Scenario } from './harness/e2e';

const e2e = useRestartableE2e('tandem-worktrees-');

const LINES = ['one', 'two', 'three', 'four', 'five'].map((l) => `${l}\n`).join('');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/**
 * A workspace that is a git repository (f.txt committed), with an agent whose first turn rewrites
 * line 3 of f.txt in its session's folder with the prompt's text, then works for a while (so two
 * conversations run at once); later turns only answer.
 */
function repoWithAgent(s: Scenario) {
  const agent = s.agent({
    turns: [
      { steps: [{ diskWrite: { path: '${cwd}/f.txt', content: LINES.replace('three', '${prompt}') } }, { sleep: 5000 }, say('edited')] },
      { steps: [say('revised')] },
    ],
  });
  const workspace = s.workspace({ files: { 'f.txt': LINES }, settings: agentSettings('Scripted', agent.config) });
  // .vscode (the settings) stays out of the repository, as a user's often does.
  git(workspace.dir, 'init', '-q');
  git(workspace.dir, 'add', 'f.txt');
  git(workspace.dir, 'commit', '-q', '-m', 'start');
  return { agent, workspace };
}

/** Clicks "Conversation in a new worktree" once it is offered, and waits for the new conversation's bar. */
async function newInWorktree(chat: Chat, tabs: number): Promise<Locator> {
  const button = chat.frame.getByRole('button', { name: 'Conversation in a new worktree' });
  await waitUntil(async () => (await button.getAttribute('aria-disabled')) === 'false', 'worktrees to be offered');
  await button.click();
  await chat.waitForCount(chat.frame.locator('[role="tab"][data-branch]'), tabs, 'a tab on a worktree branch', 60_000);
  const bar = chat.frame.getByRole('region', { name: 'Worktree of this conversation' });
  await bar.waitFor({ timeout: 30_000 });
  return bar;
}

/** What the scripted agent received, by method (its received-messages log). */
function received<P>(logFile: string, method: string): P[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method?: string; params: P })
    .filter((m) => m.method === method)
    .map((m) => m.params);
}

/** The text blocks of the last prompt the agent received. */
const lastPrompt = (logFile: string): string[] =>
  received<{ prompt: Array<{ text?: string }> }>(logFile, 'session/prompt')
    .at(-1)!
    .prompt.map((b) => b.text ?? '');

const strip = (chat: Chat) => chat.frame.getByRole('region', { name: 'Files changed in this conversation' });

async function modal(chat: Chat, text: RegExp, answer: string): Promise<void> {
  const dialog = chat.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.textContent()) ?? '', text);
  await dialog.getByRole('button', { name: answer, exact: true }).click();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
}

scenario(
  e2e,
  'two conversations in their own worktrees edit f.txt at once; each strip shows its own edit; apply one, then the other with a conflict resolved',
  async (s) => {
    const { workspace } = repoWithAgent(s);
    const { chat } = await s.open(workspace);

    const barA = await newInWorktree(chat, 1);
    const pathA = (await barA.getAttribute('data-path'))!;
    await chat.send('alpha');
    await chat.waitForCount(chat.frame.locator('[role="tab"][data-status="running"]'), 1, 'A working');
    const barB = await newInWorktree(chat, 2);
    const pathB = (await barB.getAttribute('data-path'))!;
    assert.notEqual(pathA, pathB);
    await chat.send('beta');
    // Both agents work at the same time (one process, two sessions), each in its own folder.
    await chat.waitForCount(chat.frame.locator('[role="tab"][data-status="running"]'), 2, 'both working at once');
    await waitUntil(async () => existsSync(join(pathA, 'f.txt')) && readFileSync(join(pathA, 'f.txt'), 'utf8').includes('alpha'), "A's edit in A's worktree");
    await waitUntil(async () => readFileSync(join(pathB, 'f.txt'), 'utf8').includes('beta'), "B's edit in B's worktree");
    assert.equal(readFileSync(workspace.path('f.txt'), 'utf8'), LINES, 'the workspace sees neither half-done edit');
    assert.ok(!readFileSync(join(pathA, 'f.txt'), 'utf8').includes('beta'));

    // B's strip (shown) lists f.txt with only its own change.
    assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
    await waitUntil(async () => /1 file changed/.test((await strip(chat).textContent()) ?? ''), "B's strip");
    await strip(chat).getByRole('button', { name: 'Show the changed files' }).click();
    await strip(chat).getByRole('button', { name: 'Show the changes in f.txt' }).click();
    await waitUntil(async () => /\+beta/.test((await strip(chat).locator('.hunk').textContent()) ?? ''), "B's hunk");
    assert.doesNotMatch((await strip(chat).textContent()) ?? '', /alpha/);

    // A's strip, then Apply: previewed, and f.txt in the workspace takes A's edit.
    await chat.frame.locator('[role="tab"]').nth(1).click();
    assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
    await waitUntil(async () => (await barA.textContent())?.includes('1 file to apply') === true, 'A has a file to apply');
    await barA.getByRole('button', { name: 'Apply to workspace' }).click();
    await modal(chat, /f\.txt — updated/, 'Apply');
    await waitUntil(async () => readFileSync(workspace.path('f.txt'), 'utf8') === LINES.replace('three', 'alpha'), 'A applied to the workspace');
    await waitUntil(async () => (await barA.textContent())?.includes('nothing to apply') === true, 'nothing left to apply in A');
    await waitUntil(async () => (await strip(chat).isHidden()) === true, "A's strip empties once applied");

    // B conflicts with what A brought over: the merge editor opens; taking B's side completes it.
    await chat.frame.locator('[role="tab"]').nth(2).click();
    await barB.getByRole('button', { name: 'Apply to workspace' }).click();
    await modal(chat, /f\.txt — conflicts with your changes/, 'Apply');
    await waitUntil(async () => /<<<<<<< workspace/.test(readFileSync(workspace.path('f.txt'), 'utf8')), 'the conflict written with markers');
    const mergeEditor = chat.page.locator('.merge-editor').first();
    await mergeEditor.waitFor({ timeout: 30_000 });
    const resolved = () => readFileSync(workspace.path('f.txt'), 'utf8') === LINES.replace('three', 'beta');
    // On a slow machine the commands can come before the merge editor has its model (then Complete
    // Merge asks about unhandled conflicts): dismiss that and take B's side again while it is open.
    await waitUntil(
      async () => {
        if (resolved()) return true;
        if (await chat.page.locator('.monaco-dialog-box').isVisible()) await chat.page.keyboard.press('Escape');
        if (!(await mergeEditor.isVisible())) return false;
        try {
          await runCommand(chat.page, 'Merge Editor: Accept All Current Changes from Right');
          await runCommand(chat.page, 'Merge Editor: Complete Merge');
        } catch {
          await chat.page.keyboard.press('Escape');
        }
        await waitUntil(async () => resolved(), 'the merge written', 10_000).catch(() => undefined);
        return resolved();
      },
      'the conflict resolved with B’s line',
      120_000,
    );
    assert.match((await barB.textContent()) ?? '', /has conflicts to resolve in the merge editor|nothing to apply/);
  },
  240_000,
);

scenario(
  e2e,
  "a review note on a strip hunk reaches the agent's next prompt with its file, lines and hunk, then shows resolved; a restart keeps the worktree",
  async (s) => {
    const { agent, workspace } = repoWithAgent(s);
    let { chat } = await s.open(workspace);
    const bar = await newInWorktree(chat, 1);
    const worktree = (await bar.getAttribute('data-path'))!;
    await chat.send('gamma');
    assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
    await waitUntil(async () => /1 file changed/.test((await strip(chat).textContent()) ?? ''), 'the strip');
    await strip(chat).getByRole('button', { name: 'Show the changed files' }).click();
    await strip(chat).getByRole('button', { name: 'Show the changes in f.txt' }).click();
    const hunk = strip(chat).locator('.hunk').first();
    await hunk.getByRole('button', { name: /^Add a review note on line 3/ }).click();
    await hunk.getByRole('textbox', { name: 'Note for the agent' }).fill('keep the original word here');
    await hunk.getByRole('button', { name: 'Add Note' }).click();
    await chat.frame.getByRole('button', { name: '1 review note' }).waitFor({ timeout: 30_000 });
    await chat.send('please revise');
    assert.equal(await chat.waitForTurnEnd(2, 60_000), 'end_turn');

    const blocks = lastPrompt(agent.logFile);
    assert.equal(blocks.at(-1), 'please revise');
    const notes = blocks.find((b) => b.startsWith('[Review notes from the user'));
    assert.ok(notes, `a review-notes block in ${JSON.stringify(blocks)}`);
    assert.match(notes, new RegExp(`1\\. f\\.txt, line 3 \\(${worktree.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/f\\.txt\\)`));
    assert.match(notes, /```diff\n@@ -3,1 \+3,1 @@\n-three\n\+gamma\n```\nNote: keep the original word here/);
    await hunk.locator('[data-note-state="sent"]').waitFor({ timeout: 30_000 });
    assert.equal(await chat.frame.getByRole('button', { name: '1 review note' }).count(), 0);

    // Restart: the conversation comes back in its worktree; the next turn's session works there.
    const branch = (await bar.locator('.worktree-branch').textContent())!;
    // Killing VS Code skips the last save: wait for the binding, the second turn (its reply and its
    // end, which the count of finished turns below relies on) and the sent note to be on disk.
    await waitUntil(async () => {
      const stored = storedConversations(e2e.userDataDir);
      const both = storedTranscripts(e2e.userDataDir).some((t) => t.includes('"text":"revised"') && (t.match(/"kind":"turn_end"/g) ?? []).length >= 2);
      return both && [`"branch":"${branch}"`, '"state":"sent"'].every((t) => stored.includes(t));
    }, 'the binding and the thread stored');
    await e2e.restart();
    ({ chat } = await s.open(workspace));
    const again = chat.frame.getByRole('region', { name: 'Worktree of this conversation' });
    await again.waitFor({ timeout: 60_000 });
    assert.equal(await again.getAttribute('data-path'), worktree);
    assert.equal(await chat.frame.locator('[role="tab"][aria-selected="true"]').getAttribute('data-branch'), branch);
    await chat.send('still there?');
    // A new session (the agent cannot restore one) starts at the script's first turn: it edits f.txt in its folder.
    assert.equal(await chat.waitForTurnEnd(3, 60_000), 'end_turn');
    assert.match(readFileSync(join(worktree, 'f.txt'), 'utf8'), /still there\?/);
    assert.equal(readFileSync(workspace.path('f.txt'), 'utf8'), LINES, 'the workspace is untouched');
    const opened = received<{ cwd: string }>(agent.logFile, 'session/new');
    assert.equal(opened.at(-1)!.cwd, worktree, 'the session after the restart works in the worktree');
  },
  240_000,
);

scenario(
  e2e,
  "a review note written in VS Code's diff editor (the comments API) joins the composer's notes, reaches the agent, and its thread shows resolved",
  async (s) => {
    const { agent, workspace } = repoWithAgent(s);
    const { chat } = await s.open(workspace);
    await newInWorktree(chat, 1);
    await chat.send('delta');
    assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
    await waitUntil(async () => /1 file changed/.test((await strip(chat).textContent()) ?? ''), 'the strip');
    await strip(chat).getByRole('button', { name: 'Show the changed files' }).click();
    await strip(chat).getByRole('button', { name: 'f.txt', exact: true }).click();
    const page = chat.page;
    const modified = page.locator('.monaco-diff-editor .editor.modified');
    await modified.locator('.view-line').first().waitFor({ timeout: 30_000 });
    await modified.locator('.view-line').first().click();
    await page.keyboard.press('Control+G');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await runCommand(page, 'Comments: Add Comment on Current Selection');
    const box = page.locator('.review-widget textarea, .comment-form textarea').first();
    await box.waitFor({ timeout: 30_000 });
    await box.fill('say why delta');
    await page.getByRole('button', { name: 'Add Review Note' }).first().click();

    await chat.frame.getByRole('button', { name: '1 review note' }).waitFor({ timeout: 30_000 });
    // VS Code's Comments panel lists the note's thread, unresolved until it is sent.
    const row = page.locator('.monaco-list-row', { hasText: 'say why delta' }).first();
    await row.locator('.codicon-comment-unresolved').waitFor({ timeout: 30_000 });
    await chat.send('revise');
    assert.equal(await chat.waitForTurnEnd(2, 60_000), 'end_turn');
    const notes = lastPrompt(agent.logFile).find((b) => b.startsWith('[Review notes'));
    assert.match(notes ?? '', /1\. f\.txt, line 3 .*\n```diff\n@@ -3,1 \+3,1 @@\n-three\n\+delta\n```\nNote: say why delta/);
    await waitUntil(
      async () => (await row.locator('.codicon-comment').count()) === 1 && (await row.locator('.codicon-comment-unresolved').count()) === 0,
      'the thread resolved',
    );
  },
  180_000,
);
