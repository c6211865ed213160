/**
 * What leaves the machine in a transcript or a problem report is masked (src/inspector/redaction.ts):
 * configured env values, MCP servers' env and credential headers, credential-named fields, and
 * key-shaped strings anywhere in text — while the JSON stays valid and everything else is unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, REDACTED } from '../../src/inspector/redaction';

test('configured secrets, MCP env and Authorization-like headers are masked; other values stay', () => {
  const r = createRedactor(['my-very-secret-value', 'abc']);
  const msg = {
    jsonrpc: '2.0',
    id: 1,
    method: 'session/new',
    params: {
      cwd: '/home/me/project',
      mcpServers: [
        {
          name: 'db',
          command: 'db-mcp',
          args: ['--token', 'my-very-secret-value'],
          env: [
            { name: 'DB_PASSWORD', value: 'hunter2hunter2' },
            { name: 'MODE', value: 'fast' },
          ],
        },
        {
          type: 'http',
          name: 'api',
          url: 'https://api.example.com/mcp',
          headers: [
            { name: 'Authorization', value: 'Bearer abcdefghijklmnop' },
            { name: 'Accept', value: 'application/json' },
          ],
        },
      ],
    },
  };
  const out = r.value(msg) as typeof msg;
  assert.equal(out.params.cwd, '/home/me/project');
  assert.deepEqual(out.params.mcpServers[0].args, ['--token', REDACTED]);
  assert.deepEqual(out.params.mcpServers[0].env, [
    { name: 'DB_PASSWORD', value: REDACTED },
    { name: 'MODE', value: REDACTED },
  ]);
  assert.deepEqual(out.params.mcpServers[1].headers, [
    { name: 'Authorization', value: REDACTED },
    { name: 'Accept', value: 'application/json' },
  ]);
  assert.equal(out.params.mcpServers[1].url, 'https://api.example.com/mcp');
  assert.equal(msg.params.mcpServers[0].env?.[0].value, 'hunter2hunter2', 'the input is not changed');
  assert.ok(r.count >= 4);
  const short = createRedactor(['abc']);
  assert.equal(short.text('abcdef'), 'abcdef', 'values shorter than 4 characters are not secrets worth shredding the text for');
});

test('key-shaped strings and assignments are masked wherever they appear (a file read, command output)', () => {
  const r = createRedactor([]);
  const file = [
    'ANTHROPIC_API_KEY=sk-ant-api03-AAAAAAAAAAAAAAAAAAAA',
    'OPENAI_API_KEY="sk-proj-0123456789abcdefghijklmnop"',
    'github: ghp_0123456789abcdefghijABCDEFGHIJ',
    'aws AKIAIOSFODNN7EXAMPLE and google AIzaSyA-0123456789abcdefghijklmnopqrstu',
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4fw"',
    'password: correcthorsebattery',
    'https://alice:s3cr3t@example.com/repo.git',
    'max_tokens=4096 and the token count is fine',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
  ].join('\n');
  const out = r.text(file);
  for (const leaked of [
    'sk-ant-api03',
    'sk-proj-0123',
    'ghp_0123',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA',
    'eyJhbGci',
    'correcthorse',
    's3cr3t',
    'MIIEowIBAAKCAQEA',
  ]) {
    assert.ok(!out.includes(leaked), `${leaked} leaked:\n${out}`);
  }
  assert.match(out, /max_tokens=4096 and the token count is fine/, 'numbers and prose are left alone');
  assert.match(out, /https:\/\/\[REDACTED\]@example\.com/);
  assert.match(out, /Bearer \[REDACTED\]/);
});

test('credential-named fields are masked whatever their value looks like; the result is still the same JSON shape', () => {
  const r = createRedactor([]);
  const msg = { result: { content: 'ok', meta: { apiKey: 'plain', token: 12345, tokens: 7, password: '', authorization: 'x' } } };
  const out = r.value(msg);
  assert.deepEqual(out, { result: { content: 'ok', meta: { apiKey: REDACTED, token: REDACTED, tokens: 7, password: '', authorization: REDACTED } } });
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(out)));
});
