/**
 * Steering in the panel, in real Chromium: a user message steered into the running turn is an
 * article marked `data-steered="true"` with a visible "steered into the turn" label (a plain prompt
 * has neither, also when it arrives as a change); and while a turn runs for an agent that takes
 * steering, the composer's placeholder and Send title say that Enter steers and a queued prompt's
 * Send now steers it — for an agent that does not, they keep saying the prompt is queued and Send now
 * stops the turn first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ready, running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();
const CAPS = { image: false, audio: false, embeddedContext: false };

test('a steered message is marked on its article and labelled; a plain prompt is not', async () => {
  const panel = await harness().open();
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: running,
      entries: [
        { kind: 'user', id: 'e1', text: 'Fix the flaky test' },
        { kind: 'agent', id: 'e2', text: 'Reading the tests' },
        { kind: 'user', id: 'e3', text: 'Use the retry helper', steered: true },
      ],
    }),
  });
  const articles = panel.page.locator('article[data-entry-kind="user"]');
  await articles.nth(1).waitFor();
  assert.equal(await articles.nth(0).getAttribute('data-steered'), null, 'the turn’s own prompt is not steered');
  assert.equal(await articles.nth(0).locator('.entry-steered').count(), 0);
  const steered = panel.page.locator('article[data-steered="true"]');
  assert.equal(await steered.count(), 1);
  assert.match(await steered.innerText(), /Use the retry helper/);
  const label = steered.locator('.entry-steered');
  assert.equal(await label.innerText(), 'steered into the turn');
  assert.ok(await label.isVisible());
  // One that arrives while the turn streams (an entry change) is marked the same way.
  await panel.post({ type: 'entryUpserted', entry: { kind: 'user', id: 'e4', text: 'Also the docs', steered: true } });
  await panel.page.locator('article[data-steered="true"]').nth(1).waitFor();
  assert.match(await panel.page.locator('article[data-steered="true"]').nth(1).innerText(), /steered into the turn[\s\S]*Also the docs/);
  assert.equal(await panel.page.locator('article[data-steered="true"] .entry-steered').count(), 2);
});

test('while a turn runs, the composer says Enter steers it — only for an agent that takes steering', async () => {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, promptCapabilities: { ...CAPS, steering: true } }) });
  const box = panel.page.locator('textarea[aria-label="Message"]');
  const send = panel.page.locator('.composer-buttons button.primary');
  const usual = await box.getAttribute('placeholder');
  assert.match(usual ?? '', /Enter to send/);
  await panel.post({ type: 'statusChanged', status: running });
  await panel.page.waitForFunction(() => document.querySelector('textarea')?.getAttribute('placeholder')?.includes('steers'));
  assert.match((await box.getAttribute('placeholder')) ?? '', /^Enter steers the running turn/);
  assert.match((await send.getAttribute('title')) ?? '', /Send into the running turn/);
  // A prompt left in the queue (the agent did not take it): its Send now steers, stopping nothing.
  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q1', text: 'held back' }] } });
  const sendNow = panel.page.locator('[data-queued="true"]').getByRole('button', { name: 'Send now' });
  assert.equal(await sendNow.getAttribute('title'), 'Send this prompt into the running turn now (nothing is stopped)');
  await panel.post({ type: 'queueChanged', queue: { items: [] } });
  await box.fill('use the helper');
  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(
    await panel.posted(),
    [{ type: 'prompt', text: 'use the helper', conversationId: 'c1' }],
    'Enter still posts the prompt; the host steers it',
  );
  // The turn ends: the usual words come back.
  await panel.post({ type: 'statusChanged', status: ready });
  await panel.page.waitForFunction((text) => document.querySelector('textarea')?.getAttribute('placeholder') === text, usual);
  assert.match((await send.getAttribute('title')) ?? '', /the prompt is queued/);
  // An agent without steering: a running turn keeps the queue's words.
  await panel.post({ type: 'promptCapabilitiesChanged', promptCapabilities: CAPS });
  await panel.post({ type: 'statusChanged', status: running });
  await panel.page.locator('.composer-buttons button.secondary:not([hidden])').waitFor();
  assert.equal(await box.getAttribute('placeholder'), usual);
  assert.match((await send.getAttribute('title')) ?? '', /the prompt is queued/);
  await panel.post({ type: 'queueChanged', queue: { items: [{ id: 'q2', text: 'waits' }] } });
  assert.equal(
    await panel.page.locator('[data-queued="true"]').getByRole('button', { name: 'Send now' }).getAttribute('title'),
    'Send this prompt now (stops the running turn first)',
  );
});
