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
/** From announcing an edit to writing the file: a fast tool, auto-approved (25 edits a second, faster than any model writes them). */
const TOOL_MS = 40;

const original = (n: number): string => Array.from({ length: LINES }, (_, i) => `line ${i} of file ${n}`).join('\n') + '\n';
const edited = (n: number): string => original(n).replace(`line 100 of file ${n}`, `line 100 of file ${n}, edited`);

/** The page notes when each card first shows a diff seen on disk (the frame after it entered the DOM). */
const PROBE = `(() => {
  const seen = new Map();
  window.__observedPainted = seen;
  const arrived = new Map();
  window.__observedArrived = arrived;
  window.addEventListener('message', (e) => {
    const now = performance.timeOrigin + performance.now();
    const list = e.data && e.data.type === 'batch' ? e.data.messages : [e.data];
    for (const m of list) {
      if (m && m.type === 'entryUpserted' && m.entry.kind === 'tool_call' && !arrived.has(m.entry.toolCallId) && m.entry.content.some((c) => c.type === 'diff' && c.observed === 'disk')) arrived.set(m.entry.toolCallId, now);
    }
  }, true);
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
      // The time the tool takes before it writes (Cline also asks permission first, unless auto-approving).
      { sleep: TOOL_MS },
      { diskWrite: { path, content: edited(n), quiet: true } },
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
  /** Completion → the host emitted the card with it (reads and diff), per edit. */
  hostMs: number[];
  /** Emitted → the page received it (batching and posting), per edit. */
  deliveryMs: number[];
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
      // When the host emits each card with its observed diff (the rest is batching, posting and painting).
      const emitted = new Map<string, number>();
      scripted.session.onMessage((m) => {
        if (m.type !== 'entryUpserted' || m.entry.kind !== 'tool_call' || emitted.has(m.entry.toolCallId)) return;
        if (m.entry.content.some((c) => c.type === 'diff' && c.observed === 'disk')) emitted.set(m.entry.toolCallId, wallNow());
      });
      await bridge.drained();
      await bridge.page.evaluate(PROBE);
      const started = wallNow();
      const profile = process.env.TANDEM_BENCH_PROFILE ? await bridge.page.context().newCDPSession(bridge.page) : undefined;
      if (profile) {
        await profile.send('Profiler.enable');
        await profile.send('Profiler.start');
      }
      scripted.session.conversation.prompt('edit them all');
      await scripted.session.settled(scripted.session.conversation, 180_000);
      await until(() => completed.size === OBSERVED_EDITS, 'every edit to complete', 120_000);
      await bridge.page
        .waitForFunction(
          (count) => [...(window as unknown as { __observedPainted: Map<string, number> }).__observedPainted.values()].filter((t) => t > 0).length >= count,
          OBSERVED_EDITS,
          { timeout: 20_000, polling: 50 },
        )
        .catch(async (e: unknown) => {
          const n = await bridge.page.evaluate(() => (window as unknown as { __observedPainted: Map<string, number> }).__observedPainted.size);
          const host = scripted.session
            .snapshotParts()
            .entries.filter((x) => x.kind === 'tool_call' && x.content.some((c) => c.type === 'diff' && c.observed === 'disk')).length;
          throw new Error(`${n} painted, ${host} observed on the host: ${String(e)}`);
        });
      if (profile) {
        const { profile: p } = (await profile.send('Profiler.stop')) as unknown as {
          profile: { nodes: Array<{ callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }> };
        };
        const self = new Map<string, number>();
        for (const n of p.nodes) {
          const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
          self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0));
        }
        console.error(
          [...self]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 30)
            .map(([k, v]) => `${v}\t${k}`)
            .join('\n'),
        );
      }
      const painted = new Map(
        await bridge.page.evaluate(() => [...(window as unknown as { __observedPainted: Map<string, number> }).__observedPainted.entries()]),
      );
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      const perEditMs = [...completed].map(([id, at]) => {
        const shown = painted.get(id);
        if (shown === undefined || shown === 0) throw new Error(`no observed diff painted for ${id}`);
        return shown - at;
      });
      const hostMs = [...completed].map(([id, at]) => (emitted.get(id) ?? at) - at);
      const arrived = new Map(
        await bridge.page.evaluate(() => [...(window as unknown as { __observedArrived: Map<string, number> }).__observedArrived.entries()]),
      );
      const deliveryMs = [...completed].map(([id]) => (arrived.get(id) ?? 0) - (emitted.get(id) ?? 0));
      return { perEditMs, hostMs, deliveryMs, totalSeconds: (wallNow() - started) / 1000 };
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
      `11. ${OBSERVED_EDITS} edits by a disk-writing agent: completion → observed diff painted (slowest edit)`,
      worst,
      'ms',
      { kind: 'max', value: 100 },
      `per run, the slowest of ${OBSERVED_EDITS} edits (${LINES}-line files, one changed line each; the agent sends no diff). ` +
        `Median edit ${median(runs.map((r) => median(r.perEditMs))).toFixed(0)} ms, p95 ${median(p95).toFixed(0)} ms; of which the host (disk reads, diff) median ${median(runs.map((r) => median(r.hostMs))).toFixed(1)} ms, max ${Math.max(...runs.map((r) => Math.max(...r.hostMs))).toFixed(0)} ms; batching and posting median ${median(runs.map((r) => median(r.deliveryMs))).toFixed(0)} ms, max ${Math.max(...runs.map((r) => Math.max(...r.deliveryMs))).toFixed(0)} ms; a run of ${median(runs.map((r) => r.totalSeconds)).toFixed(1)} s.`,
    ),
  ];
}
