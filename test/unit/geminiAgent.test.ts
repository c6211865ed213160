/**
 * The real Gemini CLI (`gemini --acp`, @google/gemini-cli) as a child process over stdio, driven by
 * a bare ACP client of Tandem's core handlers (test/support/claudeClient.ts: FsHandler on the plain disk
 * with the workspace path policy, TerminalManager, PermissionBroker answering "allow once"), with its
 * model replaced by the fake Gemini server. Guards the issue "Gemini CLI cannot create new files
 * through Tandem": its write tool reads the target first and fails on any error answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { FsHandler } from '../../src/client/fsHandler';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import {
  FAKE_GEMINI_MODEL,
  GEMINI_SETTINGS,
  functionResponses,
  geminiAgentEnv,
  geminiScenario,
  geminiScenarioFiles,
  minimalValue,
  startFakeGemini,
} from '../fixtures/fakeGemini/index';
import type { FakeGemini, GeminiScenarioName } from '../fixtures/fakeGemini/index';
import { connectClient, textOf } from '../support/claudeClient';
import type { ClaudeClient } from '../support/claudeClient';
import { rejection } from '../support/bareClient';

const ROOT = join(import.meta.dirname, '..', '..');
const GEMINI = join(ROOT, 'node_modules/@google/gemini-cli/bundle/gemini.js');

type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

/**
 * The edit tool calls, each with everything reported about it, in order. Gemini CLI announces a
 * call that needs permission only inside the permission request, then sends `tool_call_update`s
 * (no `tool_call`), so calls are found by the kind on any update and by the permission requests.
 */
function editCalls(client: ClaudeClient): Map<string, ToolCallUpdate[]> {
  const ids = new Set(client.permissions.filter((p) => p.toolCall.kind === 'edit').map((p) => p.toolCall.toolCallId));
  for (const u of client.updates) if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.kind === 'edit') ids.add(u.toolCallId);
  const byId = new Map<string, ToolCallUpdate[]>([...ids].map((id) => [id, []]));
  for (const u of client.updates) {
    if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && ids.has(u.toolCallId)) byId.get(u.toolCallId)!.push(u);
  }
  return byId;
}

const statusesOf = (calls: ToolCallUpdate[]): string[] => calls.flatMap((u) => (u.status ? [u.status] : []));

/** The end of the agent's stderr and of what the model was told, for failure messages. */
function diagnostics(stderr: string[], fake: FakeGemini, client: ClaudeClient): string {
  const told = fake.mainLoopRequests().flatMap((r) => functionResponses(r.body));
  return [
    `--- gemini stderr (tail) ---\n${stderr.join('').slice(-3000)}`,
    `--- function responses sent to the model ---\n${JSON.stringify(told).slice(0, 2000)}`,
    `--- fs calls ---\n${client.fsCalls.join('\n')}`,
    `--- requests ---\n${fake.requests.map((r) => `${r.method} ${r.path}${r.mainLoop ? ' (main)' : ''}`).join('\n')}`,
  ].join('\n');
}

test("geminiAgentEnv: API-key auth in a scratch home; the shell's Gemini/Google settings never reach the agent", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-gemini-env-'));
  const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY, GEMINI_SANDBOX: process.env.GEMINI_SANDBOX };
  Object.assign(process.env, { GEMINI_API_KEY: 'real-key', GOOGLE_API_KEY: 'real-google-key', GEMINI_SANDBOX: 'docker' });
  try {
    const { env, home } = geminiAgentEnv('http://127.0.0.1:1', scratch);
    assert.equal(env.GOOGLE_GEMINI_BASE_URL, 'http://127.0.0.1:1');
    assert.notEqual(env.GEMINI_API_KEY, 'real-key');
    assert.equal(env.GOOGLE_API_KEY, undefined);
    assert.equal(env.GEMINI_SANDBOX, undefined);
    assert.equal(env.HOME, home);
    assert.equal(env.GEMINI_CLI_HOME, home);
    const settings = JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')) as typeof GEMINI_SETTINGS;
    assert.deepEqual(settings, GEMINI_SETTINGS);
    assert.equal(settings.security.auth.selectedType, 'gemini-api-key');
    assert.equal(settings.model.name, FAKE_GEMINI_MODEL);
    assert.equal(settings.privacy.usageStatisticsEnabled, false);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('side requests that want JSON get the smallest value of their schema (no retry storm)', () => {
  // The shape of Gemini CLI's model-router request: an answer that does not parse is retried with back-off.
  const router = {
    type: 'OBJECT',
    properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
    required: ['complexity_reasoning', 'complexity_score'],
  };
  assert.deepEqual(minimalValue(router), { complexity_reasoning: 'fake', complexity_score: 1 });
  assert.deepEqual(
    minimalValue({
      type: 'object',
      properties: { next: { type: 'string', enum: ['user', 'model'] }, ok: { type: ['boolean', 'null'] }, list: { type: 'array' } },
    }),
    { next: 'user', ok: false, list: [] },
  );
});

/** Seeds a workspace, starts the fake model and the real Gemini CLI, and opens a session. */
async function startRun(name: GeminiScenarioName) {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-gemini-'));
  // The real path: Gemini resolves symlinks in tool paths, and the client's policy compares real paths.
  const workspace = join(realpathSync(scratch), 'workspace');
  mkdirSync(workspace);
  const files = geminiScenarioFiles(workspace);
  mkdirSync(join(workspace, 'notes'));
  writeFileSync(files.editPath, files.originalText);
  const fake = await startFakeGemini(geminiScenario(name, workspace));
  const { env } = geminiAgentEnv(fake.url, scratch);
  const stderr: string[] = [];
  // Its own process group, so the kill below also takes anything the CLI started.
  const child = spawn(process.execPath, [GEMINI, '--acp'], { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = connectClient(child, workspace, 'allow_once');
  const cleanup = async (): Promise<void> => {
    await client.dispose();
    client.conn.close();
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already exited.
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const init = await client.conn.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'gemini-agent-test', version: '0.0.0' },
    });
    assert.equal(init.agentInfo?.name, 'gemini-cli');
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    const prompt = (text: string) => client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    return { client, fake, files, stderr, prompt, cleanup, why: () => diagnostics(stderr, fake, client) };
  } catch (err) {
    const why = diagnostics(stderr, fake, client);
    await cleanup();
    throw new Error(`gemini --acp did not start: ${String(err)}\n${why}`);
  }
}

test('real Gemini CLI creates a NEW file through Tandem (write_file reads the missing target first)', { timeout: 30_000 }, async () => {
  const started = Date.now();
  const { client, fake, files, prompt, cleanup, why } = await startRun('createFile');
  try {
    assert.equal(existsSync(files.newPath), false);
    const result = await prompt('Create notes/new.txt with two lines.');
    if (process.env.TANDEM_DUMP) for (const u of client.updates) console.log(JSON.stringify(u).slice(0, 300));
    console.log(`gemini --acp "createFile": ${Date.now() - started} ms, ${fake.requests.length} model requests, ${client.updates.length} updates`);
    assert.equal(result.stopReason, 'end_turn', why());

    // On disk, as the model wrote it (a new file keeps the line endings it was sent with).
    assert.ok(existsSync(files.newPath), `notes/new.txt was not created\n${why()}`);
    assert.equal(readFileSync(files.newPath, 'utf8'), files.newText, why());
    // Through the client: Gemini probed the target with fs/read_text_file, then wrote with fs/write_text_file.
    assert.ok(client.agentRequests().includes('fs/read_text_file'), `Gemini read the target first\n${why()}`);
    assert.ok(client.fsCalls.includes(`write ${files.newPath}`), why());

    // Gemini's tool call completed, never failed ("Error checking existing file: …" was the bug).
    const edits = [...editCalls(client).values()];
    assert.equal(edits.length, 1, `one edit tool call\n${why()}`);
    const statuses = statusesOf(edits[0]);
    assert.ok(!statuses.includes('failed'), `the write_file call failed (${statuses.join(', ')})\n${why()}`);
    assert.equal(statuses.at(-1), 'completed', why());
    // The user saw a creation diff (old text empty) and allowed it.
    assert.equal(client.permissions.length, 1, why());
    const diff = client.permissions[0].toolCall.content?.find((c) => c.type === 'diff');
    assert.ok(
      diff && diff.type === 'diff' && diff.path === files.newPath && !diff.oldText && diff.newText === files.newText,
      JSON.stringify(client.permissions[0].toolCall),
    );

    // And the model was told it worked.
    const told = functionResponses(fake.mainLoopRequests().at(-1)?.body);
    assert.equal(told.length, 1, why());
    assert.equal(told[0].name, 'write_file');
    assert.equal(told[0].response?.error, undefined, `the tool reported an error to the model\n${why()}`);
    assert.match(textOf(client.updates), /now exists/);
  } finally {
    await cleanup();
  }
});

test('real Gemini CLI edits an existing file with `replace` through fs/read + fs/write', { timeout: 30_000 }, async () => {
  const started = Date.now();
  const { client, fake, files, prompt, cleanup, why } = await startRun('editFile');
  try {
    const result = await prompt('Mark the todo reviewed.');
    console.log(`gemini --acp "editFile": ${Date.now() - started} ms, ${fake.requests.length} model requests`);
    assert.equal(result.stopReason, 'end_turn', why());
    assert.equal(readFileSync(files.editPath, 'utf8'), files.editedText, why());
    assert.ok(client.fsCalls.includes(`read ${files.editPath}`), why());
    assert.ok(client.fsCalls.includes(`write ${files.editPath}`), why());

    const edits = [...editCalls(client).values()];
    assert.equal(edits.length, 1, why());
    assert.equal(statusesOf(edits[0]).at(-1), 'completed', why());
    const diff = client.permissions[0]?.toolCall.content?.find((c) => c.type === 'diff');
    assert.ok(
      diff && diff.type === 'diff' && diff.oldText === files.originalText && diff.newText === files.editedText,
      JSON.stringify(client.permissions[0]?.toolCall),
    );
    const told = functionResponses(fake.mainLoopRequests().at(-1)?.body);
    assert.equal(told[0]?.name, 'replace');
    assert.equal(told[0]?.response?.error, undefined, why());
    assert.match(textOf(client.updates), /reviewed/);
  } finally {
    await cleanup();
  }
});

/**
 * The other side of the rule, on the same handler the agents above talk to: agents that view files
 * with a line window (Claude Code's Read always sends `line` and `limit`) still learn that a file
 * does not exist, instead of being shown an empty one.
 */
test('a line-window read of a missing file still gets -32002 (agents that expect the error)', async (t) => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-gemini-rule-')));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const policy = new PathPolicy({ roots: () => [workspace], allowOutside: () => false, askOutside: async () => false });
  const fsHandler = new FsHandler({ files: new NodeFileAccess(), policy });
  const missing = join(workspace, 'notes', 'missing.txt');
  const err = await rejection(fsHandler.readTextFile({ sessionId: 's', path: missing, line: 1, limit: 2000 }));
  assert.equal(err.code, -32002);
  assert.match(err.message, /^Resource not found: .*missing\.txt/);
  // The whole-file read Gemini CLI makes before writing gets the empty new document instead.
  assert.deepEqual(await fsHandler.readTextFile({ sessionId: 's', path: missing }), { content: '' });
});
