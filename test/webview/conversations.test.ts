/** Conversation tabs and the prompt queue in real Chromium: the DOM contract, keyboard, and what is posted. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TabView } from '../../src/protocol/messages';
import { agent, ready, running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

const TABS: TabView[] = [
  { id: 'c1', title: 'Fix the login bug', agentName: 'Test Agent', status: 'running' },
  { id: 'c2', title: 'Write docs', agentName: 'Gemini', status: 'ready', attention: 'permission' },
  { id: 'c3', title: 'Refactor', agentName: 'Test Agent', status: 'ready', attention: 'finished' },
];

test('tabs: a tablist named Conversations, the shown one selected, badges only on background tabs, keyboard switching and closing', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ tabs: TABS, sessionId: 'acp-1', status: running, entries: [agent('a1', 'first conversation')] }) });
  const tablist = page.locator('[role="tablist"][aria-label="Conversations"]');
  const tabs = tablist.locator('[role="tab"]');
  assert.equal(await tabs.count(), 3);
  assert.deepEqual(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('aria-selected'))), ['true', 'false', 'false']);
  assert.equal(await page.locator('[role="log"]').getAttribute('data-session-id'), 'acp-1');
  assert.equal(await tabs.nth(0).getAttribute('data-attention'), null);
  assert.equal(await tabs.nth(1).getAttribute('data-attention'), 'permission');
  assert.match(String(await tabs.nth(1).getAttribute('aria-label')), /waits for your permission/);
  assert.equal(await tabs.nth(2).getAttribute('data-attention'), 'finished');
  assert.equal(await tabs.nth(0).getAttribute('tabindex'), '0', 'one tab stop: the shown conversation');
  assert.equal(await tabs.nth(1).getAttribute('tabindex'), '-1');

  await panel.clearPosted();
  await tabs.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.keyboard.press('Delete');
  assert.deepEqual(await panel.posted(), [
    { type: 'selectConversation', conversationId: 'c2' },
    { type: 'selectConversation', conversationId: 'c3' },
    { type: 'closeConversation', conversationId: 'c3' },
  ]);
  await panel.clearPosted();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('button', { name: 'History' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'newConversation' }, { type: 'showHistory' }]);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('switching conversations replaces the thread, keeps each draft, and ignores changes meant for another conversation', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ tabs: TABS, entries: [agent('e1', 'from the first')] }) });
  const box = page.locator('textarea[aria-label="Message"]');
  await box.fill('draft for the first');
  await panel.post({
    type: 'conversationShown',
    conversation: { conversationId: 'c2', sessionId: 'acp-2', title: 'Write docs', status: ready, entries: [agent('e1', 'from the second')], terminals: {} },
  });
  await panel.settle();
  assert.match(String(await page.locator('[role="log"]').textContent()), /from the second/);
  assert.doesNotMatch(String(await page.locator('[role="log"]').textContent()), /from the first/);
  assert.equal(await page.locator('[role="log"]').getAttribute('data-session-id'), 'acp-2');
  assert.equal(await box.inputValue(), '', 'the second conversation has its own (empty) draft');
  // A late change of the first conversation must not land in the second's thread.
  await panel.post({ type: 'textAppended', conversationId: 'c1', id: 'e1', text: ' LEAKED' });
  await panel.post({ type: 'textAppended', conversationId: 'c2', id: 'e1', text: ' and more' });
  await panel.settle();
  assert.match(String(await page.locator('[role="log"]').textContent()), /from the second and more/);
  assert.doesNotMatch(String(await page.locator('[role="log"]').textContent()), /LEAKED/);
  await panel.clearPosted();
  await box.fill('hello second');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: 'hello second', conversationId: 'c2' }]);
  await panel.post({
    type: 'conversationShown',
    conversation: { conversationId: 'c1', title: 'Fix the login bug', status: ready, entries: [agent('e1', 'from the first')], terminals: {} },
  });
  await panel.settle();
  assert.equal(await box.inputValue(), 'draft for the first', 'back to the first conversation: its draft is back');
  await page.close();
});

test('queued prompts: user entries marked data-queued above the composer, with edit, move, remove, send now, and a paused state', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: running,
      queue: {
        items: [
          { id: 'q1', text: 'first queued' },
          { id: 'q2', text: 'second queued' },
        ],
      },
    }),
  });
  const queued = page.locator('[role="article"][data-entry-kind="user"][data-queued="true"]');
  assert.equal(await queued.count(), 2);
  assert.equal(await page.locator('[role="log"] [data-queued]').count(), 0, 'queued prompts are not in the thread yet');
  assert.match(String(await page.locator('.queue').textContent()), /sent when the current turn ends/);
  assert.equal(await queued.nth(0).getByRole('button', { name: 'Move up' }).isDisabled(), true);
  await panel.clearPosted();
  await queued.nth(1).getByRole('button', { name: 'Move up' }).click();
  await queued.nth(0).getByRole('button', { name: 'Send now' }).click();
  await queued.nth(0).getByRole('button', { name: 'Remove' }).click();
  await queued.nth(1).getByRole('button', { name: 'Edit' }).click();
  const editor = page.locator('textarea[aria-label="Edit the queued prompt"]');
  await editor.fill('second, edited');
  await editor.press('Enter');
  assert.deepEqual(await panel.posted(), [
    { type: 'queueMove', itemId: 'q2', offset: -1, conversationId: 'c1' },
    { type: 'queueSendNow', itemId: 'q1', conversationId: 'c1' },
    { type: 'queueRemove', itemId: 'q1', conversationId: 'c1' },
    { type: 'queueEdit', itemId: 'q2', text: 'second, edited', conversationId: 'c1' },
  ]);

  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q2', text: 'second, edited' }], paused: 'The last turn was cancelled.' } });
  await panel.post({ type: 'statusChanged', status: ready });
  await panel.settle();
  assert.equal(await queued.count(), 1);
  assert.match(String(await page.locator('.queue-head').textContent()), /1 not sent: The last turn was cancelled\./);
  await panel.clearPosted();
  await page.locator('.queue').getByRole('button', { name: 'Resume' }).click();
  await page.locator('.queue').getByRole('button', { name: 'Clear' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'queueResume', conversationId: 'c1' },
    { type: 'queueClear', conversationId: 'c1' },
  ]);
  await panel.post({ type: 'queueChanged', queue: { items: [] } });
  await panel.settle();
  assert.equal(await page.locator('.queue').isHidden(), true);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
