// The fast tier for editing an earlier prompt (src/conversation/promptEditing.ts) and its branches
// (src/conversation/branches.ts): a real ConversationManager against the in-memory StubAgent, judged
// by what the agent received, what the shown thread holds, and the files on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { ReviewHost } from '../../src/conversation/conversationReview';
import type { Entry, UserEntry } from '../../src/protocol/messages';
import { flush, stubSession, type StubRig } from '../support/stubSession';
import { lateReviewHost, nodeReviewHost, until } from '../support/scriptedSession';

type Prompt = { sessionId: string; prompt: Array<{ type: string; text?: string; resource?: { text?: string } }> };

const entries = (rig: StubRig): readonly Entry[] => rig.conversation.snapshot().entries;
const users = (rig: StubRig): UserEntry[] => entries(rig).filter((e): e is UserEntry => e.kind === 'user');
const prompts = (rig: StubRig): Prompt[] => rig.agent.received.filter((r) => r.method === 'session/prompt').map((r) => r.params as Prompt);
const texts = (rig: StubRig): string[] => entries(rig).flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [`${e.kind}: ${e.text}`] : []));

/** Two turns, each answered with a message carrying the agent's id (as both adapters send). */
async function twoTurns(rig: StubRig, fork: boolean): Promise<string> {
  // `fork` is unstable in the SDK's types: advertised as the adapters send it.
  const sessionCapabilities = { resume: {}, fork: {} } as acp.SessionCapabilities;
  if (fork) rig.agent.behaviour.initialize.agentCapabilities = { loadSession: true, sessionCapabilities };
  await rig.manager.init();
  await rig.conversation.connect();
  const sessionId = rig.conversation.meta.sessionId ?? assert.fail('a session');
  for (const [n, prompt] of ['first', 'second'].entries()) {
    rig.conversation.prompt(prompt);
    await until(() => rig.agent.pendingPrompt !== undefined, `prompt ${prompt}`);
    rig.agent.sendUpdate(sessionId, { sessionUpdate: 'agent_message_chunk', messageId: `msg-${n + 1}`, content: { type: 'text', text: `reply ${n + 1}` } });
    rig.agent.endTurn('end_turn');
    await flush();
  }
  return sessionId;
}

test('edit with an agent that forks: session/fork after the reply before it, the edit goes to the fork, and ‹ 1/2 › switches back and forth', async () => {
  const rig = stubSession();
  const source = await twoTurns(rig, true);
  const original = rig.conversation;
  const second = users(rig)[1] ?? assert.fail('the second prompt');

  assert.equal(await original.editPrompt(second.id, 'second, edited'), 'branched');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the edited prompt');

  const fork = rig.agent.received.find((r) => r.method === 'session/fork');
  assert.deepEqual(fork?.params, { sessionId: source, cwd: rig.dir, _meta: { jetbrains: { air: { fork: { version: 1, messageId: 'msg-1' } } } } });
  const sent = prompts(rig).at(-1) ?? assert.fail('a prompt');
  assert.notEqual(sent.sessionId, source, 'the edit goes to the forked session');
  assert.equal(sent.sessionId, rig.conversation.meta.sessionId);
  assert.deepEqual(
    sent.prompt.map((b) => b.text),
    ['second, edited'],
    'the fork remembers the conversation: nothing else is sent',
  );
  assert.ok(
    !rig.agent.methods().includes('session/new') || rig.agent.methods().filter((m) => m === 'session/new').length === 1,
    'no new session for the branch',
  );

  const branch = rig.conversation;
  assert.notEqual(branch.id, original.id, 'the branch is a conversation of its own, in the same tab');
  assert.equal(rig.manager.tabs().length, 1);
  assert.deepEqual(branch.meta.branch?.of, original.id);
  assert.ok(
    rig.manager.all().some((c) => c.meta.id === original.id && !c.open),
    'the branch left behind is in History',
  );
  assert.deepEqual(texts(rig), ['user: first', 'agent: reply 1', 'user: second, edited']);
  assert.deepEqual(users(rig)[1]?.branch, { index: 2, count: 2 });
  assert.equal(users(rig)[0]?.branch, undefined, 'a prompt with one version shows no switch');
  rig.agent.sendUpdate(sent.sessionId, { sessionUpdate: 'agent_message_chunk', messageId: 'msg-3', content: { type: 'text', text: 'reply 2b' } });
  rig.agent.endTurn('end_turn');
  await flush();

  // ‹ : back to the first version, its own thread and session.
  const edited = users(rig)[1] ?? assert.fail('the edited prompt');
  assert.equal(await branch.switchBranch(edited.id, -1), true);
  assert.equal(rig.conversation.id, original.id);
  assert.deepEqual(texts(rig), ['user: first', 'agent: reply 1', 'user: second', 'agent: reply 2']);
  assert.deepEqual(users(rig)[1]?.branch, { index: 1, count: 2 });
  await until(() => rig.conversation.status.kind === 'ready', 'the first branch reconnected');
  assert.equal(rig.conversation.meta.sessionId, source, 'its session is resumed, not replaced');
  assert.equal(await rig.conversation.switchBranch(users(rig)[1]!.id, -1), false, 'nothing before the first version');

  // › : forward again.
  assert.equal(await rig.conversation.switchBranch(users(rig)[1]!.id, 1), true);
  assert.equal(rig.conversation.id, branch.id);
  assert.deepEqual(texts(rig), ['user: first', 'agent: reply 1', 'user: second, edited', 'agent: reply 2b']);
  assert.deepEqual(users(rig)[1]?.branch, { index: 2, count: 2 });
  assert.equal(rig.manager.all().length, 2, 'History lists both');
  rig.manager.dispose();
});

test('edit with an agent that cannot fork: a new session, the transcript before the prompt as context, and a notice', async () => {
  const rig = stubSession();
  const source = await twoTurns(rig, false);
  const second = users(rig)[1] ?? assert.fail('the second prompt');
  assert.equal(await rig.conversation.editPrompt(second.id, 'second, edited'), 'branched');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the edited prompt');

  assert.ok(!rig.agent.methods().includes('session/fork'), 'no fork is asked of an agent that did not offer it');
  const sent = prompts(rig).at(-1) ?? assert.fail('a prompt');
  assert.notEqual(sent.sessionId, source);
  assert.equal(sent.sessionId, rig.conversation.meta.sessionId, 'a new session of its own');
  const context = sent.prompt.map((b) => b.text ?? b.resource?.text ?? '').join('\n');
  assert.match(context, /first/);
  assert.match(context, /reply 1/);
  assert.doesNotMatch(context, /reply 2/, 'only what came before the edited prompt');
  assert.equal(sent.prompt.at(-1)?.text, 'second, edited', 'the edited prompt comes last');
  const notice = entries(rig).find((e) => e.kind === 'notice');
  assert.match(notice?.kind === 'notice' ? notice.message : '', /starts from the transcript/);
  assert.doesNotMatch(JSON.stringify(entries(rig)), /cannot restore earlier sessions/, 'not the warning of a lost session');

  // The transcript goes once: the next prompt is only itself.
  rig.agent.endTurn('end_turn');
  await flush();
  rig.conversation.prompt('third');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the third prompt');
  assert.deepEqual(
    prompts(rig)
      .at(-1)
      ?.prompt.map((b) => b.text),
    ['third'],
  );
  rig.agent.endTurn('end_turn');
  rig.manager.dispose();
});

test('a fork the agent refuses falls back to the transcript; editing the first prompt needs no context at all', async () => {
  const rig = stubSession();
  await twoTurns(rig, true);
  rig.agent.behaviour.forkError = acp.RequestError.invalidParams({ messageId: 'msg-1' }, 'Fork point message msg-1 was not found');
  const [first, second] = users(rig);
  assert.ok(first && second);
  assert.equal(await rig.conversation.editPrompt(second.id, 'again'), 'branched');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the edited prompt');
  assert.ok(rig.agent.methods().includes('session/fork'));
  assert.match(
    prompts(rig)
      .at(-1)
      ?.prompt.map((b) => b.text ?? b.resource?.text)
      .join('\n') ?? '',
    /reply 1/,
  );
  assert.ok(
    rig.log.lines.some((l) => /session\/fork failed/.test(l.text)),
    'the refusal is in the log',
  );
  rig.agent.endTurn('end_turn');
  await flush();

  // The first prompt: nothing before it to fork after or to tell; a new session from the prompt.
  const forks = rig.agent.methods().filter((m) => m === 'session/fork').length;
  const firstNow = users(rig)[0] ?? assert.fail('the first prompt');
  assert.equal(firstNow.id, first.id, 'copied prompts keep their ids');
  assert.equal(await rig.conversation.editPrompt(firstNow.id, 'first, edited'), 'branched');
  await until(() => prompts(rig).at(-1)?.prompt[0]?.text === 'first, edited', 'the edited first prompt');
  assert.equal(rig.agent.methods().filter((m) => m === 'session/fork').length, forks, 'no fork before the first prompt');
  assert.deepEqual(
    prompts(rig)
      .at(-1)
      ?.prompt.map((b) => b.text),
    ['first, edited'],
  );
  assert.deepEqual(texts(rig), ['user: first, edited']);
  assert.deepEqual(users(rig)[0]?.branch, { index: 2, count: 2 }, 'the first prompt has two versions now');
  assert.equal(rig.manager.all().length, 3);
  rig.agent.endTurn('end_turn');
  rig.manager.dispose();
});

test('edit restores the files to before that turn first; a No to the preview keeps everything as it was', async () => {
  let host: (ReviewHost & { userChanged(path: string): void }) | undefined;
  let confirm = false;
  const review = lateReviewHost(() => host);
  const rig = stubSession({ editor: { review } });
  host = nodeReviewHost(rig.dir, mkdtempSync(join(tmpdir(), 'tandem-branch-')), () => confirm);
  const file = join(rig.dir, 'a.txt');
  writeFileSync(file, 'before\n');
  await rig.manager.init();
  await rig.conversation.connect();
  rig.conversation.prompt('change a');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the prompt');
  await rig.agent.client.writeTextFile?.({ sessionId: rig.conversation.meta.sessionId ?? '', path: file, content: 'after\n' });
  rig.agent.endTurn('end_turn');
  await flush();
  const prompt = users(rig)[0] ?? assert.fail('the prompt');
  assert.ok(prompt.checkpoint, 'its turn has a checkpoint');
  const original = rig.conversation.id;

  assert.equal(await rig.conversation.editPrompt(prompt.id, 'change a differently'), 'declined');
  assert.equal(readFileSync(file, 'utf8'), 'after\n');
  assert.equal(rig.conversation.id, original, 'no branch');

  confirm = true;
  assert.equal(await rig.conversation.editPrompt(prompt.id, 'change a differently'), 'branched');
  assert.equal(readFileSync(file, 'utf8'), 'before\n', 'restored before the edit goes out');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the edited prompt');
  assert.notEqual(rig.conversation.id, original);
  rig.agent.endTurn('end_turn');
  rig.manager.dispose();
});

test('an edit while a turn runs is refused with a notice, and an unknown entry is not an edit', async () => {
  const rig = stubSession();
  await twoTurns(rig, true);
  const first = users(rig)[0] ?? assert.fail('a prompt');
  rig.conversation.prompt('running');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the running prompt');
  assert.equal(await rig.conversation.editPrompt(first.id, 'x'), 'busy');
  assert.ok(entries(rig).some((e) => e.kind === 'notice' && /Stop the running turn/.test(e.message)));
  assert.equal(await rig.conversation.editPrompt('nope', 'x'), 'unknown');
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(await rig.conversation.editPrompt(first.id, '   '), 'empty');
  rig.manager.dispose();
});

test('a branch switch while a turn runs is refused with a notice (the turn would be lost with its session)', async () => {
  const rig = stubSession();
  await twoTurns(rig, true);
  const second = users(rig)[1] ?? assert.fail('the second prompt');
  assert.equal(await rig.conversation.editPrompt(second.id, 'second, edited'), 'branched');
  await until(() => rig.agent.pendingPrompt !== undefined, 'the edited prompt');
  const edited = users(rig)[1] ?? assert.fail('the edited prompt');
  const branch = rig.conversation.id;
  assert.equal(await rig.conversation.switchBranch(edited.id, -1), false);
  assert.equal(rig.conversation.id, branch);
  assert.ok(entries(rig).some((e) => e.kind === 'notice' && /Stop the running turn before switching/.test(e.message)));
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(await rig.conversation.switchBranch(edited.id, -1), true, 'once it ended');
  rig.manager.dispose();
});
