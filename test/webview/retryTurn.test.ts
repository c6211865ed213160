/**
 * Retry on a turn end (issue 31, item 3), in real Chromium: a cancelled, failed or cut-off turn
 * whose end the host marks `retry` shows a Retry button on that line; it is reachable and pressed
 * from the keyboard, posts `retryTurn` with the turn end's id once, and goes when the host
 * withdraws the offer. A finished turn, or one the host offers no retry for, has none.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { audit, blocking, describe } from './harness/audit';
import { ready, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test('a cancelled turn end offers Retry: keyboard, one post with its id, gone once the host withdraws it', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: ready,
      entries: [
        { kind: 'user', id: 'u1', text: 'Do it' },
        { kind: 'turn_end', id: 'end1', stopReason: 'end_turn' },
        { kind: 'user', id: 'u2', text: 'Do more' },
        { kind: 'agent', id: 'a2', text: 'Working…' },
        { kind: 'turn_end', id: 'end2', stopReason: 'cancelled', retry: true },
      ],
    }),
  });
  assert.equal(await page.locator('[data-stop-reason="end_turn"] button').count(), 0, 'a finished turn has no Retry');
  const end = page.locator('[data-stop-reason="cancelled"]');
  assert.match(String(await end.textContent()), /Stopped: cancelled/);
  const retry = end.getByRole('button', { name: 'Retry' });
  assert.equal(await retry.count(), 1);
  assert.equal(await retry.getAttribute('title'), 'Send the same prompt and context again');
  await panel.clearPosted();
  await retry.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'retryTurn', conversationId: 'c1', entryId: 'end2' }], 'one post, however often it is pressed');
  // The host withdraws the offer as the prompt goes again.
  await panel.post({ type: 'entryUpserted', conversationId: 'c1', entry: { kind: 'turn_end', id: 'end2', stopReason: 'cancelled' } });
  assert.equal(await end.locator('button').count(), 0);
  assert.match(String(await end.textContent()), /Stopped: cancelled/);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('a failed turn and one the agent exited in offer Retry; without the host’s offer no button shows; axe finds nothing serious', async () => {
  const panel = await harness().open({ height: 1200 });
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: ready,
      entries: [
        { kind: 'user', id: 'u1', text: 'One' },
        { kind: 'turn_end', id: 'end1', stopReason: 'refusal' },
        { kind: 'user', id: 'u2', text: 'Two' },
        { kind: 'turn_end', id: 'end2', stopReason: 'exited', retry: true },
        { kind: 'error', id: 'x2', message: 'Test Agent exited with code 1 during the turn.', action: 'restart' },
      ],
    }),
  });
  assert.equal(await page.locator('[data-stop-reason="refusal"] button').count(), 0, 'no offer from the host, no button');
  const exited = page.locator('[data-stop-reason="exited"]');
  assert.equal(await exited.textContent(), 'Stopped: the agent exited Retry');
  await panel.clearPosted();
  await exited.getByRole('button', { name: 'Retry' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'retryTurn', conversationId: 'c1', entryId: 'end2' }]);
  await panel.post({ type: 'entryUpserted', conversationId: 'c1', entry: { kind: 'turn_end', id: 'end3', stopReason: 'error', retry: true } });
  assert.equal(await page.locator('[data-stop-reason="error"]').getByRole('button', { name: 'Retry' }).count(), 1);
  assert.match(String(await page.locator('[data-stop-reason="error"]').textContent()), /Stopped: the turn failed/);
  const { violations } = await audit(page);
  assert.equal(describe(blocking(violations)), '', 'no serious or critical violation');
  assert.deepEqual(panel.errors, []);
  await page.close();
});
