// Retry on a turn end (issue 31, item 3), in the fast tier against the in-memory StubAgent: the very
// prompt that was sent goes again in the same session — its context as it was read then, not as the
// files are now — and after a crash the agent is started again first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { Entry, TurnEndEntry } from '../../src/protocol/messages';
import { AUTH_REQUIRED } from '../../src/runtime/startFailure';
import { flush, stubSession, type StubRig } from '../support/stubSession';

const prompts = (rig: StubRig) =>
  rig.agent.received.filter((r) => r.method === 'session/prompt').map((r) => r.params as { sessionId: string; prompt: acp.ContentBlock[] });
const turnEnds = (rig: StubRig) => rig.conversation.internals.thread.entries().filter((e): e is TurnEndEntry => e.kind === 'turn_end');
const users = (rig: StubRig) => rig.conversation.internals.thread.entries().filter((e: Entry) => e.kind === 'user');

/** Waits for what reads files (the prompt's context, the checkpoint) to be done. */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(ok(), `timed out waiting: ${what}`);
}

async function started(rig: StubRig): Promise<string> {
  rig.agent.behaviour.initialize = {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } },
    authMethods: [],
  };
  await rig.manager.init();
  await rig.conversation.connect();
  const sessionId = rig.conversation.meta.sessionId;
  assert.ok(sessionId);
  return sessionId;
}

test('Retry on a cancelled turn sends the identical prompt (the file as it was read then) in the same session', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  const file = join(rig.dir, 'notes.md');
  writeFileSync(file, 'first version\n');
  rig.conversation.prompt('Summarise this', rig.manager.chips([{ kind: 'file', path: file }]));
  await until('the prompt went', () => prompts(rig).length === 1);
  rig.conversation.stop();
  await flush();
  const [end] = turnEnds(rig);
  assert.equal(end?.stopReason, 'cancelled');
  assert.equal(end?.retry, true, 'the cancelled turn offers Retry');
  assert.ok(
    rig.messages.some((m) => m.type === 'entryUpserted' && m.entry.kind === 'turn_end' && m.entry.retry === true),
    'the panel was told',
  );
  // The file changes after the prompt went: a retry must not pick that up.
  writeFileSync(file, 'second version\n');
  assert.equal(await rig.conversation.retryTurn(end.id), true);
  await until('the retry went', () => prompts(rig).length === 2);
  const sent = prompts(rig);
  assert.equal(sent.length, 2, 'the prompt went a second time');
  assert.equal(sent[1].sessionId, sessionId, 'in the same session');
  assert.deepEqual(sent[1].prompt, sent[0].prompt, 'the same blocks');
  assert.ok(JSON.stringify(sent[1].prompt).includes('first version'), 'with the context as first read');
  assert.equal(rig.conversation.status.kind, 'running');
  assert.equal(turnEnds(rig)[0].retry, undefined, 'the offer is withdrawn once used');
  assert.equal(users(rig).length, 2, 'the thread shows the prompt again');
  assert.equal(await rig.conversation.retryTurn(end.id), false, 'a second click does nothing');
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(turnEnds(rig).at(-1)?.retry, undefined, 'a finished turn offers no Retry');
  assert.equal(prompts(rig).length, 2);
  rig.manager.dispose();
});

test('Retry on a failed or refused turn; none on a finished turn or at the token limit; only the last failed turn offers it', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('one');
  await flush();
  rig.agent.failTurn(new acp.RequestError(-32603, 'model overloaded'));
  await flush();
  assert.equal(turnEnds(rig).at(-1)?.stopReason, 'error');
  assert.equal(turnEnds(rig).at(-1)?.retry, true, 'a failed turn offers Retry');
  rig.conversation.internals.queue.resume();
  rig.conversation.prompt('two');
  await flush();
  assert.equal(turnEnds(rig)[0].retry, undefined, 'a new turn withdraws the older offer');
  rig.agent.endTurn('refusal');
  await flush();
  const refused = turnEnds(rig).at(-1);
  assert.equal(refused?.retry, true, 'a refused turn offers Retry');
  assert.equal(await rig.conversation.retryTurn(turnEnds(rig)[0].id), false, 'the older turn end no longer retries');
  assert.equal(await rig.conversation.retryTurn(refused!.id), true);
  await flush();
  assert.deepEqual(
    prompts(rig).map((p) => p.prompt),
    [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }], [{ type: 'text', text: 'two' }]],
    'the refused prompt, not the failed one',
  );
  rig.agent.endTurn('max_tokens');
  await flush();
  assert.equal(turnEnds(rig).at(-1)?.stopReason, 'max_tokens');
  assert.equal(turnEnds(rig).at(-1)?.retry, undefined, 'the same prompt would stop at the same limit');
  rig.conversation.internals.queue.resume();
  rig.conversation.prompt('three');
  await flush();
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(turnEnds(rig).at(-1)?.retry, undefined);
  assert.equal(await rig.conversation.retryTurn(turnEnds(rig).at(-1)!.id), false);
  rig.manager.dispose();
});

test('Retry after the agent crashed mid-turn starts it again, reopens the session, then sends the prompt; the queue follows', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('build it');
  await flush();
  rig.conversation.prompt('then test it');
  rig.agent.crash('was killed by SIGKILL');
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  const end = turnEnds(rig).at(-1);
  assert.equal(end?.stopReason, 'exited', 'the turn it ran ends, saying the agent exited');
  assert.equal(end?.retry, true);
  const error = rig.conversation.internals.thread.entries().at(-1);
  assert.equal(error?.kind === 'error' && error.action, 'restart', 'the crash is said as before, after the turn end');
  assert.ok(rig.conversation.internals.queue.paused);
  assert.equal(await rig.conversation.retryTurn(end!.id), true);
  await flush();
  assert.equal(rig.agent.starts, 2, 'a new agent process');
  const methods = rig.agent.methods();
  const reopened = methods.lastIndexOf('session/load');
  const resent = methods.lastIndexOf('session/prompt');
  assert.ok(reopened > 0 && resent > reopened, `the session was reopened before the prompt went: ${methods.join(', ')}`);
  const sent = prompts(rig);
  assert.equal(sent.length, 2);
  assert.equal(sent[1].sessionId, sessionId, 'the same session, loaded again');
  assert.deepEqual(sent[1].prompt, [{ type: 'text', text: 'build it' }]);
  assert.equal(rig.conversation.status.kind, 'running');
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(
    prompts(rig).map((p) => p.prompt),
    [[{ type: 'text', text: 'build it' }], [{ type: 'text', text: 'build it' }], [{ type: 'text', text: 'then test it' }]],
    'what was queued goes after the retry',
  );
  rig.manager.dispose();
});

test('a restored transcript offers no Retry: the prompt as sent is not kept across runs', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('one');
  await flush();
  rig.conversation.stop();
  await flush();
  const transcript = rig.conversation.transcript();
  assert.equal(transcript.entries.find((e) => e.kind === 'turn_end')?.kind === 'turn_end', true);
  rig.conversation.restore(transcript);
  const end = turnEnds(rig).at(-1);
  assert.equal(end?.retry, undefined, 'the flag is dropped on restore');
  assert.equal(await rig.conversation.retryTurn(end!.id), false);
  rig.manager.dispose();
});

test('a prompt refused until the user signs in goes back to the queue: its turn end offers no Retry (it would go twice)', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('one');
  await flush();
  rig.agent.failTurn(new acp.RequestError(AUTH_REQUIRED, 'Authentication required'));
  await flush();
  assert.equal(turnEnds(rig).at(-1)?.stopReason, 'error');
  assert.equal(turnEnds(rig).at(-1)?.retry, undefined);
  assert.equal(rig.conversation.internals.queue.size, 1, 'the prompt waits in the queue for the sign-in');
  rig.manager.dispose();
});

test('Retry on a failed turn after the agent then crashed while idle: started again first, then the prompt goes', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('one');
  await flush();
  rig.agent.failTurn(new acp.RequestError(-32603, 'model overloaded'));
  await flush();
  const end = turnEnds(rig).at(-1);
  assert.equal(end?.retry, true);
  rig.agent.crash('exited with code 1');
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  assert.equal(turnEnds(rig).length, 1, 'no turn ran: no second turn end');
  assert.equal(await rig.conversation.retryTurn(end!.id), true);
  await until('the retry went', () => prompts(rig).length === 2);
  assert.equal(rig.agent.starts, 2, 'the agent was started again');
  assert.equal(prompts(rig)[1].sessionId, sessionId);
  assert.deepEqual(prompts(rig)[1].prompt, [{ type: 'text', text: 'one' }]);
  rig.manager.dispose();
});
