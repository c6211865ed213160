/**
 * The hosted bridge (a real process) against a misbehaving or demanding server: the seed's 400
 * missing-context error and skipped tools, sign-in (401/403, `${apiKey}` headers), rate limits and
 * server errors with Retry-After, bodies that are not event streams, malformed events, a dropped
 * connection, a server that stalls, a body over 10 MB, and a proxy. The key never shows.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { json, sseText, text, toolEvents, type Reply } from '../fixtures/hostedServer/replies';
import { SEED_REQUEST, SEED_SKIPPED_HEADER, SEED_SKIP_REQUEST, SEED_TOOL_EVENTS } from '../fixtures/hostedServer/seedPayloads';
import { startConnectProxy } from '../support/registryFixtures';
import { buildHostedAgent, rejects, startBridge, type BridgeClient } from '../support/hostedBridge';

let server: HostedServer;
before(async () => {
  server = await startHostedServer();
  await buildHostedAgent();
});
after(() => server.close());

const KEY = 'sk-test-0123456789abcdef';
const seedArgs = (...more: string[]) => ['--url', server.chatUrl, '--format', 'tool-events', ...more];
const T = { timeout: 30_000 };

function tandem(err: { data?: unknown }): Record<string, unknown> {
  return (err.data as { tandem: Record<string, unknown> }).tandem;
}

async function session(t: Parameters<typeof startBridge>[0], args: string[], env: Record<string, string> = {}): Promise<{ b: BridgeClient; sid: string }> {
  const b = await startBridge(t, { args, env });
  return { b, sid: await b.newSession() };
}

test('400 missing context (the seed rules): the error lists the keys and tools, and carries them structured', T, async (t) => {
  const { b, sid } = await session(
    t,
    seedArgs('--body', JSON.stringify({ allowedTools: SEED_REQUEST.allowedTools, context: { preferredBrand: '蜀地源冒菜' } })),
  );
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(err.code, -32603);
  assert.match(err.message, /configData, replyPrompts/);
  assert.match(err.message, /zhipin_reply_generator/);
  assert.deepEqual(tandem(err), {
    kind: 'missingContext',
    status: 400,
    serverMessage: 'Missing required context: configData, replyPrompts',
    missingContext: ['configData', 'replyPrompts'],
    tools: ['zhipin_reply_generator'],
  });
});

test('contextStrategy "skip" (the seed request): X-Tools-Skipped becomes a visible notice with the tools in _meta', T, async (t) => {
  const body = { ...SEED_SKIP_REQUEST, context: { sandboxId: 'sbx_1' } };
  const { b, sid } = await session(t, seedArgs('--body', JSON.stringify(body)));
  server.reply(sseText(SEED_TOOL_EVENTS));
  assert.equal((await b.prompt(sid, 'hi')).stopReason, 'end_turn');
  const notice = b.of(sid, 'agent_message_chunk').find((u) => u._meta);
  assert.ok(notice && notice.sessionUpdate === 'agent_message_chunk' && notice.content.type === 'text');
  assert.match(notice.content.text, new RegExp(SEED_SKIPPED_HEADER));
  assert.deepEqual(notice._meta, { tandem: { notice: { kind: 'toolsSkipped', tools: [SEED_SKIPPED_HEADER] } } });
});

test('401 → auth_required with the env var to set; the bridge restarted with the key works; the key is sent as a bearer token', T, async (t) => {
  server.requireKey(KEY);
  t.after(() => server.requireKey(undefined));
  const { b, sid } = await session(t, seedArgs());
  const method = b.init.authMethods?.[0] as unknown as Record<string, unknown>;
  assert.deepEqual([method.id, method.type, method.vars], ['hosted-api-key', 'env_var', [{ name: 'HOSTED_AGENT_API_KEY', label: 'API key', secret: true }]]);
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(err.code, -32000);
  assert.match(err.message, /needs an API key/);
  assert.deepEqual(tandem(err), { kind: 'auth', status: 401, serverMessage: 'Missing API key', envVar: 'HOSTED_AGENT_API_KEY' });
  // `authenticate` cannot set the key (it comes from the environment): it says so until the client restarts the bridge with it.
  const notYet = await rejects(b.conn.agent.request(acp.methods.agent.authenticate, { methodId: 'hosted-api-key' }));
  assert.deepEqual([notYet.code, tandem(notYet).envVar], [-32000, 'HOSTED_AGENT_API_KEY']);
  await b.stop();
  const signedIn = await startBridge(t, { args: seedArgs(), env: { HOSTED_AGENT_API_KEY: KEY }, stateDir: b.stateDir });
  assert.deepEqual(await signedIn.conn.agent.request(acp.methods.agent.authenticate, { methodId: 'hosted-api-key' }), {});
  server.reply(sseText(SEED_TOOL_EVENTS));
  assert.equal((await signedIn.prompt(sid, 'hi again')).stopReason, 'end_turn');
  assert.equal(server.chats().at(-1)!.headers.authorization, `Bearer ${KEY}`);
});

test('403 with a wrong key: the server echoes it, the bridge never shows it (error, data, stderr)', T, async (t) => {
  server.requireKey(KEY);
  t.after(() => server.requireKey(undefined));
  const wrong = 'sk-wrong-key-9876543210';
  const { b, sid } = await session(t, seedArgs('--header', 'X-Api-Key: ${apiKey}', '--header', 'Authorization: Bearer ${apiKey}'), {
    HOSTED_AGENT_API_KEY: wrong,
  });
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(err.code, -32000);
  assert.match(err.message, /rejected the API key/);
  assert.equal(server.chats().at(-1)!.headers['x-api-key'], wrong, '${apiKey} filled in');
  for (const where of [err.message, JSON.stringify(err.data), b.stderr()]) assert.equal(where.includes(wrong), false, where);
  assert.match(JSON.stringify(err.data), /Invalid API key: \*\*\*/);
});

test('a header using ${apiKey} without a key: auth_required before any request goes out', T, async (t) => {
  const { b, sid } = await session(t, seedArgs('--header', 'X-Api-Key: ${apiKey}'));
  const before = server.requests.length;
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(err.code, -32000);
  assert.equal(server.requests.length, before);
});

test('429 with a short Retry-After is retried once; a long one and 5xx fail saying when to retry', T, async (t) => {
  const { b, sid } = await session(t, seedArgs());
  const busy = (status: number, retryAfter?: string): Reply =>
    json({ error: 'Busy', message: 'slow down' }, status, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
  server.reply(busy(429, '0'), sseText(SEED_TOOL_EVENTS));
  const before = server.chats().length;
  assert.equal((await b.prompt(sid, 'one')).stopReason, 'end_turn');
  assert.equal(server.chats().length, before + 2);
  server.reply(busy(429, '120'));
  const limited = await rejects(b.prompt(sid, 'two'));
  assert.match(limited.message, /429.*Try again in about 2 min/);
  assert.deepEqual([tandem(limited).kind, tandem(limited).retryAfterSeconds], ['rateLimited', 120]);
  server.reply(busy(503, '30'));
  const down = await rejects(b.prompt(sid, 'three'));
  assert.match(down.message, /503 Service Unavailable\). Try again in 30 s/);
  server.reply(busy(500));
  assert.match((await rejects(b.prompt(sid, 'four'))).message, /500 Internal Server Error\). Try again later\. The server said: slow down/);
});

test('an answer that is not an event stream (an HTML page): a clear error naming what came', T, async (t) => {
  const { b, sid } = await session(t, seedArgs());
  server.reply(text('<html><body><h1>Sign in to Corp Proxy</h1></body></html>'));
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(tandem(err).kind, 'notEventStream');
  assert.match(err.message, /text\/html instead of an event stream or JSON: "Sign in to Corp Proxy"/);
});

test('malformed and unknown events are skipped with a warning on stderr; the rest of the turn works', T, async (t) => {
  const { b, sid } = await session(t, seedArgs());
  server.reply(
    toolEvents([
      ['text', '{"type":"text.delta","delta":"A'],
      ['mystery', { type: 'mystery.event' }],
      ['text', { type: 'text.delta', delta: 'fine' }],
      ['done', { type: 'done' }],
    ]),
  );
  assert.equal((await b.prompt(sid, 'hi')).stopReason, 'end_turn');
  assert.equal(b.text(sid), 'fine');
  assert.match(b.stderr(), /warning: Ignored a malformed "text" event/);
  assert.match(b.stderr(), /warning: Ignored an unknown "mystery.event" event/);
});

test('connection dropped mid-stream: an error that says so; the partial reply is kept and sent next turn', T, async (t) => {
  const { b, sid } = await session(t, seedArgs());
  server.reply(toolEvents([['text', { type: 'text.delta', delta: 'Half an answer' }], { wait: 20 }, { drop: true }]));
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(tandem(err).kind, 'connectionLost');
  assert.match(err.message, /lost mid-answer|closed before the reply was complete/);
  assert.match(err.message, /partial reply is kept/);
  server.reply(sseText(SEED_TOOL_EVENTS));
  await b.prompt(sid, 'again');
  const messages = server.chats().at(-1)!.body!.messages as Array<{ role: string; content: string }>;
  assert.deepEqual(messages[1], { ...messages[1], role: 'assistant', content: 'Half an answer' });
});

test('a server that stalls: the silence limit (--timeout-ms) ends the turn with a clear error', T, async (t) => {
  const { b, sid } = await session(t, seedArgs('--timeout-ms', '300'));
  server.reply(toolEvents([['text', { type: 'text.delta', delta: 'Thinking…' }], { stall: true }]));
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(tandem(err).kind, 'timeout');
  assert.match(err.message, /No answer from 127\.0\.0\.1:\d+ for 0\.3 s/);
  // A server that never sends its headers at all meets the same limit.
  server.reply({ silent: true, steps: [] });
  assert.equal(tandem(await rejects(b.prompt(sid, 'hi'))).kind, 'timeout');
  // Headers and then nothing, without a content type: still the silence, not a wrong body.
  server.reply({ status: 200, steps: [{ stall: true }] });
  assert.equal(tandem(await rejects(b.prompt(sid, 'hi'))).kind, 'timeout');
});

test('a body over 10 MB is cut with a clear error', T, async (t) => {
  const { b, sid } = await session(t, seedArgs());
  const delta = 'x'.repeat(64 * 1024);
  const events: Array<[string, unknown]> = Array.from({ length: 170 }, () => ['text', { type: 'text.delta', delta }]);
  server.reply(toolEvents([...events, ['done', { type: 'done' }]]));
  const err = await rejects(b.prompt(sid, 'hi'));
  assert.equal(tandem(err).kind, 'tooLarge');
  assert.match(err.message, /larger than 10 MB/);
});

test('HTTPS_PROXY / HTTP_PROXY: requests go through the proxy (CONNECT)', T, async (t) => {
  const proxy = await startConnectProxy();
  t.after(() => proxy.close());
  const { b, sid } = await session(t, seedArgs(), { HTTP_PROXY: proxy.url });
  server.reply(sseText(SEED_TOOL_EVENTS));
  assert.equal((await b.prompt(sid, 'hi')).stopReason, 'end_turn');
  assert.deepEqual(proxy.targets, [new URL(server.chatUrl).host]);
});
