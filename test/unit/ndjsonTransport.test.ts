import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import { createNdJsonTransport } from '../../src/acp/ndjsonTransport';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { trackUnhandledRejections } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
after(() => assert.deepEqual(unhandled.list, [], 'no unhandled rejections'));

/** An agent's stdout/stdin pair as streams the test writes/reads by hand. */
function pair(opts: { maxLineBytes?: number; consume?: (m: Record<string, unknown>) => boolean } = {}) {
  const agentOut = new PassThrough();
  const agentIn = new PassThrough();
  const log = new MemoryProtocolLog();
  const tapped: Array<Record<string, unknown>> = [];
  const t = createNdJsonTransport(agentIn, agentOut, {
    log,
    maxLineBytes: opts.maxLineBytes,
    onInbound: (m) => {
      tapped.push(m);
      return opts.consume?.(m) ?? false;
    },
  });
  const reader = t.stream.readable.getReader();
  const readAll = async (): Promise<acp.AnyMessage[]> => {
    const out: acp.AnyMessage[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return out;
      out.push(value);
    }
  };
  return { agentOut, agentIn, log, tapped, transport: t, readAll };
}

const note = (n: number | string): string => JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { n } });

describe('createNdJsonTransport (inbound)', () => {
  test('reassembles UTF-8 split across chunks, one byte at a time, and handles \\r\\n', async () => {
    const p = pair();
    const text = 'héllo — 😀 日本';
    const bytes = Buffer.from(`${note(text)}\r\n${note(2)}\n`, 'utf8');
    for (const b of bytes) p.agentOut.write(Buffer.from([b]));
    p.agentOut.end();
    const msgs = await p.readAll();
    assert.deepEqual(
      msgs.map((m) => (m as { params: { n: unknown } }).params.n),
      [text, 2],
    );
    await p.transport.closed;
    assert.equal(p.log.of('in').length, 2);
    assert.equal(p.log.of('in')[0], note(text));
  });

  test('drops malformed JSON, non-objects and batches with a warning, and goes on', async () => {
    const p = pair();
    p.agentOut.write(['not json', '42', '"str"', 'null', '[{"jsonrpc":"2.0","method":"a"}]', '', '   ', note('ok')].join('\n') + '\n');
    p.agentOut.end();
    const msgs = await p.readAll();
    assert.deepEqual(msgs, [JSON.parse(note('ok'))]);
    const warns = p.log.of('warn');
    assert.equal(warns.length, 5);
    assert.match(warns[0], /not JSON.*not json/);
    assert.match(warns[1], /not an object: 42/);
    assert.match(warns[4], /batch/);
  });

  test('drops an oversized line without buffering it, keeps reading after it', async () => {
    const p = pair({ maxLineBytes: 1024 });
    p.agentOut.write(note('before') + '\n');
    // 1 MiB line in 64 KiB chunks, no newline until the end: must be skipped, not collected.
    const big = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 16; i++) p.agentOut.write(big);
    p.agentOut.write('\n' + note('after') + '\n');
    // A line exactly at the limit still passes.
    const exact = JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { n: 'y'.repeat(1024 - 51) } });
    assert.equal(Buffer.byteLength(exact), 1024);
    p.agentOut.write(exact + '\n');
    p.agentOut.end();
    const msgs = await p.readAll();
    assert.equal(msgs.length, 3);
    assert.deepEqual(msgs.slice(0, 2), [JSON.parse(note('before')), JSON.parse(note('after'))]);
    const warns = p.log.of('warn');
    assert.equal(warns.length, 1);
    assert.match(warns[0], /longer than 1024 bytes/);
  });

  test('calls onInbound synchronously in arrival order, before the reader sees anything; true consumes', async () => {
    const p = pair({ consume: (m) => m.method === 'session/update' });
    const lines = [];
    for (let i = 0; i < 100; i++) lines.push(JSON.stringify({ jsonrpc: '2.0', method: i % 2 ? 'session/update' : 'note', params: { n: i } }));
    p.agentOut.write(lines.join('\n') + '\n');
    // Nothing has been read from the readable yet, yet the tap already saw every message.
    assert.equal(p.tapped.length, 100);
    assert.deepEqual(
      p.tapped.map((m) => (m.params as { n: number }).n),
      [...Array(100).keys()],
    );
    p.agentOut.end();
    const msgs = await p.readAll();
    assert.deepEqual(
      msgs.map((m) => (m as { params: { n: number } }).params.n),
      [...Array(50).keys()].map((i) => i * 2),
    );
  });

  test('delivers a final line without newline at EOF and resolves closed', async () => {
    const p = pair();
    p.agentOut.write(note('last'));
    p.agentOut.end();
    const msgs = await p.readAll();
    assert.deepEqual(msgs, [JSON.parse(note('last'))]);
    await p.transport.closed;
  });

  test('an onInbound that throws is logged and does not stop the stream', async () => {
    const agentOut = new PassThrough();
    const log = new MemoryProtocolLog();
    const t = createNdJsonTransport(new PassThrough(), agentOut, {
      log,
      onInbound: () => {
        throw new Error('tap broke');
      },
    });
    agentOut.end(note(1) + '\n' + note(2) + '\n');
    const reader = t.stream.readable.getReader();
    assert.equal(((await reader.read()).value as { params: { n: number } }).params.n, 1);
    assert.equal(((await reader.read()).value as { params: { n: number } }).params.n, 2);
    assert.equal(log.of('error').length, 2);
  });
});

describe('createNdJsonTransport (outbound)', () => {
  test('writes one JSON line per message and logs it', async () => {
    const p = pair();
    const chunks: string[] = [];
    p.agentIn.on('data', (c: Buffer) => chunks.push(c.toString()));
    const writer = p.transport.stream.writable.getWriter();
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } });
    await writer.write({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
    assert.equal(
      chunks.join(''),
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}\n{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}\n',
    );
    assert.equal(p.log.of('out').length, 2);
  });

  test('writing to a real child that already died rejects, never throws unhandled', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(0)'], { stdio: ['pipe', 'pipe', 'ignore'] });
    await new Promise((r) => child.once('close', r));
    const t = createNdJsonTransport(child.stdin, child.stdout, { log: new MemoryProtocolLog() });
    const writer = t.stream.writable.getWriter();
    // The first write may still be accepted by the OS pipe buffer or fail with EPIPE; either way
    // no exception escapes, and once the pipe is known broken further writes reject.
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push(
        await writer.write({ jsonrpc: '2.0', method: 'x' }).then(
          () => 'ok',
          (e: Error) => e.message,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      if (results.at(-1) !== 'ok') break;
    }
    assert.notEqual(results.at(-1), 'ok', `eventually rejected: ${results.join(', ')}`);
    await t.closed;
  });
});
