/**
 * Items 1 and 2: 20,000 chunks from a real agent process through AgentSession, the 16 ms host
 * batching and the real webview in Chromium, timed from session/prompt to the frame after the last
 * chunk's text entered the DOM; meanwhile the page records long tasks and animation-frame gaps.
 */
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { bareClientPromptMs } from './bareClient';
import { startScriptedSession } from './scriptedSession';
import { CHUNK_COUNT, END_MARKER, PARAGRAPH, streamingScript } from './streamScript';
import { wallNow } from './stats';

export interface StreamingRun {
  tandemMs: number;
  bareMs: number;
  /** Longest PerformanceObserver 'longtask' entry (0 when none: entries exist only above 50 ms). */
  longestTaskMs: number;
  /** Longest gap between consecutive animation frames while streaming. */
  longestFrameGapMs: number;
  frames: number;
}

interface PageProbe {
  done: number;
  longestTask: number;
  longestGap: number;
  frames: number;
}

/**
 * Installed in the page right before the prompt. A string: tsx's helpers do not exist in the page.
 * Only added nodes and changed text nodes are searched for the marker, never the whole thread.
 */
const PROBE = (marker: string): string => `(() => {
  const probe = { done: 0, longestTask: 0, longestGap: 0, frames: 0 };
  window.__benchProbe = probe;
  const marker = ${JSON.stringify(marker)};
  const lt = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longestTask = Math.max(probe.longestTask, e.duration);
  });
  lt.observe({ type: 'longtask' });
  let last = 0;
  const frame = (t) => {
    if (last) probe.longestGap = Math.max(probe.longestGap, t - last);
    last = t;
    probe.frames++;
    if (!probe.done) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const hit = (node) => (node.nodeType === 3 || node.nodeType === 1) && (node.textContent || '').includes(marker);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      if ((r.type === 'characterData' && hit(r.target)) || Array.from(r.addedNodes).some(hit)) {
        mo.disconnect();
        // The mutation ran inside a frame's rendering step; the next frame's callback runs after that paint.
        requestAnimationFrame(() => {
          probe.done = performance.timeOrigin + performance.now();
          setTimeout(() => lt.disconnect(), 100);
        });
        return;
      }
    }
  });
  mo.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

export async function runStreaming(harness: Harness): Promise<StreamingRun> {
  const scripted = await startScriptedSession(streamingScript());
  try {
    const bareMs = await bareClientPromptMs(scripted.scriptPath, scripted.dir);
    const bridge = await openPanel(scripted.session, { harness });
    try {
      await bridge.drained();
      await bridge.panel.settle();
      await bridge.page.evaluate(PROBE(END_MARKER));
      const start = wallNow();
      const turn = scripted.session.prompt('stream please');
      await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe.done > 0, undefined, { timeout: 120_000, polling: 50 });
      await turn;
      await new Promise((r) => setTimeout(r, 150)); // let a long task that ended the stream be reported
      const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe);
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      // The figure only counts if everything arrived: every numbered chunk is in the painted thread.
      const painted = await bridge.page.evaluate(() => (document.body.textContent ?? '').split('lorem ipsum dolor sit amet').length - 1);
      if (painted !== CHUNK_COUNT - CHUNK_COUNT / PARAGRAPH) throw new Error(`only ${painted} chunks were painted`);
      return { tandemMs: probe.done - start, bareMs, longestTaskMs: probe.longestTask, longestFrameGapMs: probe.longestGap, frames: probe.frames };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}
