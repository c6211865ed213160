/**
 * Item 3: a tool_call_update carrying a diff, timed from the moment the host's thread receives the
 * parsed update (before the hunks are computed) to the frame after the first diff row (or the
 * too-large note) entered the webview's DOM. Covers the host's line diff and hunk view
 * (src/session/diffContent.ts), the 16 ms batch, postMessage, the webview's render and its paint.
 * Sizes: 10,000 lines with 50 edits (3), 100,000 lines with 50 edits (3b), and a file over the
 * 5 MB inline limit (3c), which must be refused with "Open diff" offered.
 */
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { startScriptedSession, until } from './scriptedSession';
import { wallNow } from './stats';

export interface DiffCase {
  lines: number;
  edits: number;
  /** One line of the original file (without its newline). */
  line(i: number): string;
  /** The same line edited by the agent. */
  edited(i: number): string;
  /** The case is over the inline limit: expect the refusal, not rows. */
  refused?: boolean;
}

export const TEN_THOUSAND: DiffCase = {
  lines: 10_000,
  edits: 50,
  line: (i) => `export const value${i} = compute(${i}, 'line ${i} of the original file');`,
  edited: (i) => `export const value${i} = computeFaster(${i} * 2, 'line ${i} edited by the agent');`,
};

/** About 4.2 MB per side: under the 5 MB inline limit. */
export const HUNDRED_THOUSAND: DiffCase = {
  lines: 100_000,
  edits: 50,
  line: (i) => `export const v${i} = f(${i}, 'line ${i}');`,
  edited: (i) => `export const v${i} = g(${i} * 2, 'edited');`,
};

/** About 5.6 MB per side: over the limit. */
export const OVER_LIMIT: DiffCase = { ...HUNDRED_THOUSAND, lines: 130_000, refused: true };

export function bigFile(c: DiffCase = TEN_THOUSAND): { oldText: string; newText: string } {
  const oldLines: string[] = [];
  for (let i = 0; i < c.lines; i++) oldLines.push(c.line(i));
  const newLines = [...oldLines];
  const step = c.lines / c.edits;
  for (let k = 0; k < c.edits; k++) {
    const at = Math.floor(k * step + step / 2);
    newLines[at] = c.edited(at);
  }
  return { oldText: oldLines.join('\n') + '\n', newText: newLines.join('\n') + '\n' };
}

/** Installed in the page before the update: notes when the diff arrives and when `selector` is painted. */
const probe = (selector: string): string => `(() => {
  const probe = { done: 0, rows: 0, arrived: 0, note: '', openDiff: 0 };
  window.__benchProbe = probe;
  // When the host's post carrying the diff reaches the page (before the panel handles it).
  window.addEventListener('message', (e) => {
    const now = performance.timeOrigin + performance.now();
    const d = e.data;
    const list = d && d.type === 'batch' ? d.messages : [d];
    const hasDiff = list.some((m) => m && m.type === 'entryUpserted' && Array.isArray(m.entry.content) && m.entry.content.some((c) => c.type === 'diff'));
    if (!probe.arrived && hasDiff) probe.arrived = now;
  }, true);
  const selector = ${JSON.stringify(selector)};
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && (n.matches(selector) || n.querySelector(selector))) {
          mo.disconnect();
          requestAnimationFrame(() => {
            probe.done = performance.timeOrigin + performance.now();
            probe.rows = document.querySelectorAll('.diff-line').length;
            probe.note = document.querySelector('.diff-too-large')?.textContent ?? '';
            probe.openDiff = [...document.querySelectorAll('.diff button')].filter((b) => b.textContent.trim() === 'Open diff').length;
          });
          return;
        }
      }
    }
  });
  mo.observe(document.body, { subtree: true, childList: true });
})()`;

export interface DiffRun {
  ms: number;
  rows: number;
  deliveryMs: number;
  pageMs: number;
  /** Characters of the host → panel message that carried the diff. */
  messageChars: number;
}

export async function runDiff(harness: Harness, c: DiffCase = TEN_THOUSAND): Promise<DiffRun> {
  const { oldText, newText } = bigFile(c);
  const scripted = await startScriptedSession({
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit big.ts', kind: 'edit', status: 'in_progress' } },
          { sleep: 300 },
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'edit-1',
              status: 'completed',
              content: [{ type: 'diff', path: '${cwd}/big.ts', oldText, newText }],
            },
          },
        ],
        stopReason: 'end_turn',
      },
    ],
  });
  try {
    const bridge = await openPanel(scripted.session, { harness });
    try {
      let start = 0;
      let messageChars = 0;
      // The clock starts when the thread gets the update, before the host computes its hunks.
      const thread = scripted.session.view;
      const apply = thread.dispatch.bind(thread);
      thread.dispatch = (update) => {
        if (start === 0 && update.sessionUpdate === 'tool_call_update' && Array.isArray(update.content)) start = wallNow();
        apply(update);
      };
      scripted.session.onMessage((m) => {
        if (messageChars === 0 && m.type === 'entryUpserted' && m.entry.kind === 'tool_call' && m.entry.content.some((x) => x.type === 'diff'))
          messageChars = JSON.stringify(m).length;
      });
      await bridge.drained();
      await bridge.page.evaluate(probe(c.refused ? '.diff-too-large' : '.diff-line'));
      await scripted.session.prompt('edit it');
      await until(() => start > 0, 'the diff update');
      await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, {
        timeout: 30_000,
        polling: 20,
      });
      const shown = await bridge.page.evaluate(
        () => (window as unknown as { __benchProbe: { done: number; rows: number; arrived: number; note: string; openDiff: number } }).__benchProbe,
      );
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      if (c.refused) {
        if (shown.rows > 0 || !/over the 5 MB limit/.test(shown.note) || shown.openDiff !== 1)
          throw new Error(`not refused as expected: ${shown.rows} rows, note "${shown.note}", ${shown.openDiff} Open diff buttons`);
      } else if (shown.rows < 2 * c.edits) {
        // One-line edits: a removed and an added row each at least (plus context); anything less is not the diff.
        throw new Error(`only ${shown.rows} diff rows painted`);
      }
      return { ms: shown.done - start, rows: shown.rows, deliveryMs: shown.arrived - start, pageMs: shown.done - shown.arrived, messageChars };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}
