// Continue with Another Agent… (issue 31, item 4) in the fast tier: a real ConversationManager hands
// a conversation to a new one with another configured agent; its first prompt, posted as the panel
// posts it (the chip's spec back from the composer), carries the conversation so far as a Markdown
// resource, and the new thread says what it continues. The files are not touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { runCoreCommand } from '../../src/conversation/panelCommands';
import type { CoreCommand } from '../../src/conversation/panelCommands';
import { isWebviewMessage } from '../../src/views/messageGuard';
import { flush, stubSession } from '../support/stubSession';

const say = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(ok(), `timed out waiting: ${what}`);
}

test('the new conversation with the other agent gets the conversation so far as a Markdown resource with its first prompt, and a notice', async () => {
  const rig = stubSession({ otherAgents: ['Other'] });
  rig.agent.behaviour.initialize = {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } },
    authMethods: [],
  };
  await rig.manager.init();
  const source = rig.conversation;
  await source.connect();
  const sourceSession = source.meta.sessionId!;
  const file = join(rig.dir, 'greet.ts');
  writeFileSync(file, "export const greet = 'hello';\n");
  source.prompt('Make the greeting friendlier');
  await flush();
  rig.agent.sendUpdate(sourceSession, say('I will edit greet.ts.'));
  rig.agent.sendUpdate(sourceSession, {
    sessionUpdate: 'tool_call',
    toolCallId: 'edit-1',
    title: 'Edit greet.ts',
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: file, oldText: "export const greet = 'hello';\n", newText: "export const greet = 'Hello, friend';\n" }],
  });
  writeFileSync(file, "export const greet = 'Hello, friend';\n");
  rig.agent.sendUpdate(sourceSession, say('Done: the greeting now says Hello, friend.'));
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(source.status.kind, 'ready');

  const handed = rig.manager.continueWithAgent(source.id, 'Other');
  assert.ok(handed, 'a conversation with history can be continued');
  const next = handed.conversation;
  assert.notEqual(next.id, source.id);
  assert.equal(next.agentName, 'Other');
  assert.equal(rig.manager.active, next, 'the new conversation is shown');
  assert.equal(rig.manager.get(source.id), source, 'the old one stays open');
  const notice = next.internals.thread.entries()[0];
  assert.equal(notice?.kind, 'notice');
  assert.match(notice.kind === 'notice' ? notice.message : '', /continues “Make the greeting friendlier” from Stub/);
  assert.equal(handed.chips.length, 1);
  assert.equal(handed.chips[0].view.kind, 'conversation');
  assert.equal(handed.chips[0].view.uri, `tandem://conversation/${source.id}`);
  assert.equal(rig.manager.continueWithAgent(source.id, 'Nobody'), undefined, 'an agent that is not configured');

  // The composer posts its chips' specs with the prompt; the host checks them as any message.
  await until('the new conversation is ready', () => next.status.kind === 'ready');
  const message = { type: 'prompt', conversationId: next.id, text: 'Please add a test for it.', mentions: handed.chips.map((c) => c.spec) };
  assert.ok(isWebviewMessage(message), 'the panel’s prompt with the chip passes the declaration');
  await runCoreCommand(rig.manager, message as CoreCommand, { warn: (t) => assert.fail(t), reply: () => undefined });
  const nextSession = next.meta.sessionId!;
  assert.notEqual(nextSession, sourceSession, 'a session of its own');
  const sent = () => rig.agent.received.filter((r) => r.method === 'session/prompt' && (r.params as { sessionId: string }).sessionId === nextSession);
  await until('the first prompt went', () => sent().length === 1);
  const blocks = (sent()[0].params as { prompt: acp.ContentBlock[] }).prompt;
  assert.deepEqual(blocks[0], { type: 'text', text: 'Please add a test for it.' });
  assert.equal(blocks.length, 2);
  const resource = (blocks[1] as { type: 'resource'; resource: acp.TextResourceContents }).resource;
  assert.equal(blocks[1].type, 'resource');
  assert.equal(resource.uri, `tandem://conversation/${source.id}`);
  assert.equal(resource.mimeType, 'text/markdown');
  for (const part of [
    'It was held with Stub in Tandem',
    '## You\n\nMake the greeting friendlier',
    'I will edit greet.ts.',
    'Edit greet.ts',
    'Done: the greeting now says Hello, friend.',
    '## Files changed',
  ])
    assert.ok(resource.text.includes(part), `the document has ${JSON.stringify(part)}:\n${resource.text}`);
  const user = next.internals.thread.entries().find((e) => e.kind === 'user');
  assert.equal(user?.kind === 'user' && user.mentions?.[0]?.kind, 'conversation', 'the prompt shows the chip it carried');
  assert.equal(readFileSync(file, 'utf8'), "export const greet = 'Hello, friend';\n", 'the files are as they were');
  rig.manager.dispose();
});

test('a conversation with nothing in it is not handed over', async () => {
  const rig = stubSession({ otherAgents: ['Other'] });
  await rig.manager.init();
  assert.equal(rig.manager.continueWithAgent(rig.conversation.id, 'Other'), undefined);
  rig.manager.dispose();
});
