/**
 * What the panel says to a screen reader by itself, in real Chromium: one polite live region that
 * announces a finished turn, a permission request waiting (with the tool's title), errors, the
 * agent becoming ready, the queue and background conversations that need the user — and never the
 * streamed text (the log and the header's status are not live). Every "not said" is checked by a
 * later announcement that is said: the region speaks in order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pendingPermission, TABS } from './harness/a11yStates';
import { ready, running, snapshot, toolCall } from './harness/fixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();

/** Opens the panel and records every message its live region speaks, in order. */
async function listening(options: { language?: string } = {}): Promise<Panel> {
  const panel = await harness().open(options);
  await panel.page.evaluate(() => {
    const region = document.querySelector('[data-announcer]');
    if (!region) throw new Error('no live region');
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    // One update of the region may say several messages, one block each.
    new MutationObserver(() => {
      for (const block of region.children) said.push(block.textContent?.trim() ?? '');
    }).observe(region, { childList: true });
  });
  return panel;
}

/** Waits until the region has spoken `count` messages, then returns all it spoke. */
async function said(panel: Panel, count: number): Promise<string[]> {
  await panel.page.waitForFunction((n) => (window as unknown as { __said: string[] }).__said.length >= n, count);
  return panel.page.evaluate(() => (window as unknown as { __said: string[] }).__said.slice());
}

test('the region is polite and the only live part: the log and the header status are read on demand', async () => {
  const panel = await listening();
  const { page } = panel;
  const region = page.locator('[data-announcer]');
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  assert.equal(await region.getAttribute('aria-atomic'), 'true');
  assert.equal(await page.getByRole('log').getAttribute('aria-live'), 'off');
  assert.equal(await page.getByRole('status').first().getAttribute('aria-live'), 'off');
  // Visually hidden, not hidden from assistive technology.
  assert.equal(await region.evaluate((el) => el.closest('[hidden], [aria-hidden="true"]')), null);
  assert.equal(await region.evaluate((el) => el.getBoundingClientRect().width <= 1), true);
  await page.close();
});

test('a streamed answer is not read chunk by chunk; its end is said once, with how the turn ended', async () => {
  const panel = await listening();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [{ kind: 'user', id: 'u1', text: 'Hi' }] }) });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'agent', id: 'a1', text: '' } });
  for (let i = 0; i < 30; i++) await panel.postMany([{ type: 'textAppended', id: 'a1', text: `chunk ${i} ` }]);
  await panel.post({ type: 'entryUpserted', entry: { kind: 'turn_end', id: 'end1', stopReason: 'end_turn' } });
  await panel.post({ type: 'statusChanged', status: ready });
  assert.deepEqual(await said(panel, 1), ['Test Agent finished the turn.']);
  // The same end upserted again is not news; a cancelled turn says so.
  await panel.post({ type: 'entryUpserted', entry: { kind: 'turn_end', id: 'end1', stopReason: 'end_turn' } });
  await panel.post({ type: 'statusChanged', status: running });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'turn_end', id: 'end2', stopReason: 'cancelled' } });
  assert.deepEqual(await said(panel, 2), ['Test Agent finished the turn.', 'Stopped: cancelled']);
  await panel.page.close();
});

test('a permission request waiting is said with the tool title, once; errors and a stopped agent are said', async () => {
  const panel = await listening();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running }) });
  const card = toolCall('c1', { title: 'Edit src/login.ts', toolKind: 'edit', permission: pendingPermission('r1') });
  await panel.post({ type: 'entryUpserted', entry: card });
  assert.deepEqual(await said(panel, 1), ['Test Agent asks for permission: Edit src/login.ts']);
  await panel.post({ type: 'entryUpserted', entry: { ...card, status: 'in_progress' } });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'error', id: 'e1', message: 'The agent crashed.', action: 'restart' } });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'notice', id: 'n1', level: 'error', message: 'The session could not be restored.' } });
  await panel.post({ type: 'statusChanged', status: { kind: 'stopped', agentName: 'Test Agent', reason: 'exited with code 1' } });
  assert.deepEqual(await said(panel, 4), [
    'Test Agent asks for permission: Edit src/login.ts',
    'Error: The agent crashed.',
    'Error: The session could not be restored.',
    'Test Agent stopped: exited with code 1',
  ]);
  await panel.page.close();
});

test('a snapshot is not news, except the permission requests it holds; the agent becoming ready is', async () => {
  const panel = await listening();
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: { kind: 'starting', agentName: 'Test Agent' },
      entries: [
        { kind: 'error', id: 'e0', message: 'Old failure' },
        { kind: 'turn_end', id: 'end0', stopReason: 'end_turn' },
        toolCall('c1', { title: 'Run npm test', toolKind: 'execute', permission: pendingPermission('r1') }),
      ],
    }),
  });
  await panel.post({ type: 'statusChanged', status: ready });
  assert.deepEqual(await said(panel, 2), ['Test Agent asks for permission: Run npm test', 'Test Agent ready']);
  await panel.page.close();
});

test('the queue is said when it grows or pauses, not as it empties; background conversations that need the user are said', async () => {
  const panel = await listening();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, tabs: TABS.map((t) => ({ ...t, attention: undefined })) }) });
  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q1', text: 'then lint' }] } });
  await panel.post({
    type: 'queueChanged',
    queue: {
      items: [
        { id: 'q1', text: 'then lint' },
        { id: 'q2', text: 'and test' },
      ],
    },
  });
  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q2', text: 'and test' }] } });
  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q2', text: 'and test' }], paused: 'The last turn was cancelled.' } });
  await panel.post({ type: 'queueChanged', queue: { items: [] } });
  await panel.post({ type: 'tabsChanged', tabs: TABS, activeId: 'c1' });
  assert.deepEqual(await said(panel, 5), [
    '1 waiting: sent when the current turn ends',
    '2 waiting: sent when the current turn ends',
    '1 not sent: The last turn was cancelled.',
    'Write docs, waits for your permission',
    'Release notes, finished a turn',
  ]);
  await panel.page.close();
});

test('announcements are in the display language (zh-cn)', async () => {
  const bundle = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
  const panel = await listening({ language: 'zh-cn' });
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running }) });
  await panel.post({ type: 'entryUpserted', entry: toolCall('c1', { title: 'Edit src/login.ts', toolKind: 'edit', permission: pendingPermission('r1') }) });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'turn_end', id: 'end1', stopReason: 'end_turn' } });
  assert.deepEqual(await said(panel, 2), [
    bundle['{0} asks for permission: {1}'].replace('{0}', 'Test Agent').replace('{1}', 'Edit src/login.ts'),
    bundle['{0} finished the turn.'].replace('{0}', 'Test Agent'),
  ]);
  await panel.page.close();
});

test('Copy as Markdown: each message has the button; it posts the entry, and the host’s answer is said (only for the shown conversation)', async () => {
  const panel = await listening();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: ready,
      entries: [
        { kind: 'user', id: 'u1', text: 'Hi' },
        { kind: 'agent', id: 'a1', text: 'Hello **there**' },
      ],
    }),
  });
  const buttons = page.getByRole('button', { name: 'Copy as Markdown' });
  assert.equal(await buttons.count(), 2, 'one per message');
  await panel.clearPosted();
  await page.locator('[data-entry-kind="agent"]').getByRole('button', { name: 'Copy as Markdown' }).click();
  await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
  assert.deepEqual(await panel.posted(), [{ type: 'copyMessageMarkdown', entryId: 'a1', conversationId: 'c1' }]);
  // The keyboard reaches it: a Tab stop with its name.
  await page.locator('[data-entry-kind="user"]').getByRole('button', { name: 'Copy as Markdown' }).focus();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Copy as Markdown');
  // An answer for another conversation is not said; the shown one's is (the end of a turn after it proves the order).
  await panel.post({ type: 'messageCopied', conversationId: 'c2', entryId: 'a1' });
  await panel.post({ type: 'messageCopied', conversationId: 'c1', entryId: 'a1' });
  await panel.post({ type: 'entryUpserted', entry: { kind: 'turn_end', id: 'end1', stopReason: 'cancelled' } });
  assert.deepEqual(await said(panel, 2), ['Copied as Markdown.', 'Stopped: cancelled']);
  await page.close();
});
