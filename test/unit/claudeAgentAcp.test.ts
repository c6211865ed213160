/**
 * The preset agent, @zed-industries/claude-agent-acp 0.23.1, against the fake Anthropic server, driven
 * by the same bare client of Tandem's core handlers as claudeAgent.test.ts. What it advertises, that it
 * edits the disk itself (no fs/write_text_file, so a "changed files" review must learn of edits from
 * tool calls), and — for it and for claude-code-acp 0.16.2 — that a session survives the agent
 * process: turn 2, sent to a new process after session/resume or session/load, carries turn 1.
 * The facts these tests pin down are summarised in test/fixtures/fakeAnthropic/agentAcpScenarios.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { REMEMBER_NAME, agentEnv, editOnDiskFiles, promptTexts, scenario, startFakeAnthropic, userTextOf } from '../fixtures/fakeAnthropic/index';
import type { FakeAnthropic, ScenarioName, ScenarioOptions } from '../fixtures/fakeAnthropic/index';
import { connectClient, spawnAgent, textOf } from '../support/claudeClient';

const ROOT = join(import.meta.dirname, '..', '..');
const AGENT_ACP = { name: 'claude-agent-acp 0.23.1', entry: join(ROOT, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js') };
const CODE_ACP = { name: 'claude-code-acp 0.16.2', entry: join(ROOT, 'node_modules/@zed-industries/claude-code-acp/dist/index.js') };
type Agent = typeof AGENT_ACP;
/** What Tandem advertises: the agents may use fs/* and terminal/* — the newer one does not. */
const CLIENT_CAPABILITIES: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

/** A scratch folder (HOME, CLAUDE_CONFIG_DIR, workspace with notes.txt) and the fake model. */
async function startWorld(name: ScenarioName, options: ScenarioOptions = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-agent-acp-'));
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace);
  const files = editOnDiskFiles(workspace);
  writeFileSync(files.notesPath, files.originalText);
  const fake: FakeAnthropic = await startFakeAnthropic(scenario(name, workspace, options));
  const env = agentEnv(fake.url, scratch);
  const close = async (): Promise<void> => {
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  return { scratch, workspace, files, fake, env, close };
}

/** One agent process with its client, initialized. `stop()` kills the process group; safe twice. */
async function startAgent(agent: Agent, workspace: string, env: Record<string, string>, onPermission?: (p: acp.RequestPermissionRequest) => void) {
  const proc = spawnAgent(agent.entry, workspace, env);
  const client = connectClient(proc.child, workspace, 'allow_once', onPermission);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      await client.dispose();
      client.conn.close();
      await proc.kill();
    })());
  try {
    const init = await client.conn.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: CLIENT_CAPABILITIES,
      clientInfo: { name: 'claude-agent-acp-test', version: '0.0.0' },
    });
    const newSession = () => client.conn.agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    const prompt = (sessionId: string, text: string) =>
      client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    return { client, init, stderr: proc.stderr, newSession, prompt, stop };
  } catch (err) {
    await stop();
    throw new Error(`${agent.name} did not start: ${String(err)}\n${proc.stderr.join('')}`);
  }
}

test('claude-agent-acp: initialize advertises load, resume, list and close; session/new opens a session', { timeout: 60_000 }, async () => {
  const world = await startWorld('editOnDisk');
  const agent = await startAgent(AGENT_ACP, world.workspace, world.env);
  try {
    const { agentCapabilities: caps, authMethods, agentInfo } = agent.init;
    console.log(`${AGENT_ACP.name} initialize: ${JSON.stringify({ agentInfo, agentCapabilities: caps, authMethods })}`);
    assert.equal(agent.init.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(agentInfo?.version, '0.23.1');
    assert.equal(caps?.loadSession, true);
    const sessionCaps = (caps?.sessionCapabilities ?? {}) as Record<string, unknown>;
    for (const k of ['resume', 'list', 'close', 'fork']) assert.ok(sessionCaps[k], `sessionCapabilities.${k}`);
    assert.deepEqual(caps?.promptCapabilities, { image: true, embeddedContext: true });
    assert.deepEqual(authMethods, [], 'no auth method unless the client advertises terminal or gateway auth');
    const session = await agent.newSession();
    const options = (session.configOptions ?? []).map((o) => `${o.id}=${String(o.currentValue)}`);
    console.log(`session/new: modes ${session.modes?.availableModes.map((m) => m.id).join(', ')}; config options ${options.join(', ')}`);
    assert.match(session.sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(session.modes?.currentModeId, 'default');
  } finally {
    await agent.stop();
    await world.close();
  }
});

test(
  'claude-agent-acp: as root, an inherited IS_SANDBOX makes session/new fail',
  { timeout: 60_000, skip: process.getuid?.() !== 0 && 'not root' },
  async () => {
    const world = await startWorld('editOnDisk');
    const agent = await startAgent(AGENT_ACP, world.workspace, { ...world.env, IS_SANDBOX: 'yes' });
    try {
      await assert.rejects(agent.newSession(), (err: unknown) => {
        console.log(`session/new with IS_SANDBOX as root: ${JSON.stringify(err)}`);
        return err instanceof acp.RequestError && err.code === -32603;
      });
    } finally {
      await agent.stop();
      await world.close();
    }
  },
);

test('claude-agent-acp: "editOnDisk" asks permission, then edits the disk itself without fs/*', { timeout: 60_000 }, async () => {
  const started = Date.now();
  const world = await startWorld('editOnDisk');
  const f = world.files;
  // What the disk held when each permission request arrived, before the "user" allowed it.
  const diskWhenAsked = new Map<string, { notes: string; newFileExists: boolean }>();
  const agent = await startAgent(AGENT_ACP, world.workspace, world.env, (p) => {
    diskWhenAsked.set(p.toolCall.title ?? '', { notes: readFileSync(f.notesPath, 'utf8'), newFileExists: existsSync(f.newPath) });
  });
  try {
    const { sessionId } = await agent.newSession();
    const result = await agent.prompt(sessionId, 'Mark the notes reviewed and add a greeting file.');
    const { client } = agent;
    const toolNames = client.updates.flatMap((u) =>
      u.sessionUpdate === 'tool_call' ? [`${(u._meta?.claudeCode as { toolName?: string } | undefined)?.toolName}:${u.kind}`] : [],
    );
    console.log(
      `${AGENT_ACP.name} "editOnDisk": ${Date.now() - started} ms; requests to the client: ${client.agentRequests().join(', ')}; tool calls: ${toolNames.join(', ')}`,
    );
    console.log(
      `permission requests: ${client.permissions.map((p) => `${p.toolCall.title} [${p.options.map((o) => `${o.kind}=${o.optionId}`).join(' ')}]`).join('; ')}`,
    );
    console.log(`model endpoints: ${[...new Set(world.fake.requests.map((r) => `${r.method} ${r.path}`))].join(', ')}`);
    assert.equal(result.stopReason, 'end_turn', agent.stderr.join(''));

    // The files changed on disk, by the agent itself.
    assert.equal(readFileSync(f.notesPath, 'utf8'), f.editedText);
    assert.equal(readFileSync(f.newPath, 'utf8'), f.newText);
    assert.deepEqual(client.fsCalls, [], "Tandem's fs handler was never used");
    const requests = new Set(client.agentRequests());
    assert.deepEqual([...requests], ['session/request_permission'], 'permission prompts are the only requests to the client: no fs/* and no terminal/*');
    assert.equal(client.terms.size, 0);

    // Permission came first for the edit and the write, with a diff to show.
    const asked = (title: string) => client.permissions.find((p) => p.toolCall.title === title);
    for (const [title, path] of [
      ['Edit notes.txt', f.notesPath],
      ['Write src/greeting.txt', f.newPath],
    ] as const) {
      const p = asked(title);
      assert.ok(p, `permission asked for ${title}`);
      assert.equal(p.toolCall.kind, 'edit');
      assert.ok(p.options.some((o) => o.kind === 'allow_once'));
      assert.ok(
        p.toolCall.content?.some((c) => c.type === 'diff' && c.path === path),
        `${title} shows a diff`,
      );
    }
    assert.equal(client.permissions.length, 2, 'Read in the workspace and a read-only echo run without asking');
    assert.deepEqual(diskWhenAsked.get('Edit notes.txt'), { notes: f.originalText, newFileExists: false }, 'nothing changed before the edit was allowed');
    assert.deepEqual(
      diskWhenAsked.get('Write src/greeting.txt'),
      { notes: f.editedText, newFileExists: false },
      'the edit landed after its permission, the write waits for its own',
    );

    // Native tools with kinds; the read-only command ran in the agent and its output reached the model.
    const kinds = new Set(client.updates.flatMap((u) => (u.sessionUpdate === 'tool_call' && u.kind ? [u.kind] : [])));
    for (const kind of ['read', 'edit', 'execute'] as const) assert.ok(kinds.has(kind), `a ${kind} tool call (saw ${[...kinds].join(', ')})`);
    assert.ok(JSON.stringify(world.fake.requests).includes(f.bashOutput), 'the command output reached the model');
    const tools = (world.fake.mainLoopRequests()[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    console.log(`tools offered to the model: ${tools.join(', ')}`);
    for (const name of ['Read', 'Edit', 'Write', 'Bash']) assert.ok(tools.includes(name), name);
    assert.ok(!tools.some((n) => n.startsWith('mcp__acp__')), 'no mcp__acp__ tools');
    assert.match(textOf(client.updates), /notes\.txt is \*\*reviewed\*\*/);
  } finally {
    await agent.stop();
    await world.close();
  }
});

type Reopen = 'resume' | 'load';

/**
 * Waits until the session's transcript ($CLAUDE_CONFIG_DIR/projects/<cwd>/<id>.jsonl) holds an
 * assistant entry with `text`, and returns how long that took. The Claude CLI writes it a little
 * after the turn ends: a SIGKILL right after end_turn can lose the turn's tail, or with
 * claude-code-acp the whole file (then session/load fails with "Session not found", -32603).
 */
async function waitForTranscript(configDir: string, sessionId: string, text: string): Promise<number> {
  const started = Date.now();
  const projects = join(configDir, 'projects');
  const holds = (): boolean => {
    if (!existsSync(projects)) return false;
    const file = readdirSync(projects, { recursive: true })
      .map(String)
      .find((p) => p.endsWith(`${sessionId}.jsonl`));
    if (!file) return false;
    return readFileSync(join(projects, file), 'utf8')
      .split('\n')
      .some((line) => line.includes('"type":"assistant"') && line.includes(text));
  };
  while (!holds()) {
    assert.ok(Date.now() - started < 10_000, `no transcript with "${text}" after 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

/**
 * Turn 1 on one agent process, then kill it; a new process on the same HOME/CLAUDE_CONFIG_DIR reopens
 * the session with `how` and runs turn 2. Returns what the second process saw while reopening.
 */
async function persistenceRun(agent: Agent, how: Reopen) {
  const started = Date.now();
  const world = await startWorld('rememberName', { mcpAcpTools: agent === CODE_ACP });
  const first = await startAgent(agent, world.workspace, world.env);
  let second: Awaited<ReturnType<typeof startAgent>> | undefined;
  try {
    const { sessionId } = await first.newSession();
    const turn1 = await first.prompt(sessionId, REMEMBER_NAME.firstPrompt);
    assert.equal(turn1.stopReason, 'end_turn', first.stderr.join(''));
    assert.ok(textOf(first.client.updates).includes(REMEMBER_NAME.greeting));
    const flushMs = await waitForTranscript(world.env.CLAUDE_CONFIG_DIR, sessionId, REMEMBER_NAME.greeting);
    console.log(`${agent.name}: the transcript held turn 1's answer ${flushMs} ms after end_turn`);
    await first.stop();

    second = await startAgent(agent, world.workspace, world.env);
    const caps = second.init.agentCapabilities;
    assert.ok(how === 'resume' ? caps?.sessionCapabilities?.resume : caps?.loadSession, `${agent.name} advertises ${how}`);
    const { client } = second;
    const params = { sessionId, cwd: world.workspace, mcpServers: [] };
    if (how === 'resume') await client.conn.agent.request(acp.methods.agent.session.resume, params);
    else await client.conn.agent.request(acp.methods.agent.session.load, params);
    // Updates sent after the response come within a moment (available commands); wait for them.
    for (let i = 0; i < 40 && !client.updates.some((u) => u.sessionUpdate === 'available_commands_update'); i++) await new Promise((r) => setTimeout(r, 50));
    const reopenUpdates = [...client.updates];
    const reopenId = client.wire.find((w) => w.from === 'client' && w.method === `session/${how}`)?.id;
    const answeredAt = client.wire.findIndex((w) => w.from === 'agent' && w.kind === 'response' && w.id === reopenId);
    const kindsOf = (ws: typeof client.wire) => ws.flatMap((w) => (w.update ? [w.update] : []));
    const before = kindsOf(client.wire.slice(0, answeredAt));
    const after = kindsOf(client.wire.slice(answeredAt + 1));

    const turn2 = await second.prompt(sessionId, REMEMBER_NAME.secondPrompt);
    assert.equal(turn2.stopReason, 'end_turn', second.stderr.join(''));
    const main = world.fake.mainLoopRequests();
    const turn2Request = main.find((r) => userTextOf(r).includes(REMEMBER_NAME.secondPrompt));
    console.log(
      `${agent.name} ${how}: ${Date.now() - started} ms; ${main.length} main-loop requests; turn 2 prompts: ${JSON.stringify(promptTexts(turn2Request?.body))}`,
    );
    assert.ok(userTextOf(turn2Request).includes(REMEMBER_NAME.firstPrompt), "turn 2's request carries turn 1's user text");
    assert.deepEqual(promptTexts(turn2Request?.body), [REMEMBER_NAME.firstPrompt, REMEMBER_NAME.secondPrompt]);
    assert.ok(textOf(client.updates).includes(REMEMBER_NAME.answer), 'the model saw two prompts and answered turn 2');
    return { before, after, reopenUpdates };
  } finally {
    await second?.stop();
    await first.stop();
    await world.close();
  }
}

for (const agent of [AGENT_ACP, CODE_ACP]) {
  test(`${agent.name}: after a restart, session/resume continues the conversation without replay`, { timeout: 90_000 }, async () => {
    const { before, after } = await persistenceRun(agent, 'resume');
    console.log(`${agent.name} resume: updates before the response [${before.join(', ')}], after [${after.join(', ')}]`);
    assert.deepEqual(before, [], 'resume replays nothing');
  });

  test(`${agent.name}: after a restart, session/load replays the history before answering, then continues`, { timeout: 90_000 }, async () => {
    const { before, after, reopenUpdates } = await persistenceRun(agent, 'load');
    console.log(`${agent.name} load: replayed before the response [${before.join(', ')}]; after it [${after.join(', ')}]`);
    const said = (kind: 'user_message_chunk' | 'agent_message_chunk') =>
      reopenUpdates.flatMap((u) =>
        (u.sessionUpdate === 'user_message_chunk' || u.sessionUpdate === 'agent_message_chunk') && u.sessionUpdate === kind && u.content.type === 'text'
          ? [u.content.text]
          : [],
      );
    console.log(`${agent.name} load: replayed user texts ${JSON.stringify(said('user_message_chunk'))}`);
    assert.ok(said('user_message_chunk').includes(REMEMBER_NAME.firstPrompt), "turn 1's prompt is replayed");
    assert.ok(said('agent_message_chunk').join('').includes(REMEMBER_NAME.greeting), "turn 1's answer is replayed");
    for (const kind of ['user_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update'])
      assert.ok(before.includes(kind), `${kind} replayed before the response`);
    assert.deepEqual(after, ['available_commands_update'], 'only the command list follows the response');
  });

  test(`${agent.name}: session/resume of an unknown session id fails`, { timeout: 60_000 }, async () => {
    const world = await startWorld('rememberName');
    const reopen = await startAgent(agent, world.workspace, world.env);
    try {
      await assert.rejects(
        reopen.client.conn.agent.request(acp.methods.agent.session.resume, { sessionId: randomUUID(), cwd: world.workspace, mcpServers: [] }),
        (err: unknown) => {
          console.log(`${agent.name} resume of an unknown id: ${JSON.stringify(err)}`);
          return err instanceof acp.RequestError;
        },
      );
    } finally {
      await reopen.stop();
      await world.close();
    }
  });
}
