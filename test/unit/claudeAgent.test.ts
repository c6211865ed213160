/**
 * The real Claude Code agent (@zed-industries/claude-code-acp) as a child process over stdio, driven
 * by a bare ACP client of Tandem's core handlers (test/support/claudeClient.ts), with its model replaced by
 * the fake Anthropic server. Proves the fixture works before the e2e tests of issue 4 use it through
 * Tandem. The newer adapter (claude-agent-acp) and session persistence: claudeAgentAcp.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { agentEnv, fullScenarioFiles, scenario, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import type { ScenarioName } from '../fixtures/fakeAnthropic/index';
import { connectClient, spawnAgent, textOf } from '../support/claudeClient';

const ROOT = join(import.meta.dirname, '..', '..');
const AGENT = join(ROOT, 'node_modules/@zed-industries/claude-code-acp/dist/index.js');

test('agentEnv points the agent at the fake server and drops IS_SANDBOX', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-env-'));
  const saved = process.env.IS_SANDBOX;
  process.env.IS_SANDBOX = 'yes';
  try {
    const env = agentEnv('http://127.0.0.1:1', scratch);
    assert.equal(env.IS_SANDBOX, undefined);
    assert.equal(env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:1');
    assert.equal(env.HOME, join(scratch, 'home'));
    assert.equal(env.CLAUDE_CONFIG_DIR, join(scratch, 'claude-config'));
    for (const k of ['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'DISABLE_TELEMETRY', 'DISABLE_ERROR_REPORTING', 'DISABLE_AUTOUPDATER'])
      assert.equal(env[k], '1', k);
  } finally {
    if (saved === undefined) delete process.env.IS_SANDBOX;
    else process.env.IS_SANDBOX = saved;
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** Seeds a workspace, starts the fake model and the real agent, and opens a session. */
async function startRun(name: ScenarioName, pick: acp.PermissionOptionKind) {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-claude-'));
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace);
  const files = fullScenarioFiles(workspace);
  writeFileSync(files.readPath, files.originalText);
  const fake = await startFakeAnthropic(scenario(name, workspace));
  const { child, stderr, kill } = spawnAgent(AGENT, workspace, agentEnv(fake.url, scratch));
  const client = connectClient(child, workspace, pick);
  const cleanup = async (): Promise<void> => {
    await client.dispose();
    client.conn.close();
    await kill();
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const init = await client.conn.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'claude-agent-test', version: '0.0.0' },
    });
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    const prompt = (text: string) => client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    return { client, fake, files, stderr, sessionId, prompt, cleanup };
  } catch (err) {
    await cleanup();
    throw new Error(`agent did not start: ${String(err)}\n${stderr.join('')}`);
  }
}

test('real Claude Code agent runs the "full" scenario against the fake model', { timeout: 60_000 }, async () => {
  const started = Date.now();
  const { client, fake, files, stderr, prompt, cleanup } = await startRun('full', 'allow_once');
  try {
    const result = await prompt('Review notes.txt, add a greeting file and run two commands.');
    if (process.env.TANDEM_DUMP) for (const u of client.updates) console.log(JSON.stringify(u).slice(0, 220));
    console.log(`claude-code-acp "full": ${Date.now() - started} ms, ${fake.requests.length} model requests, ${client.updates.length} updates`);

    assert.equal(result.stopReason, 'end_turn', stderr.join(''));
    // Plan from TodoWrite, replaced by its final form.
    const plans = client.updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'plan' }> => u.sessionUpdate === 'plan');
    assert.ok(plans.length >= 1, 'a plan update arrived');
    assert.equal(plans[0].entries.length, 4);
    assert.ok(
      plans.at(-1)!.entries.every((e) => e.status === 'completed'),
      'the last plan has every entry completed',
    );
    // Tool calls with their kinds.
    const kinds = new Set(client.updates.flatMap((u) => (u.sessionUpdate === 'tool_call' && u.kind ? [u.kind] : [])));
    for (const kind of ['read', 'edit', 'execute'] as const) assert.ok(kinds.has(kind), `a tool call of kind ${kind} (saw ${[...kinds].join(', ')})`);
    // The edit and the new file went through the client's fs/* onto the disk.
    assert.equal(readFileSync(files.readPath, 'utf8'), files.editedText);
    assert.equal(readFileSync(files.newPath, 'utf8'), files.newText);
    assert.ok(client.fsCalls.includes(`read ${files.readPath}`), client.fsCalls.join('\n'));
    assert.ok(client.fsCalls.includes(`write ${files.newPath}`), client.fsCalls.join('\n'));
    // A diff for the edit reached the client.
    const contents = client.updates.flatMap((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? (u.content ?? []) : []));
    assert.ok(
      contents.some((d) => d.type === 'diff' && d.path === files.readPath && d.newText.includes('reviewed')),
      'an edit diff',
    );
    // Both commands ran in client terminals embedded in tool calls; the echo output came back to the model.
    assert.ok(contents.filter((c) => c.type === 'terminal').length >= 2, 'two terminals embedded in tool calls');
    assert.ok(JSON.stringify(fake.requests).includes(`${files.bashOutput}\\n`), 'the bash output reached the model as a tool result');
    assert.ok(client.permissions.length >= 1, 'the agent asked permission at least once');
    assert.match(textOf(client.updates), /All done/);
  } finally {
    await cleanup();
  }
});

test('real Claude Code agent: a rejected edit leaves the file alone', { timeout: 60_000 }, async () => {
  const started = Date.now();
  const { client, files, stderr, prompt, cleanup } = await startRun('reject', 'reject_once');
  try {
    const result = await prompt('Mark the notes reviewed.');
    console.log(`claude-code-acp "reject": ${Date.now() - started} ms`);
    assert.equal(result.stopReason, 'end_turn', stderr.join(''));
    const asked = client.permissions.find((p) => p.toolCall.toolCallId.startsWith('toolu_step1_'));
    assert.ok(asked, 'permission asked for the edit');
    assert.equal(readFileSync(files.readPath, 'utf8'), files.originalText);
    const editStatuses = client.updates.flatMap((u) =>
      u.sessionUpdate === 'tool_call_update' && u.toolCallId === asked.toolCall.toolCallId && u.status ? [u.status] : [],
    );
    assert.ok(!editStatuses.includes('completed'), `the rejected edit never completes (${editStatuses.join(', ')})`);
    // Claude Code interrupts the turn on reject; the acknowledgement answers the next prompt.
    const second = await prompt('Why did you stop?');
    assert.equal(second.stopReason, 'end_turn');
    assert.match(textOf(client.updates), /rejected the edit/);
    assert.equal(readFileSync(files.readPath, 'utf8'), files.originalText);
  } finally {
    await cleanup();
  }
});

test('real Claude Code agent: cancel during a long command ends the turn cancelled and kills it', { timeout: 60_000 }, async () => {
  const started = Date.now();
  const { client, sessionId, prompt, cleanup } = await startRun('longCommand', 'allow_once');
  try {
    const turn = prompt('Wait for a while.');
    const deadline = Date.now() + 20_000;
    while (client.terms.size === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(client.terms.size, 1, 'the command started in a client terminal');
    const [term] = [...client.terms.values()];
    assert.equal(term.command, 'sleep 30; echo done');
    await client.cancel(sessionId);
    const result = await turn;
    console.log(`claude-code-acp "longCommand" cancelled after ${Date.now() - started} ms`);
    assert.equal(result.stopReason, 'cancelled');
    // The agent kills or releases the terminal itself; the command must not finish its 30 s sleep.
    const until = Date.now() + 5000;
    while (!term.exit && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.ok(term.exit, 'the long command was stopped');
    assert.ok(term.exit.signal !== null || term.exit.exitCode !== 0, JSON.stringify(term.exit));
    assert.ok(!term.output.includes('done'));
  } finally {
    await cleanup();
  }
});
