// Editing an earlier prompt and going on from there, in code-server: with the scripted agent (no
// session/fork) the edit restores the turn's files after the preview, a new session starts with the
// transcript and the thread says so; with the real claude-agent-acp 0.101 against the fake Anthropic
// server the edit forks the agent's session at the reply before it (session/fork with
// `_meta.jetbrains.air.fork.messageId`, seen on the wire), the fork's model request holds the first
// turn and the edited prompt but not the replaced one, the file is restored, and `‹ 2/2 ›` switches
// back to the branch left behind.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { agentEnv, EDIT_PROMPT, editOnDiskFiles, scenario as fakeScenario, startFakeAnthropic, userTextOf } from '../fixtures/fakeAnthropic/index';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { scenario, useE2e } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { allowEveryPromptOnce, waitUntil } from './harness/workbench';
import { agentSettings, changedEnv, say, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

/** JSON-RPC messages, one a line (the scripted agent's log, or the wire tap below). */
function messages(file: string): Array<{ method?: string; params?: Record<string, unknown> }> {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { method?: string; params?: Record<string, unknown> }];
      } catch {
        return [];
      }
    });
}

/** Edits the `n`-th prompt in place and sends the edit; the rewind's preview is answered Restore. */
async function editPrompt(chat: Chat, n: number, text: string, restored: RegExp): Promise<void> {
  const prompt = chat.entries('user').nth(n);
  await prompt.getByRole('button', { name: 'Edit and send again' }).click();
  const box = prompt.getByRole('textbox', { name: 'Edited prompt' });
  await box.fill(text);
  await box.press('Enter');
  const dialog = chat.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.textContent()) ?? '', restored);
  await dialog.getByRole('button', { name: 'Restore' }).click();
}

const versions = (prompt: Locator) => prompt.getByRole('group', { name: 'Versions of this prompt' });

scenario(
  e2e,
  'the scripted agent (no fork): an edit restores the files, starts a new session with the transcript and says so; ‹ 1/2 › switches back',
  async (s) => {
    const agent = s.agent({
      // It resumes sessions (so the branch left behind gets its own back) but cannot fork.
      initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
      turns: [{ steps: [say('first reply')] }, { steps: [{ writeFile: { path: '${cwd}/g.txt', content: 'g changed\n' } }, say('second done')] }],
    });
    const workspace = s.workspace({ files: { 'g.txt': 'g original\n' }, settings: agentSettings('Scripted', agent.config) });
    const { chat } = await s.open(workspace);
    await chat.send('say hello');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    await chat.send('change g');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    assert.equal(readFileSync(workspace.path('g.txt'), 'utf8'), 'g changed\n');
    const firstSession = await chat.log.getAttribute('data-session-id');
    assert.ok(firstSession);

    await editPrompt(chat, 1, 'change g differently', /g\.txt — restored/);
    await waitUntil(async () => readFileSync(workspace.path('g.txt'), 'utf8') === 'g original\n', 'g.txt restored before the edit goes out');
    await waitUntil(async () => /starts from the transcript/.test(await chat.threadText()), 'the notice that the agent starts from the transcript');
    await waitUntil(async () => (await chat.stopReasons().count()) === 2 && /change g differently/.test(await chat.threadText()), "the edit's turn");
    const branchSession = await chat.log.getAttribute('data-session-id');
    assert.ok(branchSession && branchSession !== firstSession, 'a session of its own');
    const text = await chat.threadText();
    assert.doesNotMatch(text, /second done/, 'the replaced turn is not in this branch');

    const sent = messages(agent.logFile);
    assert.ok(!sent.some((m) => m.method === 'session/fork'), 'no fork asked of an agent that offers none');
    assert.equal(sent.filter((m) => m.method === 'session/new').length, 2);
    const editTurn = sent.filter((m) => m.method === 'session/prompt').at(-1);
    const blocks = JSON.stringify(editTurn?.params?.prompt);
    assert.match(blocks, /conversation-so-far/);
    assert.match(blocks, /say hello/);
    assert.match(blocks, /first reply/);
    assert.doesNotMatch(blocks, /second done/, 'only the transcript before the edited prompt');
    assert.match(blocks, /change g differently/);

    const edited = chat.entries('user').nth(1);
    assert.match((await versions(edited).textContent()) ?? '', /Version 2 of 2/);
    await versions(edited).getByRole('button', { name: 'Previous version of this prompt' }).click();
    await waitUntil(async () => /second done/.test(await chat.threadText()), 'the branch left behind, with its own thread');
    assert.match((await versions(chat.entries('user').nth(1)).textContent()) ?? '', /Version 1 of 2/);
    await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === firstSession, 'and its own session');
    assert.equal(await chat.frame.locator('[role="tablist"][aria-label="Conversations"] [role="tab"]').count(), 1, 'in the same tab');
  },
  180_000,
);

/** A tap between Tandem and the agent: what Tandem writes to the agent's stdin, one message a line, to `log`. */
function wireTap(dir: string, agentPath: string, log: string): string {
  const tap = join(dir, 'wireTap.cjs');
  writeFileSync(
    tap,
    `const { spawn } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const child = spawn(process.execPath, [${JSON.stringify(agentPath)}], { stdio: ['pipe', 'inherit', 'inherit'] });
process.stdin.on('data', (d) => { appendFileSync(${JSON.stringify(log)}, d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
`,
  );
  return tap;
}

scenario(
  e2e,
  'the real claude-agent-acp 0.101: an edit forks the session at the reply before it (session/fork with its messageId), restores the file, and ‹ 2/2 › switches back',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-edit-prompt-e2e-'));
    const workspace = s.workspace({});
    const files = editOnDiskFiles(workspace.dir);
    writeFileSync(files.notesPath, files.originalText);
    const fake = await startFakeAnthropic(fakeScenario('editPrompt', workspace.dir));
    try {
      const env = agentEnv(fake.url, scratch);
      // Write asks permission in the default mode (auto mode would ask the fake model).
      writeDefaultMode(env);
      const wire = join(scratch, 'wire.ndjson');
      const config: AgentConfig = { command: process.execPath, args: [wireTap(scratch, CLAUDE_AGENT_ACP_0101, wire)], env: changedEnv(env) };
      selectAgent(workspace.dir, 'Claude Agent 0.101 (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send(EDIT_PROMPT.firstPrompt);
      await waitUntil(async () => (await chat.threadText()).includes(EDIT_PROMPT.greeting), 'the greeting', 120_000);
      await chat.waitForTurnEnd(1, 60_000);
      await chat.send(EDIT_PROMPT.secondPrompt);
      await allowEveryPromptOnce(chat, 'the write', 120_000, 2);
      await waitUntil(async () => (await chat.threadText()).includes(EDIT_PROMPT.done), 'the second reply', 120_000);
      await waitUntil(async () => readFileSync(files.notesPath, 'utf8') === files.editedText, 'notes.txt written by the agent');
      await chat.waitForTurnEnd(2, 60_000);
      const source = await chat.log.getAttribute('data-session-id');
      assert.ok(source);

      await editPrompt(chat, 1, EDIT_PROMPT.editedPrompt, /notes\.txt — restored/);
      await waitUntil(async () => readFileSync(files.notesPath, 'utf8') === files.originalText, 'notes.txt restored before the edit goes out', 60_000);
      await waitUntil(async () => messages(wire).some((m) => m.method === 'session/fork'), 'session/fork on the wire', 60_000);
      const fork = messages(wire).find((m) => m.method === 'session/fork');
      assert.equal(fork?.params?.sessionId, source, 'the fork is of the first session');
      const messageId = (fork?.params?._meta as { jetbrains?: { air?: { fork?: { version?: number; messageId?: string } } } })?.jetbrains?.air?.fork;
      assert.equal(messageId?.version, 1);
      assert.match(messageId?.messageId ?? '', /^msg_fake_/, "the id the agent gave the greeting's message");
      assert.ok(
        !messages(wire).some((m) => m.method === 'session/new' && messages(wire).indexOf(m) > messages(wire).indexOf(fork!)),
        'no new session: the fork',
      );
      // The branch is shown (its thread has the edited prompt) before its turn is played through.
      await waitUntil(async () => (await chat.threadText()).includes(EDIT_PROMPT.editedPrompt), 'the branch shown', 60_000);
      // Restored before the edit went out; the edit's turn writes it again (the same script step).
      await allowEveryPromptOnce(chat, "the edit's write", 120_000, 2);
      await waitUntil(
        async () => (await chat.stopReasons().count()) === 2 && (await chat.threadText()).includes(EDIT_PROMPT.editedPrompt),
        "the edit's turn",
        120_000,
      );
      assert.match(await chat.threadText(), new RegExp(EDIT_PROMPT.done), 'the new reply shows');
      assert.doesNotMatch(await chat.threadText(), new RegExp(EDIT_PROMPT.secondPrompt), 'the replaced prompt is not in this branch');
      const forked = await chat.log.getAttribute('data-session-id');
      assert.ok(forked && forked !== source, 'the branch is in the forked session');
      // What the model saw in the fork: the first turn and the edit, not the replaced prompt.
      const editRequest = fake.mainLoopRequests().find((r) => userTextOf(r).includes(EDIT_PROMPT.editedPrompt));
      const seen = userTextOf(editRequest);
      assert.ok(seen.includes(EDIT_PROMPT.firstPrompt), `the fork keeps the first turn (got: ${seen.slice(0, 300)})`);
      assert.ok(!seen.includes(EDIT_PROMPT.secondPrompt), 'and drops the replaced prompt');
      assert.ok(!/conversation-so-far/.test(seen), 'no transcript needed: the agent remembers');

      const edited = chat.entries('user').nth(1);
      assert.match((await versions(edited).textContent()) ?? '', /Version 2 of 2/);
      await versions(edited).getByRole('button', { name: 'Previous version of this prompt' }).click();
      await waitUntil(async () => (await chat.threadText()).includes(EDIT_PROMPT.secondPrompt), 'the branch left behind', 60_000);
      assert.match((await versions(chat.entries('user').nth(1)).textContent()) ?? '', /Version 1 of 2/);
      await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === source, 'with its own session', 60_000);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  300_000,
);
