/**
 * The header at the default sidebar width with Cline's settings (provider, model, mode, boolean
 * auto-approve, and modes): one row, the pickers that do not fit in the options menu; a picker whose
 * current value is not among its choices shows that value (Cline lists three providers but uses
 * `openai-compatible`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigOptionView } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

/** What Cline 3.0.65 answers session/new with (see test/fixtures/agentPayloads), as the panel gets it. */
const CLINE_OPTIONS: ConfigOptionView[] = [
  {
    id: 'provider',
    name: 'Provider',
    category: 'model',
    type: 'select',
    currentValue: 'openai-compatible',
    choices: [
      { value: 'cline', name: 'Cline Usage-Billing' },
      { value: 'cline-pass', name: 'ClinePass' },
      { value: 'openai-codex', name: 'ChatGPT Subscription' },
    ],
  },
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'tandem-fake-coder',
    choices: [{ value: 'tandem-fake-coder', name: 'Tandem fake coder' }],
  },
  {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: 'act',
    choices: [
      { value: 'plan', name: 'Plan' },
      { value: 'act', name: 'Act' },
    ],
  },
  { id: 'auto_approve', name: 'Auto-approve', type: 'boolean', currentValue: false },
];

const modes = {
  currentModeId: 'act',
  available: [
    { id: 'plan', name: 'Plan', description: 'Explore the codebase and plan changes without modifying files' },
    { id: 'act', name: 'Act', description: 'Make changes to the codebase' },
  ],
};

async function open(width: number) {
  const panel = await harness().open({ width });
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      configOptions: CLINE_OPTIONS,
      modes,
      agents: [{ name: 'Cline', commandLine: 'cline --acp', builtIn: false }],
      selectedAgent: 'Cline',
    }),
  });
  await panel.settle();
  await panel.settle();
  return panel;
}

test('at the default sidebar width the header is one row; pickers that do not fit are in the options menu', async () => {
  const panel = await open(300);
  const { page } = panel;
  const header = page.locator('header.header');
  const rows = await header.evaluate((el) => {
    const boxes = [...el.querySelectorAll<HTMLElement>('select, button, .status-text, input')]
      .filter((c) => c.offsetParent !== null)
      .map((c) => c.getBoundingClientRect());
    // One row: every control overlaps vertically with every other.
    const oneRow = boxes.every((a) => boxes.every((b) => a.top < b.bottom && b.top < a.bottom));
    return { oneRow, count: boxes.length, overflow: el.scrollWidth - el.clientWidth };
  });
  assert.ok(rows.oneRow && rows.count >= 4, `every control on one line (${rows.count} shown)`);
  assert.ok(rows.overflow <= 1, `nothing sticks out (${rows.overflow}px)`);
  const inHeader = await header.locator('.session-pickers [data-config-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-config-id')));
  await header.getByRole('button', { name: 'Session options' }).click();
  const inMenu = await page.locator('.options-menu [data-config-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-config-id')));
  assert.deepEqual([...inHeader, ...inMenu].sort(), ['auto_approve', 'mode', 'model', 'provider'], 'every setting is reachable');
  assert.ok(inMenu.includes('auto_approve'));
  // Wide: all header pickers come back to the header.
  await page.setViewportSize({ width: 1100, height: 800 });
  await panel.settle();
  await panel.settle();
  assert.deepEqual(await header.locator('.session-pickers [data-config-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-config-id'))), [
    'provider',
    'model',
    'mode',
  ]);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test("a picker shows its current value even when it is not among the agent's choices", async () => {
  const panel = await open(1100);
  const { page } = panel;
  const provider = page.locator('select[data-config-id="provider"]');
  assert.equal(await provider.inputValue(), 'openai-compatible');
  assert.equal(await provider.evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent), 'openai-compatible');
  assert.match(String(await provider.getAttribute('title')), /^Provider: openai-compatible/);
  await page.close();
});
