// The agent's own copy of a session in real VS Code (code-server): a conversation deleted from
// History with "Delete the agent's session too" is gone from History and the (scripted) agent
// process receives `session/delete` for its session; the dialog offers it only because the agent
// advertised `sessionCapabilities.delete`. A rename from History sends `session/set_title`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scenario, useE2e } from './harness/e2e';
import { uiTimeout, waitUntil } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';

const e2e = useE2e();

/** The requests of `method` the agent received, as logged by the scripted agent. */
function received(logFile: string, method: string): Array<Record<string, unknown>> {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method?: string; params?: Record<string, unknown> })
    .filter((m) => m.method === method)
    .map((m) => m.params ?? {});
}

scenario(e2e, "History: a rename names the agent's session, a delete with the agent's session too sends session/delete", async (s) => {
  const agent = s.agent({
    // `title` is newer than the SDK's stable capability type (codex-acp 2.6 advertises it).
    initialize: { agentCapabilities: { sessionCapabilities: { list: {}, close: {}, delete: {}, title: {} } as Record<string, object> } },
    turns: [{ steps: [say('Noted.')] }],
  });
  const workspace = s.workspace({ files: { 'README.md': '# Sessions\n' }, settings: agentSettings('Scripted', agent.config) });
  const { chat } = await s.open(workspace);
  await chat.send('a conversation to delete');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const sessionId = await chat.log.getAttribute('data-session-id');
  assert.ok(sessionId);

  const quickInput = chat.page.locator('.quick-input-widget');
  const row = (text: string) => quickInput.locator('.quick-input-list .monaco-list-row', { hasText: text });
  await chat.frame.getByRole('button', { name: 'History' }).click();
  await row('a conversation to delete').waitFor({ timeout: uiTimeout });
  await row('a conversation to delete').hover();
  await row('a conversation to delete').getByRole('button', { name: 'Rename' }).click();
  const input = chat.page.locator('.quick-input-widget input');
  await input.fill('Renamed in History');
  await input.press('Enter');
  await waitUntil(async () => received(agent.logFile, 'session/set_title').length === 1, 'session/set_title');
  assert.deepEqual(received(agent.logFile, 'session/set_title')[0], { sessionId, title: 'Renamed in History' });

  await row('Renamed in History').waitFor({ timeout: uiTimeout });
  await row('Renamed in History').hover();
  await row('Renamed in History').getByRole('button', { name: 'Delete' }).click();
  const dialog = chat.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: uiTimeout });
  assert.match((await dialog.textContent()) ?? '', /Delete the conversation "Renamed in History"\?/);
  assert.match((await dialog.textContent()) ?? '', /Scripted keeps its own copy of this session/);
  await dialog.getByRole('button', { name: "Delete the agent's session too" }).click();
  await waitUntil(async () => received(agent.logFile, 'session/delete').length === 1, 'session/delete', 60_000);
  assert.deepEqual(received(agent.logFile, 'session/delete')[0], { sessionId });
  await waitUntil(async () => (await row('Renamed in History').count()) === 0, 'the conversation gone from History');
  await chat.page.keyboard.press('Escape');
});
