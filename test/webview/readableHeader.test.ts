/**
 * The header at the sidebar's default width (issue 36): with the demo agent, its modes and one model
 * picker, nothing in the row is cut to a letter. Each picker's and text's rendered text is measured
 * against its full value (the text's width in its own font vs the room the control gives it):
 * every one shows its whole value or at least READABLE characters, the agent picker its whole name;
 * what does not fit is in the options menu, reachable by keyboard. At 600 px everything is inline.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigOptionView } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();
const READABLE = 10;

const MODEL: ConfigOptionView[] = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'gpt-5-codex',
    choices: [
      { value: 'gpt-5-codex', name: 'GPT-5 Codex' },
      { value: 'gpt-5-mini', name: 'GPT-5 mini' },
    ],
  },
];

async function open(width: number): Promise<Panel> {
  const panel = await harness().open({ width });
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      tabs: [{ id: 'c1', title: 'Demo', agentName: 'Tandem Demo', status: 'ready' }],
      status: { kind: 'ready', agentName: 'Tandem Demo' },
      agents: [{ name: 'Tandem Demo', commandLine: 'node demoAgent.js', builtIn: true }],
      selectedAgent: 'Tandem Demo',
      modes: {
        currentModeId: 'tour',
        available: [
          { id: 'tour', name: 'Guided tour', description: 'Paced so you can follow each step' },
          { id: 'fast', name: 'Fast', description: 'No pauses between steps' },
        ],
      },
      configOptions: MODEL,
    }),
  });
  await panel.settle();
  await panel.settle();
  return panel;
}

interface Shown {
  what: string;
  full: string;
  shown: number;
}

/**
 * For each visible select and text of the header: how many characters of its full value are on
 * screen. A string, not a function: the test runner's transpiler would wrap named functions in
 * helpers the page lacks.
 */
const MEASURE = `(() => {
  const header = document.querySelector('header.header');
  const ctx = document.createElement('canvas').getContext('2d');
  const width = (el, text) => { ctx.font = getComputedStyle(el).font; return ctx.measureText(text).width; };
  const fits = (el, full, room) => {
    if (width(el, full) <= room + 0.5) return [...full].length;
    let k = 0;
    while (k < full.length && width(el, full.slice(0, k + 1) + '…') <= room + 0.5) k++;
    return k;
  };
  const visible = (el) => el.offsetParent !== null && el.getBoundingClientRect().width > 2 && !el.classList.contains('visually-hidden');
  const out = [];
  for (const select of header.querySelectorAll('select')) {
    if (!visible(select)) continue;
    const full = select.selectedOptions[0]?.textContent ?? '';
    // The select's own chrome (padding, border, arrow): a copy holding only this value, at its natural width.
    const copy = select.cloneNode(false);
    copy.append(new Option(full));
    copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
    header.append(copy);
    const chrome = copy.getBoundingClientRect().width - width(copy, full);
    copy.remove();
    out.push({ what: select.getAttribute('aria-label') ?? select.className, full, shown: fits(select, full, select.getBoundingClientRect().width - chrome) });
  }
  for (const el of header.querySelectorAll('.status-text, .agent-location-host')) {
    if (!visible(el)) continue;
    // What is on screen (a short status keeps the whole sentence for screen readers, out of sight).
    const full = (el.querySelector('[aria-hidden="true"]') ?? el).textContent ?? '';
    out.push({ what: el.className, full, shown: el.scrollWidth <= el.clientWidth + 1 ? [...full].length : fits(el, full, el.clientWidth) });
  }
  return out;
})()`;

async function shownText(panel: Panel): Promise<Shown[]> {
  return (await panel.page.evaluate(MEASURE)) as Shown[];
}

async function oneRow(panel: Panel): Promise<{ oneRow: boolean; overflow: number }> {
  return (await panel.page.evaluate(`(() => {
    const el = document.querySelector('header.header');
    const boxes = [...el.querySelectorAll('select, button, .status-text, .agent-location')]
      .filter((c) => c.offsetParent !== null && !c.classList.contains('visually-hidden'))
      .map((c) => c.getBoundingClientRect());
    return { oneRow: boxes.every((a) => boxes.every((b) => a.top < b.bottom && b.top < a.bottom)), overflow: el.scrollWidth - el.clientWidth };
  })()`)) as { oneRow: boolean; overflow: number };
}

test('at 300 px no picker or text in the header is cut below a readable width; the agent keeps its name', async () => {
  const panel = await open(300);
  const shown = await shownText(panel);
  const agent = shown.find((s) => s.what === 'Agent');
  assert.ok(agent, `the agent picker is in the row: ${JSON.stringify(shown)}`);
  assert.ok(agent.shown >= 'Tandem Demo'.length, `the agent's whole name is shown: ${JSON.stringify(agent)}`);
  for (const s of shown) assert.ok(s.shown >= Math.min([...s.full].length, READABLE), `${s.what} shows ${s.shown} characters of "${s.full}"`);
  assert.ok(
    shown.some((s) => s.what === 'agent-location-host' && s.full === 'local'),
    `where it runs stays in sight: ${JSON.stringify(shown)}`,
  );
  const row = await oneRow(panel);
  assert.ok(row.oneRow && row.overflow <= 1, JSON.stringify(row));

  // What moved out is in the options menu, by keyboard: the button opens it, focus lands in it, a choice is sent.
  const { page } = panel;
  const inRow = await page.locator('header.header .session-pickers select').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  const menuButton = page.getByRole('button', { name: 'Session options' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const inMenu = await page.locator('.options-menu select').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.deepEqual([...inRow, ...inMenu].sort(), ['Mode', 'Model'], `every picker is reachable (row ${inRow}, menu ${inMenu})`);
  assert.ok(inMenu.length > 0, 'something had to move at 300 px');
  const focusedInMenu = await page.evaluate(() => document.activeElement?.closest('.options-menu') !== null);
  assert.ok(focusedInMenu, 'focus moved into the menu');
  await panel.clearPosted();
  const mode = page.locator('.options-menu select[aria-label="Mode"]');
  if ((await mode.count()) === 1) {
    await mode.selectOption('fast');
    assert.deepEqual(
      (await panel.posted()).filter((m) => m.type === 'setMode'),
      [{ type: 'setMode', modeId: 'fast', conversationId: 'c1' }],
    );
  }
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Session options', 'Escape closes the menu back to its button');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('at 600 px every picker is inline and nothing is cut', async () => {
  const panel = await open(600);
  const shown = await shownText(panel);
  const { page } = panel;
  assert.deepEqual(await page.locator('header.header .session-pickers select').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), [
    'Mode',
    'Model',
  ]);
  assert.equal(await page.getByRole('button', { name: 'Session options' }).count(), 0, 'no menu needed');
  for (const s of shown) assert.equal(s.shown, [...s.full].length, `${s.what} "${s.full}" is whole (${s.shown})`);
  // Where the whole sentence does not fit, the status says the state (the picker names the agent); its tooltip the whole.
  assert.equal(await page.locator('header.header .status-text').getAttribute('title'), 'Tandem Demo ready');
  // Narrowed again, the same page gives way without a reload (ResizeObserver).
  await page.setViewportSize({ width: 300, height: 800 });
  await panel.settle();
  await panel.settle();
  for (const s of await shownText(panel)) assert.ok(s.shown >= Math.min([...s.full].length, READABLE), `${s.what} shows ${s.shown} of "${s.full}"`);
  assert.match((await page.locator('header.header .status-text').textContent()) ?? '', /Tandem Demo ready/, 'a screen reader still hears whose status it is');
  assert.deepEqual(panel.errors, []);
  await page.close();
});
