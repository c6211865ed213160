// One conversation over a real scripted agent process: streaming, Stop, cancel grace, crashes,
// missing commands, initialize errors, permissions and fs, sign-in, early updates, Retry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '../../src/protocol/messages';
import { scriptedAgentJs as agentJs, scriptedSession, until, type ScriptedSessionOptions } from '../support/scriptedSession';

const repo = join(__dirname, '..', '..');
let dir: string;

before(() => {
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'tandem-session-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const makeSession = (script: unknown, opts: ScriptedSessionOptions = {}) => scriptedSession(dir, script, opts);

const kinds = (entries: readonly Entry[]) => entries.map((e) => e.kind);
const agentText = (entries: readonly Entry[]) =>
  entries
    .filter((e) => e.kind === 'agent')
    .map((e) => (e as { text: string }).text)
    .join('');

test('a prompt streams the reply and ends with the stop reason', async () => {
  const { session } = makeSession({
    turns: [
      { steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello ' } } }, { echo: true }], stopReason: 'end_turn' },
    ],
  });
  try {
    await session.start();
    assert.equal(session.status.kind, 'ready');
    await session.prompt('world');
    const { entries } = session.snapshotParts();
    assert.deepEqual(kinds(entries), ['user', 'agent', 'turn_end']);
    assert.equal(agentText(entries), 'Hello world');
    assert.equal((entries[2] as { stopReason: string }).stopReason, 'end_turn');
  } finally {
    session.dispose();
  }
});

test('Stop sends session/cancel, answers a pending permission cancelled exactly once, and is no error', async () => {
  const { session, received } = makeSession({
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit a.txt', kind: 'edit', status: 'pending' } },
          {
            permission: {
              toolCall: { toolCallId: 'c1' },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          },
          { waitForCancel: true },
        ],
        stopReason: 'end_turn',
      },
    ],
  });
  try {
    await session.start();
    const turn = session.prompt('go');
    await until(() => session.snapshotParts().entries.some((e) => e.kind === 'tool_call' && e.permission?.state.kind === 'pending'), 'the permission prompt');
    session.cancel();
    await turn;
    const { entries } = session.snapshotParts();
    const call = entries.find((e) => e.kind === 'tool_call');
    assert.ok(call && call.kind === 'tool_call');
    assert.equal(call.permission?.state.kind, 'cancelled');
    assert.notEqual(call.status, 'pending');
    assert.notEqual(call.status, 'in_progress');
    assert.equal(entries.filter((e) => e.kind === 'error').length, 0);
    assert.equal((entries[entries.length - 1] as { stopReason?: string }).stopReason, 'cancelled');
    const answers = received().filter((m) => 'result' in m && (m.result as { outcome?: unknown })?.outcome);
    assert.equal(answers.length, 1);
    assert.deepEqual((answers[0].result as { outcome: unknown }).outcome, { outcome: 'cancelled' });
    assert.ok(received().some((m) => m.method === 'session/cancel'));
  } finally {
    session.dispose();
  }
});

test('an agent that ignores cancel is cut off after the grace period with a clear message', async () => {
  const { session } = makeSession({ turns: [{ steps: [{ ignoreCancel: true }, { sleep: 60_000 }], stopReason: 'end_turn' }] }, { cancelGraceMs: 300 });
  try {
    await session.start();
    void session.prompt('go');
    await until(() => session.status.kind === 'running', 'running');
    session.cancel();
    await until(() => session.status.kind === 'ready', 'the turn to end');
    const { entries } = session.snapshotParts();
    assert.ok(entries.some((e) => e.kind === 'error' && /did not confirm the cancellation/.test(e.message)));
    assert.equal((entries[entries.length - 1] as { stopReason?: string }).stopReason, 'cancelled');
  } finally {
    session.dispose();
  }
});

test('a crash mid-turn shows an error with the stderr tail, keeps the thread, and Restart works', async () => {
  const { session } = makeSession({
    initialize: { stderr: 'scripted agent booting' },
    turns: [
      { steps: [{ echo: true }, { exit: 7 }], stopReason: 'end_turn' },
      { steps: [{ echo: true }], stopReason: 'end_turn' },
    ],
  });
  try {
    await session.start();
    await session.prompt('first');
    await until(() => session.status.kind === 'stopped', 'the crash to be reported');
    let entries = session.snapshotParts().entries;
    const error = entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error');
    assert.match(error.message, /exited with code 7/);
    assert.equal(error.action, 'restart');
    assert.equal(agentText(entries), 'first');
    await session.restart();
    assert.equal(session.status.kind, 'ready');
    await session.prompt('again');
    entries = session.snapshotParts().entries;
    assert.ok(agentText(entries).includes('again'));
    assert.ok(
      entries.some((e) => e.kind === 'user' && e.text === 'first'),
      'the earlier thread is still there',
    );
  } finally {
    session.dispose();
  }
});

test('a missing command is reported with what to do', async () => {
  const { session } = makeSession({ turns: [] }, { command: 'tandem-no-such-agent-xyz' });
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    const error = session.snapshotParts().entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error');
    assert.match(error.message, /not found/i);
  } finally {
    session.dispose();
  }
});

test('an initialize error is shown and the panel is not dead', async () => {
  const { session } = makeSession({ initialize: { error: { code: -32603, message: 'model config broken' } }, turns: [] });
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    const error = session.snapshotParts().entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error' && /model config broken/.test(error.message + (error.detail ?? '')));
    assert.ok(error.action);
  } finally {
    session.dispose();
  }
});

test('permission answers reach the agent, fs reads go through the handler and are followed', async () => {
  writeFileSync(join(dir, 'notes.txt'), 'one\ntwo\nthree\n');
  const { session, followed } = makeSession({
    turns: [
      {
        steps: [
          {
            permission: {
              toolCall: { toolCallId: 'c9', title: 'Read notes', kind: 'read' },
              options: [{ optionId: 'ok', name: 'Allow once', kind: 'allow_once' }],
            },
          },
          { readFile: { path: '${cwd}/notes.txt', line: 2, limit: 1 } },
          { readFile: { path: '/etc/hostname' } },
        ],
        stopReason: 'end_turn',
      },
    ],
  });
  try {
    await session.start();
    const turn = session.prompt('read it');
    await until(() => session.snapshotParts().entries.some((e) => e.kind === 'tool_call' && e.permission?.state.kind === 'pending'), 'the prompt');
    const call = session.snapshotParts().entries.find((e) => e.kind === 'tool_call');
    assert.ok(call && call.kind === 'tool_call' && call.permission);
    assert.equal(call.title, 'Read notes', 'the card is created from the request');
    session.respondPermission(call.permission.requestId, 'ok');
    session.respondPermission(call.permission.requestId, 'ok');
    await turn;
    const text = agentText(session.snapshotParts().entries);
    assert.match(text, /PERMISSION: selected ok/);
    assert.match(text, /READ: two/);
    assert.match(text, /READ_ERROR: .*outside the workspace/);
    assert.ok(followed.some((f) => f.startsWith(join(dir, 'notes.txt'))));
  } finally {
    session.dispose();
  }
});

test('an agent that needs sign-in shows a sign-in card with its methods, and signing in opens the session', async () => {
  const { session, received } = makeSession({
    initialize: { authMethods: [{ id: 'login', name: 'Log in with the browser', description: null }] },
    newSession: { requireAuth: true },
    turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }],
  });
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    const card = session.snapshotParts().entries.find((e) => e.kind === 'auth');
    assert.ok(card && card.kind === 'auth');
    assert.deepEqual(card.methods, [{ id: 'login', name: 'Log in with the browser', kind: 'agent' }]);
    assert.equal(card.state.kind, 'waiting');
    await session.signIn();
    await session.settled();
    assert.equal(session.status.kind, 'ready');
    const done = session.snapshotParts().entries.find((e) => e.kind === 'auth');
    assert.equal(done?.kind === 'auth' && done.state.kind, 'done');
    assert.ok(received().some((m) => m.method === 'authenticate' && (m.params as { methodId?: string }).methodId === 'login'));
    await session.prompt('hello after login');
    assert.match(agentText(session.snapshotParts().entries), /hello after login/);
  } finally {
    session.dispose();
  }
});

test('updates sent before session/new answers are kept, not dropped as another session', async () => {
  const { session, log } = makeSession({
    newSession: { updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Welcome back.' } }] },
    turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }],
  });
  try {
    await session.start();
    assert.equal(session.status.kind, 'ready');
    assert.equal(agentText(session.snapshotParts().entries), 'Welcome back.');
    assert.ok(!log.of('warn').some((w) => /unknown session/.test(w)));
  } finally {
    session.dispose();
  }
});

test('Retry after fixing the command starts the new command and keeps the thread', async () => {
  const { session, scriptPath } = makeSession({ turns: [{ steps: [{ echo: true }], stopReason: 'end_turn' }] }, { command: 'tandem-no-such-agent-xyz' });
  try {
    await session.start();
    assert.equal(session.status.kind, 'stopped');
    session.updateAgent({ name: 'Scripted', command: process.execPath, args: [agentJs, scriptPath], env: {}, cwd: dir });
    await session.restart();
    assert.equal(session.status.kind, 'ready');
    await session.prompt('fixed');
    const { entries } = session.snapshotParts();
    assert.equal(entries[0].kind, 'error', 'the earlier failure stays in the thread');
    assert.match(agentText(entries), /fixed/);
  } finally {
    session.dispose();
  }
});
