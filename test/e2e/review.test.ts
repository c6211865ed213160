// Review and safety in real VS Code (code-server): permission answers scoped to what the user saw
// (a scripted agent as a real process), the changed-files strip with per-hunk undo and "restore
// files to before this turn", a transcript the user exports into the workspace never offered for
// undo (and a file changed outside the agent marked, left out of Undo all), the real
// claude-agent-acp editing the disk itself (its changes are listed and undone), and the real Gemini
// CLI creating a new file through Tandem.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { agentEnv, editOnDiskFiles, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import { agentAcpScenario } from '../fixtures/fakeAnthropic/agentAcpScenarios';
import { geminiAgentEnv, geminiScenario, geminiScenarioFiles, startFakeGemini } from '../fixtures/fakeGemini/index';
import { answerFileDialog, pickQuickItem } from './harness/dialogs';
import { scenario, useE2e } from './harness/e2e';
import { repoRoot } from './harness/paths';
import type { Chat } from './harness/workbench';
import { allowEveryPromptOnce, runCommand, waitUntil } from './harness/workbench';
import { agentSettings, changedEnv, say, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

const OPTIONS = [
  { optionId: 'always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

function run(id: string, command: string): Array<Record<string, unknown>> {
  return [
    { update: { sessionUpdate: 'tool_call', toolCallId: id, title: `\`${command}\``, kind: 'execute', status: 'pending', rawInput: { command } } },
    { permission: { toolCall: { toolCallId: id }, options: OPTIONS } },
  ];
}

/** The agent edits a file on disk itself, announced by an edit call naming it (as claude-agent-acp does). */
function diskEdit(id: string, path: string, content: string): Array<Record<string, unknown>> {
  return [
    { update: { sessionUpdate: 'tool_call', toolCallId: id, title: `Edit ${path}`, kind: 'edit', status: 'in_progress', locations: [{ path }] } },
    { diskWrite: { path, content } },
    { update: { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' } },
  ];
}

const card = (chat: Chat, toolCallId: string): Locator => chat.frame.locator(`[data-tool-call-id="${toolCallId}"]`);
const pendingIn = (chat: Chat, toolCallId: string): Locator => card(chat, toolCallId).locator('[role="group"][data-permission-state="pending"]');

scenario(
  e2e,
  'permissions: "Always Allow" for ls is not widened to rm; the prompt never takes focus; a saved rule answers the next ls and says so',
  async (s) => {
    const agent = s.agent({
      turns: [
        { steps: [...run('run-0', 'ls -la'), say(' then '), ...run('run-1', 'rm -rf build'), say(' done')] },
        { steps: [...run('run-2', 'ls -la src'), say(' ruled')] },
      ],
    });
    const workspace = s.workspace({ files: { 'README.md': '# Rules\n' }, settings: agentSettings('Scripted', agent.config) });
    const { chat } = await s.open(workspace);
    await chat.send('list files');
    await pendingIn(chat, 'run-0').waitFor({ timeout: 30_000 });
    // The prompt appeared while the user was in the composer: keys still land there.
    await chat.composer.pressSequentially('still typing');
    assert.equal(await chat.composer.inputValue(), 'still typing');
    assert.equal(await chat.frame.locator('textarea[aria-label="Message"]').evaluate((el) => el === document.activeElement), true);
    // The tab stop of the prompt is the one-time allow, whatever the agent's order.
    assert.equal(await pendingIn(chat, 'run-0').locator('button[tabindex="0"]').getAttribute('data-option-kind'), 'allow_once');
    await pendingIn(chat, 'run-0')
      .getByRole('button', { name: /^Always Allow/ })
      .click();

    // The next command is asked, not answered by the "always" above.
    await pendingIn(chat, 'run-1').waitFor({ timeout: 30_000 });
    await pendingIn(chat, 'run-1').getByRole('button', { name: 'Reject' }).click();
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const thread = await chat.threadText();
    assert.match(thread, /PERMISSION: selected always then/);
    assert.match(thread, /PERMISSION: selected no done/);

    // Save the rule the first card proposes ("ls", this workspace), then it answers `ls -la src`.
    const proposal = card(chat, 'run-0').getByRole('group', { name: 'Save a permission rule' });
    assert.equal(await proposal.getByRole('textbox').inputValue(), 'ls');
    await proposal.getByRole('button', { name: 'Save allow rule' }).click();
    await card(chat, 'run-0').locator('.rule-proposal.saved').waitFor({ timeout: 30_000 });
    await chat.composer.fill('again');
    await chat.composer.press('Enter');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    const ruled = card(chat, 'run-2').locator('.permission-result');
    assert.match((await ruled.textContent()) ?? '', /Allowed by rule: Allow ls for Scripted in this workspace/);
    assert.match(await chat.threadText(), /PERMISSION: selected once ruled/, 'the rule answered allow once, not always');
  },
);

scenario(e2e, 'changed files: per-hunk Undo restores one part of a file; "Restore files to before this turn" brings the earlier files back', async (s) => {
  const original = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const edited = original.replace('line 2\n', 'LINE TWO\n').replace('line 15\n', 'LINE FIFTEEN\n').replace('line 28\n', 'LINE 28\n');
  const agent = s.agent({
    turns: [
      { steps: [...diskEdit('e-f', '${cwd}/f.txt', edited), { writeFile: { path: '${cwd}/new.txt', content: 'created\n' } }] },
      { steps: diskEdit('e-g', '${cwd}/g.txt', 'g changed\n') },
    ],
  });
  const workspace = s.workspace({ files: { 'f.txt': original, 'g.txt': 'g original\n' }, settings: agentSettings('Scripted', agent.config) });
  const { chat } = await s.open(workspace);
  await chat.send('edit the files');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const strip = chat.frame.getByRole('region', { name: 'Files changed in this conversation' });
  await waitUntil(async () => /2 files changed/.test((await strip.textContent()) ?? ''), 'the changed-files strip');
  await strip.getByRole('button', { name: 'Show the changed files' }).click();
  await strip.getByRole('button', { name: 'Show the changes in f.txt' }).click();
  const hunks = strip.getByRole('list', { name: 'Changes in f.txt' }).locator('.hunk');
  await chat.waitForCount(hunks, 3, 'three changes in f.txt');
  await hunks
    .nth(1)
    .getByRole('button', { name: /^Undo the change/ })
    .click();
  await waitUntil(
    async () => readFileSync(workspace.path('f.txt'), 'utf8') === original.replace('line 2\n', 'LINE TWO\n').replace('line 28\n', 'LINE 28\n'),
    'the middle change undone on disk',
  );
  await waitUntil(async () => (await hunks.count()) === 2, 'two changes left');

  await chat.send('now g');
  assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
  assert.equal(readFileSync(workspace.path('g.txt'), 'utf8'), 'g changed\n');
  const secondTurn = chat.entries('user').nth(1);
  await secondTurn.getByRole('button', { name: 'Restore files to before this turn' }).click();
  const dialog = chat.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.textContent()) ?? '', /g\.txt — restored/);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await waitUntil(async () => readFileSync(workspace.path('g.txt'), 'utf8') === 'g original\n', 'g.txt restored');
  assert.equal(readFileSync(workspace.path('new.txt'), 'utf8'), 'created\n', 'the first turn is untouched');
});

scenario(
  e2e,
  'changed files: a transcript exported into the workspace is not offered for undo; a file changed outside the agent is marked and Undo all leaves both',
  async (s) => {
    const agent = s.agent({
      turns: [
        {
          steps: [
            { writeFile: { path: '${cwd}/a.txt', content: 'by the agent\n' } },
            // As a command the agent ran would: no fs call, no edit call naming it.
            { diskWrite: { path: '${cwd}/build.log', content: 'built\n', quiet: true } },
            say('first done'),
          ],
        },
        { steps: [{ writeFile: { path: '${cwd}/b.txt', content: 'also by the agent\n' } }, say('second done')] },
      ],
    });
    const workspace = s.workspace({ files: { 'README.md': '# Review\n' }, settings: agentSettings('Scripted', agent.config) });
    const { workbench, chat } = await s.open(workspace);
    await chat.send('first');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const strip = chat.frame.getByRole('region', { name: 'Files changed in this conversation' });
    await waitUntil(async () => /1 file changed outside the agent/.test((await strip.textContent()) ?? ''), 'build.log marked outside');
    assert.match((await strip.textContent()) ?? '', /^.*1 file changed \+1 −0/);

    // The user exports the conversation into the workspace (the file the bug report was about).
    const exported = workspace.path('conversation.jsonl');
    await runCommand(workbench.page, 'Tandem: Export Transcript…');
    await pickQuickItem(workbench.page, 'This conversation');
    await answerFileDialog(workbench.page, exported);
    await waitUntil(async () => existsSync(exported) && readFileSync(exported, 'utf8').includes('"stopReason"'), 'the exported transcript');

    await chat.send('second');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    await waitUntil(async () => /2 files changed \+2 −0/.test((await strip.textContent()) ?? ''), "the agent's two files, and only those, counted");
    await strip.getByRole('button', { name: 'Show the changed files' }).click();
    assert.deepEqual(
      await strip.locator('li.changed-file').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-outside') ?? '-'} ${r.getAttribute('data-path')}`)),
      [`- ${workspace.path('a.txt')}`, `- ${workspace.path('b.txt')}`, `true ${workspace.path('build.log')}`],
      'the export is not listed; build.log is marked',
    );
    await strip.getByRole('button', { name: 'Undo all' }).click();
    await waitUntil(async () => !existsSync(workspace.path('a.txt')) && !existsSync(workspace.path('b.txt')), "the agent's files undone");
    assert.ok(readFileSync(exported, 'utf8').includes('"stopReason"'), 'the exported transcript is still there');
    assert.equal(readFileSync(workspace.path('build.log'), 'utf8'), 'built\n', 'the outside change too');
  },
);

scenario(
  e2e,
  'the real claude-agent-acp edits the disk itself: its changes are listed and Undo all restores them',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-agent-acp-e2e-'));
    const workspace = s.workspace({});
    const files = editOnDiskFiles(workspace.dir);
    writeFileSync(files.notesPath, files.originalText);
    const fake = await startFakeAnthropic(agentAcpScenario('editOnDisk', workspace.dir));
    try {
      const config: AgentConfig = {
        command: process.execPath,
        args: [join(repoRoot, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js')],
        env: changedEnv(agentEnv(fake.url, scratch)),
      };
      selectAgent(workspace.dir, 'Claude Code (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send('Review the notes and add a greeting.');
      await allowEveryPromptOnce(chat, 'the turn with its permission prompts', 90_000);
      assert.match(readFileSync(files.notesPath, 'utf8'), /status: reviewed/, 'the agent changed the disk itself');
      assert.equal(readFileSync(files.newPath, 'utf8'), files.newText);
      const strip = chat.frame.getByRole('region', { name: 'Files changed in this conversation' });
      await waitUntil(async () => /2 files changed/.test((await strip.textContent()) ?? ''), 'both files in the strip');
      await strip.getByRole('button', { name: 'Undo all' }).click();
      await waitUntil(async () => readFileSync(files.notesPath, 'utf8') === files.originalText && !existsSync(files.newPath), 'the disk back as it was');
      await waitUntil(async () => (await strip.isHidden()) || /0 files changed/.test((await strip.textContent()) ?? ''), 'an empty strip');
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  180_000,
);

scenario(
  e2e,
  'the real Gemini CLI creates a new file through Tandem',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-gemini-e2e-'));
    const workspace = s.workspace({ files: { 'README.md': '# Gemini\n' } });
    const files = geminiScenarioFiles(workspace.dir);
    const fake = await startFakeGemini(geminiScenario('createFile', workspace.dir));
    try {
      const { env } = geminiAgentEnv(fake.url, scratch);
      const config: AgentConfig = {
        command: process.execPath,
        args: [join(repoRoot, 'node_modules/@google/gemini-cli/bundle/gemini.js'), '--acp'],
        env: changedEnv(env),
      };
      selectAgent(workspace.dir, 'Gemini CLI (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send('Create notes/new.txt');
      await allowEveryPromptOnce(chat, 'the turn', 120_000);
      assert.equal(readFileSync(files.newPath, 'utf8'), files.newText);
      assert.doesNotMatch(await chat.threadText(), /Error checking existing file/);
      assert.equal(await chat.frame.locator('.tool-card.status-failed').count(), 0, 'no failed tool call');
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  180_000,
);
