/**
 * Long conversations kept and restored: the 100-turn thread of longThreadScript.ts is played into a
 * conversation with a real ConversationStore (as the extension keeps them, defaults included:
 * 500 ms debounce, 3 s longest wait, 4 MB per transcript). Then:
 * - saving: the longest event-loop block on the host while that transcript is saved by a store
 *   that never saw it (nothing cached: the first save after a restart), and, for comparison, how
 *   long serialising it in one synchronous go takes; also the longest block while the thread
 *   streamed in with saves scheduled all along;
 * - restoring, per run: a fresh ConversationStore and ConversationManager on the same folder (a
 *   window reload), the panel open; timed from the moment the manager starts loading to the frame
 *   in which the thread's last chunk is painted in view.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { scriptedSession, type TestSession } from '../support/scriptedSession';
import { ConversationStore } from '../../src/store/conversationStore';
import { encodeTranscript } from '../../src/store/transcriptCap';
import { buildLongThread, LAST_SCREEN_PROBE } from './longThread';
import { LAST_MARKER, longThreadScript } from './longThreadScript';
import { wallNow } from './stats';

export interface RestoreResult {
  /** Entries in the conversation, and in the transcript as stored (the size cap drops the oldest). */
  entries: number;
  storedEntries: number;
  /** The conversation's transcript as JSON before the size cap, and as saved (MB). */
  unsavedMb: number;
  transcriptMb: number;
  /** Longest event-loop block (ms) while the 100 turns streamed in, saves scheduled all along. */
  buildBlockMs: number;
  /** Longest event-loop block (ms) while the whole thread was saved by a cold store, per run. */
  saveBlockMs: number[];
  /** The same save serialised in one synchronous go (ms), per run: what saving used to block. */
  syncEncodeMs: number[];
  restoreMs: number[];
  atBottom: boolean[];
}

function newStore(dir: string, warnings: string[]): ConversationStore {
  return new ConversationStore({ dir, warn: (text) => warnings.push(text) });
}

/** Longest event-loop block (ms) while `work` runs, from a 1 ms-resolution delay histogram. */
async function longestBlock(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    // The histogram's timer must be running before the work starts, or a block right at the start goes unseen.
    await new Promise((r) => setTimeout(r, 10));
    await work();
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

/** Same as LAST_SCREEN_PROBE, for a page already loaded (it starts watching at once). */
const LOADED_PAGE_PROBE = (marker: string): string =>
  LAST_SCREEN_PROBE(marker).replace(
    "document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { subtree: true, childList: true, characterData: true }));",
    'mo.observe(document.body, { subtree: true, childList: true, characterData: true });',
  );

export async function runRestore(harness: Harness, runs: number, log: (text: string) => void = () => undefined): Promise<RestoreResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-restore-'));
  const storeDir = join(dir, 'storage');
  const warnings: string[] = [];
  const script = longThreadScript();
  const sessions: TestSession[] = [];
  try {
    const first = scriptedSession(dir, script, { name: 'Bench Agent', record: false, store: newStore(storeDir, warnings) }).session;
    sessions.push(first);
    await first.start();
    // Saves are scheduled all along, as while streaming in the extension.
    const buildBlockMs = await longestBlock(() => buildLongThread(first));
    const conversation = first.conversation;
    const entries = conversation.internals.thread.entries().length;
    const id = conversation.id;
    log(`long thread built: ${entries} entries; longest event-loop block while building it ${buildBlockMs.toFixed(0)} ms`);
    const saveBlockMs: number[] = [];
    const syncEncodeMs: number[] = [];
    const transcript = { version: 1 as const, ...conversation.transcript() };
    const unsavedMb = JSON.stringify(transcript).length / (1024 * 1024);
    let transcriptMb = 0;
    let storedEntries = 0;
    for (let run = 0; run < runs; run++) {
      // A store that never saw this conversation saves it whole: the first save after a restart.
      const cold = newStore(join(dir, `cold-${run}`), warnings);
      saveBlockMs.push(await longestBlock(() => cold.saveTranscript(id, transcript)));
      cold.dispose();
      const t = performance.now();
      const encoded = encodeTranscript(transcript, 4 * 1024 * 1024);
      syncEncodeMs.push(performance.now() - t);
      transcriptMb = encoded.bytes / (1024 * 1024);
      storedEntries = entries - encoded.droppedNow;
    }
    // Everything the keeper scheduled is written before the process "restarts".
    first.dispose();

    const restoreMs: number[] = [];
    const atBottom: boolean[] = [];
    for (let run = 0; run < runs; run++) {
      const store = newStore(storeDir, warnings);
      const { session } = scriptedSession(dir, script, { name: 'Bench Agent', record: false, store });
      sessions.push(session);
      // Hold the manager's loading back until the page is watching.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const init = session.manager.init.bind(session.manager);
      let started = 0;
      session.manager.init = () => gate.then(() => ((started ||= wallNow()), init()));
      const bridge = await openPanel(session, { harness });
      try {
        await bridge.page.evaluate(LOADED_PAGE_PROBE(LAST_MARKER));
        release();
        await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, {
          timeout: 60_000,
          polling: 20,
        });
        const probe = await bridge.page.evaluate(() => {
          const p = (window as unknown as { __benchProbe: { done: number; atBottom: boolean } }).__benchProbe;
          return { done: performance.timeOrigin + p.done, atBottom: p.atBottom };
        });
        restoreMs.push(probe.done - started);
        atBottom.push(probe.atBottom);
        log(`restore ${run + 1}: last screen painted ${(probe.done - started).toFixed(0)} ms after loading started`);
        if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.slice(0, 3).join('; ')}`);
      } finally {
        await bridge.close();
      }
      if (!session.manager.get(id)) throw new Error('the conversation was not restored');
      session.dispose();
    }
    if (warnings.length > 0) throw new Error(`store warnings: ${warnings.slice(0, 3).join('; ')}`);
    return { entries, storedEntries, unsavedMb, transcriptMb, buildBlockMs, saveBlockMs, syncEncodeMs, restoreMs, atBottom };
  } finally {
    for (const session of sessions) session.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
