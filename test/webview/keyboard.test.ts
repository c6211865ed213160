/**
 * Keyboard walks in real Chromium, in each of VS Code's four default themes: the header (tabs, New
 * conversation, Agent, the session pickers and options, the waiting count, History) and a permission
 * prompt (one Tab stop, arrows, Home/End, Enter; focus kept once answered). Every stop must show a
 * focus ring of the theme's focusBorder that stands out >= 3:1 from what it is drawn on — in
 * particular the Agent picker, where VS Code's default `select:focus` style used to win.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigOptionView } from '../../src/protocol/messages';
import { pendingPermission, TABS } from './harness/a11yStates';
import { focusIndicator, themeColour } from './harness/audit';
import { running, snapshot, toolCall } from './harness/fixtures';
import { THEMES, useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();

const OPTIONS: ConfigOptionView[] = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'fast',
    choices: [
      { value: 'fast', name: 'Fast' },
      { value: 'smart', name: 'Smart' },
    ],
  },
  { id: 'web', name: 'Web search', type: 'boolean', currentValue: false },
];

/** What has focus now, as a short description: role or tag, then its accessible name. */
function focused(panel: Panel): Promise<string> {
  return panel.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} ${name}`;
  });
}

/** The focus ring of what has focus: drawn, solid, at least 1px, >= 3:1 on what is under it. */
async function assertVisibleFocus(panel: Panel, where: string): Promise<void> {
  const ring = await focusIndicator(panel.page);
  assert.ok(ring, `${where}: something has focus`);
  assert.equal(ring.outlineStyle, 'solid', `${where}: ${ring.element} shows an outline`);
  assert.ok(ring.outlineWidth >= 1, `${where}: ${ring.element} outline is ${ring.outlineWidth}px`);
  assert.ok(ring.contrast >= 3, `${where}: ${ring.element} ring ${ring.outlineColor} on ${ring.background} is ${ring.contrast}:1`);
  assert.equal(ring.outlineColor, await themeColour(panel.page, '--vscode-focusBorder'), `${where}: ${ring.element} is outlined in the theme's focusBorder`);
}

for (const theme of THEMES) {
  test(`${theme}: Tab walks the header in order, every stop with a visible ring; its controls work from the keyboard`, async () => {
    // Wide enough for every picker to stay inline (narrower, they move into the options menu: readableHeader.test.ts).
    const panel = await harness().open({ theme, width: 640 });
    const { page } = panel;
    await panel.post({
      type: 'snapshot',
      snapshot: snapshot({
        status: running,
        tabs: TABS,
        configOptions: OPTIONS,
        entries: [toolCall('c1', { title: 'Edit a.ts', toolKind: 'edit', permission: pendingPermission('r1') })],
      }),
    });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const stops: string[] = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused(panel));
      await assertVisibleFocus(panel, `stop ${i + 1}`);
    }
    assert.deepEqual(stops, [
      'tab Fix the login test — Test Agent',
      'button New conversation',
      'button Conversation in a new worktree',
      'select Agent',
      'select Model',
      'button Session options',
      'button 1 waiting for you',
      'button History',
      'log Conversation: Test conversation',
    ]);
    // Back to the tabs: arrows move between conversations and show them.
    await page.getByRole('tab', { selected: true }).focus();
    await panel.clearPosted();
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(panel), 'tab Write docs — Test Agent, working, waits for your permission');
    await assertVisibleFocus(panel, 'the next tab');
    assert.deepEqual(await panel.posted(), [{ type: 'selectConversation', conversationId: 'c2' }]);
    // Session options: Enter opens the menu and focuses its first control; Escape closes it and comes back.
    await page.getByRole('button', { name: 'Session options' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('button', { name: 'Session options' }).getAttribute('aria-expanded'), 'true');
    assert.equal(await focused(panel), 'input Web search');
    await assertVisibleFocus(panel, 'the options menu');
    await page.keyboard.press('Escape');
    assert.equal(await focused(panel), 'button Session options');
    // The waiting count jumps to the prompt; History asks the host for its quick pick.
    await page.getByRole('button', { name: '1 waiting for you' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await focused(panel), 'button Allow');
    await page.getByRole('button', { name: 'History' }).focus();
    await panel.clearPosted();
    await page.keyboard.press('Enter');
    assert.deepEqual(await panel.posted(), [{ type: 'showHistory' }]);
    assert.deepEqual(panel.errors, []);
    await page.close();
  });

  test(`${theme}: a permission prompt is one Tab stop with arrows, Home and End; Enter answers and focus stays with the card`, async () => {
    const panel = await harness().open({ theme });
    const { page } = panel;
    const card = toolCall('c1', { title: 'Run npm test', toolKind: 'execute', permission: pendingPermission('r1') });
    await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [{ kind: 'user', id: 'u1', text: 'Test it' }, card] }) });
    await page.getByRole('log').focus();
    // The user's message comes first: Copy as Markdown, then Edit (go on from there), are its Tab stops.
    await page.keyboard.press('Tab');
    assert.equal(await focused(panel), 'button Copy as Markdown');
    await page.keyboard.press('Tab');
    assert.equal(await focused(panel), 'button Edit and send again');
    await page.keyboard.press('Tab');
    assert.equal(await focused(panel), 'button Allow', 'the tab stop is the one-time allow, whatever order the agent sent');
    await assertVisibleFocus(panel, 'the prompt');
    const walk: string[] = [];
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'End', 'Home', 'ArrowLeft', 'ArrowDown', 'ArrowUp']) {
      await page.keyboard.press(key);
      walk.push(`${key} ${await focused(panel)}`);
      await assertVisibleFocus(panel, key);
    }
    assert.deepEqual(walk, [
      'ArrowRight button Reject',
      'ArrowRight button Always Allow (a standing answer)',
      'ArrowRight button Allow',
      'End button Always Allow (a standing answer)',
      'Home button Allow',
      'ArrowLeft button Always Allow (a standing answer)',
      'ArrowDown button Allow',
      'ArrowUp button Always Allow (a standing answer)',
    ]);
    // One Tab stop: Tab leaves the group, Shift+Tab comes back to the option last focused.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('[data-permission-state]') === null), true, 'Tab left the prompt');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(panel), 'button Always Allow (a standing answer)');
    await page.keyboard.press('Home');
    await panel.clearPosted();
    await page.keyboard.press('Enter');
    assert.deepEqual(await panel.posted(), [{ type: 'respondPermission', requestId: 'r1', optionId: 'allow', conversationId: 'c1' }]);
    assert.equal(await focused(panel), 'button Allow', 'answering does not drop focus to the page');
    // The host confirms: the answer takes the focus the prompt had.
    await panel.post({ type: 'entryUpserted', entry: { ...card, permission: { ...pendingPermission('r1'), state: { kind: 'selected', optionId: 'allow' } } } });
    assert.match(await focused(panel), /^div\s+Allowed: Allow$/);
    await assertVisibleFocus(panel, 'the answer');
    assert.deepEqual(panel.errors, []);
    await page.close();
  });
}
