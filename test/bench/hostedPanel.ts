/**
 * Issue 18's bench row, the panel side: 20,000 text deltas over SSE from the fake hosted server,
 * through the bundled bridge process, the host (ConversationManager) and the real webview in
 * Chromium. Timed from the prompt (what Enter sends) to the frame after the last delta was painted,
 * against the server's own send time (request received → last byte written), so the figure is
 * what Tandem adds on top of the service. The deltas are paced like a model (100 writes of 200
 * deltas, 20 ms apart): a flood would measure only the pipe.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { ConversationManager } from '../../src/conversation/conversationManager';
import { manyTextDeltas } from '../fixtures/hostedServer/replies';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { testEditorPorts } from '../support/editorPorts';
import { buildHostedAgent, HOSTED_AGENT_JS } from '../support/hostedBridge';
import { openPanel } from '../support/panelBridge';
import { TestSession } from '../support/scriptedSession';
import type { Harness } from '../webview/harness/harness';
import { DELTAS } from './hostedStream';
import { wallNow } from './stats';
import { PROBE, type PageProbe } from './streaming';

export interface HostedPanelRun {
  /** Prompt → the frame after the last delta was painted. */
  paintedMs: number;
  /** Server: request received → last byte written. */
  serverMs: number;
  /** Prompt → the request reached the server. */
  requestMs: number;
}

/** A started conversation whose agent is the bridge in front of `server`. */
async function hostedSession(server: HostedServer, dir: string): Promise<TestSession> {
  let agent: AgentLaunchConfig = {
    name: 'Hosted bench',
    command: process.execPath,
    args: [HOSTED_AGENT_JS, '--url', server.chatUrl, '--format', 'tool-events'],
    env: {},
    cwd: dir,
  };
  const manager = new ConversationManager({
    agents: { launchConfig: (name) => (name === agent.name ? agent : undefined), defaultName: () => agent.name },
    store: undefined,
    cwd: dir,
    log: new MemoryProtocolLog(),
    clientInfo: { name: 'tandem-bench', version: '0' },
    editor: testEditorPorts([dir]),
  });
  manager.setVisible(true);
  const session = new TestSession(manager, agent, (next) => (agent = next));
  await session.start();
  if (session.status.kind !== 'ready') throw new Error(`The bridge did not start: ${JSON.stringify(session.status)}`);
  return session;
}

async function oneRun(harness: Harness, server: HostedServer, dir: string): Promise<HostedPanelRun> {
  const session = await hostedSession(server, dir);
  const bridge = await openPanel(session, { harness });
  try {
    await bridge.drained();
    await bridge.panel.settle();
    await bridge.page.evaluate(PROBE('w0 ', `w${DELTAS - 1} `));
    (globalThis as { gc?: () => void }).gc?.();
    server.reply(manyTextDeltas(DELTAS, 200, 20));
    const start = wallNow();
    const turn = session.prompt('stream');
    await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe.done > 0, undefined, {
      timeout: 120_000,
      polling: 'raf',
    });
    const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe);
    await turn;
    // The figure only counts if everything arrived: every delta is in the thread, in order.
    const text = session
      .snapshotParts()
      .entries.flatMap((e) => (e.kind === 'agent' ? [e.text] : []))
      .join('');
    const words = text.trim().split(/\s+/);
    if (words.length !== DELTAS || words[DELTAS - 1] !== `w${DELTAS - 1}`) throw new Error(`the thread holds ${words.length} of ${DELTAS} deltas`);
    if (bridge.panel.errors.length > 0) throw new Error(`page errors: ${bridge.panel.errors.join('; ')}`);
    const timing = server.timings.at(-1);
    if (!timing?.lastByteAt) throw new Error('the server did not finish sending');
    return { paintedMs: probe.done - start, serverMs: timing.lastByteAt - timing.receivedAt, requestMs: timing.receivedAt - start };
  } finally {
    await bridge.close();
    session.manager.dispose();
  }
}

export async function runHostedPanel(harness: Harness, runs: number, log: (text: string) => void = () => undefined): Promise<HostedPanelRun[]> {
  await buildHostedAgent();
  const server = await startHostedServer();
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-hosted-'));
  const out: HostedPanelRun[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const run = await oneRun(harness, server, dir);
      log(
        `hosted panel run ${i + 1}: painted ${run.paintedMs.toFixed(0)} ms, server ${run.serverMs.toFixed(0)} ms, ratio ${(run.paintedMs / run.serverMs).toFixed(2)}`,
      );
      out.push(run);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
