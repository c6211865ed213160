/** Slash-command suggestions in the composer and the mode picker in the header, in real Chromium. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { CommandView, ModesView } from '../../src/protocol/messages';
import { ready, running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();

const COMMANDS: CommandView[] = [
  { name: 'review', description: 'Review the current changes' },
  { name: 'compact', description: 'Compact the conversation' },
  { name: 'search', description: 'Search the web', hint: 'query' },
  { name: 'pr-comments', description: 'Fetch pull request comments' },
];

const MODES: ModesView = {
  currentModeId: 'default',
  available: [
    { id: 'default', name: 'Always Ask', description: 'Asks before every tool' },
    { id: 'acceptEdits', name: 'Accept Edits' },
    { id: 'plan', name: 'Plan Mode', description: 'Plans without changing files' },
  ],
};

async function openWith(
  commands: CommandView[],
  extra: Parameters<typeof snapshot>[0] = {},
): Promise<{ panel: Panel; page: Page; box: Locator; list: Locator }> {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ commands, ...extra }) });
  const { page } = panel;
  return { panel, page, box: page.locator('textarea[aria-label="Message"]'), list: page.getByRole('listbox', { name: 'Slash commands' }) };
}

const optionNames = (list: Locator): Promise<string[]> =>
  list.getByRole('option').evaluateAll((els) => els.map((e) => e.querySelector('.command-name')?.textContent ?? ''));
const activeName = (page: Page, box: Locator): Promise<string | null> =>
  box.getAttribute('aria-activedescendant').then((id) => (id ? page.locator(`#${id} .command-name`).textContent() : null));

test('typing / at the start lists the commands, filtered by what follows, with their descriptions', async () => {
  const { panel, page, box, list } = await openWith(COMMANDS);
  assert.equal(await list.isHidden(), true);
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  await box.focus();
  await box.pressSequentially('/');
  assert.equal(await list.isVisible(), true);
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.getAttribute('aria-controls'), await list.getAttribute('id'));
  assert.deepEqual(await optionNames(list), ['/review', '/compact', '/search', '/pr-comments']);
  const search = list.getByRole('option', { name: /search/ });
  assert.match(String(await search.textContent()), /\/search.*query.*Search the web/);
  assert.equal(await activeName(page, box), '/review');
  assert.equal(await list.getByRole('option', { selected: true }).count(), 1);

  // Prefix matches first, then names that merely contain the text.
  await box.pressSequentially('c');
  assert.deepEqual(await optionNames(list), ['/compact', '/search', '/pr-comments']);
  await box.pressSequentially('om');
  assert.deepEqual(await optionNames(list), ['/compact', '/pr-comments']);
  await box.pressSequentially('xyz');
  assert.equal(await list.isHidden(), true, 'no match, no list');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.equal(await box.getAttribute('aria-activedescendant'), null);

  // Only at the very start, and only while the caret is in the command word.
  await box.fill('');
  await box.pressSequentially('hello /re');
  assert.equal(await list.isHidden(), true);
  await box.fill('');
  await box.pressSequentially('/review now');
  assert.equal(await list.isHidden(), true);
  await box.press('Home');
  await box.press('ArrowRight');
  assert.equal(await list.isVisible(), true, 'caret back inside the command word');
  assert.deepEqual(await optionNames(list), ['/review']);

  // A list that arrives while typing shows up at once.
  await box.fill('');
  await panel.post({ type: 'commandsChanged', commands: [] });
  await box.pressSequentially('/');
  assert.equal(await list.isHidden(), true, 'no commands, no list');
  await panel.post({ type: 'commandsChanged', commands: [{ name: 'init', description: 'Create AGENTS.md' }] });
  assert.deepEqual(await optionNames(list), ['/init']);
  assert.deepEqual(await panel.violations(), []);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('ArrowUp/Down move, Enter and Tab complete "/name ", and the message is sent as text', async () => {
  const { panel, page, box, list } = await openWith(COMMANDS);
  await box.focus();
  await box.pressSequentially('/');
  await box.press('ArrowDown');
  assert.equal(await activeName(page, box), '/compact');
  await box.press('ArrowUp');
  await box.press('ArrowUp');
  assert.equal(await activeName(page, box), '/pr-comments', 'wraps around');
  await box.press('ArrowUp');
  await panel.clearPosted();
  await box.press('Enter');
  assert.equal(await box.inputValue(), '/search ');
  assert.deepEqual(await panel.posted(), [], 'Enter completed instead of sending');
  assert.equal(await list.isHidden(), true);
  assert.equal(await box.evaluate((el) => (el as HTMLTextAreaElement).selectionStart), '/search '.length);
  await box.pressSequentially('cats');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: '/search cats', conversationId: 'c1' }]);

  // Tab completes too, and keeps text already written after the command word.
  await box.fill('/re fix the bug');
  await box.press('Home');
  await box.press('ArrowRight');
  await box.press('ArrowRight');
  assert.equal(await list.isVisible(), true);
  await box.press('Tab');
  assert.equal(await box.inputValue(), '/review fix the bug');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message', 'Tab did not move focus');

  // Mouse: clicking an option completes it and leaves the focus in the textarea.
  await box.fill('');
  await box.pressSequentially('/p');
  await list.getByRole('option', { name: /pr-comments/ }).click();
  assert.equal(await box.inputValue(), '/pr-comments ');
  assert.equal(await list.isHidden(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
  // The completed draft is saved like typed text.
  await page.waitForFunction(() => JSON.parse(sessionStorage.getItem('tandem-harness-state') ?? '{}').drafts?.c1 === '/pr-comments ');
  assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), false);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('Escape closes the list without stopping a running agent; the next Escape stops it', async () => {
  const { panel, page, box, list } = await openWith(COMMANDS, { status: running });
  await box.focus();
  await box.pressSequentially('/co');
  assert.equal(await list.isVisible(), true);
  await panel.clearPosted();
  await box.press('Escape');
  assert.equal(await list.isHidden(), true);
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.deepEqual(await panel.posted(), [], 'closing the list is not a cancel');
  assert.equal(await box.inputValue(), '/co');
  await box.press('Escape');
  assert.deepEqual(await panel.posted(), [{ type: 'cancel', conversationId: 'c1' }]);
  // Typing again reopens it.
  await box.pressSequentially('m');
  assert.equal(await list.isVisible(), true);
  await panel.post({ type: 'statusChanged', status: ready });
  await box.press('Escape');
  assert.equal(await list.isHidden(), true);
  // Leaving the textarea closes it too.
  await box.pressSequentially('p');
  assert.equal(await list.isVisible(), true);
  await page.getByRole('button', { name: 'New conversation' }).focus();
  assert.equal(await list.isHidden(), true);
  await page.close();
});

test('the mode picker appears with modes, posts setMode, and follows modesChanged', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const picker = page.getByRole('combobox', { name: 'Mode' });
  await panel.post({ type: 'snapshot', snapshot: snapshot() });
  assert.equal(await picker.count(), 0, 'hidden when the agent has no modes');
  await panel.post({ type: 'modesChanged', modes: MODES });
  assert.equal(await picker.isVisible(), true);
  assert.equal(await picker.inputValue(), 'default');
  assert.deepEqual(await picker.locator('option').allTextContents(), ['Always Ask', 'Accept Edits', 'Plan Mode']);
  assert.match(String(await picker.getAttribute('title')), /Always Ask — Asks before every tool/);
  await panel.clearPosted();
  await picker.selectOption('plan');
  assert.deepEqual(await panel.posted(), [{ type: 'setMode', modeId: 'plan', conversationId: 'c1' }]);
  await panel.post({ type: 'modesChanged', modes: { ...MODES, currentModeId: 'plan' } });
  assert.equal(await picker.inputValue(), 'plan');
  // A refused switch: the host restates the unchanged mode and the picker goes back.
  await picker.selectOption('acceptEdits');
  await panel.post({ type: 'modesChanged', modes: { ...MODES, currentModeId: 'plan' } });
  assert.equal(await picker.inputValue(), 'plan');
  // The agent switching by itself.
  await panel.post({ type: 'modesChanged', modes: { ...MODES, currentModeId: 'acceptEdits' } });
  assert.equal(await picker.inputValue(), 'acceptEdits');
  await panel.post({ type: 'modesChanged' });
  assert.equal(await picker.count(), 0, 'gone with the session');
  // From a snapshot (reload), with keyboard selection.
  await panel.post({ type: 'snapshot', snapshot: snapshot({ modes: MODES }) });
  assert.equal(await picker.inputValue(), 'default');
  await panel.clearPosted();
  await picker.focus();
  await picker.press('ArrowDown');
  assert.deepEqual(await panel.posted(), [{ type: 'setMode', modeId: 'acceptEdits', conversationId: 'c1' }]);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
