/**
 * The hosted bridge's configuration contract (flags, `--config-env` JSON, headers with `${apiKey}`
 * and `${env:NAME}`), the request bodies it builds, how HTTP failures read, and redaction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bridgeRedactor, resolveHeaders } from '../../src/hostedAgent/secrets';
import { parseToolList, toolsUrlFor } from '../../src/hostedAgent/check';
import { ConfigError, DEFAULT_TIMEOUT_MS, defaultStateDir, parseConfig } from '../../src/hostedAgent/config';
import { retryAfterSeconds, statusFailure } from '../../src/hostedAgent/failures';
import { closeStaleApprovals, promptMessage, requestBody } from '../../src/hostedAgent/requestBody';
import type { UIMessage } from '../../src/hostedAgent/types';
import { SEED_MISSING_CONTEXT, SEED_REQUEST } from '../fixtures/hostedServer/seedPayloads';

const URL_ = 'https://huajune.duliday.com/api/v1/chat';

test('flags: url, format, model, --no-stream, --body, repeated --header, --flag=value; defaults', () => {
  const cfg = parseConfig(
    [
      '--url',
      URL_,
      '--format=tool-events',
      '--model',
      SEED_REQUEST.model,
      '--no-stream',
      '--body',
      JSON.stringify({ allowedTools: ['bash'] }),
      '--header',
      'X-A: 1',
      '--header',
      'X-B:two words',
    ],
    {},
  );
  assert.equal(cfg.url, URL_);
  assert.equal(cfg.format, 'tool-events');
  assert.equal(cfg.model, SEED_REQUEST.model);
  assert.equal(cfg.stream, false);
  assert.deepEqual(cfg.body, { allowedTools: ['bash'] });
  assert.deepEqual(cfg.headers, { 'X-A': '1', 'X-B': 'two words' });
  assert.equal(cfg.timeoutMs, DEFAULT_TIMEOUT_MS);
  assert.equal(cfg.maxBodyBytes, 10 * 1024 * 1024);
  assert.equal(cfg.stateDir, defaultStateDir(URL_, {}));
  assert.notEqual(defaultStateDir(URL_), defaultStateDir('https://other.example/chat'), 'one folder per server');
  assert.equal(parseConfig(['--url', URL_, '--format', 'ui-message-stream'], { TANDEM_HOSTED_STATE_DIR: '/s' }).stateDir, '/s');
  assert.equal(parseConfig(['--url', URL_, '--format', 'ui-message-stream', '--state-dir', '/x'], { TANDEM_HOSTED_STATE_DIR: '/s' }).stateDir, '/x');
});

test('--config-env: the same keys as JSON from an environment variable; flags win, bodies deep-merge', () => {
  const env = {
    CFG: JSON.stringify({
      url: URL_,
      format: 'tool-events',
      model: 'm1',
      stream: false,
      headers: { 'X-Key': '${apiKey}' },
      body: { context: { a: 1, nested: { b: 2 } } },
      timeoutMs: 5000,
    }),
  };
  const cfg = parseConfig(['--config-env', 'CFG', '--model', 'm2', '--body', '{"context":{"nested":{"c":3}}}'], env);
  assert.deepEqual([cfg.url, cfg.format, cfg.model, cfg.stream, cfg.timeoutMs], [URL_, 'tool-events', 'm2', false, 5000]);
  assert.deepEqual(cfg.headers, { 'X-Key': '${apiKey}' });
  assert.deepEqual(cfg.body, { context: { a: 1, nested: { b: 2, c: 3 } } });
});

test('bad configuration: clear ConfigErrors', () => {
  const bad: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
    [['--format', 'tool-events'], {}, /--url is required/],
    [['--url', 'ftp://x/y', '--format', 'tool-events'], {}, /http or https/],
    [['--url', URL_], {}, /--format must be one of tool-events, ui-message-stream/],
    [['--url', URL_, '--format', 'acp'], {}, /got "acp"/],
    [['--url', URL_, '--format', 'tool-events', '--body', '[1]'], {}, /must be a JSON object/],
    [['--url', URL_, '--format', 'tool-events', '--body', '{nope'], {}, /not valid JSON/],
    [['--url', URL_, '--format', 'tool-events', '--header', 'no colon'], {}, /Name: value/],
    [['--url', URL_, '--format', 'tool-events', '--timeout-ms', 'soon'], {}, /positive number/],
    [['--url', URL_, '--format', 'tool-events', '--frobnicate'], {}, /Unknown option --frobnicate/],
    [['--config-env', 'MISSING'], {}, /not set/],
    [['--config-env', 'C'], { C: '{"headers":{"a":1}}' }, /object of strings/],
  ];
  for (const [argv, env, message] of bad)
    assert.throws(
      () => parseConfig(argv, env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      argv.join(' '),
    );
});

test('headers: Bearer by default, ${apiKey} where a template asks, ${env:NAME}; missing pieces reported', () => {
  const secrets = bridgeRedactor();
  assert.deepEqual(resolveHeaders({}, { HOSTED_AGENT_API_KEY: 'key-1' }, secrets), {
    headers: { Authorization: 'Bearer key-1' },
    keyMissing: false,
    missingEnv: [],
  });
  assert.deepEqual(resolveHeaders({}, {}, secrets), { headers: {}, keyMissing: false, missingEnv: [] });
  assert.deepEqual(resolveHeaders({ 'X-Api-Key': '${apiKey}', 'X-Team': '${env:TEAM}' }, { HOSTED_AGENT_API_KEY: 'key-1', TEAM: 'blue' }, secrets).headers, {
    'X-Api-Key': 'key-1',
    'X-Team': 'blue',
  });
  assert.deepEqual(
    resolveHeaders({ authorization: 'Token abc' }, { HOSTED_AGENT_API_KEY: 'key-1' }, secrets).headers,
    { authorization: 'Token abc' },
    'an explicit Authorization wins',
  );
  const missing = resolveHeaders({ 'X-Api-Key': '${apiKey}', 'X-Team': '${env:NOPE}' }, {}, secrets);
  assert.deepEqual([missing.keyMissing, missing.missingEnv], [true, ['NOPE']]);
});

test('request bodies: the bridge fields, the configured body deep-merged over them, messages never overridden', () => {
  const cfg = parseConfig(
    [
      '--url',
      URL_,
      '--format',
      'tool-events',
      '--model',
      'm',
      '--body',
      JSON.stringify({ stream: false, allowedTools: ['bash'], messages: ['ignored'], context: SEED_REQUEST.context }),
    ],
    {},
  );
  const history: UIMessage[] = [promptMessage([{ type: 'text', text: '候选人问：你们公司地址在哪？' }], 'u1')];
  assert.deepEqual(requestBody(cfg, history, { sessionId: 's' }), {
    stream: false,
    model: 'm',
    allowedTools: ['bash'],
    context: SEED_REQUEST.context,
    messages: [{ id: 'u1', role: 'user', content: '候选人问：你们公司地址在哪？', parts: [{ type: 'text', text: '候选人问：你们公司地址在哪？' }] }],
  });
  const ui = parseConfig(['--url', URL_, '--format', 'ui-message-stream', '--model', 'gpt'], {});
  assert.deepEqual(requestBody(ui, history, { sessionId: 's1', continuing: 'a1' }), {
    id: 's1',
    trigger: 'submit-message',
    messageId: 'a1',
    model: 'gpt',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '候选人问：你们公司地址在哪？' }] }],
  });
});

test('prompts: resources and links become text (these APIs take text); unanswered approvals are denied before the next turn', () => {
  const m = promptMessage(
    [
      { type: 'text', text: 'Look at' },
      { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
      { type: 'resource', resource: { uri: 'file:///b.ts', text: 'const b = 1;' } },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ],
    'u',
  );
  assert.deepEqual(
    m.parts.map((p) => p.text),
    ['Look at', '[a.ts](file:///a.ts)', 'file:///b.ts:\n```\nconst b = 1;\n```', '(image left out: this agent sends text only)'],
  );
  const history: UIMessage[] = [
    { id: 'a', role: 'assistant', parts: [{ type: 'dynamic-tool', toolName: 'rm', toolCallId: 'c', state: 'approval-requested', approval: { id: 'ap' } }] },
  ];
  closeStaleApprovals(history);
  assert.deepEqual(history[0].parts[0], {
    type: 'dynamic-tool',
    toolName: 'rm',
    toolCallId: 'c',
    state: 'approval-responded',
    approval: { id: 'ap', approved: false, reason: 'The user did not answer.' },
  });
});

test('failures: the seed 400 body, auth, Retry-After in seconds or as a date, redirects, 404', () => {
  const ctx = { host: 'h', keySent: false, now: Date.parse('2025-01-01T10:00:00Z') };
  const missing = statusFailure(400, 'Bad Request', {}, JSON.stringify(SEED_MISSING_CONTEXT), ctx);
  assert.deepEqual(missing.data, {
    tandem: {
      kind: 'missingContext',
      status: 400,
      serverMessage: SEED_MISSING_CONTEXT.message,
      missingContext: ['configData', 'replyPrompts'],
      tools: ['zhipin_reply_generator'],
    },
  });
  assert.match(missing.message, /"body" → "context"/);
  assert.equal(statusFailure(401, '', {}, '', ctx).code, -32000);
  assert.match(statusFailure(403, 'Forbidden', {}, '', { ...ctx, keySent: true }).message, /rejected the API key \(403 Forbidden\)/);
  assert.equal(retryAfterSeconds('Wed, 01 Jan 2025 10:00:30 GMT', ctx.now), 30);
  assert.equal(retryAfterSeconds('7', ctx.now), 7);
  assert.equal(retryAfterSeconds('soon', ctx.now), undefined);
  const limited = statusFailure(429, '', { 'retry-after': 'Wed, 01 Jan 2025 10:00:30 GMT' }, '{"message":"quota"}', ctx);
  assert.match(limited.message, /Try again in 30 s \(at 10:00:30 UTC\)\. The server said: quota/);
  assert.deepEqual(limited.data, {
    tandem: { kind: 'rateLimited', status: 429, serverMessage: 'quota', retryAfterSeconds: 30, retryAt: '2025-01-01T10:00:30.000Z' },
  });
  assert.match(statusFailure(502, 'Bad Gateway', {}, '<html><h1>502</h1> upstream down</html>', ctx).message, /The server said: 502 upstream down/);
  assert.match(statusFailure(308, '', { location: 'https://new/api' }, '', ctx).message, /redirected the request \(308\) to https:\/\/new\/api/);
  assert.match(statusFailure(404, 'Not Found', {}, '', ctx).message, /check the agent's url/);
});

test('redaction: registered secrets (and their base64) are masked in text and in nested data', () => {
  const secrets = bridgeRedactor();
  secrets.add('super-secret-token');
  secrets.add('abc'); // too short to mask safely: ignored
  assert.equal(secrets.text('Bearer super-secret-token failed'), 'Bearer *** failed');
  assert.equal(secrets.text(`Basic ${Buffer.from('super-secret-token').toString('base64')}`), 'Basic ***');
  assert.equal(secrets.text('abc'), 'abc');
  assert.deepEqual(secrets.deep({ a: ['x super-secret-token'], b: 1 }), { a: ['x ***'], b: 1 });
});

test('redaction: header secrets are registered as the headers are filled in, and each bridge has its own', () => {
  const secrets = bridgeRedactor();
  resolveHeaders({ 'X-Token': '${env:TEAM_TOKEN}', 'X-Team': 'blue-team' }, { HOSTED_AGENT_API_KEY: '12345678', TEAM_TOKEN: 'tok-abcdef' }, secrets);
  assert.equal(secrets.text('k=12345678 t=tok-abcdef team=blue-team'), 'k=*** t=*** team=blue-team', 'a number-like key is masked too');
  assert.equal(bridgeRedactor().text('k=12345678'), 'k=12345678');
});

test('Check Agent helpers: the tools URL next to the chat URL; tool lists in the shapes servers use', () => {
  assert.equal(toolsUrlFor({ url: 'https://h/api/v1/chat?x=1' }), 'https://h/api/v1/tools');
  assert.equal(toolsUrlFor({ url: 'https://h/api/v1/chat', toolsUrl: 'https://h/t' }), 'https://h/t');
  const tool = { name: 'bash', requiredContext: ['sandboxId'] };
  for (const body of [
    [tool],
    { tools: [tool] },
    { data: { tools: [tool] } },
    { success: true, data: [tool] },
    { data: { tools: { bash: { requiredContext: ['sandboxId'] } } } },
  ]) {
    assert.deepEqual(parseToolList(body), [tool], JSON.stringify(body));
  }
  assert.deepEqual(parseToolList(['a', 'b']), [
    { name: 'a', requiredContext: [] },
    { name: 'b', requiredContext: [] },
  ]);
});
