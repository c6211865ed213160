/**
 * The scripted agent's conversation persistence, checked with a bare SDK client so that the
 * fixture itself is under test (the client-side suites then rely on it): session/load, resume,
 * list and close, a state file that outlives the process, unfaithful replays and session titles.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentScript, StoredSession } from '../fixtures/scriptedAgent';
import { rejection } from '../support/bareClient';
import { cleanup, ensureScriptedAgentBuilt, prepareScripted, waitFor } from '../support/scriptedAgentHarness';
import type { ScriptedRun } from '../support/scriptedAgentHarness';

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
  /** session/update notifications as the client received them. */
  updates: Array<{ sessionId: string; update: acp.SessionUpdate }>;
  /** Every message the agent wrote, in wire order (to see what came before or after an answer). */
  wire: Array<Record<string, unknown>>;
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd?: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** Texts of the agent_message_chunk updates of a session. */
  said(sessionId: string): string[];
  /** SIGKILL: no chance to save anything the client has not been told about already. */
  kill(): Promise<void>;
}

const SAY = (text: string): Record<string, unknown> => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const USER = (text: string): acp.SessionUpdate => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
const AGENT = (text: string): acp.SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const ALL_CAPS: acp.AgentCapabilities = { loadSession: true, sessionCapabilities: { resume: {}, list: {}, close: {} } };

/** A run whose agents keep their sessions in `state.json` inside the run's folder. */
function persistentRun(script: AgentScript): ScriptedRun & { statePath: string } {
  const run = prepareScripted(script);
  return { ...run, statePath: path.join(run.dir, 'state.json') };
}

/** Starts one agent process of the run (call again after kill() for a restart on the same state). */
function startAgent(run: ScriptedRun, statePath?: string): Agent {
  const env: NodeJS.ProcessEnv = { ...process.env, SCRIPTED_AGENT_LOG: run.receivedPath };
  if (statePath) env.SCRIPTED_AGENT_STATE = statePath;
  else delete env.SCRIPTED_AGENT_STATE;
  const child = spawn(process.execPath, [agentJs, run.scriptPath], { stdio: ['pipe', 'pipe', 'inherit'], env });
  running.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const wire: Agent['wire'] = [];
  let partial = '';
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) wire.push(JSON.parse(line) as Record<string, unknown>);
      done(null, chunk);
    },
  });
  const updates: Agent['updates'] = [];
  const app = acp.client({ name: 'sessions-test-client' }).onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push({ sessionId: params.sessionId, update: params.update });
  });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!.pipe(tap)) as ReadableStream<Uint8Array>),
  );
  return {
    conn,
    updates,
    wire,
    initialize: () => conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }),
    newSession: async (cwd = run.dir) => (await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId, text) => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }),
    said: (sessionId) =>
      updates
        .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.update as { content: { text: string } }).content.text),
    kill: async () => {
      conn.close();
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Index in the wire of the answer to the last request of `method` the agent received. */
function answerIndex(run: ScriptedRun, agent: Agent, method: string): number {
  const requests = run.received().filter((m) => m.method === method);
  const id = requests[requests.length - 1]?.id;
  return agent.wire.findIndex((m) => m.id === id && ('result' in m || 'error' in m));
}

function readState(statePath: string): StoredSession[] {
  return (JSON.parse(readFileSync(statePath, 'utf8')) as { sessions: StoredSession[] }).sessions;
}

describe('scripted agent: sessions that outlive the process', () => {
  test('a killed agent’s session resumes in a new process: turns continue and earlier prompts are recalled', async () => {
    const run = persistentRun({
      initialize: { agentCapabilities: ALL_CAPS },
      turns: [{ steps: [SAY('turn 0')] }, { steps: [SAY('turn 1')] }, { steps: [{ recall: true }, SAY('turn 2')] }],
    });
    const first = startAgent(run, run.statePath);
    const init = await first.initialize();
    assert.deepEqual(init.agentCapabilities, ALL_CAPS, 'advertised exactly as scripted');
    const sessionId = await first.newSession();
    await first.prompt(sessionId, 'first question');
    await first.prompt(sessionId, 'second question');
    await first.kill();

    // On disk before the answers left: the SIGKILL gave no chance to save later.
    const [saved] = readState(run.statePath);
    assert.equal(saved.sessionId, sessionId);
    assert.equal(saved.cwd, run.dir);
    assert.equal(saved.prompts, 2);
    assert.ok(!Number.isNaN(Date.parse(saved.updatedAt)));
    assert.deepEqual(saved.history, [USER('first question'), AGENT('turn 0'), USER('second question'), AGENT('turn 1')]);
    assert.ok(!existsSync(`${run.statePath}.tmp`));

    const second = startAgent(run, run.statePath);
    await second.initialize();
    // A restarted agent knows the session but it is not active until resumed or loaded.
    assert.equal((await rejection(second.prompt(sessionId, 'too early'))).code, -32002);
    assert.deepEqual(await second.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: run.dir }), {});
    assert.deepEqual(second.updates, [], 'resume replays nothing');
    const res = await second.prompt(sessionId, 'third question');
    assert.equal(res.stopReason, 'end_turn');
    assert.deepEqual(second.said(sessionId), ['RECALL: first question | second question', 'turn 2']);
  });

  test('load replays the history in order, the tail after the answer with replayAfterResponse, plus extraReplay', async () => {
    const extraReplay = [
      USER('<command-name>/compact</command-name>'),
      { sessionUpdate: 'tool_call', toolCallId: 'orphan', title: 'Read file', status: 'pending' },
      { sessionUpdate: 'tool_call', toolCallId: 'plan-as-tool', title: 'Plan', kind: 'think', rawInput: { todos: ['a', 'b'] } },
    ];
    const run = persistentRun({
      initialize: { agentCapabilities: { loadSession: true } },
      load: { replayAfterResponse: 2, extraReplay },
      turns: [{ steps: [SAY('hi there'), { update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'completed' } }] }],
    });
    const first = startAgent(run, run.statePath);
    await first.initialize();
    const sessionId = await first.newSession();
    await first.prompt(sessionId, 'hello');
    await first.kill();

    const second = startAgent(run, run.statePath);
    await second.initialize();
    assert.deepEqual(await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: run.dir, mcpServers: [] }), {});
    const expected = [
      USER('hello'),
      AGENT('hi there'),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'completed' },
      ...extraReplay,
    ];
    await waitFor(() => second.updates.length >= expected.length, 5000, 'the whole replay');
    assert.deepEqual(
      second.updates.map((u) => u.sessionId),
      expected.map(() => sessionId),
    );
    assert.deepEqual(
      second.updates.map((u) => u.update),
      expected,
    );
    // On the wire: exactly two updates, then the answer, then the rest.
    const answer = answerIndex(run, second, 'session/load');
    assert.equal(second.wire.slice(0, answer).filter((m) => m.method === 'session/update').length, 2);
    assert.equal(second.wire.slice(answer).filter((m) => m.method === 'session/update').length, expected.length - 2);
    // The replay is not recorded again: a second load sends the same.
    second.updates.length = 0;
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: run.dir, mcpServers: [] });
    await waitFor(() => second.updates.length >= expected.length, 5000, 'the second replay');
    assert.deepEqual(
      second.updates.map((u) => u.update),
      expected,
    );
  });

  test('an unknown session id is -32002 "Session not found" for load, resume and close', async () => {
    const run = persistentRun({ initialize: { agentCapabilities: ALL_CAPS } });
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    const calls = [
      agent.conn.agent.request(acp.methods.agent.session.load, { sessionId: 'nope', cwd: run.dir, mcpServers: [] }),
      agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId: 'nope', cwd: run.dir }),
    ];
    for (const call of calls) {
      const err = await rejection(call);
      assert.equal(err.code, -32002);
      assert.equal(err.message, 'Session not found: nope');
    }
    // The SDK client resolves a -32002 to session/close (closing is idempotent): read the wire.
    await agent.conn.agent.request(acp.methods.agent.session.close, { sessionId: 'nope' });
    const answer = agent.wire[answerIndex(run, agent, 'session/close')];
    assert.deepEqual(answer.error, { code: -32002, message: 'Session not found: nope', data: { sessionId: 'nope' } });
  });

  test('load.error and resume.error answer with the scripted error', async () => {
    const run = persistentRun({ load: { error: { code: -32603, message: 'history corrupt' } }, resume: { error: { code: -32603, message: 'cannot resume' } } });
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    const sessionId = await agent.newSession();
    assert.equal(
      (await rejection(agent.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: run.dir, mcpServers: [] }))).message,
      'history corrupt',
    );
    assert.equal((await rejection(agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: run.dir }))).message, 'cannot resume');
  });

  test('without a state file the sessions die with the process', async () => {
    const run = prepareScripted({});
    const first = startAgent(run);
    await first.initialize();
    const sessionId = await first.newSession();
    await first.prompt(sessionId, 'hello');
    await first.kill();
    const second = startAgent(run);
    await second.initialize();
    assert.equal((await rejection(second.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: run.dir }))).code, -32002);
    assert.notEqual(await second.newSession(), undefined);
  });
});

describe('scripted agent: list, known sessions, close, titles', () => {
  test('list filters by cwd, newest first, includes knownSessions and pages with list.pageSize', async () => {
    const run = persistentRun({});
    const other = path.join(run.dir, 'other');
    mkdirSync(other);
    const script: AgentScript = {
      list: { pageSize: 2 },
      knownSessions: [
        { sessionId: 'cli-old', cwd: run.dir, title: 'From the CLI', updatedAt: '2024-05-01T10:00:00.000Z' },
        { sessionId: 'cli-other', cwd: other, updatedAt: '2024-06-01T10:00:00.000Z' },
      ],
    };
    // The script names the run's own folder, so it is written once that folder exists.
    writeFileSync(run.scriptPath, JSON.stringify(script));
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    const a = await agent.newSession(run.dir);
    const b = await agent.newSession(run.dir);
    const listAll = async (cwd?: string): Promise<acp.SessionInfo[][]> => {
      const pages: acp.SessionInfo[][] = [];
      let cursor: string | undefined;
      do {
        const res = await agent.conn.agent.request(acp.methods.agent.session.list, cwd ? { cwd, cursor } : { cursor });
        pages.push(res.sessions);
        cursor = res.nextCursor ?? undefined;
      } while (cursor);
      return pages;
    };
    const here = await listAll(run.dir);
    assert.deepEqual(
      here.map((p) => p.map((s) => s.sessionId)),
      [[b, a], ['cli-old']],
    );
    assert.deepEqual(here[1][0], { sessionId: 'cli-old', cwd: run.dir, title: 'From the CLI', updatedAt: '2024-05-01T10:00:00.000Z' });
    assert.ok(here[0].every((s) => s.cwd === run.dir && typeof s.updatedAt === 'string'));
    assert.deepEqual(
      (await listAll()).flat().map((s) => s.sessionId),
      [b, a, 'cli-other', 'cli-old'],
    );
    assert.deepEqual(
      (await listAll(other)).flat().map((s) => s.sessionId),
      ['cli-other'],
    );
  });

  test('a known session loads its CLI history and recalls its prompts in the next turn', async () => {
    const history = [USER('fix the login bug'), AGENT('Fixed in auth.ts'), USER('add a test'), AGENT('Added')];
    const run = persistentRun({
      knownSessions: [{ sessionId: 'cli-1', cwd: '/somewhere', title: 'Login bug', updatedAt: '2024-05-01T10:00:00.000Z', history }],
      turns: [{ steps: [SAY('turn 0')] }, { steps: [SAY('turn 1')] }, { steps: [{ recall: true }] }],
    });
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    await agent.conn.agent.request(acp.methods.agent.session.load, { sessionId: 'cli-1', cwd: run.dir, mcpServers: [] });
    assert.deepEqual(
      agent.updates.map((u) => u.update),
      history,
    );
    // Two prompts in the history: the next one is turn 2.
    await agent.prompt('cli-1', 'and now?');
    assert.deepEqual(agent.said('cli-1'), ['Fixed in auth.ts', 'Added', 'RECALL: fix the login bug | add a test']);
  });

  test('close cancels the running turn; the closed session can be loaded and prompted again', async () => {
    const run = persistentRun({
      initialize: { agentCapabilities: ALL_CAPS },
      turns: [{ steps: [SAY('working'), { waitForCancel: true }] }, { steps: [{ recall: true }] }],
    });
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    const sessionId = await agent.newSession();
    const turn = agent.prompt(sessionId, 'long job');
    await waitFor(() => agent.said(sessionId).includes('working'), 5000, 'the turn to start');
    assert.deepEqual(await agent.conn.agent.request(acp.methods.agent.session.close, { sessionId }), {});
    assert.equal((await turn).stopReason, 'cancelled');
    assert.equal((await rejection(agent.prompt(sessionId, 'closed'))).code, -32002, 'no longer active');
    assert.ok(
      readState(run.statePath).some((s) => s.sessionId === sessionId),
      'still stored',
    );
    await agent.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: run.dir, mcpServers: [] });
    agent.updates.length = 0;
    await agent.prompt(sessionId, 'again');
    assert.deepEqual(agent.said(sessionId), ['RECALL: long job']);
  });

  test('newSession.title and a title step send session_info_update with title and updatedAt', async () => {
    const run = persistentRun({ newSession: { title: 'New chat' }, turns: [{ steps: [{ title: 'About ${prompt}' }, SAY('ok')] }] });
    const agent = startAgent(run, run.statePath);
    await agent.initialize();
    const sessionId = await agent.newSession();
    const infos = (): Array<Record<string, unknown>> =>
      agent.updates
        .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'session_info_update')
        .map((u) => u.update as Record<string, unknown>);
    await waitFor(() => infos().length === 1, 5000, 'the title update');
    assert.equal(infos()[0].title, 'New chat');
    assert.ok(!Number.isNaN(Date.parse(String(infos()[0].updatedAt))));
    // Named after the session exists: the update follows the session/new answer on the wire.
    const answer = answerIndex(run, agent, 'session/new');
    assert.ok(agent.wire.findIndex((m) => m.method === 'session/update') > answer);

    await agent.prompt(sessionId, 'cats');
    assert.deepEqual(
      infos().map((i) => i.title),
      ['New chat', 'About cats'],
    );
    const [listed] = (await agent.conn.agent.request(acp.methods.agent.session.list, {})).sessions;
    assert.deepEqual(listed, { sessionId, cwd: run.dir, title: 'About cats', updatedAt: infos()[1].updatedAt });
  });

  test('without agentCapabilities only loadSession: false is advertised, yet the methods answer', async () => {
    const run = persistentRun({});
    const agent = startAgent(run, run.statePath);
    assert.deepEqual((await agent.initialize()).agentCapabilities, { loadSession: false });
    const sessionId = await agent.newSession();
    assert.deepEqual(await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: run.dir }), {});
    assert.equal(run.received().filter((m) => m.method === 'session/resume').length, 1, 'the received log shows the call');
  });
});
