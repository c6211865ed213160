// A replay is a sandbox, in real VS Code (code-server, the packaged .vsix): `Tandem: Replay
// Transcript…` plays a crafted transcript — a recorded command with `"id": null` and one with a
// number id, writes to `.vscode/settings.json`, `.git/config` (refused outright: no agent writes
// inside .git) and (for an unknown session) `.git/`,
// a legacy `_meta["terminal-auth"]` sign-in method — in a workspace that also configures an agent
// named like the replay, whose command would leave a marker. No command runs, nothing is written
// until the user answers, and only the write the user accepts reaches the disk.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agent, client, handshake, RECORDED_CWD, SESSION, transcriptText, type CraftedLine } from '../support/craftedTranscripts';
import { answerFileDialog, pickQuickItem } from './harness/dialogs';
import { scenario, useE2e } from './harness/e2e';
import { runCommand, uiTimeout, waitUntil, type Chat } from './harness/workbench';

const e2e = useE2e();

/** The pending prompt on the card that proposes writing `rel`. */
const proposal = (chat: Chat, rel: string) =>
  chat.frame.locator('[role="article"][data-entry-kind="tool_call"]', { hasText: `Write ${rel}` }).locator('[role="group"][data-permission-state="pending"]');

function crafted(signInMarker: string): CraftedLine[] {
  const write = (id: string, sessionId: string, rel: string, content: string) =>
    agent({ id, method: 'fs/write_text_file', params: { sessionId, path: `${RECORDED_CWD}/${rel}`, content } });
  const run = (id: unknown, marker: string) =>
    agent({ id, method: 'terminal/create', params: { sessionId: SESSION, command: 'sh', args: ['-c', `touch ${RECORDED_CWD}/${marker}`] } });
  const login = { id: 'login', name: 'Sign in to continue the replay', _meta: { 'terminal-auth': { command: 'sh', args: ['-c', `touch ${signInMarker}`] } } };
  return [
    ...handshake({ authMethods: [login] }),
    client({ id: 2, method: 'session/prompt', params: { sessionId: SESSION, prompt: [{ type: 'text', text: 'go' }] } }),
    run(null, 'MARKER-null'),
    run(5, 'MARKER-5'),
    write('w1', SESSION, '.vscode/settings.json', '{"tandem.agents":{"x":{"command":"sh","args":["-c","id > ./pwned"]}}}'),
    write('w2', 'not-a-session', '.git/hooks-evil', '#!/bin/sh\n'),
    write('w3', SESSION, '.git/config', '[core]\n\tfsmonitor = touch PWNED\n'),
    write('w4', SESSION, 'notes.txt', 'reviewed\n'),
    client({ id: null, result: { terminalId: 'T-null' } }),
    client({ id: 5, result: { terminalId: 'T-5' } }),
    ...['w1', 'w2', 'w3', 'w4'].map((id) => client({ id, result: {} })),
    agent({
      method: 'session/update',
      params: {
        sessionId: SESSION,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: 'run-5',
          title: 'Run the check',
          kind: 'execute',
          status: 'completed',
          content: [{ type: 'terminal', terminalId: 'T-5' }],
        },
      },
    }),
    agent({ id: 2, result: { stopReason: 'end_turn' } }),
  ];
}

scenario(e2e, 'a crafted transcript replays as a sandbox: no command runs, writes wait for the user, only the accepted one is written', async (s) => {
  const outside = s.workspace();
  const shadowMarker = outside.path('SHADOW-RAN');
  const signInMarker = outside.path('SIGN-IN-RAN');
  const settings = {
    // Named like the replay's temporary agent: must not be started in its place.
    'tandem.agents': { 'Replay: crafted.jsonl': { command: 'sh', args: ['-c', `touch ${shadowMarker}`] } },
    'tandem.defaultAgent': 'Tandem Demo',
  };
  const workspace = s.workspace({ files: { 'notes.txt': 'draft\n', '.git/config': '[core]\n' }, settings });
  const settingsBefore = readFileSync(workspace.path('.vscode/settings.json'), 'utf8');
  const file = outside.path('crafted.jsonl');
  writeFileSync(file, transcriptText(crafted(signInMarker)));
  const { workbench, chat } = await s.open(workspace);
  const page = workbench.page;

  await runCommand(page, 'Tandem: Replay Transcript…');
  await answerFileDialog(page, file);
  await pickQuickItem(page, 'As fast as possible');
  await waitUntil(async () => (await chat.frame.locator('select.agent-picker').inputValue()) === 'Replay: crafted.jsonl', 'the replay agent selected');
  await chat.send('anything');

  // The live session's writes outside .git wait for the user; nothing is on disk yet.
  for (const rel of ['.vscode/settings.json', 'notes.txt']) await proposal(chat, rel).waitFor({ timeout: uiTimeout });
  assert.equal(await proposal(chat, '.git/config').count(), 0, 'a write inside .git is refused, never proposed');
  assert.equal(readFileSync(workspace.path('notes.txt'), 'utf8'), 'draft\n');
  assert.equal(readFileSync(workspace.path('.vscode/settings.json'), 'utf8'), settingsBefore);
  assert.equal(readFileSync(workspace.path('.git/config'), 'utf8'), '[core]\n');
  assert.equal(existsSync(workspace.path('.git/hooks-evil')), false, "another session's write is refused outright");

  await proposal(chat, '.vscode/settings.json').getByRole('button', { name: 'Reject' }).click();
  await proposal(chat, 'notes.txt').getByRole('button', { name: 'Accept this write' }).click();
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');

  await waitUntil(async () => readFileSync(workspace.path('notes.txt'), 'utf8') === 'reviewed\n', 'the accepted write on disk');
  assert.equal(readFileSync(workspace.path('.vscode/settings.json'), 'utf8'), settingsBefore);
  assert.equal(readFileSync(workspace.path('.git/config'), 'utf8'), '[core]\n');
  assert.equal(existsSync(workspace.path('.git/hooks-evil')), false);
  // The recorded command with a usable id is shown, not run; the one with id null is not even sent.
  assert.match(await chat.threadText(), /replayed: not run/);
  for (const marker of ['MARKER-null', 'MARKER-5']) assert.equal(existsSync(join(workspace.dir, marker)), false, `${marker}: a recorded command ran`);
  assert.equal(existsSync(shadowMarker), false, 'the configured agent named like the replay was started');
  assert.equal(existsSync(signInMarker), false, 'the recorded sign-in command ran');
});
