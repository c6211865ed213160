import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { AgentExitedError, ProcessAgentConnection } from '../../src/acp/agentConnection';
import type { ClientHandlers } from '../../src/acp/agentPort';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { cleanup, ensureScriptedAgentBuilt, isAlive, prepareScripted, startTracked, trackUnhandledRejections, waitFor } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
before(async () => {
  await ensureScriptedAgentBuilt();
});
after(async () => {
  await cleanup();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const allowOnce: ClientHandlers['requestPermission'] = async () => ({ outcome: { outcome: 'selected', optionId: 'allow' } });

interface Opened {
  conn: ProcessAgentConnection;
  log: MemoryProtocolLog;
  updates: Array<{ sessionId: string; update: Record<string, unknown> }>;
  received: () => Array<Record<string, unknown>>;
  run: ReturnType<typeof prepareScripted>;
}

async function open(script: AgentScript, handlers: ClientHandlers = { requestPermission: allowOnce }): Promise<Opened> {
  const run = prepareScripted(script);
  const log = new MemoryProtocolLog();
  const proc = startTracked(run.cfg, log);
  const updates: Opened['updates'] = [];
  const conn = await ProcessAgentConnection.open(proc, handlers, {
    log,
    onUpdate: (sessionId, update) => updates.push({ sessionId, update }),
    clientInfo: { name: 'tandem-test', version: '0.0.1' },
  });
  return { conn, log, updates, received: run.received, run };
}

/** Texts of the agent_message_chunk updates, in order. */
function texts(updates: Opened['updates']): string[] {
  return updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => (u.update.content as { text: string }).text);
}

async function started(script: AgentScript, handlers?: ClientHandlers): Promise<Opened & { sessionId: string }> {
  const o = await open(script, handlers);
  await o.conn.initialize();
  const { sessionId } = await o.conn.newSession(o.run.dir);
  return { ...o, sessionId };
}

describe('AgentConnection: start-up', () => {
  test('initialize sends protocol version, clientInfo and only the capabilities that have handlers', async () => {
    const o = await open({});
    const res = await o.conn.initialize();
    assert.equal(res.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(o.conn.initializeResult, res);
    const init = o.received().find((m) => m.method === 'initialize');
    assert.deepEqual(init?.params, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'tandem-test', version: '0.0.1' },
    });
  });

  test('every handler present → fs and terminal advertised', async () => {
    const fail = async (): Promise<never> => {
      throw new Error('unused');
    };
    const o = await open(
      {},
      {
        requestPermission: allowOnce,
        readTextFile: fail,
        writeTextFile: fail,
        createTerminal: fail,
        terminalOutput: fail,
        waitForTerminalExit: fail,
        killTerminal: fail,
        releaseTerminal: fail,
      },
    );
    await o.conn.initialize();
    const init = o.received().find((m) => m.method === 'initialize') as { params: acp.InitializeRequest };
    assert.deepEqual(init.params.clientCapabilities, { fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  });

  test('initializeResult throws before initialize', async () => {
    const o = await open({});
    assert.throws(() => o.conn.initializeResult, /not completed/);
  });

  test('an initialize error rejects with the agent’s RequestError', async () => {
    const o = await open({ initialize: { error: { code: -32603, message: 'boom' } } });
    await assert.rejects(o.conn.initialize(), (err: unknown) => err instanceof acp.RequestError && err.code === -32603 && err.message === 'boom');
  });

  test('an agent that exits during initialize rejects with the exit code and the stderr tail', async () => {
    const o = await open({ initialize: { stderr: 'fatal: no API key configured', exitCode: 3 } });
    await assert.rejects(o.conn.initialize(), (err: unknown) => {
      assert.ok(err instanceof AgentExitedError, String(err));
      assert.equal(err.exit.code, 3);
      assert.match(err.message, /Agent 'scripted' exited with code 3/);
      assert.match(err.message, /fatal: no API key configured/);
      assert.equal(err.stderrTail, 'fatal: no API key configured');
      return true;
    });
    await o.conn.closed;
  });

  test('auth required on session/new surfaces as -32000; authenticate then succeeds', async () => {
    const o = await open({ initialize: { authMethods: [{ id: 'login', name: 'Log in' }] }, newSession: { requireAuth: true } });
    const init = await o.conn.initialize();
    assert.deepEqual(
      init.authMethods?.map((m) => m.id),
      ['login'],
    );
    await assert.rejects(o.conn.newSession(o.run.dir), (err: unknown) => err instanceof acp.RequestError && err.code === -32000);
    await o.conn.authenticate('login');
    const session = await o.conn.newSession(o.run.dir);
    assert.equal(typeof session.sessionId, 'string');
    const sent = o.received().find((m) => m.method === 'session/new') as { params: acp.NewSessionRequest };
    assert.deepEqual(sent.params, { cwd: o.run.dir, mcpServers: [] });
  });
});

describe('AgentConnection: a turn', () => {
  test('2,000 chunks reach onUpdate in exact order, synchronously before the prompt resolves', async () => {
    const o = await started({ turns: [{ steps: [{ chunks: { count: 2000, text: '${i};' } }] }] });
    const res = await o.conn.prompt(o.sessionId, 'go');
    assert.equal(res.stopReason, 'end_turn');
    assert.deepEqual(
      texts(o.updates),
      Array.from({ length: 2000 }, (_, i) => `${i};`),
    );
    assert.ok(o.updates.every((u) => u.sessionId === o.sessionId));
  });

  test('malformed lines and unknown update kinds are logged, the session goes on', async () => {
    const o = await started({
      turns: [
        {
          steps: [
            { echo: true },
            { raw: '{"jsonrpc":"2.0","method":"session/upd' },
            { raw: '[1,2,3]' },
            { update: { sessionUpdate: 'brand_new_kind', payload: { x: 1 } } },
            { raw: '{"jsonrpc":"2.0","method":"some/unknown_notification","params":{}}' },
            { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'after' } } },
          ],
        },
      ],
    });
    // The SDK must not even see session/update (it would validate, drop and console.error them).
    const consoleErrors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void consoleErrors.push(args);
    let res: acp.PromptResponse;
    try {
      res = await o.conn.prompt(o.sessionId, 'hello ${cwd}');
    } finally {
      console.error = original;
    }
    assert.equal(res.stopReason, 'end_turn');
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(
      o.updates.map((u) => u.update.sessionUpdate),
      ['agent_message_chunk', 'brand_new_kind', 'agent_message_chunk'],
    );
    assert.deepEqual(o.updates[1].update, { sessionUpdate: 'brand_new_kind', payload: { x: 1 } });
    assert.deepEqual(texts(o.updates), ['hello ${cwd}', 'after']);
    const warns = o.log.of('warn');
    assert.ok(
      warns.some((w) => /not JSON/.test(w)),
      warns.join('\n'),
    );
    assert.ok(
      warns.some((w) => /batch/.test(w)),
      warns.join('\n'),
    );
    // The unknown kind is visible in the protocol log for the user.
    assert.ok(o.log.of('in').some((l) => l.includes('brand_new_kind')));
    // And the connection still works for another turn.
    assert.equal((await o.conn.prompt(o.sessionId, 'again')).stopReason, 'end_turn');
  });

  test('permission: the handler’s answer reaches the agent exactly once', async () => {
    let asked: acp.RequestPermissionRequest | undefined;
    const o = await started(
      {
        turns: [
          {
            steps: [
              {
                permission: {
                  toolCall: { toolCallId: 'tc1', title: 'Edit ${cwd}/a.txt', kind: 'edit' },
                  options: [
                    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
                    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
                  ],
                },
              },
            ],
          },
        ],
      },
      {
        requestPermission: async (params) => {
          asked = params;
          return { outcome: { outcome: 'selected', optionId: 'reject' } };
        },
      },
    );
    await o.conn.prompt(o.sessionId, 'edit');
    assert.equal(asked?.toolCall.title, `Edit ${o.run.dir}/a.txt`);
    assert.deepEqual(texts(o.updates), ['PERMISSION: selected reject']);
    const answers = o.received().filter((m) => !('method' in m) && 'result' in m);
    assert.equal(answers.length, 1);
    assert.deepEqual(answers[0].result, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  test('handler errors map to JSON-RPC errors: RequestError verbatim, other errors as -32603; missing handler is -32601', async () => {
    const o = await started(
      { turns: [{ steps: [{ readFile: { path: '/nope/missing.txt' } }, { readFile: { path: '/crash' } }, { writeFile: { path: '/x', content: 'y' } }] }] },
      {
        requestPermission: allowOnce,
        readTextFile: async (p) => {
          if (p.path === '/crash') throw new Error('disk on fire');
          throw acp.RequestError.resourceNotFound(p.path);
        },
      },
    );
    await o.conn.prompt(o.sessionId, 'read');
    assert.deepEqual(texts(o.updates), [
      'READ_ERROR: -32002 Resource not found: /nope/missing.txt',
      'READ_ERROR: -32603 Internal error',
      'WRITE_ERROR: -32601 "Method not found": fs/write_text_file',
    ]);
  });

  test('cancel sends session/cancel and the turn ends cancelled', async () => {
    const o = await started({ turns: [{ steps: [{ echo: true }, { waitForCancel: true }] }] });
    const pending = o.conn.prompt(o.sessionId, 'long');
    await waitFor(() => o.updates.length === 1, 5000, 'first chunk');
    await o.conn.cancel(o.sessionId);
    assert.equal((await pending).stopReason, 'cancelled');
    assert.equal(o.received().filter((m) => m.method === 'session/cancel').length, 1);
  });

  test('the scripted terminal step drives terminal/* and reports the result', async () => {
    const calls: string[] = [];
    const o = await started(
      { turns: [{ steps: [{ terminal: { command: 'echo', args: ['hi'], outputByteLimit: 100 }, toolCallId: 'tc9' }] }] },
      {
        requestPermission: allowOnce,
        createTerminal: async (p) => (calls.push(`create ${p.command} ${(p.args ?? []).join(' ')} ${p.outputByteLimit}`), { terminalId: 't1' }),
        waitForTerminalExit: async (p) => (calls.push(`wait ${p.terminalId}`), { exitCode: 0, signal: null }),
        terminalOutput: async (p) => (calls.push(`output ${p.terminalId}`), { output: 'hi\n', truncated: false, exitStatus: { exitCode: 0 } }),
        killTerminal: async () => (calls.push('kill'), {}),
        releaseTerminal: async (p) => (calls.push(`release ${p.terminalId}`), {}),
      },
    );
    await o.conn.prompt(o.sessionId, 'run');
    assert.deepEqual(calls, ['create echo hi 100', 'wait t1', 'output t1', 'release t1']);
    assert.deepEqual(o.updates[0].update, { sessionUpdate: 'tool_call_update', toolCallId: 'tc9', content: [{ type: 'terminal', terminalId: 't1' }] });
    assert.deepEqual(texts(o.updates), ['TERMINAL: exit=0 signal=null truncated=false output=hi\n']);
  });
});

describe('AgentConnection: secrets', () => {
  test('configured env values never reach the protocol log, in either direction', async () => {
    const run = prepareScripted({ turns: [{ steps: [{ echo: true }] }] }, { API_KEY: 'sk-live-0123456789' });
    const log = new MemoryProtocolLog();
    const updates: Opened['updates'] = [];
    const conn = await ProcessAgentConnection.open(
      startTracked(run.cfg, log),
      { requestPermission: allowOnce },
      { log, onUpdate: (sessionId, update) => updates.push({ sessionId, update }), clientInfo: { name: 't', version: '1' } },
    );
    await conn.initialize();
    const { sessionId } = await conn.newSession(run.dir);
    await conn.prompt(sessionId, 'my key is sk-live-0123456789');
    assert.deepEqual(texts(updates), ['my key is sk-live-0123456789'], 'the session itself sees the real text');
    assert.ok(!log.toString().includes('sk-live-0123456789'));
    assert.ok(log.of('out').some((l) => l.includes('my key is ***')));
    assert.ok(log.of('in').some((l) => l.includes('my key is ***')));
  });
});

describe('scripted agent contract', () => {
  test('by default cancel stops the turn at the next step boundary, even mid-sleep', async () => {
    const o = await started({ turns: [{ steps: [{ echo: true }, { sleep: 10000 }, { echo: true }] }] });
    const pending = o.conn.prompt(o.sessionId, 'p');
    await waitFor(() => o.updates.length === 1, 5000, 'first echo');
    const t0 = Date.now();
    await o.conn.cancel(o.sessionId);
    assert.equal((await pending).stopReason, 'cancelled');
    assert.ok(Date.now() - t0 < 5000);
    assert.deepEqual(texts(o.updates), ['p']);
  });

  test('ignoreCancel: the turn never answers on its own, even after session/cancel', async () => {
    const o = await started({ turns: [{ steps: [{ ignoreCancel: true }, { echo: true }] }] });
    let settled = false;
    const pending = o.conn.prompt(o.sessionId, 'stuck').finally(() => (settled = true));
    await waitFor(() => o.updates.length === 1, 5000, 'echo');
    await o.conn.cancel(o.sessionId);
    await waitFor(() => o.received().some((m) => m.method === 'session/cancel'), 2000, 'cancel received');
    // A request sent after the cancel is handled after it: a turn that honoured the cancel would have
    // answered before this answer arrives (one stdout, in order), and a macrotask lets that settle.
    await o.conn.newSession(o.run.dir);
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false);
    await o.conn.process.kill();
    await assert.rejects(pending, AgentExitedError);
  });

  test('turn i answers prompt i and the last turn repeats; script may come from SCRIPTED_AGENT_SCRIPT', async () => {
    const run = prepareScripted({
      turns: [
        { steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'one' } } }] },
        { steps: [{ echo: true }], stopReason: 'max_tokens' },
      ],
    });
    const cfg = { ...run.cfg, args: [run.cfg.args[0]], env: { ...run.cfg.env, SCRIPTED_AGENT_SCRIPT: run.scriptPath } };
    const log = new MemoryProtocolLog();
    const updates: Opened['updates'] = [];
    const conn = await ProcessAgentConnection.open(
      startTracked(cfg, log),
      { requestPermission: allowOnce },
      { log, onUpdate: (sessionId, update) => updates.push({ sessionId, update }), clientInfo: { name: 't', version: '1' } },
    );
    await conn.initialize();
    const { sessionId } = await conn.newSession(run.dir);
    assert.equal((await conn.prompt(sessionId, 'a')).stopReason, 'end_turn');
    assert.equal((await conn.prompt(sessionId, 'b')).stopReason, 'max_tokens');
    assert.equal((await conn.prompt(sessionId, 'c')).stopReason, 'max_tokens');
    assert.deepEqual(texts(updates), ['one', 'b', 'c']);
  });
});

describe('AgentConnection: the agent dies', () => {
  test('a crash mid-prompt rejects the pending prompt with the exit code; updates before it were delivered', async () => {
    const o = await started({ turns: [{ steps: [{ echo: true }, { sleep: 50 }, { exit: 7 }] }] });
    await assert.rejects(
      o.conn.prompt(o.sessionId, 'crash'),
      (err: unknown) => err instanceof AgentExitedError && err.exit.code === 7 && /exited with code 7/.test(err.message),
    );
    assert.deepEqual(texts(o.updates), ['crash']);
    await o.conn.closed;
    // Later calls fail the same way instead of hanging.
    await assert.rejects(o.conn.prompt(o.sessionId, 'again'), AgentExitedError);
    await o.conn.cancel(o.sessionId); // never throws
  });

  test('a pending permission request is aborted when the agent is killed; kill() takes the agent’s children too', async () => {
    let signalAborted: Promise<void> | undefined;
    const o = await started(
      {
        turns: [
          {
            steps: [
              { spawn: { command: 'sleep', args: ['30'] } },
              { permission: { toolCall: { toolCallId: 'tc1', title: 'Run' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
            ],
          },
        ],
      },
      {
        requestPermission: (_params, signal) => {
          signalAborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
          return new Promise(() => undefined); // the user never answers
        },
      },
    );
    const pending = o.conn.prompt(o.sessionId, 'go');
    await waitFor(() => signalAborted !== undefined, 5000, 'permission request');
    const spawned = texts(o.updates).find((t) => t.startsWith('SPAWNED: '));
    const grandchild = Number(spawned?.slice('SPAWNED: '.length));
    assert.ok(grandchild > 0 && isAlive(grandchild), 'grandchild sleep is running');
    await o.conn.process.kill();
    await assert.rejects(pending, (err: unknown) => err instanceof AgentExitedError && err.exit.signal === 'SIGTERM');
    await signalAborted;
    await waitFor(() => !isAlive(grandchild), 3000, 'grandchild gone');
  });

  test('dispose() rejects pending requests at once and is safe twice', async () => {
    const o = await started({ turns: [{ steps: [{ waitForCancel: true }] }] });
    const pending = o.conn.prompt(o.sessionId, 'x');
    o.conn.dispose();
    o.conn.dispose();
    await assert.rejects(pending, /closed/);
    await o.conn.closed;
  });
});
