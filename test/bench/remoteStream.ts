/**
 * 20,000 chunks from an agent on another "machine": the SDK's WebSocket server wrapping the scripted
 * agent (a process of its own, test/fixtures/remoteAgentServer.ts), RemoteAgentConnection over a
 * local ws:// transport, the real core and the real webview in Chromium. Timed from Enter in the
 * composer to the frame after the last chunk's text was painted (the probe of streaming.ts),
 * against the agent's own send time: at the server, from the prompt arriving to the agent's answer
 * leaving (which follows its last chunk). Target: within 1.2×.
 *
 * Run alone: `node --expose-gc --import tsx test/bench/remoteStream.ts` (also part of `npm run bench`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPanel } from '../support/panelBridge';
import { ensureRemoteServerBuilt, RemoteServer } from '../support/remoteServer';
import { scriptedSession } from '../support/scriptedSession';
import { launchHarness, type Harness } from '../webview/harness/harness';
import * as acp from '@agentclientprotocol/sdk';
import { createWebSocketStream, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import { WebSocket } from 'ws';
import { formatTable, median, row, wallNow, type Row } from './stats';
import { CHUNK_COUNT, END_MARKER, FIRST_MARKER, PARAGRAPH, streamingScript } from './streamScript';
import { PROBE, type PageProbe } from './streaming';

export interface RemoteStreamRun {
  /** Enter → the frame after the last chunk was painted. */
  tandemMs: number;
  /** At the server: the prompt arrived → the agent's answer left. */
  agentMs: number;
  /** A bare SDK client over the same transport, right before: prompt → answer (updates dropped). */
  bareMs: number;
}

/** The baseline: the SDK's own WebSocket client and a client app that drops every update. */
async function bareRun(url: string): Promise<number> {
  const app = acp.client({ name: 'bare-bench' }).onNotification(acp.methods.client.session.update, () => undefined);
  const conn = app.connect(createWebSocketStream(url, { WebSocket: WebSocket as unknown as WebSocketConstructor }));
  try {
    await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: tmpdir(), mcpServers: [] });
    (globalThis as { gc?: () => void }).gc?.();
    const start = wallNow();
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    return wallNow() - start;
  } finally {
    conn.close();
  }
}

/** Records when Enter is pressed in the composer (page time, wall clock). A string: see PROBE. */
const ENTER_PROBE = `(() => {
  window.__enterAt = 0;
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !window.__enterAt) window.__enterAt = performance.timeOrigin + performance.now();
  }, { capture: true });
})()`;

async function oneRun(harness: Harness, server: RemoteServer): Promise<Omit<RemoteStreamRun, 'bareMs'>> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-remote-'));
  const { session } = scriptedSession(dir, {}, { name: 'Remote Bench', record: false });
  session.updateAgent({ name: 'Remote Bench', command: '', args: [], env: {}, cwd: dir, remote: { url: server.url('ws'), headers: {}, clientTools: true } });
  try {
    await session.start();
    if (session.status.kind !== 'ready') throw new Error(`the remote agent did not connect: ${JSON.stringify(session.snapshotParts().entries)}`);
    const bridge = await openPanel(session, { harness });
    try {
      await bridge.drained();
      await bridge.panel.settle();
      await bridge.page.evaluate(PROBE(FIRST_MARKER, END_MARKER));
      await bridge.page.evaluate(ENTER_PROBE);
      (globalThis as { gc?: () => void }).gc?.();
      const before = server.timings().length;
      const box = bridge.page.locator('textarea[aria-label="Message"]');
      await box.fill('stream please');
      await box.press('Enter');
      await bridge.page.waitForFunction(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe.done > 0, undefined, {
        timeout: 120_000,
        polling: 'raf',
      });
      const probe = await bridge.page.evaluate(() => (window as unknown as { __benchProbe: PageProbe }).__benchProbe);
      const enterAt = await bridge.page.evaluate(() => (window as unknown as { __enterAt: number }).__enterAt);
      await session.settled(session.conversation, 60_000);
      const timing = server.timings()[before];
      if (!timing || !enterAt) throw new Error('the prompt was not timed at both ends');
      const painted = await bridge.page.evaluate(() => (document.body.textContent ?? '').split('lorem ipsum dolor sit amet').length - 1);
      // The cold sections render after the end; count only once they are in (every chunk arrived).
      await bridge.page.waitForFunction(() => document.querySelector('.markdown-frozen > .cold') === null, undefined, { timeout: 30_000, polling: 5 });
      const all = await bridge.page.evaluate(() => (document.body.textContent ?? '').split('lorem ipsum dolor sit amet').length - 1);
      if (all !== CHUNK_COUNT - CHUNK_COUNT / PARAGRAPH) throw new Error(`only ${all} chunks were painted (${painted} at the end)`);
      return { tandemMs: probe.done - enterAt, agentMs: timing.answeredAt - timing.receivedAt };
    } finally {
      await bridge.close();
    }
  } finally {
    session.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRemoteStream(harness: Harness, runs: number, log: (text: string) => void = () => undefined): Promise<RemoteStreamRun[]> {
  await ensureRemoteServerBuilt();
  const server = new RemoteServer({ script: streamingScript() as never, timings: true, stateless: true });
  await server.start();
  const out: RemoteStreamRun[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      // Every connection gets an agent process of its own: nothing carries over between runs.
      const bareMs = await bareRun(server.url('ws'));
      const run = { ...(await oneRun(harness, server)), bareMs };
      log(
        `remote run ${i + 1}: Enter → painted ${run.tandemMs.toFixed(0)} ms, agent send ${run.agentMs.toFixed(0)} ms, ratio ${(run.tandemMs / run.agentMs).toFixed(2)}; bare client ${bareMs.toFixed(0)} ms`,
      );
      out.push(run);
    }
  } finally {
    await server.dispose();
  }
  return out;
}

export function remoteStreamRows(runs: RemoteStreamRun[]): Row[] {
  return [
    row(
      '12. Remote agent over WebSocket, 20k chunks: Enter → painted / agent send time',
      runs.map((r) => r.tandemMs / r.agentMs),
      '×',
      { kind: 'max', value: 1.2 },
      `Enter in the composer → the frame after the last chunk was painted, median ${median(runs.map((r) => r.tandemMs)).toFixed(0)} ms; the agent's own send time ` +
        `(at the server: prompt in → answer out, after its last chunk) median ${median(runs.map((r) => r.agentMs)).toFixed(0)} ms. Local ws://, the SDK's server wrapping the scripted agent.`,
    ),
    row(
      '   Remote: Enter → painted / a bare SDK WebSocket client',
      runs.map((r) => r.tandemMs / r.bareMs),
      '×',
      { kind: 'max', value: 1.2 },
      `the same prompt from the SDK's own ws-client dropping every update, run right before each Tandem run: median ${median(runs.map((r) => r.bareMs)).toFixed(0)} ms (the agent waits for its sends, so a slow client slows it: this row shows Tandem does not).`,
    ),
  ];
}

if (require.main === module) {
  void (async () => {
    const harness = await launchHarness();
    try {
      const runs = await runRemoteStream(harness, Number(process.env.RUNS ?? 5), (t) => process.stderr.write(`bench: ${t}\n`));
      console.log(formatTable(remoteStreamRows(runs)));
    } finally {
      await harness.close();
    }
  })().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
