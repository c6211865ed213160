/**
 * Row 10: a disk-writing agent (as Cline: it announces each edit with its input, writes the file
 * itself and reports completion, sending no diff) makes 500 edits, one file each. For every edit,
 * from the host's thread receiving the completing update to the frame after its card showed the
 * diff observed on disk ("seen on disk"): the reads and the line diff run off the streaming path,
 * and each diff must be painted within 100 ms of its completion.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { startScriptedSession, until } from './scriptedSession';
import { median, row, wallNow, type Row } from './stats';

export const OBSERVED_EDITS = 500;
const LINES = 200;

const original = (n: number): string => Array.from({ length: LINES }, (_, i) => `line ${i} of file ${n}`).join('\n') + '\n';
const edited = (n: number): string => original(n).replace(`line 100 of file ${n}`, `line 100 of file ${n}, edited`);

/** The page notes when each card first shows a diff seen on disk (the frame after it entered the DOM). */
const PROBE = `(() => {
  const seen = new Map();
  window.__observedPainted = seen;
  const mo = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      const badges = n.matches('.diff-observed') ? [n] : [...n.querySelectorAll('.diff-observed')];
      for (const b of badges) {
        if (b.textContent !== 'seen on disk') continue;
        const id = b.closest('[data-tool-call-id]')?.getAttribute('data-tool-call-id');
        if (id && !seen.has(id)) { seen.set(id, 0); requestAnimationFrame(() => seen.set(id, performance.timeOrigin + performance.now())); }
      }
    }
  });
  mo.observe(document.body, { subtree: true, childList: true });
})()`;

function script(): unknown {
  const steps: unknown[] = [];
  for (let n = 0; n < OBSERVED_EDITS; n++) {
    const path = `\${cwd}/files/f${n}.txt`;
    const id = `edit-${n}`;
    steps.push(
      {
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: id,
          kind: 'edit',
          status: 'pending',
          title: `editor: {"command":"replace","path":"${path}","old…`,
          rawInput: { command: 'replace', path, old_text: `line 100 of file ${n}`, new_text: `line 100 of file ${n}, edited` },
        },
      },
      // The time an agent takes to run the tool (Cline asks permission first).
      { sleep: 3 },
      { diskWrite: { path, content: edited(n) } },
      {
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: id,
          status: 'completed',
          rawOutput: { query: `edit:${path}`, result: `Edited ${path}`, success: true },
        },
      },
    );
  }
  return { turns: [{ steps, stopReason: 'end_turn' }] };
}

export interface ObservedRun {
  /** Completion → observed diff painted, per edit. */
  perEditMs: number[];
  totalSeconds: number;
}

export async function runObservedDiffs(harness: Harness): Promise<ObservedRun> {
  const scripted = await startScriptedSession(script());
  mkdirSync(join(scripted.dir, 'files'), { recursive: true });
  for (let n = 0; n < OBSERVED_EDITS; n++) writeFileSync(join(scripted.dir, 'files', `f${n}.txt`), original(n));
  try {
    const bridge = await openPanel(scripted.session, { harness });
    try {
      const completed = new Map<string, number>();
      const thread = scripted.session.view;
      const apply = thread.dispatch.bind(thread);
      thread.dispatch = (update) => {
        if (update.sessionUpdate === 'tool_call_update' && update.status === 'completed') completed.set(String(update.toolCallId), wallNow());
        apply(update);
      };
      await bridge.drained();
      await bridge.page.evaluate(PROBE);
      const started = wallNow();
      await scripted.session.prompt('edit them all');
      await until(() => completed.size === OBSERVED_EDITS, 'every edit to complete', 120_000);
      await bridge.page.waitForFunction(
        (count) => [...(window as unknown as { __observedPainted: Map<string, number> }).__observedPainted.values()].filter((t) => t > 0).length >= count,
        OBSERVED_EDITS,
        { timeout: 60_000, polling: 50 },
      );
      const painted = new Map(
        await bridge.page.evaluate(() => [...(window as unknown as { __observedPainted: Map<string, number> }).__observedPainted.entries()]),
      );
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      const perEditMs = [...completed].map(([id, at]) => {
        const shown = painted.get(id);
        if (shown === undefined || shown === 0) throw new Error(`no observed diff painted for ${id}`);
        return shown - at;
      });
      return { perEditMs, totalSeconds: (wallNow() - started) / 1000 };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}

/** `count` runs of runObservedDiffs as the bench's rows: the slowest edit of each run. */
export async function observedDiffRows(harness: Harness, count: number): Promise<Row[]> {
  const runs: ObservedRun[] = [];
  for (let i = 0; i < count; i++) runs.push(await runObservedDiffs(harness));
  return observedRows(runs);
}

function observedRows(runs: ObservedRun[]): Row[] {
  const worst = runs.map((r) => Math.max(...r.perEditMs));
  const p95 = runs.map((r) => [...r.perEditMs].sort((a, b) => a - b)[Math.floor(r.perEditMs.length * 0.95)]);
  return [
    row(
      `10. ${OBSERVED_EDITS} edits by a disk-writing agent: completion → observed diff painted (slowest edit)`,
      worst,
      'ms',
      { kind: 'max', value: 100 },
      `per run, the slowest of ${OBSERVED_EDITS} edits (${LINES}-line files, one changed line each; the agent sends no diff). ` +
        `Median edit ${median(runs.map((r) => median(r.perEditMs))).toFixed(0)} ms, p95 ${median(p95).toFixed(0)} ms; a run of ${median(runs.map((r) => r.totalSeconds)).toFixed(1)} s.`,
    ),
  ];
}
