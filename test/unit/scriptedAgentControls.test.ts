/**
 * The scripted agent's controls beyond a turn, checked with a bare SDK client so that the fixture
 * itself is under test (the client-side suites then rely on it): config options and legacy models,
 * auth (requireEnv, terminal methods, logout, the --scripted-login mode), usage, notices,
 * compaction, elicitation, and the echoes of what the client sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { rejection } from '../support/bareClient';
import { cleanup, ensureScriptedAgentBuilt, prepareScripted, waitFor } from '../support/scriptedAgentHarness';

let agentJs: string;
const running: ChildProcess[] = [];
before(async () => {
  agentJs = await ensureScriptedAgentBuilt();
});
after(async () => {
  for (const child of running) child.kill('SIGKILL');
  await cleanup();
});

interface Agent {
  conn: acp.ClientConnection;
  dir: string;
  updates: acp.SessionUpdate[];
  /** What the client's elicitation/create handler received, and the completions. */
  elicitations: acp.CreateElicitationRequest[];
  completed: string[];
  initialize(clientCapabilities?: Record<string, unknown>): Promise<acp.InitializeResponse>;
  newSession(mcpServers?: acp.McpServer[]): Promise<acp.NewSessionResponse>;
  prompt(sessionId: string): Promise<acp.PromptResponse>;
  said(): string[];
}

interface Options {
  env?: Record<string, string>;
  /** The client's answer to elicitation/create. */
  answer?: (req: acp.CreateElicitationRequest) => acp.CreateElicitationResponse;
}

function startAgent(script: AgentScript, opts: Options = {}): Agent {
  const run = prepareScripted(script);
  const child = spawn(process.execPath, [agentJs, run.scriptPath], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...opts.env } });
  running.push(child);
  const updates: acp.SessionUpdate[] = [];
  const elicitations: acp.CreateElicitationRequest[] = [];
  const completed: string[] = [];
  const app = acp
    .client({ name: 'controls-test-client' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.elicitation.create, ({ params }) => {
      elicitations.push(params);
      return opts.answer ? opts.answer(params) : { action: 'decline' };
    })
    .onNotification(acp.methods.client.elicitation.complete, ({ params }) => {
      completed.push(params.elicitationId);
    });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>),
  );
  return {
    conn,
    dir: run.dir,
    updates,
    elicitations,
    completed,
    initialize: (clientCapabilities = {}) =>
      conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: clientCapabilities as acp.ClientCapabilities,
      }),
    newSession: (mcpServers = []) => conn.agent.request(acp.methods.agent.session.new, { cwd: run.dir, mcpServers }),
    prompt: (sessionId) => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go' }] }),
    said: () => updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [])),
  };
}

/** Sends session/set_config_option and returns the raw answer or the error. */
function setOption(agent: Agent, sessionId: string, configId: string, value: string | boolean): Promise<acp.SetSessionConfigOptionResponse> {
  const params = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean' as const, value } : { sessionId, configId, value };
  return agent.conn.agent.request(acp.methods.agent.session.setConfigOption, params);
}

const MODEL: acp.SessionConfigOption = {
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select',
  currentValue: 'fast',
  options: [
    { group: 'small', name: 'Small', options: [{ value: 'fast', name: 'Fast' }] },
    { group: 'large', name: 'Large', options: [{ value: 'smart', name: 'Smart' }] },
  ],
};
const EFFORT: acp.SessionConfigOption = {
  id: 'effort',
  name: 'Effort',
  type: 'select',
  currentValue: 'low',
  options: [
    { value: 'low', name: 'Low' },
    { value: 'high', name: 'High' },
  ],
};
const THINK: acp.SessionConfigOption = { id: 'think', name: 'Thinking', type: 'boolean', currentValue: false };
const current = (list: acp.SessionConfigOption[]): Record<string, unknown> => Object.fromEntries(list.map((o) => [o.id, o.currentValue]));

describe('scripted agent: session settings', () => {
  test('config options: returned by new/resume, set (grouped select, boolean, side effects), invalid values are -32602', async () => {
    const agent = startAgent({
      newSession: { configOptions: [MODEL, EFFORT, THINK] },
      setConfigOption: { sideEffects: { model: { smart: { effort: 'high', think: null } } } },
      turns: [{ steps: [{ configOptions: [EFFORT] }] }],
    });
    await agent.initialize();
    const created = await agent.newSession();
    const sessionId = created.sessionId;
    assert.deepEqual(created.configOptions, [MODEL, EFFORT, THINK]);

    assert.deepEqual(current((await setOption(agent, sessionId, 'think', true)).configOptions), { model: 'fast', effort: 'low', think: true });
    // A grouped value, with the scripted side effect: effort follows, thinking disappears.
    assert.deepEqual(current((await setOption(agent, sessionId, 'model', 'smart')).configOptions), { model: 'smart', effort: 'high' });
    for (const [configId, value] of [
      ['nope', 'x'],
      ['model', 'huge'],
      ['think', 'yes'],
      ['effort', true],
    ] as const) {
      assert.equal((await rejection(setOption(agent, sessionId, configId, value))).code, -32602, `${configId}=${String(value)}`);
    }
    assert.deepEqual(current((await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: agent.dir })).configOptions ?? []), {
      model: 'smart',
      effort: 'high',
    });

    // A config_option_update step: sent, and it becomes the session's list.
    await agent.prompt(sessionId);
    assert.deepEqual(
      agent.updates.filter((u) => u.sessionUpdate === 'config_option_update'),
      [{ sessionUpdate: 'config_option_update', configOptions: [EFFORT] }],
    );
    assert.deepEqual((await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: agent.dir })).configOptions, [EFFORT]);
  });

  test('setConfigOption.error answers with it', async () => {
    const agent = startAgent({ newSession: { configOptions: [EFFORT] }, setConfigOption: { error: { code: -32603, message: 'locked' } } });
    await agent.initialize();
    const { sessionId } = await agent.newSession();
    assert.equal((await rejection(setOption(agent, sessionId, 'effort', 'high'))).message, 'locked');
  });

  test('legacy models: in the session/new answer; session/set_model validates and is reported by resume', async () => {
    const models = {
      currentModelId: 'a',
      availableModels: [
        { modelId: 'a', name: 'Model A' },
        { modelId: 'b', name: 'Model B', description: 'bigger' },
      ],
    };
    const agent = startAgent({ newSession: { models } });
    await agent.initialize();
    const created = (await agent.newSession()) as acp.NewSessionResponse & { models?: unknown };
    assert.deepEqual(created.models, models);
    const setModel = (modelId: string): Promise<unknown> => agent.conn.agent.request('session/set_model', { sessionId: created.sessionId, modelId });
    assert.deepEqual(await setModel('b'), {});
    assert.equal((await rejection(setModel('zz'))).code, -32602);
    const resumed = (await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId: created.sessionId, cwd: agent.dir })) as {
      models?: { currentModelId: string };
    };
    assert.equal(resumed.models?.currentModelId, 'b');

    const plain = startAgent({});
    await plain.initialize();
    const { sessionId } = await plain.newSession();
    assert.equal((await rejection(plain.conn.agent.request('session/set_model', { sessionId, modelId: 'a' }))).code, -32601, 'unknown without models');
  });
});

describe('scripted agent: auth', () => {
  const TERMINAL: acp.AuthMethod = {
    id: 'cli-login',
    name: 'Log in with the CLI',
    description: 'Runs the agent’s login',
    type: 'terminal',
    args: ['--scripted-login'],
    env: { SCRIPTED_AGENT_LOGIN_EXIT: '0' },
    _meta: { 'terminal-auth': { command: 'scripted-agent', args: ['login'], label: 'Scripted login' } },
  };
  const API_KEY: acp.AuthMethod = { id: 'api-key', name: 'API key' };

  test('auth methods pass through verbatim; requireEnv fails with -32000 until the var is set; a terminal method is -32602', async () => {
    const script: AgentScript = {
      initialize: { authMethods: [TERMINAL, API_KEY], agentCapabilities: { auth: { logout: {} } } },
      authenticate: { requireEnv: 'SCRIPTED_TEST_KEY' },
      newSession: { requireAuth: true },
    };
    const without = startAgent(script, { env: { SCRIPTED_TEST_KEY: '' } });
    const init = await without.initialize();
    assert.deepEqual(init.authMethods, [TERMINAL, API_KEY]);
    assert.deepEqual(init.agentCapabilities?.auth, { logout: {} });
    const err = await rejection(without.conn.agent.request(acp.methods.agent.authenticate, { methodId: 'api-key' }));
    assert.equal(err.code, -32000);
    assert.match(err.message, /SCRIPTED_TEST_KEY is not set/);
    assert.equal((await rejection(without.conn.agent.request(acp.methods.agent.authenticate, { methodId: 'cli-login' }))).code, -32602);
    assert.equal((await rejection(without.newSession())).code, -32000);

    const withKey = startAgent(script, { env: { SCRIPTED_TEST_KEY: 'sk-test' } });
    await withKey.initialize();
    assert.deepEqual(await withKey.conn.agent.request(acp.methods.agent.authenticate, { methodId: 'api-key' }), {});
    await withKey.newSession();
    // logout: signed out again, so requireAuth bites.
    assert.deepEqual(await withKey.conn.agent.request(acp.methods.agent.logout, {}), {});
    assert.equal((await rejection(withKey.newSession())).code, -32000);
  });

  test('--scripted-login prints, leaves a marker (exit 0) that signs the next agent in; a failing login leaves none', async () => {
    const run = prepareScripted({});
    const marker = path.join(run.dir, 'login.json');
    const login = (argsAfter: string[], exit: string): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [agentJs, ...argsAfter], {
        env: { ...process.env, SCRIPTED_AGENT_LOGIN_FILE: marker, SCRIPTED_AGENT_LOGIN_EXIT: exit },
        encoding: 'utf8',
        timeout: 10_000,
      });

    const failed = login(['--scripted-login', run.scriptPath], '3');
    assert.equal(failed.status, 3);
    assert.ok(!existsSync(marker));

    const ok = login([run.scriptPath, '--scripted-login'], '0');
    assert.equal(ok.status, 0);
    assert.equal(ok.stdout, 'Signed in to the scripted agent.\n');
    assert.deepEqual(JSON.parse(readFileSync(marker, 'utf8')).args, [run.scriptPath, '--scripted-login']);

    const agent = startAgent({ newSession: { requireAuth: true } }, { env: { SCRIPTED_AGENT_LOGIN_FILE: marker } });
    await agent.initialize();
    assert.ok((await agent.newSession()).sessionId, 'signed in by the marker');
    await agent.conn.agent.request(acp.methods.agent.logout, {});
    assert.ok(!existsSync(marker), 'logout removes the stored sign-in');
    assert.equal((await rejection(agent.newSession())).code, -32000);
  });
});

describe('scripted agent: turn controls', () => {
  test('usage, notice, compaction and compactionChunk steps arrive as updates; turn.usage is in the answer', async () => {
    const summary: acp.ContentBlock[] = [{ type: 'text', text: 'Summary so far' }];
    const agent = startAgent({
      turns: [
        {
          steps: [
            { usage: { used: 1200, size: 200000, cost: { amount: 0.12, currency: 'USD' } } },
            { notice: { severity: 'warning', title: 'Rate limited', description: 'Retrying in 5s' } },
            { compaction: { compactionId: 'c1', status: 'in_progress' } },
            { compactionChunk: { compactionId: 'c1', text: 'Earlier: ' } },
            { compaction: { compactionId: 'c1', status: 'completed', summary } },
          ],
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        },
      ],
    });
    await agent.initialize();
    const { sessionId } = await agent.newSession();
    const res = (await agent.prompt(sessionId)) as acp.PromptResponse & { usage?: unknown };
    assert.deepEqual(res, { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
    assert.deepEqual(agent.updates, [
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.12, currency: 'USD' } },
      { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5s' },
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'Earlier: ' } },
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary },
    ]);
    // Notices are live only: a load replays everything else.
    const live = agent.updates.splice(0);
    await agent.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: agent.dir, mcpServers: [] });
    assert.deepEqual(agent.updates, [
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'go' } },
      ...live.filter((u) => u.sessionUpdate !== 'notice'),
    ]);
  });

  test('elicit: form and url round trips, elicitComplete, ELICIT_UNSUPPORTED for a mode not advertised', async () => {
    const requestedSchema: acp.ElicitationSchema = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };
    const steps = [
      { elicit: { mode: 'form', message: 'Who are you?', requestedSchema, toolCallId: 't1' } },
      { elicit: { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } },
      { elicitComplete: { elicitationId: 'e1' } },
    ];
    const agent = startAgent(
      { turns: [{ steps }] },
      { answer: (req) => (req.mode === 'form' ? { action: 'accept', content: { name: 'Ada' } } : { action: 'accept' }) },
    );
    await agent.initialize({ elicitation: { form: {}, url: {} } });
    const { sessionId } = await agent.newSession();
    await agent.prompt(sessionId);
    assert.deepEqual(agent.said(), ['ELICIT: {"action":"accept","content":{"name":"Ada"}}', 'ELICIT: {"action":"accept"}']);
    assert.deepEqual(agent.elicitations, [
      { sessionId, toolCallId: 't1', mode: 'form', message: 'Who are you?', requestedSchema },
      { sessionId, mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
    ]);
    await waitFor(() => agent.completed.length === 1, 5000, 'elicitation/complete');
    assert.deepEqual(agent.completed, ['e1']);

    const formOnly = startAgent({ turns: [{ steps }] });
    await formOnly.initialize({ elicitation: { form: {} } });
    await formOnly.prompt((await formOnly.newSession()).sessionId);
    assert.deepEqual(formOnly.said(), ['ELICIT: {"action":"decline"}', 'ELICIT_UNSUPPORTED']);
  });

  test('mcpServers and capabilities steps echo what the client sent, verbatim', async () => {
    const mcpServers: acp.McpServer[] = [{ name: 'files', command: '/usr/bin/mcp-files', args: ['--root', '/tmp'], env: [{ name: 'TOKEN', value: 'x' }] }];
    const caps = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} } };
    const agent = startAgent({ turns: [{ steps: [{ mcpServers: true }, { capabilities: true }] }] });
    await agent.initialize(caps);
    const { sessionId } = await agent.newSession(mcpServers);
    await agent.prompt(sessionId);
    assert.deepEqual(agent.said(), [`MCP: ${JSON.stringify(mcpServers)}`, `CAPS: ${JSON.stringify(caps)}`]);
    // A resume without mcpServers is what the session now has.
    await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: agent.dir });
    agent.updates.length = 0;
    await agent.prompt(sessionId);
    assert.equal(agent.said()[0], 'MCP: null');
  });
});
