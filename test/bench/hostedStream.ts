/**
 * Bench probe for the hosted-agent bridge: 20,000 text deltas over SSE (the seed's `text.delta`
 * events) from the fake hosted server, through the bridge process, to a bare SDK client. Measured:
 * prompt sent → last update received, against the server's own send time (request received →
 * last byte written). Two shapes: paced like a model (the ratio that matters: the bridge must
 * keep up), and a flood (everything at once: the bridge's own cost per delta).
 *
 * Run alone: `node --import tsx test/bench/hostedStream.ts` (the panel-side row is separate).
 */
import { startHostedServer } from '../fixtures/hostedServer/server';
import { manyTextDeltas } from '../fixtures/hostedServer/replies';
import { startBridge } from '../support/hostedBridge';
import { formatTable, median, row, wallNow, type Row } from './stats';

export const DELTAS = 20_000;
const LAST_WORD = `w${DELTAS - 1} `;

export interface HostedStreamRun {
  /** Prompt sent → last update (the last delta) received by the client. */
  clientMs: number;
  /** Server: request received → last byte written. */
  serverMs: number;
  /** Prompt sent → the server received the request (spawned bridge, history, HTTP). */
  requestMs: number;
  /** ACP updates the client received for the 20k deltas (the bridge merges deltas of one read). */
  updates: number;
}

export async function runHostedStream(runs: number, shape: 'paced' | 'flood', log: (text: string) => void = () => undefined): Promise<HostedStreamRun[]> {
  const server = await startHostedServer();
  const cleanups: Array<() => Promise<void> | void> = [];
  const out: HostedStreamRun[] = [];
  try {
    let lastAt = 0;
    const b = await startBridge(
      { after: (fn) => void cleanups.push(fn) },
      {
        args: ['--url', server.chatUrl, '--format', 'tool-events'],
        onUpdate: (n) => {
          if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' && n.update.content.text.endsWith(LAST_WORD))
            lastAt = wallNow();
        },
      },
    );
    for (let i = 0; i < runs; i++) {
      // A fresh session per run: the history (and the request body) stays the same size.
      const sid = await b.newSession();
      server.reply(shape === 'paced' ? manyTextDeltas(DELTAS, 200, 20) : manyTextDeltas(DELTAS, DELTAS));
      const before = b.updates.length;
      lastAt = 0;
      const start = wallNow();
      const res = await b.prompt(sid, 'stream');
      if (res.stopReason !== 'end_turn' || lastAt === 0) throw new Error(`run ${i}: ${res.stopReason}, last delta ${lastAt ? 'seen' : 'missing'}`);
      const timing = server.timings.at(-1)!;
      const run = {
        clientMs: lastAt - start,
        serverMs: timing.lastByteAt - timing.receivedAt,
        requestMs: timing.receivedAt - start,
        updates: b.updates.length - before,
      };
      log(`${shape} run ${i + 1}: client ${run.clientMs.toFixed(0)} ms, server ${run.serverMs.toFixed(0)} ms, ${run.updates} updates`);
      out.push(run);
    }
  } finally {
    for (const fn of cleanups.reverse()) await fn();
    await server.close();
  }
  return out;
}

export async function hostedStreamRows(runs: number, log: (text: string) => void): Promise<Row[]> {
  const paced = await runHostedStream(runs, 'paced', log);
  const flood = await runHostedStream(runs, 'flood', log);
  const m = (rs: HostedStreamRun[], f: (r: HostedStreamRun) => number) => median(rs.map(f)).toFixed(0);
  return [
    row(
      '10b. Hosted bridge alone: 20k SSE deltas paced → bare client / server send time',
      paced.map((r) => r.clientMs / r.serverMs),
      '×',
      { kind: 'max', value: 1.2 },
      `prompt → last update received vs request received → last byte written, 100 writes of 200 deltas 20 ms apart. Medians: client ${m(paced, (r) => r.clientMs)} ms, server ${m(paced, (r) => r.serverMs)} ms, prompt → request at the server ${m(paced, (r) => r.requestMs)} ms, ${m(paced, (r) => r.updates)} ACP updates.`,
    ),
    row(
      '10c. Hosted bridge alone: 20k SSE deltas at once → bare client',
      flood.map((r) => r.clientMs),
      'ms',
      { kind: 'max', value: 1000 },
      `the bridge's own cost: the server writes all 20,000 events in one go (${m(flood, (r) => r.serverMs)} ms); prompt → request ${m(flood, (r) => r.requestMs)} ms; ${m(flood, (r) => r.updates)} ACP updates (deltas of one network read are merged).`,
    ),
  ];
}

if (process.argv[1]?.endsWith('hostedStream.ts')) {
  const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
  hostedStreamRows(7, log).then(
    (rows) => console.log(formatTable(rows)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
