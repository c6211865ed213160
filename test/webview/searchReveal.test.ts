/**
 * Landing on a search match (`revealEntry`), in real Chromium: for an entry far above the viewport
 * of a long thread, the panel builds it if needed, scrolls it into view, outlines it and marks the phrase (CSS Custom Highlight API); the next key clears both.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry } from '../../src/protocol/messages';
import { agent, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test('revealEntry lands on an entry far up a long thread, outlines it and marks the phrase until the next key', async () => {
  const entries: Entry[] = [];
  for (let i = 0; i < 400; i++) entries.push(agent(`a${i}`, `Reply ${i}: ${'words about other things '.repeat(20)}`));
  entries[12] = agent('a12', 'The fossil is a **Quetzalcoatlus**, the largest flying animal.');
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries }) });
  await panel.settle();
  const target = page.locator('[data-entry-id="a12"]');
  assert.equal(await page.locator('.search-revealed').count(), 0);

  await panel.post({ type: 'revealEntry', conversationId: 'c1', entryId: 'a12', query: 'quetzalcoatlus, the' });
  await panel.settle();
  await page.waitForFunction(() => document.querySelector('[data-entry-id="a12"]')?.classList.contains('search-revealed') === true);
  assert.equal(await page.locator('.search-revealed').count(), 1);
  assert.equal(await target.locator('strong').textContent(), 'Quetzalcoatlus');
  const inView = await target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const log = document.querySelector('[role="log"]')!.getBoundingClientRect();
    return box.bottom > log.top && box.top < log.bottom;
  });
  assert.equal(inView, true, 'scrolled into view');
  // The phrase spans the bold text and the plain text after it: one range across both.
  const marked = await page.evaluate(() => [...(CSS.highlights.get('tandem-search-match') ?? [])].map((r) => (r as Range).toString()));
  assert.deepEqual(marked, ['Quetzalcoatlus, the']);
  const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
  assert.equal(outline, 'solid');

  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('.search-revealed') === null);
  assert.equal(await page.evaluate(() => CSS.highlights.has('tandem-search-match')), false);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
