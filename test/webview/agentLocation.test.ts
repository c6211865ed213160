/**
 * The header says where the shown conversation's agent runs (this machine, or a remote host) and
 * how its connection is; a drop reads "Reconnecting… attempt N of M" there and in the live region,
 * and an interrupted turn says so. In real Chromium, through the DOM contract.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationStatus } from '../../src/protocol/messages';
import { ready, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();
const REMOTE = [{ name: 'Test Agent', commandLine: 'wss://box.example:8443/acp', builtIn: false, host: 'box.example:8443' }];
const reconnecting: ConversationStatus = {
  kind: 'starting',
  agentName: 'Test Agent',
  detail: 'Reconnecting… attempt 2 of 8',
  reconnecting: { attempt: 2, attempts: 8 },
};

test('a remote agent: its host and "connected" in the header; a drop shows reconnecting with the attempt, then connected again', async () => {
  // Wide enough for the whole status sentence (narrower, it says only the state: readableHeader.test.ts).
  const panel = await harness().open({ width: 640 });
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, agents: REMOTE }) });
  const location = page.locator('header .agent-location');
  await location.waitFor({ state: 'visible' });
  assert.equal(await location.textContent(), 'box.example:8443');
  assert.equal(await location.getAttribute('aria-label'), 'Runs on box.example:8443 · connected');
  assert.equal(await location.getAttribute('data-connection'), 'connected');

  await panel.post({ type: 'statusChanged', status: reconnecting });
  await page.waitForFunction(() => document.querySelector('.agent-location')?.getAttribute('data-connection') === 'reconnecting');
  assert.equal(await location.getAttribute('aria-label'), 'Runs on box.example:8443 · reconnecting, attempt 2 of 8');
  assert.equal(await page.locator('header .status-text').textContent(), 'Test Agent: Reconnecting… attempt 2 of 8');
  assert.match(String(await page.locator('[data-announcer]').textContent()), /Reconnecting… attempt 2 of 8/, 'said once, politely');

  await panel.post({ type: 'statusChanged', status: { kind: 'stopped', agentName: 'Test Agent', reason: 'Connection lost' } });
  await page.waitForFunction(() => document.querySelector('.agent-location')?.getAttribute('data-connection') === 'disconnected');
  await panel.post({ type: 'statusChanged', status: ready });
  await page.waitForFunction(() => document.querySelector('.agent-location')?.getAttribute('data-connection') === 'connected');
  assert.deepEqual(panel.errors, []);
});

test('a local agent reads "local", and the note hides while no agent is configured', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready }) });
  const location = page.locator('header .agent-location');
  await location.waitFor({ state: 'visible' });
  assert.equal(await location.textContent(), 'local');
  assert.equal(await location.getAttribute('aria-label'), 'Runs on this machine · connected');
  await panel.post({ type: 'statusChanged', status: { kind: 'no_agent' } });
  await location.waitFor({ state: 'hidden' });
});

test('a turn cut by a drop ends "Interrupted", and the reconnect notice is shown in the thread', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: reconnecting,
      agents: REMOTE,
      entries: [
        { kind: 'user', id: 'u1', text: 'Refactor it' },
        { kind: 'agent', id: 'a1', text: 'Working on' },
        { kind: 'turn_end', id: 'e1', stopReason: 'interrupted' },
        { kind: 'notice', id: 'n1', level: 'warning', message: 'Test Agent lost its connection to box.example:8443. Reconnecting…' },
      ],
    }),
  });
  await page.getByText('Interrupted: the connection to the agent dropped').waitFor();
  assert.equal(await page.locator('[data-stop-reason="interrupted"]').count(), 1);
  await page.getByText('Test Agent lost its connection to box.example:8443. Reconnecting…').waitFor();
  assert.deepEqual(panel.errors, []);
});

test('the agent picker marks an entry the workspace’s settings define, so a same-named workspace entry is told apart', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const agents = [
    { name: 'Sandbox agent', commandLine: 'wss://collector.example/acp', builtIn: false, host: 'collector.example', fromWorkspace: true },
    { name: 'Mine', commandLine: 'codex-acp', builtIn: false },
  ];
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, agents }) });
  await page.locator('select.agent-picker option').first().waitFor({ state: 'attached' });
  assert.deepEqual(await page.locator('select.agent-picker option').allTextContents(), ['Sandbox agent (workspace)', 'Mine']);
  assert.equal(await page.locator('select.agent-picker option').first().getAttribute('value'), 'Sandbox agent', 'the name the host knows stays the value');
  assert.deepEqual(panel.errors, []);
});
