/**
 * The one masker (src/util/secretMask.ts, secretShapes.ts) whose rules the protocol log, the
 * inspector, exports, reports, pickers and the hosted bridge all use: exact values in every form
 * they take, key shapes, credential-named assignments and arguments, an address's credentials.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMasker, exactMasker, secretForms, shownCommandLine } from '../../src/util/secretMask';
import { argSecrets, isCredentialName, maskArgs, shownUrl, urlSecrets } from '../../src/util/secretShapes';
import { createRedactor as logRedactor } from '../../src/acp/protocolLog';
import { createRedactor as exportRedactor, REDACTED } from '../../src/inspector/redaction';

test('exact values are masked as given, JSON-escaped and in base64; short values and JSON literals are not', () => {
  const secret = 'pa"ss\\word-1234';
  const mask = exactMasker([secret, 'abc', 'true', '8080']);
  const line = JSON.stringify({ a: secret, b: Buffer.from(secret).toString('base64'), n: 8080, t: true, s: 'abcdef' });
  const out = mask(line);
  assert.deepEqual(JSON.parse(out), { a: '***', b: '***', n: 8080, t: true, s: 'abcdef' }, 'still the same JSON');
  assert.ok(!out.includes('word-1234'));
  assert.deepEqual(secretForms(['true', '12', 'null']), []);
  // Text that is never parsed back masks a number-like key too (the hosted bridge's stderr).
  assert.equal(exactMasker(['12345678'], { jsonLines: false })('key 12345678'), 'key ***');
});

test('credential names: env variables, flags, fields and parameters', () => {
  for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'apiKey', 'api-key', 'DB_PASSWORD', 'x-auth', 'HF_PAT', 'sig']) {
    assert.ok(isCredentialName(name), name);
  }
  for (const name of ['PATH', 'HOME', 'monkey', 'keyboard', 'MODE', 'format', 'passage']) assert.ok(!isCredentialName(name), name);
});

test('NAME=value arguments and --flag values under a credential name are found and masked; the rest of the line stays', () => {
  const args = [
    'build-box',
    'env',
    'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx',
    'MODE=fast-mode',
    'codex-acp',
    '--token',
    'tok-0123456789',
    '--max-tokens',
    '4096',
    '--api-key=k-abcdef123',
  ];
  assert.deepEqual(argSecrets(args), ['sk-proj-abcdefghijklmnopqrstuvwx', 'tok-0123456789', 'k-abcdef123']);
  assert.deepEqual(maskArgs(args), [
    'build-box',
    'env',
    'OPENAI_API_KEY=***',
    'MODE=fast-mode',
    'codex-acp',
    '--token',
    '***',
    '--max-tokens',
    '4096',
    '--api-key=***',
  ]);
  // A whole remote command in one argument (`ssh host "env KEY=… agent"`).
  assert.equal(shownCommandLine('ssh', ['box', 'env GITHUB_TOKEN=ghx-0123456789 agent --acp']), 'ssh box env GITHUB_TOKEN=*** agent --acp');
});

test('free text: token shapes, bearer values, assignments, URL user:pass and credential query values', () => {
  const m = createMasker(['configured-secret-1'], { mask: '[X]' });
  const out = m.text(
    [
      'value configured-secret-1 here',
      'github ghp_0123456789abcdefghijABCDEFGHIJ',
      'Authorization: Bearer abcdefghijklmnop',
      'OPENAI_API_KEY=sk-proj-0123456789abcdefghijklmnop',
      'https://alice:hunter2pass@box.example/acp',
      'GET https://fn.example.net/api/chat?code=AzFnKey0123&format=json',
      'max_tokens=4096 and the token count is fine',
    ].join('\n'),
  );
  for (const leaked of ['configured-secret-1', 'ghp_0123', 'abcdefghijklmnop', 'sk-proj', 'hunter2pass', 'AzFnKey0123'])
    assert.ok(!out.includes(leaked), `${leaked}:\n${out}`);
  assert.match(out, /\?code=\[X\]&format=json/, 'the parameter names and innocent values stay');
  assert.match(out, /max_tokens=4096 and the token count is fine/);
  assert.ok(m.count >= 6);
});

test("an address's secrets: user, password and credential or random-looking query values, not innocent ones", () => {
  const url = 'wss://alice:hunter2pass@sandbox.example.com/acp?token=tok-9f8e7d6c5b4a&format=json&team=platform';
  const found = urlSecrets(url);
  for (const v of ['alice', 'hunter2pass', 'tok-9f8e7d6c5b4a']) assert.ok(found.includes(v), v);
  assert.ok(!found.includes('json') && !found.includes('platform'), 'masking "json" editor-wide would shred every log line');
  assert.ok(urlSecrets('https://h/x?v=AzFnKey0123456789abcdefXYZ').includes('AzFnKey0123456789abcdefXYZ'), 'a key under an innocent name, by its look');
  assert.equal(shownUrl(url), 'wss://sandbox.example.com/acp?token=***&format=***&team=***');
});

test('the parsed-JSON variant (exports) masks credential fields, MCP env and headers; the log flavour and the export flavour keep their masks', () => {
  const msg = {
    params: {
      mcpServers: [{ name: 'gh', env: [{ name: 'GITHUB_TOKEN', value: 'plain-value' }], headers: [{ name: 'Accept', value: 'text/plain' }] }],
      apiKey: 'x',
    },
  };
  assert.deepEqual(exportRedactor([]).value(msg), {
    params: {
      mcpServers: [{ name: 'gh', env: [{ name: 'GITHUB_TOKEN', value: REDACTED }], headers: [{ name: 'Accept', value: 'text/plain' }] }],
      apiKey: REDACTED,
    },
  });
  assert.equal(logRedactor(['sk-live-0001'])('a sk-live-0001 b'), 'a *** b');
  assert.equal(exportRedactor(['sk-live-0001']).text('a sk-live-0001 b'), `a ${REDACTED} b`);
});
