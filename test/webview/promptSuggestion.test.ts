/**
 * The agent's predicted next prompt (claude-agent-acp's `promptSuggestions`) as ghost text in the
 * empty composer, in real Chromium: shown as the placeholder and described for screen readers, Tab
 * takes it, typing replaces it, Enter on the empty composer sends nothing, and the host withdrawing
 * it (a turn starts) or a send clears it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();
const SUGGESTION = 'Run the tests again';

async function openWith(suggestion: string | undefined): Promise<{ panel: Panel; box: Locator }> {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot(suggestion === undefined ? {} : { promptSuggestion: suggestion }) });
  return { panel, box: panel.page.locator('textarea[aria-label="Message"]') };
}

/** What assistive technology is told of the box besides its name. */
const description = (box: Locator): Promise<string> =>
  box.evaluate((el) => {
    const id = el.getAttribute('aria-describedby');
    return id === null ? '' : (document.getElementById(id)?.textContent ?? '');
  });

test('a suggestion shows as ghost text in the empty composer; Enter alone sends nothing, Tab takes it to edit and send', async () => {
  const { panel, box } = await openWith(SUGGESTION);
  assert.equal(await box.getAttribute('placeholder'), SUGGESTION);
  assert.equal(await box.inputValue(), '', 'the ghost is no text of the composer');
  assert.match(await description(box), /Suggested prompt: Run the tests again\. Press Tab to use it\./);
  await box.focus();
  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [], 'never sent by itself');
  await box.press('Tab');
  assert.equal(await box.inputValue(), SUGGESTION, 'Tab put it in the composer');
  assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'focus stays in the composer');
  assert.equal(await description(box), '', 'no ghost over text');
  await box.pressSequentially(' with coverage');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: `${SUGGESTION} with coverage`, conversationId: 'c1' }]);
  assert.notEqual(await box.getAttribute('placeholder'), SUGGESTION, 'spent once a prompt is sent');
});

test('typing replaces the ghost; the host withdrawing it clears it; Tab without one moves focus as usual', async () => {
  const { panel, box } = await openWith(SUGGESTION);
  await box.focus();
  await box.pressSequentially('Explain');
  assert.equal(await box.inputValue(), 'Explain', 'what was typed, nothing of the ghost');
  await box.press('Tab');
  assert.equal(await box.inputValue(), 'Explain', 'Tab over text takes nothing');
  await box.focus();
  await box.fill('');
  assert.equal(await box.getAttribute('placeholder'), SUGGESTION, 'the empty composer shows it again');
  await panel.post({ type: 'promptSuggestionChanged' });
  const usual = await box.getAttribute('placeholder');
  assert.notEqual(usual, SUGGESTION, 'withdrawn');
  assert.equal(await box.getAttribute('aria-describedby'), null);
  await box.focus();
  await box.press('Tab');
  assert.equal(await box.inputValue(), '');
  assert.equal(await box.evaluate((el) => el === document.activeElement), false, 'Tab left the composer');
  // A new prediction arrives while the composer is empty; a malformed one is none.
  await panel.post({ type: 'promptSuggestionChanged', suggestion: 'Commit it' });
  assert.equal(await box.getAttribute('placeholder'), 'Commit it');
  await panel.post({ type: 'promptSuggestionChanged', suggestion: 42 as unknown as string });
  assert.equal(await box.getAttribute('placeholder'), usual);
});
