/**
 * A long thread's snapshot arrives in two parts (src/session/snapshotSplit.ts): its last screens,
 * then — when the panel asks, after painting them — the older entries. The panel must show the
 * tail at once, ask exactly once, place the older entries above in order, keep an entry that changed
 * in between at its newer state, stay at the bottom, and ignore older entries that are no longer
 * wanted (another conversation shown, or the thread cleared).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry, HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { splitSnapshot } from '../../src/views/snapshotSplit';
import { useHarness } from './harness/harness';
import { agent, ready, snapshot, terminal, toolCall } from './harness/fixtures';

const harness = useHarness();

/** 300 entries: agent answers of a few paragraphs and tool calls, one with a terminal early on. */
function longThread(): { entries: Entry[]; terminals: ReturnType<typeof terminal>[] } {
  const entries: Entry[] = [];
  for (let i = 0; i < 300; i++) {
    if (i === 5) entries.push(toolCall(`t${i}`, { status: 'completed', toolKind: 'execute', content: [{ type: 'terminal', terminalId: 'term-early' }] }));
    else if (i % 3 === 0) entries.push(toolCall(`t${i}`, { status: 'completed', title: `Read file ${i}` }));
    else entries.push(agent(`a${i}`, `Answer ${i}.\n\n${'Some words to give the entry a height. '.repeat(8)}`));
  }
  return { entries, terminals: [terminal('term-early', { output: 'early output line\r\n' })] };
}

const ids = (messages: WebviewMessage[]): WebviewMessage[] => messages.filter((m) => m.type === 'olderEntriesWanted');

test('the tail paints first, the panel asks once, and the older entries go above it in order', async () => {
  const panel = await harness().open({ height: 600 });
  const { page } = panel;
  const { entries, terminals } = longThread();
  const { first, older } = splitSnapshot(snapshot({ status: ready, entries, terminals: Object.fromEntries(terminals.map((t) => [t.terminalId, t])) }));
  assert.ok(older, 'a thread this long is split');
  assert.ok(first.entries.length < entries.length && first.olderEntries === older.entries.length);
  assert.deepEqual(Object.keys(first.terminals), [], 'a terminal of an old entry is not in the first part');
  await panel.post({ type: 'snapshot', snapshot: first });
  const log = page.locator('[role="log"]');
  assert.equal(await page.locator('.tandem').getAttribute('data-entries'), String(first.entries.length));
  assert.equal(await log.getAttribute('aria-busy'), 'true', 'busy while the older entries are on their way');
  assert.match((await log.textContent()) ?? '', /Answer 299\./);
  assert.deepEqual(ids(await panel.posted()), [{ type: 'olderEntriesWanted', conversationId: 'c1' }]);

  // Meanwhile an old tool call changed (its state here is newer than in the older part).
  const changed = toolCall('t3', { status: 'failed', title: 'Read file 3 (changed)' });
  await panel.post({ type: 'entryUpserted', entry: changed });
  await panel.post(older as HostMessage);
  await page.waitForFunction(() => document.querySelector('[role="log"]')?.getAttribute('aria-busy') !== 'true');
  assert.equal(await page.locator('.tandem').getAttribute('data-entries'), '300');
  const order = await page.locator('[role="log"] [data-entry-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-id')));
  assert.deepEqual(
    order,
    entries.map((e) => e.id),
    'every entry once, in the thread order',
  );
  const atBottom = await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 40);
  assert.ok(atBottom, 'still at the bottom');
  // The changed card shows its newer state once it is built (scrolled into view).
  await page.locator('[data-entry-id="t3"]').scrollIntoViewIfNeeded();
  await page.locator('[data-entry-id="t3"]', { hasText: 'Read file 3 (changed)' }).waitFor();
  // The old terminal came with the older part.
  await page.locator('[data-entry-id="t5"]').scrollIntoViewIfNeeded();
  await page.locator('[data-entry-id="t5"] .terminal-text', { hasText: 'early output line' }).waitFor();
  assert.equal(ids(await panel.posted()).length, 1, 'asked once');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('older entries no longer wanted are ignored: another conversation shown, or the thread cleared', async () => {
  const panel = await harness().open();
  const { entries } = longThread();
  const { first, older } = splitSnapshot(snapshot({ status: ready, entries }));
  assert.ok(older);
  await panel.post({ type: 'snapshot', snapshot: first });
  await panel.post({
    type: 'conversationShown',
    conversation: { conversationId: 'c2', title: 'Other', status: ready, entries: [agent('o1', 'Other thread')], terminals: {} },
  });
  await panel.post(older as HostMessage);
  assert.equal(await panel.page.locator('.tandem').getAttribute('data-entries'), '1');

  await panel.post({ type: 'snapshot', snapshot: first });
  await panel.post({ type: 'entriesCleared' });
  await panel.post(older as HostMessage);
  assert.equal(await panel.page.locator('.tandem').getAttribute('data-entries'), '0');
  assert.equal(await panel.page.locator('[role="log"]').getAttribute('aria-busy'), null);
  await panel.page.close();
});

test('a tab switch to a long conversation: its last screens first, then the older entries the panel asks for', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('s1', 'Short thread')] }) });
  await panel.clearPosted();
  const { entries } = longThread();
  const { first, older } = splitSnapshot({ conversationId: 'c2', title: 'Long', status: ready, entries, terminals: {} });
  assert.ok(older);
  await panel.post({ type: 'conversationShown', conversation: first });
  assert.deepEqual(ids(await panel.posted()), [{ type: 'olderEntriesWanted', conversationId: 'c2' }]);
  await panel.post(older as HostMessage);
  await page.waitForFunction(() => document.querySelector('[role="log"]')?.getAttribute('aria-busy') !== 'true');
  const order = await page.locator('[role="log"] [data-entry-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-id')));
  assert.deepEqual(
    order,
    entries.map((e) => e.id),
  );
  await page.close();
});
