/**
 * Item 5: a thread of 2,000 tool calls (each created, then completed with some output) streamed by
 * a real agent process. Then, per run, the page is reloaded: measured is the time from the new
 * page's `ready` post to the frame after all 2,000 cards are in the DOM (host snapshot, postMessage,
 * rendering), and the page's JS heap after a forced GC (CDP).
 */
import type { Harness } from '../webview/harness/harness';
import { openPanel } from '../support/panelBridge';
import { startScriptedSession } from './scriptedSession';
import { READY_HOOK } from './longThread';

export const TOOL_CALLS = 2_000;
const KINDS = ['read', 'edit', 'search', 'execute', 'fetch', 'think'];

function threadScript(): unknown {
  const steps: unknown[] = [];
  for (let i = 0; i < TOOL_CALLS; i++) {
    const kind = KINDS[i % KINDS.length];
    const path = `\${cwd}/src/module${i}/file${i}.ts`;
    steps.push({
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: `call-${i}`,
        title: `${kind} src/module${i}/file${i}.ts`,
        kind,
        status: 'in_progress',
        locations: [{ path, line: i + 1 }],
        rawInput: { path, pattern: `symbol${i}` },
      },
    });
    steps.push({
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: `call-${i}`,
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: `Found **${i % 7}** matches for \`symbol${i}\` in file${i}.ts; nothing else to report.` } },
        ],
      },
    });
  }
  return { turns: [{ steps, stopReason: 'end_turn' }] };
}

/** Init script: times the new page from its `ready` post to the frame after the last card landed. */
const PROBE = (count: number): string => `(() => {
  const probe = { ready: 0, done: 0 };
  window.__benchProbe = probe;
  ${READY_HOOK}
  const mo = new MutationObserver(() => {
    if (document.querySelectorAll('.tool-card').length >= ${count}) {
      mo.disconnect();
      requestAnimationFrame(() => (probe.done = performance.now()));
    }
  });
  document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { subtree: true, childList: true }));
})()`;

export interface ThreadResult {
  renderMs: number[];
  heapMb: number[];
  liveHeapMb: number;
  domNodes: number;
}

export async function runBigThread(harness: Harness, reloads: number): Promise<ThreadResult> {
  const scripted = await startScriptedSession(threadScript());
  try {
    const bridge = await openPanel(scripted.session, { harness });
    try {
      const cdp = await bridge.page.context().newCDPSession(bridge.page);
      const heapMb = async (): Promise<number> => {
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        return usedSize / (1024 * 1024);
      };
      await scripted.session.prompt('run many tools');
      const entries = scripted.session.snapshotParts().entries;
      if (entries.filter((e) => e.kind === 'tool_call' && e.status === 'completed').length !== TOOL_CALLS)
        throw new Error('the agent did not complete every tool call');
      await bridge.drained();
      await bridge.page.waitForFunction((n) => document.querySelectorAll('.tool-card').length >= n, TOOL_CALLS, { timeout: 60_000, polling: 100 });
      const liveHeapMb = await heapMb();
      await bridge.page.addInitScript(PROBE(TOOL_CALLS));
      const renderMs: number[] = [];
      const heaps: number[] = [];
      for (let i = 0; i < reloads; i++) {
        await bridge.reload();
        await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: { done: number } }).__benchProbe.done > 0, undefined, {
          timeout: 30_000,
          polling: 20,
        });
        const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: { ready: number; done: number } }).__benchProbe);
        if (!probe.ready) throw new Error('the reloaded page never posted ready');
        renderMs.push(probe.done - probe.ready);
        heaps.push(await heapMb());
      }
      const domNodes = await bridge.page.evaluate(() => document.getElementsByTagName('*').length);
      if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
      await cdp.detach();
      return { renderMs, heapMb: heaps, liveHeapMb, domNodes };
    } finally {
      await bridge.close();
    }
  } finally {
    scripted.dispose();
  }
}
