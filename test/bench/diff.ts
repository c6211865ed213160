/**
 * Item 3: a tool_call_update carrying a diff of a 10,000-line file edited in 50 places, timed from
 * the moment the host turns the update into a message (AgentSession → onMessage) to the frame after
 * the first diff row entered the webview's DOM. Covers the 16 ms batch, postMessage, the webview's
 * diff computation (diffModel.ts, in the page) and its first paint.
 */
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { startScriptedSession, until } from './scriptedSession';
import { wallNow } from './stats';

const LINES = 10_000;
const EDITS = 50;

export function bigFile(): { oldText: string; newText: string } {
  const oldLines: string[] = [];
  for (let i = 0; i < LINES; i++) oldLines.push(`export const value${i} = compute(${i}, 'line ${i} of the original file');`);
  const newLines = [...oldLines];
  const step = LINES / EDITS;
  for (let k = 0; k < EDITS; k++) {
    const at = Math.floor(k * step + step / 2);
    newLines[at] = `export const value${at} = computeFaster(${at} * 2, 'line ${at} edited by the agent');`;
  }
  return { oldText: oldLines.join('\n') + '\n', newText: newLines.join('\n') + '\n' };
}

const PROBE = `(() => {
  const probe = { done: 0, rows: 0, arrived: 0 };
  window.__benchProbe = probe;
  // When the host's post carrying the diff reaches the page (before the panel handles it).
  window.addEventListener('message', (e) => {
    const now = performance.timeOrigin + performance.now();
    const d = e.data;
    const list = d && d.type === 'batch' ? d.messages : [d];
    const hasDiff = list.some((m) => m && m.type === 'entryUpserted' && Array.isArray(m.entry.content) && m.entry.content.some((c) => c.type === 'diff'));
    if (!probe.arrived && hasDiff) probe.arrived = now;
  }, true);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && (n.matches('.diff-line') || n.querySelector('.diff-line'))) {
          mo.disconnect();
          requestAnimationFrame(() => {
            probe.done = performance.timeOrigin + performance.now();
            probe.rows = document.querySelectorAll('.diff-line').length;
          });
          return;
        }
      }
    }
  });
  mo.observe(document.body, { subtree: true, childList: true });
})()`;

export async function runDiff(harness: Harness): Promise<{ ms: number; rows: number; deliveryMs: number; pageMs: number }> {
  const { oldText, newText } = bigFile();
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
      scripted.session.onMessage((m) => {
        if (start === 0 && m.type === 'entryUpserted' && m.entry.kind === 'tool_call' && m.entry.content.some((c) => c.type === 'diff')) start = wallNow();
      });
      await bridge.drained();
      await bridge.page.evaluate(PROBE);
      await scripted.session.prompt('edit it');
      await until(() => start > 0, 'the diff update');
      await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, { timeout: 30_000, polling: 20 });
      const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: { done: number; rows: number; arrived: number } }).__benchProbe);
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      // 50 one-line edits: 50 removed + 50 added rows at least (plus context) — anything less is not the diff.
      if (probe.rows < 2 * EDITS) throw new Error(`only ${probe.rows} diff rows painted`);
      return { ms: probe.done - start, rows: probe.rows, deliveryMs: probe.arrived - start, pageMs: probe.done - probe.arrived };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}

