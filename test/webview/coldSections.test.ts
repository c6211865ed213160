/**
 * A flood of streamed markdown in real Chromium: text far above the visible end is left cold (not
 * rendered) while the stream goes on, the end is rendered at once, and every word is in the DOM
 * after a pause or as soon as the user scrolls up. The page's clock is Playwright's fake one, paused:
 * it moves only when the test steps it, so the quiet wait is stepped through, never slept on, and a
 * slow machine cannot run it out between two checks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { HostMessage } from '../../src/protocol/messages';
import { marked } from 'marked';
import { agent, running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

/** Paragraphs, a list, a code fence and a heading, numbered so that every word is checkable. */
function floodText(blocks: number): string {
  const parts: string[] = [];
  for (let i = 0; i < blocks; i++) {
    if (i % 10 === 3) parts.push(`- item ${i}a\n- item ${i}b`);
    else if (i % 10 === 6) parts.push(`\`\`\`js\nconst n${i} = ${i};\n\`\`\``);
    else if (i % 10 === 9) parts.push(`## Heading ${i}`);
    else parts.push(`Paragraph ${i} ${'lorem ipsum dolor sit amet '.repeat(8)}**end ${i}**.`);
  }
  return parts.join('\n\n') + '\n\n';
}

async function post(page: Page, message: HostMessage): Promise<void> {
  await page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
}

/** What rendering the whole text at once gives: its words, or the sequence of the given tags. */
function reference(text: string, tags?: string[]): string[] {
  const html = marked.parse(text, { async: false, gfm: true });
  if (tags) return Array.from(html.matchAll(new RegExp(`<(${tags.join('|')})[ >]`, 'g')), (m) => m[1].toUpperCase());
  return words(
    html
      .replace(/<\/?(?:strong|em|code)>/g, '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
}

const coldCount = (page: Page): Promise<number> => page.locator('[data-entry-kind="agent"] .markdown-frozen > .cold').count();
const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * Opens a panel on a paused fake clock with one streaming agent message and floods it with `text`.
 * A clock that merely installs flows with real time: on a loaded machine (CI) the whole flood could
 * outlast the quiet wait or the longest cold time before the test looked. Paused, page time passes
 * only in `runFor`, which also runs the animation frames the panel renders in.
 */
async function flood(text: string, t: { after(fn: () => Promise<void>): void }): Promise<Page> {
  const panel = await harness().open();
  const { page } = panel;
  t.after(async () => {
    await page.clock.resume();
    await page.close();
  });
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', '')] }) });
  // The clock belongs to the harness's browser context, which every test's page shares: it is paused
  // relative to where it stands, and `settle` lets it flow again for the tests after this one.
  await page.clock.install();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  // As a flood arrives: a few big posts, each rendered in one frame.
  const step = Math.ceil(text.length / 4);
  for (let at = 0; at < text.length; at += step) {
    await post(page, { type: 'textAppended', id: 'a1', text: text.slice(at, at + step) });
    await page.clock.runFor(20);
  }
  return page;
}

test('a flood leaves the text far above the end cold, renders the end at once and every word after a pause', async (t) => {
  const text = floodText(400);
  const page = await flood(text, t);
  const body = page.locator('[data-entry-kind="agent"] .markdown');
  assert.ok((await coldCount(page)) > 0, 'some of the flood is cold');
  const shown = words(await body.evaluate((el) => el.textContent ?? ''));
  const all = reference(text);
  assert.ok(shown.length < all.length, 'the cold text is not in the DOM yet');
  assert.deepEqual(shown.slice(-40), all.slice(-40), 'the end of the message is rendered');
  // Cold sections have no layout: their height is an estimate, not zero.
  const height = await page
    .locator('[data-entry-kind="agent"] .markdown-frozen > .cold')
    .first()
    .evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height > 100, `a cold section keeps an estimated height (${height}px)`);
  // 100 ms of quiet is less than the 250 ms wait: still cold.
  await page.clock.runFor(100);
  assert.ok((await coldCount(page)) > 0, 'still cold before the text has been quiet long enough');
  await page.clock.runFor(300);
  assert.equal(await coldCount(page), 0, 'every section is rendered after a pause');
  // Rendered in sections, the message reads exactly as rendered whole: same words, same structure.
  assert.deepEqual(words(await body.evaluate((el) => el.textContent ?? '')), all);
  const tags = await body.evaluate((el) => Array.from(el.querySelectorAll('p, li, pre, h2, strong')).map((n) => n.tagName));
  assert.deepEqual(tags, reference(text, ['p', 'li', 'pre', 'h2', 'strong']));
});

test('scrolling up renders the cold text without waiting for the stream to pause', async (t) => {
  const page = await flood(floodText(400), t);
  assert.ok((await coldCount(page)) > 0);
  // The user scrolls away from the bottom: the scroll event (a real frame) asks for the cold text.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const thread = document.querySelector<HTMLElement>('.thread')!;
        thread.addEventListener('scroll', () => resolve(), { once: true });
        thread.scrollTop = 0;
      }),
  );
  await page.clock.runFor(5);
  assert.equal(await coldCount(page), 0, 'rendered well before the 250 ms quiet wait');
});

test('a slow stream never goes cold', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', '')] }) });
  const text = floodText(60);
  for (const piece of text.match(/[\s\S]{1,400}/g) ?? []) await panel.post({ type: 'textAppended', id: 'a1', text: piece });
  assert.equal(await coldCount(page), 0);
  const shown = await page.locator('[data-entry-kind="agent"] .markdown').evaluate((el) => el.textContent ?? '');
  assert.deepEqual(words(shown), reference(text));
  await page.close();
});
