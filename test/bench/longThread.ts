/**
 * Long conversations: the 100-turn thread of longThreadScript.ts, built by a real agent process
 * through the host. Then, per run, the page is reloaded: measured is the time from the new page's
 * `ready` post to the frame in which the thread's last chunk is painted inside the viewport, and
 * the page's JS heap after a forced GC. Finally the whole thread is scrolled through, one viewport
 * per frame from the bottom to the top (three times, each after a reload), while the page records
 * long tasks and frame gaps.
 */
import type { Page } from 'playwright-core';
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { LAST_MARKER, longThreadScript, TURNS } from './longThreadScript';
import type { TestSession } from '../support/scriptedSession';
import { startScriptedSession } from './scriptedSession';

/** Scroll passes from the bottom to the top, each after a reload. */
const SCROLL_PASSES = 3;

/**
 * Init script (a string: tsx helpers do not exist in the page). Times the page from its `ready`
 * post to the frame after the one in which `marker` was painted inside the log's box, and records
 * long tasks. A frame loop started at load checks first thing in each frame (its callback was
 * queued before any the panel queues while rendering), so the time is taken right after the paint.
 */
/**
 * Page-script fragment (a string: tsx helpers do not exist in the page): wraps the fake VS Code API
 * so `probe.ready` records when the page first posts `ready`. Expects a `probe` object in scope.
 */
export const READY_HOOK = `let api;
  Object.defineProperty(window, 'acquireVsCodeApi', {
    configurable: true,
    get: () => api,
    set: (fn) => {
      api = () => {
        const real = fn();
        const post = real.postMessage.bind(real);
        real.postMessage = (m) => {
          if (m && m.type === 'ready' && !probe.ready) probe.ready = performance.now();
          return post(m);
        };
        return real;
      };
    },
  });`;

export const LAST_SCREEN_PROBE = (marker: string): string => `(() => {
  const probe = { ready: 0, done: 0, atBottom: false, longestTask: 0 };
  window.__benchProbe = probe;
  ${READY_HOOK}
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longestTask = Math.max(probe.longestTask, e.duration);
  }).observe({ type: 'longtask' });
  const marker = ${JSON.stringify(marker)};
  let inserted = false;
  const hit = (node) => (node.nodeType === 3 || node.nodeType === 1) && (node.textContent || '').includes(marker);
  const shown = () => {
    const log = document.querySelector('[role="log"]');
    const walker = document.createTreeWalker(log, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      if (!node.data.includes(marker)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      const box = log.getBoundingClientRect();
      if (r.height > 0 && r.bottom > box.top && r.top < box.bottom) {
        probe.atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
        return true;
      }
    }
    return false;
  };
  const frame = () => {
    const now = performance.now();
    // Inserted in an earlier frame: that frame painted it if it lies in the log's box now.
    if (inserted && shown()) {
      probe.done = now;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      if ((r.type === 'characterData' && hit(r.target)) || Array.from(r.addedNodes).some(hit)) {
        mo.disconnect();
        inserted = true;
        return;
      }
    }
  });
  document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { subtree: true, childList: true, characterData: true }));
})()`;

export interface ScrollResult {
  longestTaskMs: number;
  longestFrameGapMs: number;
  frames: number;
  /** Scroll height at the end (px): the thread's laid-out length. */
  height: number;
}

/**
 * Scrolls the log one viewport per frame to the top (and back to the bottom); resolves with the
 * longest task (PerformanceObserver, > 50 ms only) and the longest gap between frames. A string:
 * tsx's helpers do not exist in the page.
 */
const SCROLL_THROUGH = (roundTrip: boolean): string => `new Promise((resolve) => {
  const roundTrip = ${roundTrip};
  const log = document.querySelector('[role="log"]');
  const result = { longestTaskMs: 0, longestFrameGapMs: 0, frames: 0, height: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) result.longestTaskMs = Math.max(result.longestTaskMs, e.duration);
  });
  observer.observe({ type: 'longtask' });
  let direction = -1;
  let last = 0;
  let still = 0;
  const frame = (t) => {
    if (last) result.longestFrameGapMs = Math.max(result.longestFrameGapMs, t - last);
    last = t;
    result.frames++;
    const before = log.scrollTop;
    log.scrollTop = before + direction * log.clientHeight;
    // The log's height changes while entries are laid out: an edge counts once it holds.
    still = log.scrollTop === before ? still + 1 : 0;
    if (still >= 3) {
      if (direction < 0 && roundTrip) {
        direction = 1;
        still = 0;
      } else {
        result.height = log.scrollHeight;
        // Long tasks are reported after they end: give the last one time to arrive.
        setTimeout(() => {
          observer.disconnect();
          resolve(result);
        }, 200);
        return;
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

export async function scrollThrough(page: Page, roundTrip = false): Promise<ScrollResult> {
  return (await page.evaluate(SCROLL_THROUGH(roundTrip))) as ScrollResult;
}

export interface LongThreadResult {
  entries: number;
  snapshotMb: number;
  buildSeconds: number;
  reloadMs: number[];
  atBottom: boolean[];
  heapMb: number[];
  heapAfterScrollMb: number;
  scroll: ScrollResult[];
  domElements: number;
  reloadLongestTaskMs: number[];
}

/** Plays the 100 turns through a started session and resolves once all settled. */
export async function buildLongThread(session: TestSession, turns = TURNS): Promise<void> {
  for (let t = 0; t < turns; t++) await session.prompt(`Turn ${t + 1}: refactor module ${t} and run its tests`);
}

export async function heapMbOf(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / (1024 * 1024);
  } finally {
    await cdp.detach();
  }
}

/** Waits until the log is not busy (older entries still being placed) and two frames passed. */
export async function threadIdle(page: Page): Promise<void> {
  await page.waitForSelector('[role="log"]:not([aria-busy="true"])', { timeout: 120_000 });
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

export async function runLongThread(harness: Harness, reloads: number, log: (text: string) => void = () => undefined): Promise<LongThreadResult> {
  const scripted = await startScriptedSession(longThreadScript());
  try {
    const started = Date.now();
    await buildLongThread(scripted.session);
    const buildSeconds = (Date.now() - started) / 1000;
    log(`long thread built in ${buildSeconds.toFixed(1)} s`);
    const snapshot = scripted.session.snapshotParts();
    const snapshotMb = JSON.stringify(snapshot).length / (1024 * 1024);
    const bridge = await openPanel(scripted.session, { harness });
    try {
      const { page } = bridge;
      await bridge.drained();
      await page.addInitScript(LAST_SCREEN_PROBE(LAST_MARKER));
      const reloadMs: number[] = [];
      const atBottom: boolean[] = [];
      const heapMb: number[] = [];
      const reloadLongestTaskMs: number[] = [];
      for (let i = 0; i < reloads; i++) {
        await bridge.reload();
        await page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, {
          timeout: 60_000,
          polling: 20,
        });
        const probe = await page.evaluate(() => (window as unknown as { __benchProbe: { ready: number; done: number; atBottom: boolean } }).__benchProbe);
        if (!probe.ready) throw new Error('the reloaded page never posted ready');
        reloadMs.push(probe.done - probe.ready);
        atBottom.push(probe.atBottom);
        log(`reload ${i + 1}: last screen painted after ${(probe.done - probe.ready).toFixed(0)} ms`);
        await threadIdle(page);
        reloadLongestTaskMs.push(await page.evaluate(() => (window as unknown as { __benchProbe: { longestTask: number } }).__benchProbe.longestTask));
        heapMb.push(await heapMbOf(page));
      }
      // Each pass starts from a freshly loaded thread at the bottom.
      const scroll: ScrollResult[] = [];
      for (let i = 0; i < SCROLL_PASSES; i++) {
        if (i > 0) {
          // Back at the bottom first, or the reload restores the scroll position the pass ended at.
          await page.evaluate(() => {
            const log = document.querySelector('[role="log"]') as HTMLElement;
            log.scrollTop = log.scrollHeight;
          });
          await page.waitForFunction(() => JSON.parse(sessionStorage.getItem('tandem-harness-state') ?? '{}').atBottom === true, undefined, { timeout: 5_000 });
          await bridge.reload();
          await page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, {
            timeout: 60_000,
            polling: 20,
          });
          await threadIdle(page);
        }
        scroll.push(await scrollThrough(page));
        log(`scroll pass ${i + 1}: longest task ${scroll[i].longestTaskMs} ms, ${scroll[i].frames} frames`);
      }
      const heapAfterScrollMb = await heapMbOf(page);
      const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.slice(0, 3).join('; ')}`);
      return {
        entries: snapshot.entries.length,
        snapshotMb,
        buildSeconds,
        reloadMs,
        atBottom,
        heapMb,
        heapAfterScrollMb,
        scroll,
        domElements,
        reloadLongestTaskMs,
      };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}
