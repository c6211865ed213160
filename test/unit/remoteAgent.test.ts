// An agent on another machine, for real: the SDK's server side (WebSocket and Streamable HTTP on
// one /acp endpoint) wrapping the scripted agent in a process of its own, and the real core on this
// side (ConversationManager → RemoteAgentConnection). A whole turn with a permission, file reads
// and writes and a terminal served from this workspace; the server SIGKILLed mid-turn and started
// again (the turn interrupted, the queue kept and sent once back, the same session resumed, the affinity cookie sent
// again); a 401 answered through the sign-in card; `clientTools: false`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import type { ProtocolLog, WireOrigin } from '../../src/acp/protocolLog';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { ensureRemoteServerBuilt, RemoteServer } from '../support/remoteServer';
import { scriptedSession, until, type ScriptedSessionOptions } from '../support/scriptedSession';
import { trackUnhandledRejections } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
const servers: RemoteServer[] = [];
const dirs: string[] = [];
before(async () => {
  await ensureRemoteServerBuilt();
});
after(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

async function serve(script: AgentScript, token?: string): Promise<RemoteServer> {
  const server = new RemoteServer({ script, token });
  servers.push(server);
  await server.start();
  return server;
}

/** A log that also keeps each message's origin (what the protocol inspector records by). */
class OriginLog extends MemoryProtocolLog implements ProtocolLog {
  readonly origins: Array<{ direction: 'in' | 'out'; origin?: WireOrigin }> = [];
  override message(direction: 'in' | 'out', raw: string, origin?: WireOrigin): void {
    this.origins.push({ direction, origin });
    super.message(direction, raw);
  }
}

function remoteSession(
  server: RemoteServer,
  kind: 'ws' | 'http',
  remote: Partial<NonNullable<AgentLaunchConfig['remote']>> = {},
  opts: ScriptedSessionOptions = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-remote-ws-'));
  dirs.push(dir);
  const log = new OriginLog();
  const made = scriptedSession(dir, {}, { ...opts, log });
  const agent: AgentLaunchConfig = {
    name: 'Scripted',
    command: '',
    args: [],
    env: {},
    cwd: dir,
    remote: { url: server.url(kind), headers: {}, clientTools: true, ...remote },
  };
  made.session.updateAgent(agent);
  return { ...made, log, dir, agent };
}

const agentText = (entries: ReadonlyArray<{ kind: string; text?: string }>): string =>
  entries
    .filter((e) => e.kind === 'agent')
    .map((e) => e.text ?? '')
    .join('\n');

const FULL_TURN: AgentScript = {
  turns: [
    {
      steps: [
        { update: { sessionUpdate: 'tool_call', toolCallId: 'w1', title: 'Edit notes.txt', kind: 'edit', status: 'pending' } },
        {
          permission: {
            toolCall: { toolCallId: 'w1', title: 'Edit notes.txt', kind: 'edit' },
            options: [
              { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
        { readFile: { path: '${cwd}/notes.txt' } },
        { writeFile: { path: '${cwd}/notes.txt', content: 'written from far away\n' } },
        { update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run echo', kind: 'execute', status: 'in_progress' } },
        { terminal: { command: 'echo', args: ['remote-terminal-output'] }, toolCallId: 't1' },
        { chunks: { count: 3, text: 'chunk ${i} ' } },
      ],
      stopReason: 'end_turn',
    },
  ],
};

for (const kind of ['ws', 'http'] as const) {
  test(`${kind}: a whole turn — permission, fs read and write, a terminal — served from this workspace, every message logged`, async () => {
    const server = await serve(FULL_TURN);
    const { session, dir, log } = remoteSession(server, kind);
    writeFileSync(join(dir, 'notes.txt'), 'here before\n');
    try {
      await session.start();
      assert.equal(session.status.kind, 'ready');
      const turn = session.prompt('edit the notes');
      await until(() => session.snapshotParts().entries.some((e) => e.kind === 'tool_call' && e.permission?.state.kind === 'pending'), 'the permission prompt');
      const call = session.snapshotParts().entries.find((e) => e.kind === 'tool_call' && e.permission);
      assert.ok(call?.kind === 'tool_call' && call.permission);
      session.respondPermission(call.permission.requestId, 'ok');
      await turn;
      const entries = session.snapshotParts().entries;
      const text = agentText(entries);
      assert.match(text, /PERMISSION: selected ok/);
      assert.match(text, /READ: here before/);
      assert.match(text, /TERMINAL: exit=0 .*output=remote-terminal-output/);
      assert.match(text, /chunk 0 chunk 1 chunk 2/);
      assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'written from far away\n', 'the write landed in this workspace');
      assert.equal(entries.at(-1)?.kind, 'turn_end');
      const initialize = server.received().find((m) => m.method === 'initialize');
      assert.deepEqual((initialize?.params as { clientCapabilities: { fs: unknown; terminal: unknown } }).clientCapabilities.fs, {
        readTextFile: true,
        writeTextFile: true,
      });
      // Both directions reach the log, tagged with the agent and its connection, as for a process.
      const outs = log.origins.filter((o) => o.direction === 'out');
      const ins = log.origins.filter((o) => o.direction === 'in');
      assert.ok(outs.length >= 5 && ins.length >= 10, `logged ${outs.length} out, ${ins.length} in`);
      assert.ok([...outs, ...ins].every((o) => o.origin?.agent === 'Scripted' && typeof o.origin.connection === 'number' && o.origin.msg));
      assert.ok(
        log.of('in').some((l) => l.includes('"sessionUpdate":"agent_message_chunk"')),
        'updates are logged too',
      );
    } finally {
      session.dispose();
    }
  });
}

for (const kind of ['ws', 'http'] as const)
  test(`${kind}: the server killed mid-turn and started again — interrupted, reconnected, the same session resumed, the queue kept, the cookie sent again`, async () => {
    const server = await serve({
      initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
      turns: [{ steps: [{ chunks: { count: 1, text: 'started the long job' } }, { sleep: 60_000 }] }, { steps: [{ recall: true }], stopReason: 'end_turn' }],
    });
    const { session, log } = remoteSession(server, kind);
    try {
      await session.start();
      const sessionId = session.conversation.meta.sessionId;
      session.conversation.prompt('a long job');
      await until(() => /started the long job/.test(agentText(session.snapshotParts().entries)), 'the first chunk');
      session.conversation.prompt('queued behind it');
      // The agent keeps its sessions in its state file: the kill comes once the prompt is on disk there.
      await until(() => existsSync(server.statePath) && readFileSync(server.statePath, 'utf8').includes('a long job'), 'the prompt to be stored');
      await server.kill();
      await until(() => session.status.kind === 'starting' && session.status.reconnecting !== undefined, 'reconnecting');
      const end = session.snapshotParts().entries.find((e) => e.kind === 'turn_end');
      assert.ok(end?.kind === 'turn_end' && end.stopReason === 'interrupted', 'the running turn is marked interrupted');
      assert.match(session.snapshotParts().entries.find((e) => e.kind === 'notice')?.message ?? '', /lost its connection to 127\.0\.0\.1:\d+.*Reconnecting/);
      await server.start();
      // Once back, the prompt that waited goes out by itself (an interruption does not pause the queue).
      await until(() => session.status.kind !== 'starting', 'reconnected', 20_000);
      assert.equal(session.conversation.meta.sessionId, sessionId, 'the same session');
      const after = server.received();
      assert.ok(
        after.some((m) => m.method === 'session/resume' && (m.params as { sessionId: string }).sessionId === sessionId),
        'resumed',
      );
      assert.equal(after.filter((m) => m.method === 'session/new').length, 1, 'never a new session');
      assert.match(
        session.snapshotParts().entries.find((e) => e.kind === 'notice')?.message ?? '',
        /^Reconnected to Scripted.*\. Sending the message written meanwhile\.$/,
      );
      // The reconnect's first request (the upgrade, or the initialize POST) carries the first server's cookie.
      const firstOfEach = server.requests().filter((r) => (kind === 'ws' ? r.upgrade : r.method === 'POST'));
      assert.equal(firstOfEach[0]?.cookie, null, 'nothing to send the first time');
      assert.ok(
        firstOfEach.slice(1).every((r) => /route=r\d+/.test(r.cookie ?? '')),
        'the affinity cookie went with every later request',
      );
      await session.settled();
      assert.deepEqual(session.snapshotParts().queue.items, [], 'the queued prompt went out, once');
      assert.match(agentText(session.snapshotParts().entries), /RECALL: a long job$/m, 'the agent remembers the interrupted prompt: the same session');
      assert.ok(log.of('warn').some((w) => /lost its connection/.test(w)));
    } finally {
      session.dispose();
    }
  });

test('http: a 401 shows the token card; the token entered is sent as a bearer token and never logged', async () => {
  const token = 's3cret-remote-token-42';
  const server = await serve({ turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }] }, token);
  const asked: string[] = [];
  let made: ReturnType<typeof remoteSession> | undefined;
  made = remoteSession(
    server,
    'http',
    {},
    {
      extra: {
        askSecret: async (_agent, variable) => {
          asked.push(variable.name);
          if (!made) return false;
          made.session.updateAgent({ ...made.agent, env: { ...made.agent.env, [variable.name]: token } });
          return true;
        },
      },
    },
  );
  const { session, log } = made;
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    const card = session.snapshotParts().entries.find((e) => e.kind === 'auth');
    assert.ok(card?.kind === 'auth', 'the sign-in card');
    assert.match(card.message, /refused the connection \(401\)/);
    assert.equal(card.methods[0]?.kind, 'envVar');
    await session.conversation.authenticate(card.methods[0].id);
    await session.settled();
    assert.deepEqual(asked, ['TANDEM_REMOTE_TOKEN']);
    assert.equal(session.status.kind, 'ready');
    await session.prompt('hello with a token');
    assert.match(agentText(session.snapshotParts().entries), /hello with a token/);
    assert.ok(server.requests().some((r) => r.authorized) && server.requests().some((r) => !r.authorized));
    assert.equal(log.toString().includes(token), false, 'the token is not in the log');
  } finally {
    session.dispose();
  }
});

test('clientTools: false — no fs or terminal capability is advertised, and the agent runs its own', async () => {
  const server = await serve({ turns: [{ steps: [{ capabilities: true }], stopReason: 'end_turn' }] });
  const { session } = remoteSession(server, 'ws', { clientTools: false });
  try {
    await session.start();
    await session.prompt('what can you use?');
    const caps = JSON.parse(/CAPS: (.*)/.exec(agentText(session.snapshotParts().entries))?.[1] ?? '{}') as { fs?: unknown; terminal?: unknown };
    assert.deepEqual(caps.fs, { readTextFile: false, writeTextFile: false });
    assert.equal(caps.terminal, false);
  } finally {
    session.dispose();
  }
});
