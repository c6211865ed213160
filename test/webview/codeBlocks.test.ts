/**
 * Code blocks of replies in real Chromium: highlighted in each kind of theme (readable: each token's
 * colour >= 4.5:1 on the block), Copy / Insert at Cursor / New File, the wrap toggle, a block that
 * streams in keeps the lines it already highlighted, and blocks the highlighter does not know
 * (mermaid) stay plain without loading it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { agent, ready, running, snapshot } from './harness/fixtures';
import { THEMES, useHarness } from './harness/harness';

const harness = useHarness();

const TS = '// a comment\nconst answer: number = 42;\nfunction greet(name: string) {\n  return `hi ${name}`;\n}\n';
const fenced = (lang: string, code: string) => `Here:\n\n\`\`\`${lang}\n${code}\`\`\`\n\nDone.`;

const block = '[data-entry-kind="agent"] .code-block';

async function highlighted(page: Page): Promise<void> {
  await page.waitForFunction((sel) => document.querySelector(`${sel} .hljs-keyword`) !== null, block, { timeout: 10_000 });
}

/** WCAG contrast of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** Every highlighted token's colour against the block's background. */
async function tokenContrasts(page: Page): Promise<Array<{ cls: string; ratio: number }>> {
  const background = await page.locator(`${block} pre`).evaluate((pre) => getComputedStyle(pre).backgroundColor);
  const tokens = await page.locator(`${block} [class^="hljs-"]`).evaluateAll((els) => els.map((e) => ({ cls: e.className, color: getComputedStyle(e).color })));
  return tokens.map(({ cls, color }) => ({ cls, ratio: contrast(color, background) }));
}

for (const theme of THEMES) {
  test(`a TypeScript block is highlighted, readably, in the ${theme} theme`, async () => {
    const panel = await harness().open({ theme });
    const { page } = panel;
    await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', fenced('ts', TS))] }) });
    await highlighted(page);
    const classes = await page.locator(`${block} [class^="hljs-"]`).evaluateAll((els) => els.map((e) => e.className));
    for (const expected of ['hljs-comment', 'hljs-keyword', 'hljs-number', 'hljs-string', 'hljs-title function_']) {
      assert.ok(classes.includes(expected), `${expected} among ${classes.join(', ')}`);
    }
    // Tokens have colours of their own, not the plain text's.
    const colour = (sel: string) =>
      page
        .locator(`${block} ${sel}`)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    const colours = {
      text: await colour('pre'),
      keyword: await colour('.hljs-keyword'),
      string: await colour('.hljs-string'),
      comment: await colour('.hljs-comment'),
    };
    assert.notEqual(colours.keyword, colours.text);
    assert.notEqual(colours.keyword, colours.string);
    assert.notEqual(colours.comment, colours.text);
    for (const { cls, ratio } of await tokenContrasts(page)) assert.ok(ratio >= 4.5, `${cls} is ${ratio.toFixed(2)}:1 in ${theme}`);
    // The highlighting changed no character of the code.
    assert.equal(await page.locator(`${block} pre code`).textContent(), TS);
    assert.deepEqual(panel.errors, []);
    assert.deepEqual(await panel.violations(), []);
    await page.close();
  });
}

test('Copy puts the exact code on the clipboard and says so to screen readers', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const origin = new URL(page.url()).origin;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const code = 'line one\n\tindented <b>&amp;</b>\n\nlast line  ';
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', fenced('python', `${code}\n`))] }) });
  await page.locator(`${block} button.code-block-copy`).click();
  await page.waitForFunction(() => (document.querySelector('[data-announcer]')?.textContent ?? '').includes('Code copied'));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  assert.equal(await page.locator(`${block} button.code-block-copy`).getAttribute('aria-label'), 'Copy');
  await page.close();
});

test('Insert at Cursor and New File post one message each with the exact code', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', fenced('ts', TS))] }) });
  await panel.clearPosted();
  await page.locator(`${block} button.code-block-insert`).click();
  const code = TS.slice(0, -1);
  assert.deepEqual(await codeMessages(panel.posted()), [{ type: 'insertCode', code }]);
  await panel.clearPosted();
  await page.getByRole('button', { name: 'New File' }).click();
  assert.deepEqual(await codeMessages(panel.posted()), [{ type: 'newCodeFile', code, language: 'ts' }]);
  await page.close();
});

async function codeMessages(posted: Promise<WebviewMessage[]>): Promise<WebviewMessage[]> {
  return (await posted).filter((m) => m.type === 'insertCode' || m.type === 'newCodeFile' || m.type === 'copyCode');
}

test('the wrap toggle unwraps the block into one keyboard-scrollable box, and wraps it again', async () => {
  const panel = await harness().open({ width: 300 });
  const { page } = panel;
  const long = `const x = "${'y'.repeat(300)}";\n`;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', fenced('js', long))] }) });
  const pre = page.locator(`${block} pre`);
  const wrap = page.locator(`${block} button.code-block-wrap`);
  assert.equal(await wrap.getAttribute('aria-pressed'), 'true');
  assert.equal(await pre.evaluate((el) => el.scrollWidth > el.clientWidth), false, 'wrapped: no sideways scrolling');
  await wrap.click();
  assert.equal(await wrap.getAttribute('aria-pressed'), 'false');
  assert.equal(await pre.evaluate((el) => getComputedStyle(el).whiteSpace), 'pre');
  assert.equal(await pre.evaluate((el) => el.scrollWidth > el.clientWidth), true, 'unwrapped: scrolls sideways');
  assert.equal(await pre.getAttribute('tabindex'), '0');
  assert.ok(await pre.getAttribute('aria-label'));
  await wrap.click();
  assert.equal(await pre.getAttribute('tabindex'), null);
  await page.close();
});

test('a streaming block keeps its highlighted lines as chunks arrive, and highlights each new line', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', 'Code:\n\n```ts\n')] }) });
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) lines.push(`const value${i} = ${i}; // note ${i}\n`);
  // Each line in two pieces: a chunk rarely ends where a line does.
  const chunks = lines.flatMap((line) => [line.slice(0, 9), line.slice(9)]);
  // The first line is highlighted for good once the next one starts: then mark its first keyword.
  await panel.post({ type: 'textAppended', id: 'a1', text: chunks[0] + chunks[1] });
  await panel.post({ type: 'textAppended', id: 'a1', text: chunks[2] });
  await highlighted(page);
  await page.evaluate((sel) => {
    (document.querySelector(`${sel} .hljs-keyword`) as HTMLElement & { __first?: boolean }).__first = true;
  }, block);
  let sent = chunks.slice(0, 3).join('');
  for (const chunk of chunks.slice(3)) {
    await panel.post({ type: 'textAppended', id: 'a1', text: chunk });
    sent += chunk;
    const state = await page.evaluate((sel) => {
      const first = document.querySelector(`${sel} .hljs-keyword`) as (HTMLElement & { __first?: boolean }) | null;
      return { kept: first?.__first === true, keywords: document.querySelectorAll(`${sel} .hljs-keyword`).length };
    }, block);
    assert.equal(state.kept, true, `the first line's spans were rebuilt after ${JSON.stringify(sent.slice(-40))}`);
    assert.equal(state.keywords, sent.split('const ').length - 1, `keywords after ${JSON.stringify(sent.slice(-40))}`);
  }
  assert.equal(await page.locator(`${block} pre code`).textContent(), lines.join(''));
  // The fence closes and text follows: still one highlighted block with the exact code.
  await panel.post({ type: 'textAppended', id: 'a1', text: '```\n\nThat is all.' });
  assert.equal(await page.locator(block).count(), 1);
  assert.equal(await page.locator(`${block} .hljs-keyword`).count(), lines.length);
  assert.equal(await page.locator(`${block} .hljs-comment`).count(), lines.length);
  assert.equal(await page.locator(`${block} pre code`).textContent(), lines.join(''));
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('a block comment streamed across lines ends highlighted as one comment', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', '```js\nlet a = 1;\n')] }) });
  await highlighted(page);
  const pieces = ['/* one\n', 'two let\n', 'three */\n', 'let b = 2;\n'];
  for (const text of pieces) await panel.post({ type: 'textAppended', id: 'a1', text });
  const comments = await page.locator(`${block} .hljs-comment`).allTextContents();
  assert.deepEqual(comments, ['/* one\ntwo let\nthree */']);
  assert.equal(await page.locator(`${block} .hljs-keyword`).count(), 2, 'the `let` inside the comment is no keyword');
  await page.close();
});

test('mermaid and unknown languages stay plain code, with their buttons, and never load the highlighter', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const mermaid = 'graph TD\n  A[<script>x</script>] --> B\n';
  const messages: HostMessage[] = [
    { type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', `${fenced('mermaid', mermaid)}\n\n${fenced('brainfuck', '+++.\n')}`)] }) },
  ];
  for (const m of messages) await panel.post(m);
  assert.equal(await page.locator(block).count(), 2);
  assert.deepEqual(await page.locator(`${block} pre code`).allTextContents(), [mermaid, '+++.\n']);
  assert.equal(await page.locator(`${block} [class^="hljs-"]`).count(), 0);
  assert.equal(await page.locator(`${block} script`).count(), 0);
  assert.equal(await page.locator(`${block}[data-code-language="mermaid"] .code-block-language`).getAttribute('data-label'), 'mermaid');
  assert.equal(await page.locator(`${block}[data-code-language="mermaid"] [role="toolbar"]`).getAttribute('aria-label'), 'Code block: mermaid');
  assert.equal(await page.evaluate(() => document.querySelector('script[src*="codeHighlighter"]') !== null), false);
  assert.equal(await page.locator(`${block} button.code-block-copy`).count(), 2);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('agent text that looks like HTML inside a highlighted block stays text', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const code = '<img src=x onerror="window.__pwned=1">\n<script>window.__pwned=2</script>\n';
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: [agent('a1', fenced('html', code))] }) });
  await page.waitForFunction((sel) => document.querySelector(`${sel} .hljs-tag`) !== null, block, { timeout: 10_000 });
  assert.equal(await page.locator(`${block} img, ${block} script`).count(), 0);
  assert.equal(await page.locator(`${block} pre code`).textContent(), code);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  // Nothing but spans with classes inside the code.
  const others = await page
    .locator(`${block} pre code *`)
    .evaluateAll((els) => els.filter((e) => e.tagName !== 'SPAN' || [...e.attributes].some((a) => a.name !== 'class')).map((e) => e.outerHTML));
  assert.deepEqual(others, []);
  await page.close();
});
