/**
 * Items 1 and 2: 20,000 chunks from a real agent process through the host (ConversationManager),
 * the 16 ms host batching and the real webview in Chromium, timed from session/prompt to the frame
 * after the last chunk's text was painted; meanwhile the page records long tasks and animation-frame
 * gaps, and when the first chunk was painted (against when the host received it).
 *
 * The baseline is a bare SDK client running the same script. The machine is shared, so its speed
 * drifts between runs: each Tandem run is compared with the mean of the bare runs right before and
 * right after it (bare, Tandem, bare, Tandem, …, bare), which cancels drift slower than a run pair.
 */
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { bareClientPromptMs } from './bareClient';
import { startScriptedSession, type ScriptedSession } from './scriptedSession';
import { CHUNK_COUNT, END_MARKER, FIRST_MARKER, PARAGRAPH, streamingScript } from './streamScript';
import { wallNow } from './stats';

export interface StreamingRun {
  tandemMs: number;
  /** Mean of the bare client runs before and after this one. */
  bareMs: number;
  /** From the host receiving the first chunk to the page painting it. */
  firstChunkMs: number;
  /** Longest PerformanceObserver 'longtask' entry (0 when none: entries exist only above 50 ms). */
  longestTaskMs: number;
  /** Longest gap between consecutive animation frames while streaming. */
  longestFrameGapMs: number;
  /**
   * From session/prompt until every chunk is in the DOM: text a flood pushed far above the end is
   * rendered once the stream calms down (webview/entries/coldSections.ts), after the end was painted.
   */
  allRenderedMs: number;
  frames: number;
}

export interface PageProbe {
  first: number;
  done: number;
  longestTask: number;
  longestGap: number;
  frames: number;
}

/**
 * Installed in the page right before the prompt. A string: tsx's helpers do not exist in the page.
 * Only added nodes and changed text nodes are searched for the markers, never the whole thread. A
 * frame loop takes the times first thing in the frame after a marker landed (its callback was
 * queued before any the panel queues meanwhile), i.e. right after that marker's frame was painted.
 */
export const PROBE = (first: string, marker: string): string => `(() => {
  const probe = { first: 0, done: 0, longestTask: 0, longestGap: 0, frames: 0 };
  window.__benchProbe = probe;
  const lt = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longestTask = Math.max(probe.longestTask, e.duration);
  });
  lt.observe({ type: 'longtask' });
  let sawFirst = false;
  let sawLast = false;
  let last = 0;
  const frame = (t) => {
    const now = performance.timeOrigin + performance.now();
    if (sawFirst && !probe.first) probe.first = now;
    if (sawLast) {
      // The long-task observer stays on: rendering the text a flood left cold comes after this.
      probe.done = now;
      return;
    }
    if (last) probe.longestGap = Math.max(probe.longestGap, t - last);
    last = t;
    probe.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const has = (node, text) => (node.nodeType === 3 || node.nodeType === 1) && (node.textContent || '').includes(text);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      const nodes = r.type === 'characterData' ? [r.target] : Array.from(r.addedNodes);
      if (!sawFirst && nodes.some((n) => has(n, ${JSON.stringify(first)}))) sawFirst = true;
      if (nodes.some((n) => has(n, ${JSON.stringify(marker)}))) {
        sawLast = true;
        mo.disconnect();
        return;
      }
    }
  });
  mo.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/**
 * Both clients run in this process: each timed run starts from a collected heap, so neither pays
 * for the garbage the other left (the bare client's validation leaves a lot). Needs --expose-gc.
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function bareMs(scripted: ScriptedSession): Promise<number> {
  collect();
  return bareClientPromptMs(scripted.scriptPath, scripted.dir);
}

/** One Tandem run: a fresh session and panel; resolves with everything but `bareMs`. */
async function tandemRun(harness: Harness, scripted: ScriptedSession): Promise<Omit<StreamingRun, 'bareMs'>> {
  const bridge = await openPanel(scripted.session, { harness });
  try {
    await bridge.drained();
    await bridge.panel.settle();
    await bridge.page.evaluate(PROBE(FIRST_MARKER, END_MARKER));
    collect();
    let firstArrived = 0;
    const listener = scripted.session.onMessage((m) => {
      if (!firstArrived && m.type === 'entryUpserted' && m.entry.kind === 'agent') firstArrived = wallNow();
    });
    const start = wallNow();
    const turn = scripted.session.prompt('stream please');
    // Polled in the page each frame: polling from here would cost the host a CDP round trip every time.
    await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe.done > 0, undefined, {
      timeout: 120_000,
      polling: 'raf',
    });
    // Nothing may stay unrendered: the text a flood left cold is rendered soon after the stream ends.
    await bridge.page.waitForFunction(() => document.querySelector('.markdown-frozen > .cold') === null, undefined, { timeout: 30_000, polling: 5 });
    const allRendered = wallNow();
    await turn;
    listener.dispose();
    await new Promise((r) => setTimeout(r, 150)); // let a long task that ended the stream or the rendering be reported
    const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe);
    if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
    // The figure only counts if everything arrived: every numbered chunk is in the painted thread.
    const painted = await bridge.page.evaluate(() => (document.body.textContent ?? '').split('lorem ipsum dolor sit amet').length - 1);
    if (painted !== CHUNK_COUNT - CHUNK_COUNT / PARAGRAPH) throw new Error(`only ${painted} chunks were painted`);
    if (!firstArrived || !probe.first) throw new Error('the first chunk was not seen arriving and painted');
    return {
      tandemMs: probe.done - start,
      firstChunkMs: probe.first - firstArrived,
      longestTaskMs: probe.longestTask,
      longestFrameGapMs: probe.longestGap,
      frames: probe.frames,
      allRenderedMs: allRendered - start,
    };
  } finally {
    await bridge.close();
  }
}

/** `runs` Tandem runs bracketed by bare client runs (runs + 1 of them). */
export async function runStreaming(harness: Harness, runs: number, log: (text: string) => void = () => undefined): Promise<StreamingRun[]> {
  const bare: number[] = [];
  const results: StreamingRun[] = [];
  const session = async (): Promise<ScriptedSession> => startScriptedSession(streamingScript());
  let scripted = await session();
  try {
    bare.push(await bareMs(scripted));
    for (let i = 0; i < runs; i++) {
      scripted.dispose();
      scripted = await session();
      const run = await tandemRun(harness, scripted);
      bare.push(await bareMs(scripted));
      const bareMean = (bare[i] + bare[i + 1]) / 2;
      results.push({ ...run, bareMs: bareMean });
      log(
        `streaming run ${i + 1}: tandem ${run.tandemMs.toFixed(0)} ms, bare ${bare[i].toFixed(0)}/${bare[i + 1].toFixed(0)} ms, ratio ${(run.tandemMs / bareMean).toFixed(2)}, first chunk ${run.firstChunkMs.toFixed(0)} ms`,
      );
    }
  } finally {
    scripted.dispose();
  }
  return results;
}
