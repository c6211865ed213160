/**
 * The header's "Approves its own actions" badge in real Chromium: it appears while the agent's mode
 * approves the agent's own actions (Claude's modes, Codex's mode option), says why in its tooltip and
 * description, follows mode changes both ways, takes the keyboard to the mode picker, and keeps the
 * header to one row at the sidebar's width.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigOptionView, ModesView } from '../../src/protocol/messages';
import { ready, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

const CLAUDE: ModesView = {
  currentModeId: 'auto',
  available: [
    { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
    { id: 'acceptEdits', name: 'Accept edits' },
    { id: 'plan', name: 'Plan' },
    { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
    { id: 'bypassPermissions', name: 'Bypass permissions' },
  ],
};

function codexOptions(mode: string): ConfigOptionView[] {
  return [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: mode,
      choices: [
        { value: 'read-only', name: 'Read-only' },
        { value: 'workspace-write', name: 'Workspace access' },
        { value: 'agent', name: 'Auto review' },
        { value: 'agent-full-access', name: 'Full access' },
      ],
    },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5', choices: [{ value: 'gpt-5.5', name: 'gpt-5.5' }] },
  ];
}

test('Claude’s modes: the badge comes with auto, changes with acceptEdits, goes with Manual, and Enter lands on the mode picker', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, modes: CLAUDE }) });
  await panel.settle();
  const badge = page.locator('header.header button.self-approval');
  assert.equal(await badge.isVisible(), true, 'new sessions start in auto');
  assert.equal(await badge.textContent(), 'Approves its own actions');
  assert.equal(await badge.getAttribute('data-mode'), 'auto');
  assert.match(String(await badge.getAttribute('title')), /^Mode "Auto": the agent’s own reviewer approves .* pick another mode in the Mode picker\.$/);
  assert.equal(await badge.getAttribute('aria-description'), await badge.getAttribute('title'));
  assert.equal(await page.getByRole('button', { name: 'Approves its own actions' }).count(), 1, 'named by what it shows');

  await panel.post({ type: 'modesChanged', modes: { ...CLAUDE, currentModeId: 'acceptEdits' } });
  await panel.settle();
  assert.equal(await badge.textContent(), 'Approves its own edits');
  assert.equal(await badge.getAttribute('data-kind'), 'edits');

  await panel.post({ type: 'modesChanged', modes: { ...CLAUDE, currentModeId: 'default' } });
  await panel.settle();
  assert.equal(await badge.isHidden(), true, 'Manual asks: no badge');

  await panel.post({ type: 'modesChanged', modes: { ...CLAUDE, currentModeId: 'bypassPermissions' } });
  await panel.settle();
  assert.equal(await badge.isVisible(), true);
  assert.match(String(await badge.getAttribute('title')), /no permission prompt appears/);
  await badge.focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Mode', 'the keyboard is on the mode picker');

  await panel.post({ type: 'modesChanged' });
  await panel.settle();
  assert.equal(await badge.isHidden(), true, 'gone with the session');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('Codex’s mode option: Auto review and Full access show it, the sandboxes do not; at the sidebar’s width the row stays one row', async () => {
  const panel = await harness().open({ width: 300 });
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, configOptions: codexOptions('agent') }) });
  await panel.settle();
  const badge = page.locator('header.header button.self-approval');
  assert.equal(await badge.isVisible(), true, 'codex starts in agent (Auto review)');
  assert.match(String(await badge.getAttribute('title')), /^Mode "Auto review":/);

  await panel.post({ type: 'configOptionsChanged', options: codexOptions('workspace-write') });
  await panel.settle();
  assert.equal(await badge.isHidden(), true);
  await panel.post({ type: 'configOptionsChanged', options: codexOptions('agent-full-access') });
  await panel.settle();
  assert.equal(await badge.isVisible(), true);
  assert.equal(await badge.getAttribute('data-kind'), 'all');

  // One row: nothing overflows the header, and the badge lies inside it.
  const header = page.locator('header.header');
  const overflow = await header.evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 1, `the header does not overflow (${overflow}px)`);
  const [h, b] = [await header.boundingBox(), await badge.boundingBox()];
  assert.ok(h && b && b.x >= h.x && b.x + b.width <= h.x + h.width + 0.5, 'the badge is inside the header');

  // Click: the mode picker (in the row, or in the options menu the narrow row moved it to) gets the keyboard.
  await badge.click();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-config-id')), 'mode');
  assert.deepEqual(panel.errors, []);
  await page.close();
});
