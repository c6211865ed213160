// The hosted bridge at the edges of what servers send and of its own life: a last event without
// its blank line, `done`/`error` whose data is not JSON, chunk types that are Object's own names,
// an earlier turn left open when the bridge was ended mid-stream, a conversation deleted mid-turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import { ReplyAssembler } from '../../src/hostedAgent/assembler';
import { HttpFailure, send } from '../../src/hostedAgent/http';
import { closeStaleApprovals } from '../../src/hostedAgent/requestBody';
import { SessionStore } from '../../src/hostedAgent/sessionStore';
import { SseParser } from '../../src/hostedAgent/sse';
import { ToolEventsReader } from '../../src/hostedAgent/toolEvents';
import type { UIMessage } from '../../src/hostedAgent/types';
import { UiStreamReader } from '../../src/hostedAgent/uiStream';

function assembler(warnings: string[] = []): ReplyAssembler {
  return new ReplyAssembler(
    { id: 'reply', role: 'assistant', parts: [] },
    1,
    () => undefined,
    (w) => warnings.push(w),
  );
}

test('SSE: a last event whose lines all came but whose blank line did not is kept; a line cut mid-way is still dropped', () => {
  const p = new SseParser();
  assert.deepEqual(p.push('event: done\ndata: {"type":"done"}\n'), []);
  assert.deepEqual(p.end(), { events: [{ event: 'done', data: '{"type":"done"}' }], truncated: false });
  const q = new SseParser();
  q.push('event: done\ndata: {"ty');
  assert.deepEqual(q.end(), { events: [], truncated: true });
});

test('tool-events: `done` with `[DONE]` or empty data ends the reply; an `error` in plain text is the error said', () => {
  for (const data of ['[DONE]', '']) {
    const reader = new ToolEventsReader(assembler(), assert.fail, () => 'id');
    reader.handle({ event: 'done', data });
    assert.equal(reader.ending.finished, true, JSON.stringify(data));
  }
  const reader = new ToolEventsReader(assembler(), assert.fail, () => 'id');
  reader.handle({ event: 'error', data: 'quota exceeded for team 7' });
  assert.deepEqual(reader.ending.errors, ['quota exceeded for team 7']);
});

test('ui-message-stream: a chunk typed like one of Object’s own names is ignored, not a failure', () => {
  const warnings: string[] = [];
  const reader = new UiStreamReader(assembler(warnings), (w) => warnings.push(w));
  for (const type of ['constructor', 'toString', '__proto__']) assert.doesNotThrow(() => reader.handle({ event: 'message', data: JSON.stringify({ type }) }));
});

test('an earlier turn the bridge was ended in: its running calls end as interrupted and its text as done before the history goes again', () => {
  const messages: UIMessage[] = [
    {
      id: 'a',
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Looking', state: 'streaming' },
        { type: 'dynamic-tool', toolName: 'bash', toolCallId: 't1', state: 'input-available', input: { command: 'ls' } },
        { type: 'dynamic-tool', toolName: 'bash', toolCallId: 't2', state: 'output-available', input: {}, output: 'ok' },
      ],
    },
  ];
  closeStaleApprovals(messages);
  const [text, open, done] = messages[0].parts as Array<Record<string, unknown>>;
  assert.equal(text.state, 'done');
  assert.equal(open.state, 'output-error');
  assert.match(String(open.errorText), /Interrupted/);
  assert.equal(done.state, 'output-available', 'a finished call stays as it was');
});

test('a conversation deleted while its turn ran is not written back when the turn ends', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-hosted-store-'));
  try {
    const store = new SessionStore(dir, assert.fail);
    const now = new Date().toISOString();
    const s = { sessionId: 'sess-1', cwd: dir, createdAt: now, updatedAt: now, messages: [], notices: [], alwaysAllow: [] };
    await store.save(s);
    assert.deepEqual(readdirSync(dir), ['sess-1.json']);
    await store.remove('sess-1');
    await store.save(s); // the aborted turn's last save
    await store.idle();
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a proxy that accepts the connection and never answers its CONNECT: the request times out instead of hanging', async () => {
  const sockets: Socket[] = [];
  const proxy = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  try {
    const err = await send({
      url: 'https://hosted.example.com/api/v1/chat',
      method: 'POST',
      headers: {},
      body: '{}',
      timeoutMs: 300,
      maxBytes: 1000,
      env: { HTTPS_PROXY: `http://127.0.0.1:${port}` },
    }).then(
      () => assert.fail('the request should have failed'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof HttpFailure && err.kind === 'timeout', String(err));
  } finally {
    for (const s of sockets) s.destroy();
    proxy.close();
  }
});
