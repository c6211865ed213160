/**
 * Subagents as child sessions (ACP subagents RFD), from what the real claude-agent-acp 0.101 sent a
 * client declaring `clientCapabilities.subagents` (test/fixtures/agentPayloads/
 * claude-agent-acp-0.101-subagents.json, recorded by recordSubagents.ts against the fake model):
 * the payloads go through Tandem's SessionRouter (the child's updates carry the child's session
 * id) into a real Thread, whose entries must show the child as a card with its own nested thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import type { SessionRouter } from '../../src/runtime/sessionRouter';
import type { Thread } from '../../src/thread/thread';
import type { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { MAX_CHILD_SESSIONS } from '../../src/thread/childSessions';
import { conversationMarkdown } from '../../src/thread/markdown/conversationMarkdown';
import { subagentSource } from '../../src/thread/markdown/subagentMarkdown';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import type { RecordedPayload } from '../fixtures/agentPayloads/recordPayloads';
import { routedThread, SUBAGENT_CWD, subagentPayloads } from '../support/subagentRig';

const CWD = SUBAGENT_CWD;
const payloads = subagentPayloads;

interface Rig {
  thread: Thread;
  router: SessionRouter;
  warnings: string[];
  log: MemoryProtocolLog;
  /** Permission requests the endpoint received, by the session id they named. */
  asked: string[];
}

/** The parent session `<parent>` attached to a router, its endpoint a real Thread (permissions allowed once). */
function rig(): Rig {
  const warnings: string[] = [];
  const asked: string[] = [];
  const { thread, router, log } = routedThread({ warn: (t) => warnings.push(t), asked: (id) => asked.push(id) });
  return { thread, router, warnings, log, asked };
}

async function play(r: Rig, list: RecordedPayload[]): Promise<void> {
  const handlers = r.router.handlers();
  for (const p of list) {
    if (p.method === 'session/update') r.router.update(p.params.sessionId as string, p.params.update as Record<string, unknown>);
    else await handlers.requestPermission(p.params as unknown as acp.RequestPermissionRequest, new AbortController().signal);
  }
}

/** Where the recording's last subagent_update (the child going idle) is. */
function lastChildState(all: RecordedPayload[]): number {
  const kinds = all.map((p) => (p.params.update as { sessionUpdate?: string } | undefined)?.sessionUpdate);
  return kinds.lastIndexOf('subagent_update');
}

const cards = (entries: readonly Entry[]): ToolCallEntry[] => entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
const top = (entries: readonly Entry[]): Entry[] => entries.filter((e) => (e as { parentId?: string }).parentId === undefined);
const childrenOf = (entries: readonly Entry[], id: string): Entry[] => entries.filter((e) => (e as { parentId?: string }).parentId === id);
const label = (e: Entry): string =>
  e.kind === 'tool_call' ? `tool: ${e.title}` : e.kind === 'agent' || e.kind === 'thought' ? `${e.kind}: ${e.text}` : e.kind;

test('claude-agent-acp 0.101: the subagent is a card whose nested thread is the child session’s own messages and tool calls', async () => {
  const r = rig();
  await play(r, payloads());
  const entries = r.thread.entries();
  const card = cards(entries).find((c) => c.childSession !== undefined);
  assert.ok(card, 'a card for the child session');
  assert.equal(card.title, 'Subagent: Check the notes');
  assert.equal(card.subagent, true);
  assert.deepEqual(card.childSession, { sessionId: '<child-1>', state: 'idle', stopReason: 'end_turn', cancel: true });
  assert.equal(card.status, 'completed');
  // The launch prompt the parent sent is the card's input; the model-facing launch receipt is not shown.
  assert.match(card.rawInput ?? '', /Read notes\.txt and report its status/);
  assert.doesNotMatch(JSON.stringify(card.content), /agentId|Async agent launched/);

  assert.deepEqual(childrenOf(entries, card.id).map(label), [
    'agent: Reading the notes.',
    'tool: Read notes.txt',
    'tool: grep "status" space',
    'tool: echo hello-from-native-bash',
    'agent: The notes say status: draft.',
  ]);
  const grep = childrenOf(entries, card.id)[2] as ToolCallEntry;
  assert.equal(grep.status, 'failed', 'the child’s failed Grep stays its own');
  // The parent's own work stays at the top level, in order, and is not taken for the subagent's.
  assert.deepEqual(
    top(entries)
      .filter((e) => e.kind === 'tool_call')
      .map(label),
    ['tool: Subagent: Check the notes', 'tool: Read notes.txt', 'tool: Edit notes.txt'],
  );
  assert.deepEqual(
    top(entries)
      .filter((e) => e.kind === 'agent')
      .map(label),
    ['agent: Let a subagent look first.', 'agent: Done: the subagent checked the notes and they are **reviewed** now.'],
  );
  // The child's config options (its agent type, model, mode) are not the conversation's.
  assert.ok(!r.thread.session.configOptions().some((o) => o.id === 'agent'));
  assert.deepEqual(
    r.log.of('warn').filter((w) => /unknown session/i.test(w)),
    [],
  );
  assert.deepEqual(
    r.warnings.filter((w) => /internal error/i.test(w)),
    [],
  );
});

test('while the child runs, its card says so and offers Stop (capabilities.cancel)', async () => {
  const r = rig();
  const all = payloads();
  const last = lastChildState(all);
  await play(r, all.slice(0, last));
  const card = cards(r.thread.entries()).find((c) => c.childSession !== undefined)!;
  assert.deepEqual(card.childSession, { sessionId: '<child-1>', state: 'running', cancel: true });
  assert.equal(card.status, 'in_progress');
  assert.deepEqual(r.thread.childSession('<child-1>'), card.childSession);
  assert.equal(r.thread.childSession('<nobody>'), undefined);
});

test('a permission prompt of the child session is answered in the parent’s thread, on the child’s card', async () => {
  const r = rig();
  await play(
    r,
    payloads()
      .filter((p) => p.params.sessionId === '<parent>' && (p.params.update as { sessionUpdate?: string })?.sessionUpdate === 'subagent_update')
      .slice(0, 1),
  );
  const toolCall = { toolCallId: 'toolu_child_edit', title: 'Edit notes.txt', kind: 'edit', status: 'pending' };
  r.router.update('<child-1>', { sessionUpdate: 'tool_call', ...toolCall });
  const options = [{ optionId: 'allow', name: 'Yes', kind: 'allow_once' }];
  const answer = await r.router
    .handlers()
    .requestPermission({ sessionId: '<child-1>', toolCall, options } as acp.RequestPermissionRequest, new AbortController().signal);
  assert.deepEqual(answer, { outcome: { outcome: 'selected', optionId: 'allow' } });
  assert.deepEqual(r.asked, ['<child-1>']);
  const entries = r.thread.entries();
  const card = cards(entries).find((c) => c.childSession !== undefined)!;
  const edit = cards(entries).find((c) => c.toolCallId === 'toolu_child_edit')!;
  assert.equal(edit.parentId, card.id);
  assert.equal(edit.permission?.state.kind, 'selected');
});

test('the stored thread restores the child’s card and nested entries, with nothing left to stop', async () => {
  const r = rig();
  const all = payloads();
  const last = lastChildState(all);
  await play(r, all.slice(0, last));
  const stored = JSON.parse(JSON.stringify(r.thread.storedEntries())) as Entry[];
  const again = rig();
  // A tampered file's malformed child view is dropped, not shown or trusted.
  const tampered = {
    kind: 'tool_call',
    id: 'bad',
    toolCallId: 'subagent:bad',
    title: 'x',
    toolKind: 'think',
    status: 'completed',
    content: [],
    locations: [],
    childSession: 'running',
  };
  again.thread.restore([...stored, tampered as unknown as Entry], {});
  const entries = again.thread.entries();
  const card = cards(entries).find((c) => c.childSession !== undefined)!;
  assert.equal(card.childSession?.cancel, false);
  assert.equal(card.status, 'cancelled', 'no spinner outlives the process that ran the child');
  assert.equal(cards(entries).find((c) => c.id === 'bad')?.childSession, undefined);
  // The restored child is known again: if the agent reports it after a reconnect, it nests under its card.
  again.thread.dispatchChild('<child-1>', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Still here.' } });
  const still = again.thread.entries().find((e) => e.kind === 'agent' && e.text === 'Still here.');
  assert.equal(still?.kind === 'agent' ? still.parentId : undefined, card.id);
  assert.deepEqual(
    childrenOf(entries, card.id).map(label),
    childrenOf(r.thread.entries(), cards(r.thread.entries()).find((c) => c.childSession)!.id).map(label),
  );
});

test('bad subagent input is reported and never shown or crashing: no id, unknown state, strangers, unannounced children, too many', () => {
  const r = rig();
  r.router.update('<parent>', { sessionUpdate: 'subagent_update' });
  r.router.update('<parent>', { sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'sleeping' }, capabilities: 'yes' });
  r.router.update('<parent>', {
    sessionUpdate: 'session_message',
    messageId: 'm',
    senderSessionId: 'x',
    recipientSessionId: 'y',
    content: [{ type: 'text', text: 'hi' }],
  });
  r.router.update('<unannounced>', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lost' } });
  r.router.update('c1', { sessionUpdate: 'tool_call' });
  r.router.update('c1', { sessionUpdate: 'agent_message_chunk', content: 42 });
  for (let i = 0; i < MAX_CHILD_SESSIONS + 5; i++)
    r.router.update('<parent>', { sessionUpdate: 'subagent_update', sessionId: `many-${i}`, title: 'x'.repeat(10_000) });
  const entries = r.thread.entries();
  const children = cards(entries).filter((c) => c.childSession !== undefined);
  assert.equal(children.length, MAX_CHILD_SESSIONS);
  const c1 = children.find((c) => c.childSession?.sessionId === 'c1')!;
  assert.deepEqual(c1.childSession, { sessionId: 'c1', state: 'unknown', cancel: false });
  assert.equal(c1.title, 'Subagent');
  assert.ok(children.every((c) => c.title.length < 2_100));
  assert.ok(!entries.some((e) => e.kind === 'agent'));
  const said = [...r.warnings, ...r.log.of('warn')].join('\n');
  assert.match(said, /without a child sessionId/);
  assert.match(said, /subagent state "sleeping"/);
  assert.match(said, /no subagent of this thread/);
  assert.match(said, /unknown session <unannounced>/);
  assert.match(said, /without a toolCallId/);
  assert.match(said, /already shows 200 subagents/);
  assert.doesNotMatch(said, /internal error/i);
});

test('Open: the subagent’s history as its own Markdown document — its task and its own entries only', async () => {
  const r = rig();
  await play(r, payloads());
  const entries = r.thread.storedEntries();
  const card = cards(entries).find((c) => c.childSession !== undefined)!;
  const source = { title: 'The conversation', agentName: 'Claude', createdAt: 0, entries, terminals: {}, cwd: CWD };
  const sub = subagentSource(source, card.id);
  assert.ok(sub);
  const { text } = conversationMarkdown(sub, { secrets: [] });
  assert.match(text, /^# Subagent: Check the notes\n/);
  assert.match(text, /## Task\n\nRead notes\.txt and report its status\./);
  assert.match(text, /Reading the notes\./);
  assert.match(text, /echo hello-from-native-bash/);
  assert.match(text, /The notes say status: draft\./);
  // Nothing of the parent's own turn.
  assert.doesNotMatch(text, /Let a subagent look first|Edit notes\.txt|Done: the subagent/);
  // Not a subagent card: nothing to open.
  const edit = cards(entries).find((c) => c.title === 'Edit notes.txt')!;
  assert.equal(subagentSource(source, edit.id), undefined);
  assert.equal(subagentSource(source, 'nope'), undefined);
});
