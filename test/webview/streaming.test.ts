/** Streaming coalescing, markdown sanitising and link handling, in real Chromium. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage } from '../../src/protocol/messages';
import { agent, ready, running, snapshot, toolCall } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test('5,000 textAppended chunks end in the exact text, rendered in far fewer frames, same node', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', '')] }) });
  const node = await page.locator('[data-entry-kind="agent"]').elementHandle();
  // Count DOM mutations of the message body: coalescing means about one batch per frame, not per chunk.
  await page.evaluate(() => {
    const w = window as unknown as { __batches: number };
    w.__batches = 0;
    new MutationObserver(() => w.__batches++).observe(document.querySelector('[data-entry-kind="agent"]')!, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  const chunks: string[] = [];
  for (let i = 0; i < 5000; i++) chunks.push(i % 50 === 49 ? `w${i}\n\n` : `w${i} `);
  await panel.postMany(chunks.map((text): HostMessage => ({ type: 'textAppended', id: 'a1', text })));
  await panel.settle();
  // A flood this fast leaves the text far above the end for after it (coldSections.test.ts).
  await page.waitForFunction(() => document.querySelector('.markdown-frozen > .cold') === null);
  const text = await page.locator('[data-entry-kind="agent"] .markdown').evaluate((el) => el.textContent ?? '');
  const expectedWords = chunks.join('').split(/\s+/).filter(Boolean);
  assert.deepEqual(text.split(/\s+/).filter(Boolean), expectedWords);
  const batches = await page.evaluate(() => (window as unknown as { __batches: number }).__batches);
  assert.ok(batches < 500, `DOM updated ${batches} times for 5,000 chunks`);
  assert.equal(await node!.evaluate((el) => el.isConnected), true, 'the entry element survived streaming');
  // Long messages freeze finished blocks: the tail re-rendered per frame stays small.
  const tail = await page.locator('[data-entry-kind="agent"] .markdown-tail').evaluate((el) => el.textContent?.length ?? 0);
  assert.ok(tail < 5000, `tail is ${tail} chars`);
  await page.close();
});

test('a code fence streamed in pieces renders as one code block', async () => {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('a1', 'x'.repeat(9000) + '\n\n')] }) });
  const pieces = ['```js\n', 'const a = 1;\n\n', 'const b = 2;\n', '```\n\n', 'after'];
  for (const text of pieces) await panel.post({ type: 'textAppended', id: 'a1', text });
  const code = await panel.page.locator('[data-entry-kind="agent"] pre code').allTextContents();
  assert.deepEqual(code, ['const a = 1;\n\nconst b = 2;\n']);
  await panel.page.close();
});

test('thought stays open while streaming and collapses afterwards', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [{ kind: 'thought', id: 't1', text: 'Let me ' }] }) });
  await panel.post({ type: 'textAppended', id: 't1', text: 'think.' });
  const details = page.locator('[data-entry-kind="thought"] details');
  assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), true);
  assert.match(String(await details.textContent()), /Let me think\./);
  await panel.post({ type: 'entryUpserted', entry: agent('a1', 'Answer') });
  assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
  await page.close();
});

const XSS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><circle r=1 /></svg>',
  "[click](javascript:window.__pwned='link')",
  '[data](data:text/html,<script>window.__pwned=1</script>)',
  '<a href="javascript:window.__pwned=\'a\'">a</a>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<div style="background:url(javascript:window.__pwned=1)">styled</div>',
  '<form action="javascript:window.__pwned=1"><button>go</button></form>',
  '![x](https://example.invalid/track.png)',
  '<details open ontoggle="window.__pwned=\'details\'">d</details>',
  '<math><mi xlink:href="javascript:window.__pwned=1">m</mi></math>',
];

test('markdown is sanitised: nothing in the payloads executes, unsafe links lose their href', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const entries = XSS.map((text, i) => agent(`x${i}`, text));
  entries.push(toolCall('c1', { title: '<img src=x onerror="window.__pwned=\'title\'">', content: [{ type: 'markdown', text: XSS.join('\n\n') }] }));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries }) });
  // Click every link and button inside the messages: still nothing may run.
  for (const link of await page.locator('[role="log"] a').all()) await link.click({ force: true });
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
  assert.equal(await page.locator('[role="log"] script, [role="log"] iframe, [role="log"] form, [role="log"] svg').count(), 0);
  // The thread's own page containers carry a size hint in their style; nothing from an agent may.
  assert.equal(await page.locator('[role="log"] [style]:not(.thread-page)').count(), 0);
  assert.equal(await page.locator('[role="log"] [onerror], [role="log"] [onload], [role="log"] [ontoggle]').count(), 0);
  const hrefs = await page.locator('[role="log"] a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(
    hrefs.every((h) => !/^\s*(javascript|data):/i.test(String(h))),
    `unsafe hrefs: ${hrefs.join(', ')}`,
  );
  assert.equal(await page.locator('[role="log"] img[src^="http"]').count(), 0);
  assert.match(String(await page.locator('[data-tool-call-id="call-c1"] .tool-title').textContent()), /<img src=x/);
  assert.equal(page.url().endsWith('/'), true, 'the webview never navigated');
  await page.close();
});

test('links post openLink and never navigate the webview', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [agent('a1', 'See [the docs](https://example.com/docs) and [file](src/a.ts).')] }) });
  await panel.clearPosted();
  await page.getByRole('link', { name: 'the docs' }).click();
  await page.getByRole('link', { name: 'file' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'openLink', href: 'https://example.com/docs' },
    { type: 'openLink', href: 'src/a.ts' },
  ]);
  assert.equal(page.url().endsWith('/'), true);
  await page.close();
});
