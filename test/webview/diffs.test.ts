/**
 * Inline diffs in real Chromium: hunks as the host builds them (DiffRecord), collapsed regions
 * whose lines the panel asks the host for (answered here from the same record), by mouse and by
 * keyboard, the rest of a long change, a failed fetch, the too-large message, live replacement.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DiffContentView, WebviewMessage } from '../../src/protocol/messages';
import { DIFF_INLINE_MAX_BYTES } from '../../src/protocol/messages';
import { DiffRecord } from '../../src/thread/diffContent';
import { snapshot, toolCall } from './harness/fixtures';
import { useHarness, type Panel } from './harness/harness';
import { openPanel } from '../support/panelBridge';
import { scriptedSession } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';

const harness = useHarness();

type Fetch = Extract<WebviewMessage, { type: 'fetchDiffLines' }>;

const record = (path: string, oldText: string | null, newText: string) => new DiffRecord({ type: 'diff', path, oldText, newText });
const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');

/** Waits for the panel's next request for diff lines and returns it (requests seen are cleared). */
async function nextFetch(panel: Panel): Promise<Fetch> {
  await panel.page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'fetchDiffLines'));
  const fetches = (await panel.posted()).filter((m): m is Fetch => m.type === 'fetchDiffLines');
  await panel.clearPosted();
  assert.equal(fetches.length, 1, 'one request per click');
  return fetches[0];
}

/** Answers a request as the host does (Thread.diffLines) from the record behind the view. */
async function answer(panel: Panel, fetch: Fetch, from: DiffRecord): Promise<void> {
  const result = from.lines(fetch.diffId, fetch.row, fetch.count);
  if ('error' in result) await panel.post({ type: 'diffLines', requestId: fetch.requestId, lines: [], oldLine: 0, newLine: 0, error: result.error });
  else await panel.post({ type: 'diffLines', requestId: fetch.requestId, ...result });
}

const numbers = (panel: Panel, selector: string, column: 0 | 1) =>
  panel.page.locator(`${selector} [data-line-type]`).evaluateAll((els, c) => els.map((e) => e.querySelectorAll('.diff-ln')[c]?.textContent ?? ''), column);

test('diff: line types, numbers, word highlights, collapsed regions fetched by mouse and keyboard, Open diff, live replace', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const oldLines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
  const newLines = [...oldLines];
  newLines[4] = 'line 5 changed';
  newLines.splice(30, 0, 'inserted');
  const source = record('/w/src/a.ts', text(oldLines), text(newLines));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('c1', { toolKind: 'edit', content: [source.view] })] }) });
  const region = page.getByRole('region', { name: /^Diff/ });
  assert.equal(await region.getAttribute('data-path'), '/w/src/a.ts');
  const types = await region.locator('[data-line-type]').evaluateAll((els) => els.map((e) => e.getAttribute('data-line-type')));
  assert.equal(types.filter((t) => t === 'added').length, 2);
  assert.equal(types.filter((t) => t === 'removed').length, 1);
  assert.equal(types.length, 15, 'only hunks with three lines of context are shown');
  assert.equal(await region.locator('[data-line-type="added"] .word-added').first().textContent(), ' changed');
  assert.match(String(await region.locator('[data-line-type="removed"]').textContent()), /^5\s*-line 5$/);
  assert.match(String(await region.locator('.diff-stats').textContent()), /\+2\s*−1/);
  // Collapsed regions: line 1, lines 9..27 between the hunks, and the last 7 lines.
  const gaps = region.locator('.diff-gap');
  assert.deepEqual(await gaps.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-hidden-lines')))), [1, 19, 7]);

  // Mouse: the middle region asks the host for its rows and shows them in place.
  await panel.clearPosted();
  await gaps.nth(1).getByRole('button', { name: 'Show 19 unchanged lines' }).click();
  const middle = await nextFetch(panel);
  assert.deepEqual(
    { ...middle, requestId: 0 },
    { type: 'fetchDiffLines', requestId: 0, entryId: 'c1', index: 0, diffId: source.view.diffId, row: 9, count: 19, conversationId: 'c1' },
  );
  await answer(panel, middle, source);
  assert.equal(await region.locator('[data-line-type]').count(), 15 + 19);
  assert.equal(await region.locator('.diff-gap').count(), 2);
  assert.deepEqual(
    (await numbers(panel, '[role="region"]', 0)).filter(Boolean).map(Number).slice(0, 29),
    Array.from({ length: 29 }, (_, i) => i + 2),
    'old line numbers run on through the revealed region',
  );

  // Keyboard: Tab to the first region's button, Enter; once all its lines are shown focus moves to the first of them.
  await region.getByRole('button', { name: 'Show 1 unchanged line' }).focus();
  await page.keyboard.press('Enter');
  await answer(panel, await nextFetch(panel), source);
  assert.equal(await region.locator('.diff-gap').count(), 1);
  assert.deepEqual(
    await page.evaluate(() => [document.activeElement?.getAttribute('data-line-type'), document.activeElement?.querySelector('.diff-code')?.textContent]),
    ['context', 'line 1'],
  );
  // Tab goes on past each hunk's "Note" button (a review note on it) to the next region.
  const active = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  await page.keyboard.press('Tab');
  for (let i = 0; i < 2 && (await active()) === 'Note'; i++) await page.keyboard.press('Tab');
  assert.equal(await active(), 'Show 7 unchanged lines', 'Tab goes on to the next region');
  await page.keyboard.press(' ');
  await answer(panel, await nextFetch(panel), source);
  assert.equal(await region.locator('.diff-gap').count(), 0);
  assert.equal(await region.locator('[data-line-type]').count(), 41 + 1, 'every line of the file (one removed, two added)');
  assert.deepEqual((await numbers(panel, '[role="region"]', 1)).slice(-3), ['39', '40', '41']);

  await panel.clearPosted();
  await region.getByRole('button', { name: 'Open diff' }).click();
  await region.getByRole('button', { name: 'Open /w/src/a.ts' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'openDiff', entryId: 'c1', index: 0 },
    { type: 'openLocation', path: '/w/src/a.ts', line: 5 },
  ]);
  // A new file joins (oldText null): all added; the unchanged first diff keeps what was opened.
  const added = record('/w/new.ts', null, 'a\nb\n');
  await panel.post({ type: 'entryUpserted', entry: toolCall('c1', { toolKind: 'edit', content: [source.view, added.view] }) });
  const newRegion = page.locator('[role="region"][data-path="/w/new.ts"]');
  assert.deepEqual(await newRegion.locator('[data-line-type]').evaluateAll((els) => els.map((e) => e.getAttribute('data-line-type'))), ['added', 'added']);
  assert.match(String(await newRegion.locator('.diff-stats').textContent()), /New file/);
  assert.equal(await page.locator('[role="region"][data-path="/w/src/a.ts"] [data-line-type]').count(), 42, 'the unchanged first diff was not re-rendered');
  // New texts for the same file: a new view replaces it, collapsed again.
  const edited = record('/w/src/a.ts', text(oldLines), text(newLines.map((l) => (l === 'line 20' ? 'line twenty' : l))));
  await panel.post({ type: 'entryUpserted', entry: toolCall('c1', { toolKind: 'edit', content: [edited.view, added.view] }) });
  assert.equal(await page.locator('[role="region"][data-path="/w/src/a.ts"] .diff-gap').count(), 4);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('diff: the rest of a long change comes in steps; keyboard focus stays on the button', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const source = record('/w/big-new.ts', null, text(Array.from({ length: 1000 }, (_, i) => `row ${i + 1}`)));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('c1', { toolKind: 'edit', content: [source.view] })] }) });
  const region = page.locator('[role="region"][data-path="/w/big-new.ts"]');
  assert.equal(await region.locator('[data-line-type="added"]').count(), 200);
  await region.getByRole('button', { name: 'Show 200 more of 800 lines of this change' }).focus();
  const more = region.locator('.diff-gap button');
  await panel.clearPosted();
  await page.keyboard.press('Enter');
  const fetch = await nextFetch(panel);
  assert.deepEqual([fetch.row, fetch.count], [200, 200]);
  assert.equal(await more.getAttribute('aria-busy'), 'true', 'busy while the host answers');
  await page.keyboard.press('Enter');
  await panel.settle();
  assert.equal((await panel.posted()).filter((m) => m.type === 'fetchDiffLines').length, 0, 'no second request while one is out');
  await answer(panel, fetch, source);
  assert.equal(await region.locator('[data-line-type="added"]').count(), 400);
  assert.deepEqual((await numbers(panel, '[data-path="/w/big-new.ts"]', 1)).slice(199, 201), ['200', '201']);
  assert.equal(await region.locator('.diff-gap').getAttribute('data-hidden-lines'), '600');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Show 200 more of 600 lines of this change');
  assert.equal(await more.getAttribute('aria-busy'), null);
  await page.close();
});

test('diff: lines the host cannot give any more are said so, in place of the button', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
  const source = record('/w/gone.ts', text(lines), text(lines.map((l, i) => (i === 20 ? 'changed' : l))));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('c1', { toolKind: 'edit', content: [source.view] })] }) });
  await panel.clearPosted();
  await page.getByRole('button', { name: 'Show 17 unchanged lines' }).click();
  const fetch = await nextFetch(panel);
  await panel.post({ type: 'diffLines', requestId: fetch.requestId, lines: [], oldLine: 0, newLine: 0, error: 'This diff changed since it was shown.' });
  assert.match(String(await page.locator('.diff-gap').first().textContent()), /These lines cannot be shown: This diff changed since it was shown\./);
  assert.equal(await page.getByRole('button', { name: 'Show 17 unchanged lines' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Show 6 unchanged lines' }).count(), 1, 'the other region is untouched');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('diff: a file over the size limit is refused inline with a clear message; Open diff still works', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const source = record('/w/huge.json', 'x\n', 'y'.repeat(DIFF_INLINE_MAX_BYTES + 300_000));
  const view: DiffContentView = source.view;
  assert.ok(JSON.stringify(view).length < 500, 'the view carries no text');
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('c1', { toolKind: 'edit', content: [view] })] }) });
  const region = page.locator('[role="region"][data-path="/w/huge.json"]');
  assert.equal(
    await region.getByRole('note').textContent(),
    ' This file is 5.3 MB, over the 5 MB limit for diffs shown here. Open diff shows it in the editor.',
  );
  assert.match(String(await region.locator('.diff-stats').textContent()), /Too large to show here/);
  assert.equal(await region.locator('[data-line-type]').count(), 0);
  await panel.clearPosted();
  await region.getByRole('button', { name: 'Open diff' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'openDiff', entryId: 'c1', index: 0 }]);
  await page.close();
});

test('diff: a 10,000-line file with 50 scattered changes renders only what is shown', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const oldLines = Array.from({ length: 10_000 }, (_, i) => `const value${i} = ${i}; // unchanged line`);
  const newLines = oldLines.map((l, i) => (i % 200 === 100 ? l.replace('unchanged', 'edited') : l));
  const source = record('/w/big.ts', oldLines.join('\n'), newLines.join('\n'));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('c1', { toolKind: 'edit', content: [source.view] })] }) });
  const region = page.locator('[role="region"][data-path="/w/big.ts"]');
  assert.equal(await region.locator('[data-line-type="added"]').count(), 50);
  assert.equal(await region.locator('[data-line-type="removed"]').count(), 50);
  assert.equal(await region.locator('[data-line-type]').count(), 50 * 8);
  assert.equal(await region.locator('.diff-gap').count(), 51);
  assert.equal(await region.locator('.word-added').first().textContent(), 'edited');
  await page.close();
});

test('diff through the real host: a scripted agent edits, the panel opens a collapsed region, the thread answers', async () => {
  await ensureScriptedAgentBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tandem-diffs-'));
  const lines = Array.from({ length: 300 }, (_, i) => `const n${i} = ${i};`);
  const edited = lines.map((l, i) => (i === 150 ? 'const n150 = "edited";' : l));
  const { session } = scriptedSession(dir, {
    turns: [
      {
        steps: [
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'e1',
              title: 'Edit a.ts',
              kind: 'edit',
              status: 'completed',
              content: [{ type: 'diff', path: '${cwd}/a.ts', oldText: text(lines), newText: text(edited) }],
            },
          },
        ],
      },
    ],
  });
  try {
    await session.start();
    const bridge = await openPanel(session, { harness: harness() });
    try {
      await session.prompt('edit');
      await bridge.drained();
      const region = bridge.page.getByRole('region', { name: /^Diff of .*a\.ts$/ });
      await region.locator('[data-line-type]').first().waitFor();
      assert.equal(await region.locator('[data-line-type]').count(), 8);
      await region.getByRole('button', { name: 'Show 50 more of 147 unchanged lines' }).click();
      await region.getByRole('button', { name: 'Show 50 more of 97 unchanged lines' }).waitFor();
      assert.equal(await region.locator('[data-line-type]').count(), 58);
      assert.equal(await region.locator('[data-line-type]').first().locator('.diff-code').textContent(), 'const n0 = 0;');
      assert.deepEqual([bridge.hostErrors, bridge.panel.errors], [[], []]);
    } finally {
      await bridge.close();
    }
  } finally {
    session.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
