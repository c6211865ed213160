/**
 * Connects a real conversation (host side, in this Node process) to the real webview bundle in
 * headless Chromium through the PanelConnection the extension ships (src/views/panelConnection.ts):
 * the same ready handshake, snapshot split, batching and older entries as in VS Code. Core commands
 * the page posts run against the session's manager; editor commands are only recorded.
 * Chromium, the page and its fake `acquireVsCodeApi` come from the webview harness
 * (test/webview/harness/harness.ts), so the page runs behind the same CSP as in tests.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { HostMessage, PanelSnapshot, WebviewMessage } from '../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { isCoreCommand, runCoreCommand } from '../../src/conversation/panelCommands';
import type { TestSession } from './scriptedSession';
import { FLUSH_MS, PanelConnection } from '../../src/views/panelConnection';
import { launchHarness } from '../webview/harness/harness';
import type { Harness, Panel } from '../webview/harness/harness';

export interface OpenPanelOptions {
  /** Reuse a running harness (one Chromium for many panels); otherwise one is launched and closed with the panel. */
  harness?: Harness;
  width?: number;
  height?: number;
  /** Extra snapshot fields (agents, presets, …) the session itself does not know. */
  snapshot?: Partial<Omit<PanelSnapshot, 'status' | 'entries' | 'terminals'>>;
}

export interface PanelBridge {
  page: Page;
  /** The harness panel (errors, CSP violations, settle()). */
  panel: Panel;
  /** Every WebviewMessage the page posted, in order (including `ready`s and ones the bridge ignores). */
  posted: WebviewMessage[];
  /** Errors from session methods called on behalf of the page. */
  hostErrors: unknown[];
  /** Resolves once nothing is queued and every post has reached the page. */
  drained(): Promise<void>;
  /** Reloads the page; the new page's `ready` brings a fresh snapshot (resolves once it is posted). */
  reload(): Promise<void>;
  /** Stops forwarding and closes the page (and Chromium, when the bridge launched it). Does not dispose the session. */
  close(): Promise<void>;
}

/**
 * Forwards every later push to `window.__posted` (the fake API's outbox) to the host. On reloads
 * the fake API assigns a new array, so the setter wraps that one too. A string, not a function:
 * tsx's keepNames helpers (`__name`) do not exist inside the page.
 */
const HOOK = `(() => {
  const wrap = (list) => {
    list.push = (...items) => {
      for (const item of items) window.__tandemToHost(item);
      return Array.prototype.push.apply(list, items);
    };
    return list;
  };
  let current = Array.isArray(window.__posted) ? wrap(window.__posted) : [];
  Object.defineProperty(window, '__posted', { configurable: true, get: () => current, set: (v) => { current = wrap(v); } });
})()`;

/** What EditorHost.snapshot() sends: the shown conversation plus the header's parts. */
export function sessionSnapshot(session: TestSession, extra: OpenPanelOptions['snapshot'] = {}): PanelSnapshot {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agents: [{ name: session.agentName, commandLine: session.agentName, builtIn: false }],
    selectedAgent: session.agentName,
    presets: [],
    followAgent: true,
    tabs: session.manager.tabs(),
    ...extra,
    ...session.snapshotParts(),
  };
}

export async function openPanel(session: TestSession, options: OpenPanelOptions = {}): Promise<PanelBridge> {
  const ownHarness = !options.harness;
  const harness = options.harness ?? (await launchHarness());
  const panel = await harness.open({ width: options.width, height: options.height });
  const { page } = panel;
  const posted: WebviewMessage[] = [];
  const hostErrors: unknown[] = [];
  let closed = false;
  // Posts are chained so the page receives them in the order they were made.
  let chain: Promise<void> = Promise.resolve();
  let cdp: CDPSession | undefined;
  let snapshots = 0;
  /** Bumped by each reload: a post still in flight when the page navigates is dropped, as VS Code drops it. */
  let generation = 0;

  const post = (message: HostMessage | { type: string }): void => {
    const sentIn = generation;
    if (message.type === 'snapshot') snapshots++;
    chain = chain.then(async () => {
      if (closed || sentIn !== generation) return;
      try {
        // Straight through the DevTools protocol, as one JSON string literal the page parses: the
        // cheapest way into the page (Playwright's evaluate serialises its argument and result on
        // both sides, which costs a streaming turn several percent of its time on two cores).
        cdp ??= await page.context().newCDPSession(page);
        await cdp.send('Runtime.evaluate', { expression: `window.postMessage(JSON.parse(${JSON.stringify(JSON.stringify(message))}), '*')` });
      } catch (err) {
        if (!closed && sentIn === generation) hostErrors.push(err);
      }
    });
  };
  const connection = new PanelConnection(
    {
      init: () => session.manager.init(),
      snapshot: () => sessionSnapshot(session, options.snapshot),
      onMessage: (listener) => session.onMessage(listener),
      // Editor-side commands (open a diff, a link, the log, …) have no core method: recorded only.
      handle: async (message, reply) => {
        if (isCoreCommand(message)) await runCoreCommand(session.manager, message, { warn: () => undefined, reply });
      },
    },
    { post, reload: () => undefined },
    { onError: (_what, err) => hostErrors.push(err), warn: () => undefined },
  );
  const receive = (message: WebviewMessage): void => {
    if (closed) return;
    posted.push(message);
    connection.receive(message);
  };

  await page.exposeFunction('__tandemToHost', (m: WebviewMessage) => receive(m));
  await page.addInitScript(HOOK);
  // The first page load already ran (and posted `ready`): hook it now and replay what it posted.
  const early = (await page.evaluate(`${HOOK}; window.__posted.slice()`)) as WebviewMessage[];
  for (const m of early) receive(m);

  const drained = async (): Promise<void> => {
    while (!connection.idle) await new Promise((r) => setTimeout(r, FLUSH_MS));
    await chain;
  };

  return {
    page,
    panel,
    posted,
    hostErrors,
    drained,
    async reload() {
      const before = snapshots;
      generation++;
      connection.detach();
      await page.reload();
      const end = Date.now() + 10_000;
      while (snapshots === before) {
        if (Date.now() > end) throw new Error('The reloaded panel never posted ready');
        await new Promise((r) => setTimeout(r, 5));
      }
      await chain;
    },
    async close() {
      await drained().catch(() => undefined);
      closed = true;
      connection.dispose();
      if (ownHarness) await harness.close();
      else await page.close().catch(() => undefined);
    },
  };
}
