/**
 * The agent's own bookkeeping of a conversation's session (issue 35, part 7), through the real
 * ConversationManager and the scripted agent process: an agent that advertises
 * `sessionCapabilities.delete` and `title` (as codex-acp 2.6 does) gets `session/delete` when a
 * conversation is deleted with its session and `session/set_title` when it is renamed, and its
 * session/list shows both; an agent without them gets neither; an agent refusing the delete leaves
 * Tandem's delete done. The agent's own `session_info_update {title}` names the tab.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until, type ScriptedSession } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-agent-sessions-');

const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const requests = (r: ScriptedSession, method: string) => r.received().filter((m) => m.method === method);
const BOOKKEEPING = { sessionCapabilities: { list: {}, close: {}, delete: {}, title: {} } };

test('an agent with session/delete and set_title: a rename names its session, a delete with the session deletes it there too', async () => {
  const r = rigs.session({ initialize: { agentCapabilities: BOOKKEEPING }, turns: [{ steps: [{ title: 'Agent title' }, say('ok')] }] });
  const { session } = r;
  await session.start();
  await session.prompt('Fix the login bug');
  const conversation = session.conversation;
  const sessionId = conversation.meta.sessionId!;
  assert.equal(session.manager.tabs()[0].title, 'Agent title', "the agent's session_info_update names the tab");

  session.manager.rename(conversation.id, '  Login bug, take two ');
  assert.equal(conversation.meta.title, 'Login bug, take two');
  await until(() => requests(r, 'session/set_title').length === 1, 'session/set_title');
  assert.deepEqual(requests(r, 'session/set_title')[0].params, { sessionId, title: 'Login bug, take two' });
  const runtime = session.manager.runtimeFor('Scripted')!;
  const listed = await runtime.listSessions(rigs.dir);
  assert.equal(listed.find((s) => s.sessionId === sessionId)?.title, 'Login bug, take two', "the agent's own list shows the user's title");

  assert.equal(await session.manager.canDeleteAgentSession(conversation.id), true);
  session.manager.newConversation('Scripted');
  const deleted = await session.manager.delete(conversation.id, { agentSession: true });
  assert.equal(deleted?.sessionId, sessionId);
  assert.deepEqual(
    requests(r, 'session/delete').map((m) => m.params),
    [{ sessionId }],
  );
  assert.ok(!session.manager.all().some((c) => c.meta.id === conversation.id), 'gone from History');
  const after = await session.manager.runtimeFor('Scripted')!.listSessions(rigs.dir);
  assert.ok(!after.some((s) => s.sessionId === sessionId), 'gone from the agent too');
});

test('"Only here" and an agent without the capabilities: nothing is asked of the agent', async () => {
  const r = rigs.session({ initialize: { agentCapabilities: BOOKKEEPING }, turns: [{ steps: [say('ok')] }] });
  await r.session.start();
  await r.session.prompt('one');
  const kept = r.session.conversation;
  r.session.manager.newConversation('Scripted');
  await r.session.manager.delete(kept.id);
  assert.deepEqual(requests(r, 'session/delete'), [], 'deleted only here');
  const listed = await r.session.manager.runtimeFor('Scripted')!.listSessions(rigs.dir);
  assert.ok(
    listed.some((s) => s.sessionId === kept.meta.sessionId),
    'the agent keeps it',
  );

  const plain = rigs.session({ initialize: { agentCapabilities: { sessionCapabilities: { list: {}, close: {} } } }, turns: [{ steps: [say('ok')] }] });
  await plain.session.start();
  await plain.session.prompt('two');
  const c = plain.session.conversation;
  plain.session.manager.rename(c.id, 'Renamed');
  assert.equal(await plain.session.manager.canDeleteAgentSession(c.id), false);
  plain.session.manager.newConversation('Scripted');
  await plain.session.manager.delete(c.id, { agentSession: true });
  await new Promise((res) => setTimeout(res, 100));
  assert.deepEqual([requests(plain, 'session/set_title'), requests(plain, 'session/delete')], [[], []]);
});

test('an agent refusing the delete: the conversation is deleted here all the same, the refusal logged', async () => {
  const r = rigs.session({
    initialize: { agentCapabilities: BOOKKEEPING },
    delete: { error: { code: -32603, message: 'disk full' } },
    turns: [{ steps: [say('ok')] }],
  });
  await r.session.start();
  await r.session.prompt('one');
  const c = r.session.conversation;
  r.session.manager.newConversation('Scripted');
  const deleted = await r.session.manager.delete(c.id, { agentSession: true });
  assert.equal(deleted?.id, c.id);
  assert.ok(!r.session.manager.all().some((x) => x.meta.id === c.id));
  assert.equal(requests(r, 'session/delete').length, 1);
  assert.ok(
    r.log.lines.some((l) => l.level === 'warn' && /session\/delete of .* failed: .*disk full/.test(l.text)),
    'logged',
  );
});
