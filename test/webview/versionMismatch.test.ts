/** A panel and a host of different protocol versions: the panel shows a reload notice, never a misread thread. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { agent, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test("the host's versionMismatch replaces the panel with a notice whose Reload asks the host to reload the view", async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'versionMismatch', hostVersion: PROTOCOL_VERSION + 1, panelVersion: PROTOCOL_VERSION });
  const notice = page.getByRole('alert');
  assert.equal(await notice.count(), 1);
  assert.match(String(await notice.textContent()), new RegExp(`panel ${PROTOCOL_VERSION}, extension ${PROTOCOL_VERSION + 1}.*Reload the view`));
  // The rest of the panel is gone: nothing there could talk to a host of another version.
  assert.equal(await page.locator('textarea').count(), 0);
  assert.equal(await page.locator('[role="log"]').count(), 0);
  await panel.clearPosted();
  await notice.getByRole('button', { name: 'Reload' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'reloadView' }]);
  // Whatever the host sends afterwards is not applied.
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [agent('a1', 'misread')] }) });
  assert.equal(await page.getByRole('alert').count(), 1);
  assert.equal(await page.getByText('misread').count(), 0);
  assert.deepEqual(panel.errors, []);
});

test('a snapshot of another protocol version (a host too old to send versionMismatch) shows the same notice', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ protocolVersion: PROTOCOL_VERSION - 1, entries: [agent('a1', 'misread')] }) });
  const notice = page.getByRole('alert');
  assert.match(String(await notice.textContent()), new RegExp(`panel ${PROTOCOL_VERSION}, extension ${PROTOCOL_VERSION - 1}`));
  assert.equal(await page.getByText('misread').count(), 0);
  assert.equal(await notice.getByRole('button', { name: 'Reload' }).count(), 1);
  assert.deepEqual(panel.errors, []);
});

test("a snapshot of this panel's own version renders the thread and no notice", async () => {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [agent('a1', 'read correctly')] }) });
  assert.equal(await panel.page.getByRole('alert').count(), 0);
  assert.equal(await panel.page.getByText('read correctly').count(), 1);
});
