/**
 * The protocol inspector's page (dist/inspector.js) in real headless Chromium behind the same CSP as
 * in VS Code, fed as the host feeds it: 100,000 messages listed, filtered and scrolled through a
 * virtualised ARIA grid (long tasks are collected with a PerformanceObserver and logged; their
 * figures belong to the bench, test/bench/inspector.ts); keyboard navigation; pairs, warnings,
 * huge payloads with "Show all", pause, clear, copy, the session focus; in Chinese too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INSPECTOR_PROTOCOL_VERSION, type InspectorHostMessage, type WireRowView } from '../../src/protocol/inspectorMessages';
import { useHarness, type Panel } from './harness/harness';
import { longTasks, postRows, scrollThrough, waitForStatus, watchLongTasks } from './harness/inspectorRows';

const harness = useHarness();
const PAGE = '/harness/inspector/index.html';

async function open(options: { language?: string; height?: number } = {}): Promise<Panel> {
  const panel = await harness().open({ path: PAGE, width: 1100, height: options.height ?? 700, language: options.language });
  assert.deepEqual(await panel.posted(), [{ type: 'ready', protocolVersion: INSPECTOR_PROTOCOL_VERSION }]);
  return panel;
}

const post = (panel: Panel, m: InspectorHostMessage) => panel.post(m as never);

const row = (seq: number, fields: Partial<WireRowView> = {}): WireRowView => {
  const text =
    fields.text ??
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `hello ${seq}` } } },
    });
  return {
    seq,
    t: Date.UTC(2025, 0, 1, 12, 0, 0, seq),
    dir: 'in',
    agent: 'A',
    conn: 1,
    kind: 'notification',
    method: 'session/update',
    update: 'agent_message_chunk',
    session: 's1',
    size: text.length,
    text,
    ...fields,
  };
};

test('100,000 messages: listed in a virtualised grid, filtered and scrolled, with few rows in the DOM', { timeout: 120_000 }, async () => {
  const panel = await open();
  try {
    await postRows(panel.page, { count: 100_000, reset: true });
    await waitForStatus(panel.page, /^100,000 of 100,000 messages$/);
    const grid = panel.page.locator('[role="grid"]');
    assert.equal(await grid.getAttribute('aria-rowcount'), '100001');
    const domRows = await panel.page.locator('.grid-viewport [role="row"]:not([hidden])').count();
    assert.ok(domRows > 10 && domRows < 80, `${domRows} rows in the DOM`);
    await watchLongTasks(panel.page);

    // Text filter: every 10th message is a tool_call_update (none of the pairs).
    await panel.page.fill('input[type="search"]', 'tool_call_update');
    await waitForStatus(panel.page, /^10,000 of 100,000 messages$/);
    assert.equal(await grid.getAttribute('aria-rowcount'), '10001');
    const first = panel.page.locator('.grid-viewport [role="row"]:not([hidden])').first();
    assert.match((await first.textContent()) ?? '', /session\/update · tool_call_update/);

    // Method and direction pickers; both sessions; "problems only" (none yet).
    await panel.page.fill('input[type="search"]', '');
    await panel.page.selectOption('select[aria-label="Filter by method"]', 'session/prompt');
    await waitForStatus(panel.page, /^1,999 of 100,000 messages$/);
    await panel.page.selectOption('select[aria-label="Filter by direction"]', 'out');
    await waitForStatus(panel.page, /^1,000 of 100,000 messages$/);
    await panel.page.selectOption('select[aria-label="Filter by method"]', '');
    await panel.page.selectOption('select[aria-label="Filter by direction"]', '');
    await panel.page.selectOption('select[aria-label="Filter by session"]', 'session-even');
    await waitForStatus(panel.page, /^50,000 of 100,000 messages$/);
    await panel.page.check('#problems-only');
    await waitForStatus(panel.page, /^0 of 100,000 messages$/);
    await panel.settle();
    assert.equal(await panel.page.locator('.grid-viewport [role="row"]:visible').count(), 0, 'pooled rows out of use are not shown');
    await panel.page.uncheck('#problems-only');
    await panel.page.selectOption('select[aria-label="Filter by session"]', '');
    await waitForStatus(panel.page, /^100,000 of 100,000 messages$/);

    // Scroll from the top to the end in 20 jumps: the rows in view are the right ones, few exist.
    await scrollThrough(panel.page, panel.settle);
    const last = await panel.page.evaluate(() => {
      const rows = [...document.querySelectorAll<HTMLElement>('.grid-viewport [role="row"]:not([hidden])')];
      return Math.max(...rows.map((r) => Number(r.getAttribute('aria-rowindex'))));
    });
    assert.equal(last, 100_001, 'the last message is rendered at the end');
    assert.ok((await panel.page.locator('.grid-viewport [role="row"]').count()) < 100);
    console.log(`long tasks while filtering and scrolling 100k rows: ${JSON.stringify(await longTasks(panel.page))}`);
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  } finally {
    await panel.page.close();
  }
});

test('keyboard: arrows, Home/End and Enter move through the grid and open the message; pairs and warnings show', { timeout: 60_000 }, async () => {
  const panel = await open();
  try {
    const request = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } });
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { stopReason: 'done' } });
    await post(panel, {
      type: 'batch',
      messages: [
        {
          type: 'rows',
          reset: true,
          dropped: 12,
          rows: [
            row(1),
            row(2, { dir: 'out', kind: 'request', method: 'session/prompt', update: undefined, id: '7', text: request, size: request.length }),
            row(3),
          ],
        },
        {
          type: 'rows',
          dropped: 12,
          rows: [row(4, { kind: 'response', method: 'session/prompt', update: undefined, id: '7', text: answer, size: answer.length, pair: 2, ms: 41 })],
        },
        { type: 'paired', pairs: [{ seq: 2, pair: 4, ms: 41 }] },
        { type: 'warnings', warnings: [{ seq: 4, rule: 'stop-reason', severity: 'error', text: 'Stop reason "done" is not one of end_turn, max_tokens.' }] },
      ],
    });
    await waitForStatus(panel.page, /^4 of 4 messages · 12 older messages dropped/);
    const grid = panel.page.locator('[role="grid"]');
    await grid.focus();
    await panel.page.keyboard.press('Home');
    const activeIndex = async () =>
      panel.page.evaluate(() =>
        document.getElementById(document.querySelector('[role="grid"]')!.getAttribute('aria-activedescendant') ?? '')?.getAttribute('aria-rowindex'),
      );
    assert.equal(await activeIndex(), '2');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await activeIndex(), '3');
    assert.match((await panel.page.textContent('.detail-heading')) ?? '', /To the agent: session\/prompt \(request\)/);
    assert.match((await panel.page.textContent('.detail-facts')) ?? '', /Latency41 ms/);
    await panel.page.keyboard.press('End');
    assert.equal(await activeIndex(), '5');
    const lastRow = panel.page.locator('#msg-4');
    assert.equal(await lastRow.getAttribute('aria-selected'), 'true');
    assert.match((await lastRow.getAttribute('class')) ?? '', /has-error/);
    assert.match((await panel.page.textContent('.detail-warnings')) ?? '', /stop-reason Stop reason "done"/);
    assert.match((await panel.page.textContent('.detail-json')) ?? '', /"stopReason": "done"/);
    await panel.page.keyboard.press('Enter');
    assert.equal(await panel.page.evaluate(() => document.activeElement?.className), 'detail-json', 'Enter opens the message');
    await panel.page.click('text=Go to the request');
    assert.equal(await activeIndex(), '3');
    await panel.clearPosted();
    await panel.page.click('.detail-actions >> text=Copy');
    assert.deepEqual(await panel.posted(), [{ type: 'copy', seq: 2 }]);
  } finally {
    await panel.page.close();
  }
});

test('a huge message shows its start, "Show all" fetches the rest; pause, clear and the session focus', { timeout: 60_000 }, async () => {
  const panel = await open();
  try {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: Array.from({ length: 3000 }, (_, i) => `line ${i}`) } });
    await post(panel, {
      type: 'rows',
      reset: true,
      dropped: 0,
      rows: [row(1, { kind: 'response', method: 'fs/read_text_file', update: undefined, id: '1', text: big.slice(0, 4096), cut: true, size: big.length })],
    });
    await panel.page.locator('[role="grid"]').focus();
    await panel.page.keyboard.press('Home');
    const start = (await panel.page.textContent('.detail-json')) ?? '';
    assert.ok(start.endsWith('…') && start.includes('"line 377"') && !start.includes('"line 2999"'), 'the start of the message, marked as cut');
    await panel.clearPosted();
    await panel.page.click('text=Show all');
    assert.deepEqual(await panel.posted(), [{ type: 'fetch', seq: 1 }]);
    await post(panel, { type: 'message', seq: 1, text: big });
    const shown = (await panel.page.textContent('.detail-json')) ?? '';
    assert.match(shown, /"line 2999"/, 'the whole message, pretty-printed');

    await panel.page.click('text=Pause');
    await post(panel, { type: 'rows', dropped: 0, rows: [row(2), row(3, { session: 's2' })] });
    await waitForStatus(panel.page, /^1 of 1 messages · paused: 2 new$/);
    await panel.page.click('text=Resume');
    await waitForStatus(panel.page, /^3 of 3 messages$/);
    await post(panel, { type: 'focus', session: 's2' });
    await waitForStatus(panel.page, /^1 of 3 messages$/);
    assert.equal(await panel.page.inputValue('select[aria-label="Filter by session"]'), 's2');
    await panel.clearPosted();
    await panel.page.click('text=Clear');
    assert.deepEqual(await panel.posted(), [{ type: 'clear' }]);
    await post(panel, { type: 'rows', reset: true, dropped: 0, rows: [] });
    await waitForStatus(panel.page, /^0 of 0 messages$/);
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  } finally {
    await panel.page.close();
  }
});

test('in Chinese: the toolbar, the grid and the details speak the display language', { timeout: 60_000 }, async () => {
  const panel = await open({ language: 'zh-cn' });
  try {
    await post(panel, { type: 'rows', reset: true, dropped: 0, rows: [row(1)] });
    await waitForStatus(panel.page, /^1 \/ 1 条消息$/);
    assert.equal(await panel.page.getAttribute('[role="grid"]', 'aria-label'), '协议消息');
    assert.match((await panel.page.textContent('.toolbar')) ?? '', /暂停/);
    assert.match((await panel.page.textContent('.grid-viewport')) ?? '', /← 来自智能体/);
  } finally {
    await panel.page.close();
  }
});

test("the host's versionMismatch replaces the inspector with a notice whose Reload asks the host to reload the page", async () => {
  const panel = await open();
  const { page } = panel;
  await panel.post({ type: 'versionMismatch', hostVersion: INSPECTOR_PROTOCOL_VERSION + 1, panelVersion: INSPECTOR_PROTOCOL_VERSION } as never);
  const notice = page.getByRole('alert');
  assert.equal(await notice.count(), 1);
  assert.match(
    String(await notice.textContent()),
    new RegExp(`panel ${INSPECTOR_PROTOCOL_VERSION}, extension ${INSPECTOR_PROTOCOL_VERSION + 1}.*Reload the view`),
  );
  assert.equal(await page.getByRole('grid').count(), 0);
  await panel.clearPosted();
  await notice.getByRole('button', { name: 'Reload' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'reloadView' }]);
  // Whatever the host sends afterwards is not applied.
  await post(panel, { type: 'rows', rows: [row(1)], reset: true, dropped: 0 });
  assert.equal(await page.getByRole('alert').count(), 1);
  assert.equal(await page.getByRole('grid').count(), 0);
  assert.deepEqual(panel.errors, []);
});
