/**
 * Rows for the protocol inspector's page, made inside the page (100,000 rows are far cheaper to
 * build there than to serialise through Playwright) and posted in chunks of 2,000 as the host does (src/inspector/inspectorFeed.ts).
 */
import type { Page } from 'playwright-core';

export interface RowsSpec {
  count: number;
  /** The first seq (default 1). */
  from?: number;
  /** The first chunk replaces what is shown (a snapshot). */
  reset?: boolean;
}

/** Every 10th message is a tool_call_update, every 100th a request/response pair, two sessions. */
export async function postRows(page: Page, spec: RowsSpec): Promise<void> {
  await page.evaluate(
    ({ count, from, reset }) => {
      const kinds = [
        'agent_message_chunk',
        'agent_thought_chunk',
        'agent_message_chunk',
        'agent_message_chunk',
        'plan',
        'agent_message_chunk',
        'agent_message_chunk',
        'usage_update',
        'agent_message_chunk',
        'tool_call_update',
      ];
      let chunk: unknown[] = [];
      let first = reset;
      const t0 = Date.UTC(2025, 0, 1);
      for (let i = 0; i < count; i++) {
        const seq = from + i;
        const session = seq % 2 === 0 ? 'session-even' : 'session-odd';
        if (seq % 100 === 0) {
          const text = JSON.stringify({
            jsonrpc: '2.0',
            id: seq,
            method: 'session/prompt',
            params: { sessionId: session, prompt: [{ type: 'text', text: `prompt ${seq}` }] },
          });
          chunk.push({
            seq,
            t: t0 + seq,
            dir: 'out',
            agent: 'Bench',
            conn: 1,
            kind: 'request',
            method: 'session/prompt',
            id: String(seq),
            session,
            size: text.length,
            text,
            pair: seq + 1,
            ms: 3,
          });
        } else if (seq % 100 === 1 && seq > 1) {
          const text = JSON.stringify({ jsonrpc: '2.0', id: seq - 1, result: { stopReason: 'end_turn' } });
          chunk.push({
            seq,
            t: t0 + seq,
            dir: 'in',
            agent: 'Bench',
            conn: 1,
            kind: 'response',
            method: 'session/prompt',
            id: String(seq - 1),
            session,
            size: text.length,
            text,
            pair: seq - 1,
            ms: 3,
          });
        } else {
          const update = kinds[seq % 10];
          const text = JSON.stringify({
            jsonrpc: '2.0',
            method: 'session/update',
            params: {
              sessionId: session,
              update: { sessionUpdate: update, toolCallId: `call-${seq}`, content: { type: 'text', text: `message number ${seq} with some words in it` } },
            },
          });
          chunk.push({
            seq,
            t: t0 + seq,
            dir: 'in',
            agent: 'Bench',
            conn: 1,
            kind: 'notification',
            method: 'session/update',
            update,
            session,
            size: text.length,
            text,
          });
        }
        if (chunk.length === 2000 || i === count - 1) {
          window.postMessage({ type: 'rows', rows: chunk, reset: first, dropped: 0 }, '*');
          first = false;
          chunk = [];
        }
      }
    },
    { count: spec.count, from: spec.from ?? 1, reset: spec.reset ?? false },
  );
}

/** Starts collecting long tasks (> 50 ms) in `window.__longTasks`. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

export const longTasks = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));

/** Resolves when the status line says `text` (it is announced at most once a second). */
export async function waitForStatus(page: Page, text: RegExp, timeout = 20_000): Promise<string> {
  await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('.status')?.textContent ?? ''), text.source, { timeout });
  return (await page.textContent('.status')) ?? '';
}

/** Scrolls the grid from the top to the end in `jumps` steps, a frame's wait after each. */
export async function scrollThrough(page: Page, settle: () => Promise<void>, jumps = 20): Promise<void> {
  const viewport = page.locator('.grid-viewport');
  for (let k = 0; k <= jumps; k++) {
    await viewport.evaluate((el, f) => {
      el.scrollTop = f * (el.scrollHeight - el.clientHeight);
    }, k / jumps);
    await settle();
  }
}
