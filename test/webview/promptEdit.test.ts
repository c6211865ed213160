/**
 * Editing an earlier prompt and switching between its versions, in real Chromium: Edit on a user
 * entry opens its text in place (Enter sends `editPrompt`, Escape cancels and gives focus back), Up
 * arrow in the empty composer edits the last prompt, and `‹ 1/2 ›` reads as "Version 1 of 2" and
 * posts `switchBranch` from the mouse and the keyboard, disabled at either end.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

const entries: Entry[] = [
  { kind: 'user', id: 'u1', text: 'first' },
  { kind: 'agent', id: 'a1', text: 'reply one' },
  { kind: 'user', id: 'u2', text: 'second', checkpoint: 'cp', branch: { index: 1, count: 2 } },
  { kind: 'agent', id: 'a2', text: 'reply two' },
];

async function open() {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries }) });
  await panel.clearPosted();
  const { page } = panel;
  const prompt = (id: string) => page.locator(`article[data-entry-kind="user"]`).filter({ has: page.locator(`text=${id}`) });
  return { panel, page, prompt };
}

test('Edit opens the prompt in place; Enter sends the edit, Escape cancels and gives focus back', async () => {
  const { panel, page, prompt } = await open();
  const second = prompt('second');
  await second.getByRole('button', { name: 'Edit and send again' }).click();
  const box = second.getByRole('textbox', { name: 'Edited prompt' });
  assert.equal(await box.inputValue(), 'second');
  assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'the text box has focus');
  assert.equal(await second.locator('.rewind').isVisible(), false, 'Restore files steps aside while editing');
  await box.press('Escape');
  assert.equal(await box.isVisible(), false);
  assert.equal(await second.locator('.markdown').first().isVisible(), true, 'the message is back');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Edit and send again', 'focus back on Edit');
  assert.deepEqual(await panel.posted(), [], 'a cancelled edit sends nothing');

  await page.keyboard.press('Enter');
  await box.fill('second, but better');
  await box.press('Shift+Enter');
  await box.pressSequentially('and more');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'editPrompt', entryId: 'u2', text: 'second, but better\nand more', conversationId: 'c1' }]);
  assert.equal(await box.isVisible(), false, 'the editor closes once sent');
});

test('Up arrow in the empty composer edits the last prompt; with text in it the arrow stays the composer’s', async () => {
  const { panel, page, prompt } = await open();
  const composer = page.locator('textarea[aria-label="Message"]');
  await composer.fill('draft');
  await composer.press('ArrowUp');
  assert.equal(await prompt('second').getByRole('textbox', { name: 'Edited prompt' }).isVisible(), false, 'a draft keeps the arrow');
  await composer.fill('');
  await composer.press('ArrowUp');
  const box = prompt('second').getByRole('textbox', { name: 'Edited prompt' });
  assert.equal(await box.isVisible(), true, 'the last prompt is being edited');
  assert.equal(await box.evaluate((el) => el === document.activeElement), true);
  assert.equal(await prompt('first').getByRole('textbox', { name: 'Edited prompt' }).isVisible(), false, 'not an earlier one');
  await box.fill('again');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'editPrompt', entryId: 'u2', text: 'again', conversationId: 'c1' }]);
});

test('‹ 1/2 › says which version this is and switches from the mouse and the keyboard; the ends are disabled', async () => {
  const { panel, page, prompt } = await open();
  assert.equal(await prompt('first').locator('.branch-switch').count(), 0, 'a prompt with one version has no switch');
  const versions = prompt('second').getByRole('group', { name: 'Versions of this prompt' });
  assert.match((await versions.textContent()) ?? '', /1\/2/);
  assert.match((await versions.textContent()) ?? '', /Version 1 of 2/, 'read as words');
  const previous = versions.getByRole('button', { name: 'Previous version of this prompt' });
  const next = versions.getByRole('button', { name: 'Next version of this prompt' });
  assert.equal(await previous.isDisabled(), true);
  await next.click();
  assert.deepEqual(await panel.posted(), [{ type: 'switchBranch', entryId: 'u2', offset: 1, conversationId: 'c1' }]);

  // The host shows the other branch: its prompt is version 2 of 2.
  await panel.clearPosted();
  await panel.post({ type: 'entryUpserted', conversationId: 'c1', entry: { kind: 'user', id: 'u2', text: 'second, edited', branch: { index: 2, count: 2 } } });
  const now = prompt('second, edited').getByRole('group', { name: 'Versions of this prompt' });
  assert.match((await now.textContent()) ?? '', /Version 2 of 2/);
  assert.equal(await now.getByRole('button', { name: 'Next version of this prompt' }).isDisabled(), true);
  await now.getByRole('button', { name: 'Previous version of this prompt' }).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'switchBranch', entryId: 'u2', offset: -1, conversationId: 'c1' }]);

  // A malformed mark shows no switch rather than a broken one.
  await panel.post({ type: 'entryUpserted', conversationId: 'c1', entry: { kind: 'user', id: 'u2', text: 'second', branch: { index: 5, count: 2 } } });
  assert.equal(await prompt('second').locator('.branch-switch').count(), 0);
});
