/**
 * Connects a real conversation (host side, in this Node process) to the real webview bundle in
 * headless Chromium, the way ChatViewProvider does inside VS Code:
 * - on every `ready` the page posts (first load and reloads) it gets a full snapshot;
 * - session messages are gathered for 16 ms, merged and paced by `BatchedPoster` (as ChatViewProvider does) and posted as one `batch`;
 * - commands the page posts (prompt, cancel, respondPermission, …) call the session's methods.
 * Chromium, the page and its fake `acquireVsCodeApi` come from the webview harness
 * (test/webview/harness/harness.ts), so the page runs behind the same CSP as in tests.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { HostMessage, PanelSnapshot, WebviewMessage } from '../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { isConversationCommand, runConversationCommand } from '../../src/conversation/panelCommands';
import type { TestSession } from './scriptedSession';
import { BatchedPoster } from '../../src/views/batchedPoster';
import { launchHarness } from '../webview/harness/harness';
import type { Harness, Panel } from '../webview/harness/harness';
import { OlderEntries } from '../../src/views/snapshotSplit';

/** Same as ChatViewProvider's FLUSH_MS. */
const FLUSH_MS = 16;

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
  let ready = false;
  let closed = false;
  // Posts are chained so the page receives them in the order they were made.
  let chain: Promise<void> = Promise.resolve();
  let cdp: CDPSession | undefined;
  let snapshots = 0;
  /** Bumped by each reload: a post still in flight when the page navigates is dropped, as VS Code drops it. */
  let generation = 0;
  /** The older part of the conversation last shown, until the page asks for it (as ChatViewProvider keeps it). */
  const older = new OlderEntries();

  const post = (message: HostMessage): void => {
    const sentIn = generation;
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
  const poster = new BatchedPoster(post, FLUSH_MS);
  const subscription = session.onMessage((message) => {
    // Until the page says ready, the snapshot it will get already contains this change.
    if (!ready || closed) return;
    poster.push(older.outgoing(message));
  });
  const run = (work: () => Promise<void> | void): void => {
    Promise.resolve()
      .then(work)
      .catch((err: unknown) => hostErrors.push(err));
  };
  const receive = (message: WebviewMessage): void => {
    if (closed) return;
    posted.push(message);
    switch (message.type) {
      case 'ready':
        // As ChatViewProvider: the stored conversations load first, then the snapshot carries all.
        ready = false;
        older.clear();
        poster.discard();
        run(async () => {
          await session.manager.init();
          ready = true;
          snapshots++;
          // As ChatViewProvider: a long thread's last screens first, the older entries when the page asks.
          post({ type: 'snapshot', snapshot: older.split(sessionSnapshot(session, options.snapshot)) });
        });
        return;
      case 'olderEntriesWanted': {
        const part = older.take(message.conversationId);
        if (part && ready) poster.push(part);
        return;
      }
      case 'fetchDiffLines': {
        // As EditorHost: the thread answers from the texts it keeps, through the same batches.
        const thread = session.manager.get(message.conversationId)?.thread;
        if (thread && ready) poster.push(thread.diffLines(message));
        return;
      }
      default:
        // Editor-side commands (open a diff, a link, the log, …) have no core method: recorded only.
        if (isConversationCommand(message)) run(() => runConversationCommand(session.manager, message, () => undefined));
        return;
    }
  };

  await page.exposeFunction('__tandemToHost', (m: WebviewMessage) => receive(m));
  await page.addInitScript(HOOK);
  // The first page load already ran (and posted `ready`): hook it now and replay what it posted.
  const early = await page.evaluate(`${HOOK}; window.__posted.slice()`) as WebviewMessage[];
  for (const m of early) receive(m);

  const drained = async (): Promise<void> => {
    while (!poster.idle) await new Promise((r) => setTimeout(r, FLUSH_MS));
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
      ready = false;
      generation++;
      poster.discard();
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
      poster.discard();
      subscription.dispose();
      if (ownHarness) await harness.close();
      else await page.close().catch(() => undefined);
    },
  };
}
