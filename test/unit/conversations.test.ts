/**
 * Conversations over real scripted agent processes: prompts are never dropped (queued while the
 * agent starts or works, in order, paused after a failed or cancelled turn), conversations come
 * back after a "restart" (a second manager on the same store and agent state file) through
 * session/resume, session/load or a fresh session, and several conversations share one process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { ConversationStore } from '../../src/store/conversationStore';
import { runCoreCommand } from '../../src/conversation/panelCommands';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { scriptedSession, until, type ScriptedSession } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-conversations-');

/** A store and an agent state file that outlive one "VS Code run". */
function persistent(name: string): { store: () => ConversationStore; env: Record<string, string> } {
  const base = join(rigs.dir, name);
  mkdirSync(base, { recursive: true });
  return {
    store: () => new ConversationStore({ dir: join(base, 'storage'), warn: (t) => assert.fail(`store warning: ${t}`) }),
    env: { SCRIPTED_AGENT_STATE: join(base, 'agent-state.json') },
  };
}

const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const kinds = (entries: readonly Entry[]) => entries.map((e) => e.kind);
const texts = (entries: readonly Entry[], kind: 'user' | 'agent') => entries.filter((e) => e.kind === kind).map((e) => (e as { text: string }).text);
const methods = (r: ScriptedSession) =>
  r
    .received()
    .map((m) => m.method)
    .filter(Boolean);
const prompts = (r: ScriptedSession) =>
  r
    .received()
    .filter((m) => m.method === 'session/prompt')
    .map((m) => JSON.stringify(m.params));

test('Enter while the agent starts: the prompt is queued at once and sent when the session is ready', async () => {
  const r = rigs.session({ initialize: { delayMs: 400 }, turns: [{ steps: [say('got: ${prompt}')] }] });
  const { session } = r;
  await session.manager.init();
  const conversation = session.conversation;
  assert.equal(conversation.status.kind, 'starting');
  conversation.prompt('typed while starting');
  assert.deepEqual(
    conversation.internals.queue.view().items.map((i) => i.text),
    ['typed while starting'],
    'shown as waiting at once',
  );
  assert.equal(conversation.internals.thread.size, 0, 'not sent yet');
  await session.settled();
  const entries = session.snapshotParts().entries;
  assert.deepEqual(kinds(entries), ['user', 'agent', 'turn_end']);
  assert.deepEqual(texts(entries, 'agent'), ['got: typed while starting']);
  assert.equal(conversation.internals.queue.size, 0);
});

test('Enter during a turn: prompts wait and go out in order after each turn ends', async () => {
  const r = rigs.session({
    turns: [{ steps: [{ sleep: 300 }, say('first done')] }, { steps: [say('second: ${prompt}')] }, { steps: [say('third: ${prompt}')] }],
  });
  const { session } = r;
  await session.start();
  const conversation = session.conversation;
  conversation.prompt('one');
  await until(() => conversation.status.kind === 'running', 'the first turn');
  conversation.prompt('two');
  conversation.prompt('three');
  assert.deepEqual(
    conversation.internals.queue.view().items.map((i) => i.text),
    ['two', 'three'],
  );
  await session.settled();
  const entries = session.snapshotParts().entries;
  assert.deepEqual(texts(entries, 'user'), ['one', 'two', 'three']);
  assert.deepEqual(texts(entries, 'agent'), ['first done', 'second: two', 'third: three']);
  assert.equal(prompts(r).length, 3);
});

test('a cancelled turn pauses the queue until the user resumes it', async () => {
  const r = rigs.session({ turns: [{ steps: [say('working'), { waitForCancel: true }] }, { steps: [say('next: ${prompt}')] }] });
  const { session } = r;
  await session.start();
  const conversation = session.conversation;
  conversation.prompt('long task');
  await until(() => conversation.status.kind === 'running', 'running');
  conversation.prompt('follow-up');
  session.cancel();
  await until(() => conversation.status.kind === 'ready', 'the cancelled turn to end');
  assert.match(conversation.internals.queue.view().paused ?? '', /cancelled/);
  // Settled: no turn runs and no prompt is about to go out (a queue that flushed would still be busy).
  await session.settled();
  assert.equal(conversation.internals.queue.size, 1);
  assert.equal(prompts(r).length, 1, 'nothing was flushed silently');
  await runCoreCommand(session.manager, { type: 'queueResume' }, { warn: () => undefined, reply: () => undefined });
  await session.settled();
  assert.deepEqual(texts(session.snapshotParts().entries, 'agent'), ['working', 'next: follow-up']);
});

test('Send now stops the running turn and sends that prompt first; the rest follows', async () => {
  const r = rigs.session({ turns: [{ steps: [{ waitForCancel: true }] }, { steps: [say('A: ${prompt}')] }, { steps: [say('B: ${prompt}')] }] });
  const { session } = r;
  await session.start();
  const conversation = session.conversation;
  conversation.prompt('slow');
  await until(() => conversation.status.kind === 'running', 'running');
  conversation.prompt('later');
  conversation.prompt('urgent');
  const urgent = conversation.internals.queue.view().items[1].id;
  conversation.sendNow(urgent);
  await session.settled();
  const entries = session.snapshotParts().entries;
  assert.deepEqual(texts(entries, 'user'), ['slow', 'urgent', 'later']);
  assert.deepEqual(texts(entries, 'agent'), ['A: urgent', 'B: later']);
  assert.ok(entries.some((e) => e.kind === 'turn_end' && e.stopReason === 'cancelled'));
});

test('a failed start keeps the prompt (paused, with Retry); after fixing the command, Retry sends it', async () => {
  const r = rigs.session({ turns: [{ steps: [say('hello back')] }] }, { command: join(rigs.dir, 'no-such-agent') });
  const { session } = r;
  await session.manager.init();
  const conversation = session.conversation;
  conversation.prompt('hello');
  await until(() => conversation.status.kind === 'stopped', 'the failure');
  const error = session.snapshotParts().entries.find((e) => e.kind === 'error');
  assert.equal(error?.kind === 'error' && error.action, 'retry');
  assert.deepEqual(
    conversation.internals.queue.view().items.map((i) => i.text),
    ['hello'],
    'the prompt is kept',
  );
  assert.ok(conversation.internals.queue.paused);
  const fixed = scriptedSession(rigs.dir, { turns: [{ steps: [say('hello back')] }] });
  fixed.session.dispose();
  session.updateAgent(fixed.agent);
  await runCoreCommand(session.manager, { type: 'retry' }, { warn: () => undefined, reply: () => undefined });
  await session.settled();
  assert.deepEqual(texts(session.snapshotParts().entries, 'agent'), ['hello back']);
});

test('restart: the transcript comes back settled and the next prompt resumes the same agent session', async () => {
  const p = persistent('resume');
  const script: AgentScript = {
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
    turns: [
      { steps: [{ update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read a.txt', kind: 'read', status: 'in_progress' } }, say('first answer')] },
      { steps: [{ recall: true }] },
    ],
  };
  const firstStore = p.store();
  const first = rigs.session(script, { store: firstStore, env: p.env });
  await first.session.start();
  await first.session.prompt('remember the word tandem');
  const sessionId = first.session.conversation.meta.sessionId;
  assert.ok(sessionId);
  await firstStore.flush();
  first.session.dispose();

  const secondStore = p.store();
  const second = rigs.session(script, { store: secondStore, env: p.env });
  await second.session.manager.init();
  const restored = second.session.snapshotParts();
  assert.deepEqual(kinds(restored.entries), ['user', 'tool_call', 'agent', 'turn_end']);
  assert.ok(
    restored.entries.every((e) => e.kind !== 'tool_call' || (e as ToolCallEntry).status !== 'in_progress'),
    'no spinner left running',
  );
  await second.session.settled();
  assert.equal(second.session.conversation.meta.sessionId, sessionId);
  await second.session.prompt('what was the word?');
  assert.match(texts(second.session.snapshotParts().entries, 'agent').at(-1) ?? '', /RECALL: remember the word tandem/);
  assert.ok(methods(second).includes('session/resume'));
  assert.ok(!methods(second).includes('session/new'), 'no new session');
  assert.ok(!methods(second).includes('session/load'), 'resume is preferred');
});

test('restart with load: the replay becomes the thread (also the part sent after the answer), never duplicated', async () => {
  const p = persistent('load');
  const script: AgentScript = {
    initialize: { agentCapabilities: { loadSession: true } },
    load: {
      replayAfterResponse: 1,
      extraReplay: [
        {
          sessionUpdate: 'user_message_chunk',
          content: { type: 'text', text: '<command-name>/compact</command-name><system-reminder>internal</system-reminder>' },
        },
        { sessionUpdate: 'tool_call', toolCallId: 'ghost', title: 'TodoWrite' },
      ],
    },
    turns: [{ steps: [say('answer one')] }, { steps: [{ recall: true }] }],
  };
  const firstStore = p.store();
  const first = rigs.session(script, { store: firstStore, env: p.env });
  await first.session.start();
  await first.session.prompt('question one');
  await firstStore.flush();
  first.session.dispose();

  const secondStore = p.store();
  const second = rigs.session(script, { store: secondStore, env: p.env });
  await second.session.start();
  // The quiet period after the answer ends the replay; then nothing in it is pending.
  await until(() => {
    const entries = second.session.snapshotParts().entries;
    return entries.some((e) => e.kind === 'tool_call' && e.status === 'cancelled');
  }, 'the replay to settle');
  const entries = second.session.snapshotParts().entries;
  assert.deepEqual(texts(entries, 'user'), ['question one', '/compact'], 'internal markup is dropped, the stored transcript is not shown twice');
  assert.deepEqual(texts(entries, 'agent'), ['answer one'], 'the update sent after the load answer is in the thread');
  assert.ok(entries.every((e) => e.kind !== 'tool_call' || (e.status !== 'pending' && e.status !== 'in_progress')));
  await second.session.prompt('again?');
  assert.match(texts(second.session.snapshotParts().entries, 'agent').at(-1) ?? '', /RECALL: question one/);
});

test('restart with an agent that can neither resume nor load: a fresh session under the kept transcript, with a notice', async () => {
  const p = persistent('fresh');
  const script: AgentScript = { turns: [{ steps: [say('${prompt}!')] }] };
  const firstStore = p.store();
  const first = rigs.session(script, { store: firstStore, env: p.env });
  await first.session.start();
  await first.session.prompt('hello');
  await firstStore.flush();
  first.session.dispose();

  const secondStore = p.store();
  const second = rigs.session(script, { store: secondStore, env: p.env });
  await second.session.start();
  const entries = second.session.snapshotParts().entries;
  assert.deepEqual(kinds(entries), ['user', 'agent', 'turn_end', 'notice']);
  assert.match((entries[3] as { message: string }).message, /starts fresh/);
  assert.ok(methods(second).includes('session/new'));
});

test('a session the agent no longer knows: a clear message, and Start fresh keeps the transcript', async () => {
  const p = persistent('lost');
  const script: AgentScript = { initialize: { agentCapabilities: { sessionCapabilities: { resume: {} } } }, turns: [{ steps: [say('${prompt}!')] }] };
  const firstStore = p.store();
  const first = rigs.session(script, { store: firstStore, env: p.env });
  await first.session.start();
  await first.session.prompt('hello');
  await firstStore.flush();
  first.session.dispose();
  rmSync(p.env.SCRIPTED_AGENT_STATE, { force: true });

  const secondStore = p.store();
  const second = rigs.session(script, { store: secondStore, env: p.env });
  await second.session.start();
  const error = second.session.snapshotParts().entries.find((e) => e.kind === 'error');
  assert.ok(error?.kind === 'error');
  assert.match(error.message, /no longer knows this conversation/);
  assert.equal(error.action, 'startFresh');
  await runCoreCommand(second.session.manager, { type: 'startFresh' }, { warn: () => undefined, reply: () => undefined });
  await second.session.prompt('again');
  const entries = second.session.snapshotParts().entries;
  assert.deepEqual(texts(entries, 'user'), ['hello', 'again']);
  assert.ok(entries.some((e) => e.kind === 'notice' && /starts fresh/.test(e.message)));
});

test('two conversations share one agent process and run turns with permission prompts at the same time', async () => {
  const permission = {
    permission: {
      toolCall: { toolCallId: 'edit-${sessionId}', title: 'Edit ${prompt}.txt', kind: 'edit' },
      options: [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    },
  };
  const r = rigs.session({ turns: [{ steps: [permission, say('done ${prompt}')] }] });
  const { session } = r;
  await session.start();
  const a = session.conversation;
  const b = session.manager.newConversation('Scripted');
  await b.connect();
  a.prompt('alpha');
  b.prompt('beta');
  const pending = (c: typeof a) =>
    c.internals.thread.entries().find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.permission?.state.kind === 'pending');
  await until(() => pending(a) !== undefined && pending(b) !== undefined, 'a prompt in each conversation');
  assert.equal(a.status.kind, 'running');
  assert.equal(b.status.kind, 'running');
  b.respondPermission(pending(b)!.permission!.requestId, 'no');
  await session.settled(b);
  assert.equal(a.status.kind, 'running', 'answering one conversation does not touch the other');
  a.respondPermission(pending(a)!.permission!.requestId, 'yes');
  await session.settled(a);
  assert.match(texts(a.internals.thread.entries(), 'agent').join(''), /PERMISSION: selected yes/);
  assert.match(texts(b.internals.thread.entries(), 'agent').join(''), /PERMISSION: selected no/);
  assert.equal(methods(r).filter((m) => m === 'initialize').length, 1, 'one process');
  assert.equal(methods(r).filter((m) => m === 'session/new').length, 2, 'two sessions');
  assert.equal(session.manager.tabs().length, 2);
});

test('titles: the first prompt names a conversation until the agent sends session_info_update; closing a tab closes its session', async () => {
  const r = rigs.session({
    initialize: { agentCapabilities: { sessionCapabilities: { close: {} } } },
    turns: [{ steps: [say('ok')] }, { steps: [{ title: 'Agent title' }, say('ok')] }],
  });
  const { session } = r;
  await session.start();
  const conversation = session.conversation;
  await session.prompt('Fix the login bug\nwith details');
  assert.equal(conversation.meta.title, 'Fix the login bug');
  await session.prompt('more');
  assert.equal(conversation.meta.title, 'Agent title');
  const first = conversation.id;
  session.manager.newConversation('Scripted');
  await session.manager.close(first);
  await until(() => methods(r).includes('session/close'), 'session/close');
  assert.deepEqual(
    session.manager.all().map((c) => c.open),
    [true, false],
    'the closed one stays in history',
  );
});
