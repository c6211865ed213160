/**
 * The hosted bridge's SSE parser stays linear in what it is fed and bounds one field line: a
 * server that trickles an endless `data:` line is refused once the line passes 1 MB ("tooLarge"),
 * each character is searched for a line end once however small the chunks, and line ends split
 * across chunks (CR | LF, CR at a chunk's end, CRLF) still end exactly one line. The bridge, a
 * real process against the fake hosted server, fails the prompt with that error.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HttpFailure } from '../../src/hostedAgent/http';
import { MAX_SSE_LINE_CHARS, SseParser, type SseEvent } from '../../src/hostedAgent/sse';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { SSE_HEADERS, type Step } from '../fixtures/hostedServer/replies';
import { buildHostedAgent, rejects, startBridge } from '../support/hostedBridge';

test('a 10 MB line in 1 KB chunks is refused as tooLarge once it passes 1 MB, having searched each character once', () => {
  const p = new SseParser();
  const chunk = 'x'.repeat(1024);
  let pushed = p.push('data: ').length;
  let fed = 'data: '.length;
  let refused: unknown;
  for (let sent = 0; sent < 10 * 1024 * 1024; sent += chunk.length) {
    try {
      pushed += p.push(chunk).length;
      fed += chunk.length;
    } catch (err) {
      refused = err;
      break;
    }
  }
  assert.ok(refused instanceof HttpFailure, `refused with an HttpFailure (got ${String(refused)})`);
  assert.equal(refused.kind, 'tooLarge');
  assert.match(refused.message, /event line longer than 1 MB/);
  assert.equal(pushed, 0, 'no event came out of the endless line');
  assert.ok(fed <= MAX_SSE_LINE_CHARS, `refused at the limit, not later (after ${fed} characters)`);
  assert.ok(fed > MAX_SSE_LINE_CHARS - 1024, `not refused before the limit (after ${fed} characters)`);
  // Bounded work: what was searched is what was fed, not the open line again on every chunk.
  assert.ok(p.scanned <= fed + chunk.length, `searched ${p.scanned} characters for ${fed} fed`);
});

test('a long line under the limit fed in small chunks is searched once, character for character', () => {
  const p = new SseParser();
  const body = `data: ${'y'.repeat(512 * 1024)}\n\n`;
  const events: SseEvent[] = [];
  for (let i = 0; i < body.length; i += 700) events.push(...p.push(body.slice(i, i + 700)));
  assert.equal(events.length, 1);
  assert.equal(events[0].data.length, 512 * 1024);
  assert.equal(p.scanned, body.length);
});

test('a line over the limit inside one chunk is refused too, and a smaller limit applies as set', () => {
  assert.throws(
    () => new SseParser(100).push(`data: ${'z'.repeat(200)}\n\n`),
    (err: unknown) => err instanceof HttpFailure && err.kind === 'tooLarge',
  );
  assert.deepEqual(new SseParser(100).push(`data: ${'z'.repeat(90)}\n\n`), [{ event: 'message', data: 'z'.repeat(90) }]);
});

test('CR, LF and CRLF split across chunks end exactly one line each', () => {
  const a = { event: 'message', data: 'a' };
  const ab = { event: 'message', data: 'a\nb' };
  const cases: Array<[string, string[], SseEvent[]]> = [
    ['CRLF split between chunks', ['data: a\r', '\n\r', '\ndata: b\r\n\r\n'], [a, { event: 'message', data: 'b' }]],
    ['CR at a chunk end, then the next line', ['data: a\r', 'data: b\r\r'], [ab]],
    ['CR, an empty chunk, then its LF', ['data: a\r', '', '\n', '\r\n'], [a]],
    ['LF only, one character at a time', [...'data: a\ndata: b\n\n'], [ab]],
    ['CR only, one character at a time', [...'data: a\rdata: b\r\r'], [ab]],
  ];
  for (const [name, chunks, expected] of cases) {
    const p = new SseParser();
    const events = chunks.flatMap((c) => p.push(c));
    events.push(...p.end().events);
    assert.deepEqual(events, expected, name);
  }
});

test('a lone CR at the very end of the stream ends its line (kept event, nothing truncated)', () => {
  const p = new SseParser();
  assert.deepEqual(p.push('data: last\r'), []);
  assert.deepEqual(p.end(), { events: [{ event: 'message', data: 'last' }], truncated: false });
});

let server: HostedServer;
before(async () => {
  server = await startHostedServer();
  await buildHostedAgent();
});
after(() => server.close());

test('the bridge fails a prompt whose stream sends a 2 MB line with tooLarge', { timeout: 30_000 }, async (t) => {
  const b = await startBridge(t, { args: ['--url', server.chatUrl, '--format', 'tool-events'] });
  const sid = await b.newSession();
  const piece = 'x'.repeat(16 * 1024);
  const steps: Step[] = [{ send: 'event: text\ndata: {"type":"text.delta","delta":"' }, ...Array.from({ length: 128 }, () => ({ send: piece }))];
  server.reply({ status: 200, headers: SSE_HEADERS, steps: [...steps, { send: '"}\n\n' }] });
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal((err.data as { tandem: { kind: string } }).tandem.kind, 'tooLarge');
  assert.match(err.message, /event line longer than 1 MB/);
});
