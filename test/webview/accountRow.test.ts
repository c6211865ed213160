/** The signed-in row in real Chromium: hidden until the agent says who is signed in; Sign out only when the agent can. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test('signed-in row: the agent’s words for the identity, the whole sentence for screen readers, Sign out posted for this conversation', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot() });
  await panel.settle();
  const row = page.locator('.account-row');
  assert.equal(await row.isHidden(), true, 'nothing said: nothing shown (not "signed out")');

  await panel.post({ type: 'accountChanged', account: { signedIn: true, label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' }, canSignOut: true });
  await panel.settle();
  const group = page.getByRole('group', { name: 'Test Agent is signed in as Anthropic API key (ANTHROPIC_API_KEY)' });
  assert.equal(await group.isVisible(), true);
  assert.equal(await row.locator('.account-name').textContent(), 'Anthropic API key');
  const signOut = page.getByRole('button', { name: 'Sign out of Test Agent' });
  assert.equal(await signOut.isVisible(), true);
  await panel.clearPosted();
  await signOut.focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'signOut', conversationId: 'c1' }]);

  await panel.post({ type: 'accountChanged', account: { signedIn: false, label: 'Not logged in' }, canSignOut: true });
  await panel.settle();
  assert.equal(await page.getByRole('group', { name: 'Test Agent is not signed in: Not logged in' }).isVisible(), true);
  assert.equal(await row.getAttribute('data-signed-in'), 'false');
  assert.equal(await signOut.isHidden(), true, 'nobody to sign out');

  await panel.post({ type: 'accountChanged', account: { signedIn: true, label: 'Custom model gateway', detail: 'fake' }, canSignOut: false });
  await panel.settle();
  assert.equal(await signOut.isHidden(), true, 'an agent without logout gets no Sign out');
  await panel.post({ type: 'accountChanged', canSignOut: false });
  await panel.settle();
  assert.equal(await row.isHidden(), true);
  await page.close();
});

test('signed-in row: a snapshot brings it; junk from the host is not shown', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ account: { signedIn: true, label: 'ada@example.com' }, canSignOut: true }) });
  await panel.settle();
  assert.equal(await page.locator('.account-row .account-name').textContent(), 'ada@example.com');
  await panel.post({ type: 'accountChanged', account: { label: 42 }, canSignOut: true } as never);
  await panel.settle();
  assert.equal(await page.locator('.account-row').isHidden(), true);
  await page.close();
});

test('signed-in row at the sidebar’s default width, beside the account limits: Sign out stays on screen and takes a mouse click', async () => {
  // Seen in code-server (test/e2e/agentStatus.test.ts): the row shrank to nothing and the header caught the click.
  const panel = await harness().open({ width: 300 });
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({ account: { signedIn: true, label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' }, canSignOut: true }),
  });
  await panel.post({
    type: 'quotaChanged',
    quota: {
      pools: [
        {
          id: 'plan',
          label: 'Plan usage',
          meters: [{ id: 'five_hour', usedPercent: 96, window: 'PT5H', resetsAt: new Date(Date.now() + 3 * 3600_000).toISOString() }],
        },
      ],
    },
  });
  await panel.settle();
  const row = page.locator('.account-row');
  const signOut = page.getByRole('button', { name: 'Sign out of Test Agent' });
  const header = await page.locator('header.header').boundingBox();
  const rowBox = await row.boundingBox();
  const buttonBox = await signOut.boundingBox();
  assert.ok(header && rowBox && buttonBox);
  assert.ok(
    buttonBox.x >= rowBox.x - 0.5 && buttonBox.x + buttonBox.width <= rowBox.x + rowBox.width + 0.5,
    'the button lies inside its row, not cut off by it',
  );
  assert.ok(buttonBox.x + buttonBox.width <= header.x + header.width, 'and inside the header');
  assert.equal(await page.getByRole('button', { name: 'History' }).isVisible(), true);
  await panel.clearPosted();
  await signOut.click({ timeout: 5000 });
  assert.deepEqual(await panel.posted(), [{ type: 'signOut', conversationId: 'c1' }]);
  await page.close();
});
