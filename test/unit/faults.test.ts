/**
 * Fault injection against real scripted agent processes driven through the conversation core: bad lines on
 * the wire, unknown methods and update kinds, an oversized message, and the agent killed at each
 * stage of its life. Each case checks the protocol log, the thread, orphan processes and Restart.
 */
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MAX_LINE_BYTES } from '../../src/acp/ndjsonTransport';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import type { TestSession } from '../support/scriptedSession';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { scriptedSession, type ScriptedSession } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt, isAlive, waitFor } from '../support/scriptedAgentHarness';

const posix = process.platform !== 'win32';
let dir: string;
const sessions: TestSession[] = [];

before(async () => {
  // Builds out/fixtures/scriptedAgent.js when missing or stale.
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-faults-'));
});
afterEach(async () => {
  for (const s of sessions.splice(0)) s.dispose();
  await waitFor(() => pidsRunning(dir).length === 0, 5000, 'every agent of the test to exit');
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Rig extends ScriptedSession {
  /** Pids of live processes running this rig's script (the agent itself). */
  agentPids(): number[];
}

function rig(script: AgentScript, cancelGraceMs?: number): Rig {
  const made = scriptedSession(dir, script, { name: 'Faulty', cancelGraceMs });
  sessions.push(made.session);
  return { ...made, agentPids: () => pidsRunning(made.scriptPath) };
}

/** Live (non-zombie) processes whose command line contains `marker` — found via /proc, not via the code under test. */
function pidsRunning(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmdline.includes(marker) && isAlive(Number(name))) pids.push(Number(name));
    } catch {
      /* exited while we looked */
    }
  }
  return pids;
}

const entries = (r: Rig): readonly Entry[] => r.session.snapshotParts().entries;
const agentText = (list: readonly Entry[]): string =>
  list
    .filter((e) => e.kind === 'agent')
    .map((e) => (e as { text: string }).text)
    .join('');
const errors = (list: readonly Entry[]) => list.filter((e) => e.kind === 'error');
const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

/** No spinner left: every tool call is final and every permission prompt answered. */
function assertSettled(list: readonly Entry[]): void {
  for (const e of list) {
    if (e.kind !== 'tool_call') continue;
    assert.ok(!['pending', 'in_progress'].includes(e.status), `tool call ${e.toolCallId} still ${e.status}`);
    if (e.permission) assert.notEqual(e.permission.state.kind, 'pending', `permission on ${e.toolCallId} still pending`);
  }
}

/** SIGKILL, as a crash or the OOM killer would: the agent gets no chance to clean up. */
function crash(pid: number): void {
  process.kill(pid, 'SIGKILL');
}

async function restartAndPrompt(r: Rig, before: readonly Entry[]): Promise<void> {
  // A restarted agent is a fresh process that starts its script from turn 0: give it a healthy one.
  writeFileSync(r.scriptPath, JSON.stringify({ turns: [{ steps: [{ echo: true }] }] }));
  await r.session.restart();
  assert.equal(r.session.status.kind, 'ready', 'Restart brings the agent back');
  await r.session.prompt('after restart');
  const now = entries(r);
  // The thread is kept across Restart: every entry from before is still there, unchanged, in order —
  // but for the Retry the crashed turn's end offered, which the next turn withdraws.
  const withoutRetry = (list: readonly Entry[]) =>
    list.map((e) => {
      if (e.kind !== 'turn_end') return e;
      const { retry: _offer, ...rest } = e;
      return rest;
    });
  assert.deepEqual(now.slice(0, before.length), withoutRetry(before));
  assert.match(agentText(now), /after restart/);
}

test('malformed JSON lines, batches and non-objects are logged and dropped; the turn and the next prompt go on', async () => {
  const r = rig({
    turns: [
      {
        steps: [
          say('before '),
          { raw: '{"jsonrpc":"2.0","method":"session/update","params":' },
          { raw: 'this is not json at all' },
          { raw: '[{"jsonrpc":"2.0","method":"session/update"}]' },
          { raw: '42' },
          { raw: '\u0000\u0001binary\u00ff' },
          say('after'),
        ],
      },
      { steps: [{ echo: true }] },
    ],
  });
  await r.session.start();
  await r.session.prompt('one');
  const warnings = r.log.of('warn');
  assert.ok(
    warnings.some((w) => /not JSON/.test(w) && w.includes('this is not json at all')),
    warnings.join('\n'),
  );
  assert.ok(
    warnings.some((w) => /not JSON/.test(w) && w.includes('"params":')),
    'the truncated JSON line is quoted',
  );
  assert.ok(
    warnings.some((w) => /batch/.test(w)),
    'the batch is reported',
  );
  assert.ok(
    warnings.some((w) => /not an object/.test(w)),
    'the bare number is reported',
  );
  assert.equal(agentText(entries(r)), 'before after');
  assert.equal(r.session.status.kind, 'ready');
  await r.session.prompt('second prompt');
  assert.match(agentText(entries(r)), /second prompt$/);
  assert.equal(errors(entries(r)).length, 0);
});

test('an agent request for a method the client does not have gets -32601; the session goes on', async () => {
  const r = rig({
    turns: [
      {
        steps: [
          { raw: JSON.stringify({ jsonrpc: '2.0', id: 'bogus-1', method: 'editor/doSomethingUnheardOf', params: { x: 1 } }) },
          { raw: JSON.stringify({ jsonrpc: '2.0', id: 'bogus-2', method: '_vendor/extension', params: {} }) },
          // An unknown notification has nobody to answer to: it must simply not break anything.
          { raw: JSON.stringify({ jsonrpc: '2.0', method: 'editor/unknownNotification', params: {} }) },
          { sleep: 200 },
          say('still here'),
        ],
      },
      { steps: [{ echo: true }] },
    ],
  });
  await r.session.start();
  await r.session.prompt('go');
  const answers = r.received().filter((m) => m.id === 'bogus-1' || m.id === 'bogus-2');
  assert.equal(answers.length, 2, JSON.stringify(r.received()));
  for (const a of answers) assert.equal((a.error as { code?: number } | undefined)?.code, -32601, JSON.stringify(a));
  // Both directions are in the protocol log.
  assert.ok(r.log.of('in').some((l) => l.includes('editor/doSomethingUnheardOf')));
  assert.ok(r.log.of('out').some((l) => l.includes('"bogus-1"') && l.includes('-32601')));
  assert.equal(agentText(entries(r)), 'still here');
  await r.session.prompt('next');
  assert.match(agentText(entries(r)), /next$/);
  assert.equal(r.session.status.kind, 'ready');
});

test('unknown update kinds and malformed updates are logged and skipped; known ones around them render', async () => {
  const r = rig({
    turns: [
      {
        steps: [
          say('a'),
          { update: { sessionUpdate: 'hologram_projection', payload: { beams: 3 } } },
          { update: { sessionUpdate: 42 } },
          { update: { sessionUpdate: 'tool_call_update' } },
          { raw: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'session-1' } }) },
          {
            raw: JSON.stringify({
              jsonrpc: '2.0',
              method: 'session/update',
              params: { sessionId: 'no-such-session', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'LEAK' } } },
            }),
          },
          say('b'),
        ],
      },
    ],
  });
  await r.session.start();
  await r.session.prompt('go');
  const warnings = r.log.of('warn').join('\n');
  assert.match(warnings, /hologram_projection/);
  assert.match(warnings, /without a sessionId or update/);
  assert.match(warnings, /unknown session no-such-session/);
  assert.ok(
    r.log.of('in').some((l) => l.includes('hologram_projection')),
    'the unknown update is in the protocol log verbatim',
  );
  assert.equal(agentText(entries(r)), 'ab', 'nothing of another session leaks into this thread');
  assert.equal(errors(entries(r)).length, 0);
  assert.doesNotMatch(warnings, /internal error/i);
});

test('a message longer than the transport limit is dropped with a warning; the turn and the next prompt go on', { timeout: 120_000 }, async () => {
  // A well-formed session/update that would render if it were accepted: only its size is wrong.
  const huge = 'x'.repeat(DEFAULT_MAX_LINE_BYTES + 1024);
  const line = JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 'session-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: huge } } },
  });
  assert.ok(Buffer.byteLength(line) > DEFAULT_MAX_LINE_BYTES);
  // The sleep lets the agent's stdout drain first: on Node 20, Writable.toWeb (the SDK's writer in
  // the fixture) silently drops a message written while the raw write still waits for 'drain'.
  const r = rig({ turns: [{ steps: [say('before '), { raw: line }, { sleep: 2000 }, say('after')] }, { steps: [{ echo: true }] }] });
  await r.session.start();
  await r.session.prompt('go');
  assert.ok(
    r.log.of('warn').some((w) => w.includes(`longer than ${DEFAULT_MAX_LINE_BYTES} bytes`)),
    r.log.of('warn').join('\n'),
  );
  assert.equal(agentText(entries(r)), 'before after');
  // The protocol log itself must not have swallowed the giant line either.
  assert.ok(
    r.log.lines.every((l) => l.text.length < 1_000_000),
    'no log line holds the oversized message',
  );
  await r.session.prompt('next');
  assert.match(agentText(entries(r)), /next$/);
});

test('agent killed during initialize: error entry, no orphan, Restart works', { skip: !posix }, async () => {
  const r = rig({ initialize: { delayMs: 30_000 }, turns: [{ steps: [{ echo: true }] }] });
  const starting = r.session.start();
  await waitFor(() => r.agentPids().length === 1 && r.received().some((m) => m.method === 'initialize'), 10_000, 'initialize to reach the agent');
  const [pid] = r.agentPids();
  assert.equal(r.session.status.kind, 'starting');
  crash(pid);
  await starting;
  await waitFor(() => r.session.status.kind === 'stopped', 5000, 'the crash to be reported');
  const list = entries(r);
  assert.equal(errors(list).length, 1, JSON.stringify(list));
  assert.match((errors(list)[0] as { message: string }).message, /SIGKILL|killed/);
  assert.equal(isAlive(pid), false);
  await restartAndPrompt(r, list);
});

test('agent killed while streaming: the streamed text stays, the turn ends, the agent and its children are gone, Restart works', { skip: !posix }, async () => {
  const r = rig({
    turns: [
      {
        steps: [
          { spawn: { command: 'sleep', args: ['120'] } },
          { update: { sessionUpdate: 'tool_call', toolCallId: 'run1', title: 'Long work', kind: 'execute', status: 'in_progress' } },
          { chunks: { count: 200, text: 'chunk${i} ' } },
          { sleep: 60_000 },
        ],
      },
      { steps: [{ echo: true }] },
    ],
  });
  await r.session.start();
  const [agentPid] = r.agentPids();
  const turn = r.session.prompt('stream');
  await waitFor(() => agentText(entries(r)).includes('chunk199 '), 10_000, 'the stream');
  const grandchild = Number(/SPAWNED: (\d+)/.exec(agentText(entries(r)))?.[1]);
  assert.ok(grandchild > 0 && isAlive(grandchild), 'the agent started a child');
  const streamed = agentText(entries(r));
  crash(agentPid);
  await turn;
  await waitFor(() => r.session.status.kind === 'stopped', 5000, 'the crash to be reported');
  const list = entries(r);
  assert.equal(agentText(list), streamed, 'the streamed text is intact');
  assert.ok(
    errors(list).some((e) => /killed by SIGKILL during the turn/.test((e as { message: string }).message)),
    JSON.stringify(errors(list)),
  );
  assertSettled(list);
  await waitFor(() => !isAlive(agentPid) && !isAlive(grandchild), 5000, 'the agent and its child to be gone');
  await restartAndPrompt(r, list);
});

test('agent killed while a permission prompt is open: the prompt is closed cancelled, error entry, Restart works', { skip: !posix }, async () => {
  const r = rig({
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Edit main.ts', kind: 'edit', status: 'pending' } },
          {
            permission: {
              toolCall: { toolCallId: 'e1' },
              options: [
                { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          },
        ],
      },
      { steps: [{ echo: true }] },
    ],
  });
  await r.session.start();
  const [agentPid] = r.agentPids();
  const turn = r.session.prompt('edit');
  const pendingPermission = (): ToolCallEntry | undefined =>
    entries(r).find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.permission?.state.kind === 'pending');
  await waitFor(() => pendingPermission() !== undefined, 10_000, 'the permission prompt');
  const requestId = pendingPermission()!.permission!.requestId;
  crash(agentPid);
  await turn;
  await waitFor(() => r.session.status.kind === 'stopped', 5000, 'the crash to be reported');
  const list = entries(r);
  const card = list.find((e): e is ToolCallEntry => e.kind === 'tool_call');
  assert.equal(card?.permission?.state.kind, 'cancelled');
  assert.equal(errors(list).length, 1);
  assertSettled(list);
  assert.equal(isAlive(agentPid), false);
  // Answering the dead prompt late is harmless: logged, not thrown.
  r.session.respondPermission(requestId, 'ok');
  assert.ok(r.log.of('warn').some((w) => w.includes(requestId)));
  await restartAndPrompt(r, list);
});

test('agent killed while a terminal command runs: the command is killed too, output kept, Restart works', { skip: !posix }, async () => {
  const r = rig({
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress' } },
          { terminal: { command: 'sh', args: ['-c', 'echo "PID=$$"; exec sleep 120'] }, toolCallId: 't1' },
        ],
      },
      { steps: [{ echo: true }] },
    ],
  });
  await r.session.start();
  const [agentPid] = r.agentPids();
  const turn = r.session.prompt('run');
  const terminalOutput = (): string =>
    Object.values(r.session.snapshotParts().terminals)
      .map((t) => t.output)
      .join('');
  await waitFor(() => /PID=\d+/.test(terminalOutput()), 10_000, 'the command to start');
  const commandPid = Number(/PID=(\d+)/.exec(terminalOutput())![1]);
  assert.ok(isAlive(commandPid));
  crash(agentPid);
  await turn;
  await waitFor(() => r.session.status.kind === 'stopped', 5000, 'the crash to be reported');
  await waitFor(() => !isAlive(commandPid), 5000, `the terminal command (pid ${commandPid}) to be killed`);
  assert.equal(isAlive(agentPid), false);
  const list = entries(r);
  assert.equal(errors(list).length, 1);
  assertSettled(list);
  const card = list.find((e): e is ToolCallEntry => e.kind === 'tool_call');
  assert.ok(
    card?.content.some((c) => c.type === 'terminal'),
    'the card still embeds its terminal',
  );
  assert.match(terminalOutput(), /PID=/, 'the output seen so far stays readable');
  await restartAndPrompt(r, list);
});

test('an agent that ignores cancel: running calls are settled at the cut-off, and the next prompt works on the same process', async () => {
  const r = rig(
    {
      turns: [
        {
          steps: [{ update: { sessionUpdate: 'tool_call', toolCallId: 'slow', title: 'Slow thing', kind: 'other', status: 'in_progress' } }, { sleep: 60_000 }],
          ignoreCancel: true,
        },
        { steps: [{ echo: true }] },
      ],
    },
    300,
  );
  await r.session.start();
  const [agentPid] = r.agentPids();
  // Never awaited: the agent never answers this prompt (that is the fault under test).
  void r.session.prompt('hang');
  await waitFor(() => entries(r).some((e) => e.kind === 'tool_call'), 10_000, 'the tool call');
  const started = Date.now();
  r.session.cancel();
  await waitFor(() => r.session.status.kind === 'ready', 5000, 'the bounded wait to end the turn');
  assert.ok(Date.now() - started < 5000);
  assertSettled(entries(r));
  await r.session.prompt('again');
  assert.match(agentText(entries(r)), /again$/);
  assert.deepEqual(r.agentPids(), [agentPid], 'the same agent process served the next prompt');
});
