// Entries of tandem.agents: a command, a hosted chat API (url + format), or an ACP agent on another
// machine (url, no format or "acp"); what each launches; and how an env_var sign-in method is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEntry, entryHost, parseAgentEntry, sshDestination } from '../../src/agents/agentEntry';
import { parseAuthMethods } from '../../src/conversation/signIn';
import { entrySecrets, HOSTED_CONFIG_ENV, launchConfigFor } from '../../src/vscode/agents/agentLaunch';

test('the three kinds of entry, by their keys', () => {
  assert.deepEqual(parseAgentEntry({ command: 'gemini', args: ['--acp', 3], env: { K: 'v', N: 1 } }), {
    entry: { kind: 'command', command: 'gemini', args: ['--acp'], env: { K: 'v' } },
  });
  const hosted = parseAgentEntry({
    url: 'https://host/api/v1/chat',
    format: 'tool-events',
    model: 'm',
    body: { allowedTools: ['bash'] },
    headers: { 'X-Team': '${env:TEAM}' },
  });
  assert.deepEqual(hosted, {
    entry: {
      kind: 'hosted',
      url: 'https://host/api/v1/chat',
      format: 'tool-events',
      model: 'm',
      body: { allowedTools: ['bash'] },
      headers: { 'X-Team': '${env:TEAM}' },
      stream: true,
    },
  });
  assert.equal(
    'entry' in parseAgentEntry({ url: 'https://h/c', format: 'ui-message-stream', stream: false }) &&
      (parseAgentEntry({ url: 'https://h/c', format: 'ui-message-stream', stream: false }) as { entry: { stream: boolean } }).entry.stream,
    false,
  );
  assert.deepEqual(parseAgentEntry({ url: 'wss://box.example/acp', clientTools: false }), {
    entry: { kind: 'remote', url: 'wss://box.example/acp', headers: {}, clientTools: false },
  });
  assert.deepEqual(parseAgentEntry({ url: 'https://box.example/acp', format: 'acp' }), {
    entry: { kind: 'remote', url: 'https://box.example/acp', headers: {}, clientTools: true },
  });
});

test('entries that cannot be used say why', () => {
  for (const [value, why] of [
    [null, /not an object/],
    [{}, /neither a "command" nor a "url"/],
    [{ command: '  ' }, /neither/],
    [{ url: 'ftp://h/x' }, /ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//],
    [{ url: 'wss://h/acp', format: 'grpc' }, /"format" must be/],
    [{ url: 'ws://h/chat', format: 'tool-events' }, /http:\/\/ or https:\/\//],
    [{ url: 'not a url', format: 'ui-message-stream' }, /http:\/\//],
  ] as const) {
    const parsed = parseAgentEntry(value);
    assert.ok('problem' in parsed, JSON.stringify(value));
    assert.match(parsed.problem, why);
  }
});

test('what the picker shows, and where an entry runs', () => {
  assert.equal(describeEntry({ kind: 'command', command: 'npx', args: ['-y', 'x'], env: {} }), 'npx -y x');
  assert.equal(
    describeEntry({ kind: 'hosted', url: 'https://h/api/v1/chat', format: 'tool-events', headers: {}, stream: true }),
    'https://h/api/v1/chat (tool-events)',
  );
  assert.equal(entryHost({ kind: 'remote', url: 'wss://box.example:8443/acp', headers: {}, clientTools: true }), 'box.example:8443');
  assert.equal(entryHost({ kind: 'command', command: 'x', args: [], env: {} }), undefined);
  assert.equal(entryHost({ kind: 'command', command: '/usr/bin/ssh', args: ['-p', '2222', 'me@build.example', 'codex-acp'], env: {} }), 'build.example');
});

test('the destination of an ssh tunnel, past its options', () => {
  assert.equal(sshDestination(['box', 'codex-acp']), 'box');
  assert.equal(sshDestination(['-tt', '-o', 'ServerAliveInterval=15', 'dev@box', 'agent']), 'box');
  assert.equal(sshDestination(['-Ap2222', '-i', '/k', 'box.lan']), 'box.lan', 'a value glued to its flag');
  assert.equal(sshDestination(['-J', 'jump', 'ssh://me@inner:2200', 'x']), 'inner:2200');
  assert.equal(sshDestination(['--', 'box']), 'box');
  assert.equal(sshDestination(['-v']), undefined);
});

test('a hosted entry launches the bundled bridge with the entry in an environment variable, a state folder of its own, and the stored key', () => {
  const agent = {
    name: 'Bot',
    builtIn: false,
    entry: {
      kind: 'hosted' as const,
      url: 'https://h/api/v1/chat',
      format: 'tool-events' as const,
      headers: { Authorization: 'Bearer ${apiKey}' },
      stream: false,
      body: { context: { a: 1 } },
    },
  };
  const launch = launchConfigFor(agent, { extensionPath: '/ext', storageDir: '/g', cwd: '/ws', secrets: { HOSTED_AGENT_API_KEY: 'sk-1' } });
  assert.equal(launch.command, process.execPath);
  assert.equal(launch.args[0], '/ext/dist/hostedAgent.js');
  assert.deepEqual(launch.args.slice(1, 3), ['--config-env', HOSTED_CONFIG_ENV]);
  assert.match(launch.args[4], /^\/g\/hosted\/[0-9a-f]{16}$/);
  assert.ok(!launch.args.join(' ').includes('Bearer'), 'headers are not on the command line');
  assert.deepEqual(JSON.parse(launch.env[HOSTED_CONFIG_ENV]), {
    url: 'https://h/api/v1/chat',
    format: 'tool-events',
    body: { context: { a: 1 } },
    headers: { Authorization: 'Bearer ${apiKey}' },
    stream: false,
  });
  assert.equal(launch.env.HOSTED_AGENT_API_KEY, 'sk-1');
  const other = launchConfigFor({ ...agent, name: 'Other bot' }, { extensionPath: '/ext', storageDir: '/g', cwd: '/ws', secrets: {} });
  assert.notEqual(other.args[4], launch.args[4], 'each entry keeps its own conversations');
  assert.equal(other.proxy?.env.HTTPS_PROXY, undefined, 'no proxy unless the editor has one');
  const proxied = launchConfigFor(agent, { extensionPath: '/ext', storageDir: '/g', cwd: '/ws', secrets: {}, proxy: { proxy: 'http://proxy:3128' }, env: {} });
  assert.equal(proxied.proxy?.env.HTTPS_PROXY, 'http://proxy:3128', "the editor's http.proxy reaches the bridge");
  assert.equal(proxied.proxy?.env.HTTP_PROXY, 'http://proxy:3128');
  assert.equal(proxied.env.HTTPS_PROXY, undefined, 'kept apart from env, whose values are all secrets');
  const remote = launchConfigFor(
    { name: 'R', builtIn: false, entry: { kind: 'remote', url: 'wss://h/acp', headers: { 'X-Token': 'abcd1234' }, clientTools: true } },
    { extensionPath: '/ext', storageDir: '/g', cwd: '/ws', secrets: {} },
  );
  assert.deepEqual(remote.remote, { url: 'wss://h/acp', headers: { 'X-Token': 'abcd1234' }, clientTools: true });
  assert.deepEqual(
    entrySecrets({
      name: 'R',
      builtIn: false,
      entry: { kind: 'remote', url: 'wss://h/acp', headers: { 'X-Token': 'abcd1234', 'X-Env': '${env:TOKEN}' }, clientTools: true },
    }),
    ['abcd1234'],
  );
});

test('sign-in methods of type env_var name the variable the client provides', () => {
  const warnings: string[] = [];
  const methods = parseAuthMethods(
    [
      { id: 'hosted-api-key', name: 'API key', type: 'env_var', vars: [{ name: 'HOSTED_AGENT_API_KEY', label: 'API key', secret: true }] },
      { id: 'old', name: 'Key', type: 'env_var', varName: 'OLD_KEY' },
      { id: 'bad', name: 'Bad', type: 'env_var', vars: [{ name: 'rm -rf /' }] },
      { id: 'gemini', name: 'Use GEMINI_API_KEY' },
    ],
    (w) => warnings.push(w),
  );
  assert.deepEqual(
    methods.map((m) => [m.id, m.kind, m.envVar, m.envLabel]),
    [
      ['hosted-api-key', 'envVar', 'HOSTED_AGENT_API_KEY', 'API key'],
      ['old', 'envVar', 'OLD_KEY', undefined],
      ['bad', 'agent', undefined, undefined],
      ['gemini', 'envVar', 'GEMINI_API_KEY', undefined],
    ],
  );
});
