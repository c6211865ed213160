/** The quota meter in real Chromium: hidden until the agent reports limits, the window nearest its limit, colours, reset times. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QuotaView } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

const HOUR = 3_600_000;

function quota(fiveHour: number, weekly: number, extra: Partial<QuotaView['pools'][number]['meters'][number]> = {}): QuotaView {
  return {
    updatedAt: new Date().toISOString(),
    pools: [
      {
        id: 'plan',
        label: 'Plan usage',
        state: 'available',
        meters: [
          {
            id: 'five_hour',
            label: '5-hour limit',
            usedPercent: fiveHour,
            window: 'PT5H',
            resetsAt: new Date(Date.now() + 3 * HOUR + 60_000).toISOString(),
            ...extra,
          },
          { id: 'seven_day', label: 'Weekly limit', usedPercent: weekly, window: 'P7D', resetsAt: new Date(Date.now() + 50 * HOUR).toISOString() },
        ],
      },
      {
        id: 'extra_usage',
        label: 'Extra usage',
        meters: [{ id: 'cap', label: 'Monthly spend limit', used: { value: '12.40', unit: 'USD' }, limit: { value: '50.00', unit: 'USD' } }],
      },
    ],
  };
}

test('quota meter: hidden without limits; the most used window with its reset; 80 % and 95 % colours; the context meter stays', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ usage: { used: 84_000, size: 200_000 } }) });
  const meter = page.getByRole('meter', { name: 'Account limits' });
  const context = page.getByRole('meter', { name: 'Context used' });
  await panel.settle();
  assert.equal(await meter.isHidden(), true);
  assert.equal(await context.isVisible(), true);

  await panel.post({ type: 'quotaChanged', quota: quota(42, 64) });
  await panel.settle();
  assert.equal(await meter.textContent(), 'Weekly limit 64% · resets in 2 days');
  assert.equal(await meter.getAttribute('data-level'), 'ok');
  const title = String(await meter.getAttribute('title'));
  assert.match(title, /^Plan usage · 5-hour limit: 42% used, resets in 3 hours \(/m);
  assert.match(title, /^Plan usage · Weekly limit: 64% used, resets in 2 days/m);
  assert.match(title, /^Extra usage · Monthly spend limit: \$12\.40 of \$50\.00$/m, 'amounts as money, nothing made up');
  assert.equal(await meter.getAttribute('aria-valuenow'), '64');
  assert.equal(await context.isVisible(), true, 'the context meter stays');

  await panel.post({ type: 'quotaChanged', quota: quota(86, 64) });
  await panel.settle();
  assert.equal(await meter.textContent(), '5-hour limit 86% · resets in 3 hours');
  assert.equal(await meter.getAttribute('data-level'), 'warning');
  const warning = await meter.evaluate((el) => getComputedStyle(el).color);

  await panel.post({ type: 'quotaChanged', quota: quota(96, 64) });
  await panel.settle();
  assert.equal(await meter.getAttribute('data-level'), 'critical');
  const critical = await meter.evaluate((el) => getComputedStyle(el).color);
  const ok = await context.evaluate((el) => getComputedStyle(el).color);
  assert.notEqual(warning, critical, 'the theme gives warning and error different colours');
  assert.notEqual(ok, warning);

  // The agent's own grading counts before the share does.
  await panel.post({ type: 'quotaChanged', quota: quota(40, 64, { status: 'exceeded' }) });
  await panel.settle();
  assert.equal(await meter.getAttribute('data-level'), 'critical');
  assert.match(String(await meter.textContent()), /^5-hour limit 40%/);
  assert.match(String(await meter.getAttribute('title')), /limit reached/);

  await panel.post({ type: 'quotaChanged' });
  await panel.settle();
  assert.equal(await meter.isHidden(), true);
  await page.close();
});

test('quota meter: a snapshot of the conversation brings its limits; junk is not shown', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ quota: quota(10, 20) }) });
  await panel.settle();
  const meter = page.getByRole('meter', { name: 'Account limits' });
  assert.equal(await meter.textContent(), 'Weekly limit 20% · resets in 2 days');
  await panel.post({ type: 'quotaChanged', quota: { pools: [{ id: 'x', meters: 'junk' }] } as unknown as QuotaView });
  await panel.settle();
  assert.equal(await meter.isHidden(), true);
  await page.close();
});
