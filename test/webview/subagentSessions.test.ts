/**
 * A subagent run as a child session (ACP subagents RFD), in real Chromium: the cards come from what
 * the real claude-agent-acp 0.101 sent (test/fixtures/agentPayloads/claude-agent-acp-0.101-subagents.json)
 * played through the real reducer — the parent's updates as the parent's, the child's as the
 * child's. The child's card nests its own thread, and while the child works it has a Stop that
 * posts `stopSubagent` with the child's session id (once), gone when the child is idle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { replacePaths, type RecordedPayload } from '../fixtures/agentPayloads/recordPayloads';
import { payloadReducer } from '../support/agentPayloads';
import { repoRoot } from '../support/scriptedSession';
import { running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();
const CWD = '/home/me/proj';

/** The recording up to (not including) payload `end`, played as Tandem's core plays it. */
function recorded(end?: number): Entry[] {
  const file = join(repoRoot, 'test', 'fixtures', 'agentPayloads', 'claude-agent-acp-0.101-subagents.json');
  const all = replacePaths((JSON.parse(readFileSync(file, 'utf8')) as { payloads: RecordedPayload[] }).payloads, '<cwd>', CWD);
  const { reducer } = payloadReducer(CWD);
  let request = 0;
  for (const p of all.slice(0, end)) {
    const sessionId = p.params.sessionId as string;
    if (p.method === 'session/update') {
      if (sessionId === '<parent>') reducer.applyUpdate(p.params.update);
      else reducer.applyChildUpdate(sessionId, p.params.update);
    } else {
      const requestId = `r${++request}`;
      reducer.attachPermission(p.params.toolCall, requestId, p.params.options);
      reducer.resolvePermission(requestId, { kind: 'selected', optionId: 'allow' });
    }
  }
  return reducer.entries();
}

function lastChildState(): number {
  const file = join(repoRoot, 'test', 'fixtures', 'agentPayloads', 'claude-agent-acp-0.101-subagents.json');
  const all = (JSON.parse(readFileSync(file, 'utf8')) as { payloads: RecordedPayload[] }).payloads;
  return all.map((p) => (p.params.update as { sessionUpdate?: string } | undefined)?.sessionUpdate).lastIndexOf('subagent_update');
}

const childCard = (entries: Entry[]): ToolCallEntry => entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.childSession !== undefined)!;

test('a running child session: its card nests its own messages and tool calls, and Stop posts stopSubagent with its id once', async () => {
  const entries = recorded(lastChildState());
  const parent = childCard(entries);
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries }) });
  await panel.settle();
  const card = page.locator(`[data-entry-id="${parent.id}"]`);
  assert.equal(await card.getAttribute('data-child-state'), 'running');
  assert.equal(await card.locator('.tool-title').textContent(), 'Subagent: Check the notes');
  // The parent's own calls stay at the top level.
  const topTitles = await page.locator('.thread-page > [data-entry-kind="tool_call"] > .tool-header .tool-title').allTextContents();
  assert.deepEqual(topTitles, ['Subagent: Check the notes', 'Read notes.txt', 'Edit notes.txt']);
  const toggle = card.locator('.subagent-toggle');
  assert.equal(await toggle.textContent(), '3 steps · echo hello-from-native-bash');
  await toggle.click();
  assert.deepEqual(await card.locator('.subagent-children .tool-title').allTextContents(), [
    'Read notes.txt',
    'grep "status" proj',
    'echo hello-from-native-bash',
  ]);
  const said = await card.locator('.subagent-children > [data-entry-kind="agent"]').allTextContents();
  assert.equal(said.length, 2);
  assert.match(said[0], /Reading the notes\.\s*$/);
  assert.match(said[1], /The notes say status: draft\.\s*$/);
  // Open: its history in a tab of its own.
  await panel.clearPosted();
  const open = card.locator(':scope > .tool-header .subagent-open');
  assert.equal(await open.getAttribute('aria-label'), 'Open Subagent: Check the notes in a tab');
  await open.click();
  assert.deepEqual(await panel.posted(), [{ type: 'openSubagent', entryId: parent.id, conversationId: 'c1' }]);
  // Stop: keyboard reachable, named after the subagent, in the card's header.
  const stop = card.locator(':scope > .tool-header .subagent-stop');
  assert.equal(await stop.isVisible(), true);
  assert.equal(await stop.getAttribute('aria-label'), 'Stop Subagent: Check the notes');
  await panel.clearPosted();
  await stop.focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'stopSubagent', sessionId: '<child-1>', conversationId: 'c1' }]);
  assert.equal(await stop.isDisabled(), true, 'a second click sends nothing while the agent stops it');
  await stop.click({ force: true });
  assert.equal((await panel.posted()).length, 1);
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
  // Blocked on the user (a prompt in its thread): the card says so rather than "Running".
  await panel.post({ type: 'entryUpserted', entry: { ...parent, childSession: { ...parent.childSession!, state: 'requires_action' } } });
  await panel.settle();
  assert.equal(await card.locator(':scope > .tool-header .tool-status-text').textContent(), 'Waiting for you');
  assert.equal(await card.getAttribute('aria-label'), 'Subagent: Check the notes (Waiting for you)');
  // The agent reports the child idle (cancelled): no Stop any more, the card says it was cancelled.
  await panel.post({
    type: 'entryUpserted',
    entry: { ...parent, status: 'cancelled', childSession: { ...parent.childSession!, state: 'idle', stopReason: 'cancelled' } },
  });
  await panel.settle();
  assert.equal(await stop.isVisible(), false);
  assert.equal(await card.getAttribute('data-child-state'), 'idle');
  assert.equal(await card.getAttribute('data-status'), 'cancelled');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('a finished child session, or one the agent does not let the client cancel, has no Stop', async () => {
  const entries = recorded();
  const done = childCard(entries);
  assert.equal(done.childSession?.state, 'idle');
  const noCancel: ToolCallEntry = {
    ...done,
    id: 'other',
    toolCallId: 'subagent:x',
    status: 'in_progress',
    childSession: { sessionId: 'x', state: 'running', cancel: false },
  };
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [...entries, noCancel] }) });
  await panel.settle();
  assert.equal(await page.locator(`[data-entry-id="${done.id}"]`).getAttribute('data-status'), 'completed');
  assert.equal(await page.locator('.subagent-stop:visible').count(), 0);
  // Open is there for every child session's card, and for no other card.
  assert.equal(await page.locator('.subagent-open:visible').count(), 2);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
