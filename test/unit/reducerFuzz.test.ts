/**
 * Property-based fuzzing of the session reducer with fast-check: random sequences of valid and invalid
 * session updates (random JSON, wrong types, unknown kinds, repeated and unknown ids) interleaved with
 * user messages, permission requests and answers, Stop, turn ends and clears. Over 100,000 updates in
 * total. Properties: nothing throws, entry ids are never duplicated or reused, entries keep their
 * arrival position (a replay of the emitted messages equals `entries()`), and no tool call is
 * pending/in_progress right after a turn ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { Entry, HostMessage, PermissionView } from '../../src/protocol/messages';
import { INTERNAL_ERROR_PREFIX } from '../../src/thread/entryList';
import { ThreadReducer } from '../../src/thread/threadReducer';

type Op =
  | { op: 'update'; update: unknown }
  | { op: 'user'; text: string }
  | { op: 'permission'; toolCall: unknown; requestId: string; options: unknown }
  | { op: 'resolve'; requestId: string; state: PermissionView['state'] }
  | { op: 'cancel' }
  | { op: 'endTurn'; stopReason: string }
  | { op: 'error'; message: string }
  | { op: 'clear' };

// ---- arbitraries: valid shapes, near-misses and garbage -------------------------------------------

const junk = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
const smallText = fc.string({ maxLength: 12 });
const toolCallId = fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__', 'constructor', 'toString'), fc.constantFrom('', 0, 1, null, true), smallText);
const acpKinds = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];
const kind = fc.oneof(fc.constantFrom(...acpKinds), fc.constantFrom('teleport', 'Read', 'execute_command'), junk);
const status = fc.oneof(
  fc.constantFrom('pending', 'in_progress', 'completed', 'failed'),
  fc.constantFrom('pending', 'in_progress'),
  fc.constantFrom('cancelled', 'done', ''),
  junk,
);
const contentBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 40 }) }),
  fc.record({ type: fc.constant('image'), mimeType: fc.constantFrom('image/png', 'image/svg+xml'), data: smallText }),
  fc.record({ type: fc.constant('resource_link'), uri: smallText, name: fc.option(smallText) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('resource'), resource: fc.oneof(fc.record({ uri: smallText, text: smallText }), junk) }),
  fc.record({ type: fc.constantFrom('text', 'hologram', 'audio'), text: junk }),
  junk,
);
const toolContentItem = fc.oneof(
  fc.record({ type: fc.constant('content'), content: contentBlock }),
  fc.record(
    {
      type: fc.constant('diff'),
      path: fc.oneof(smallText, junk),
      oldText: fc.oneof(smallText, fc.constant(null), fc.constant('')),
      newText: fc.oneof(smallText, junk),
    },
    { requiredKeys: ['type', 'path', 'newText'] },
  ),
  fc.record({ type: fc.constant('terminal'), terminalId: fc.oneof(smallText, junk) }),
  junk,
);
const location = fc.oneof(
  fc.record(
    { path: fc.constantFrom('/ws/a.ts', '/ws/b.ts', '/etc/x', ''), line: fc.oneof(fc.integer({ min: -2, max: 500 }), fc.double(), junk) },
    { requiredKeys: ['path'] },
  ),
  junk,
);
const toolFields = fc.record(
  {
    toolCallId,
    title: fc.oneof(fc.constantFrom('Read a.ts', 'Edit', 'execute_command', 'mcp__acp__Bash', '`ls`'), smallText, junk),
    kind,
    status,
    content: fc.oneof(fc.array(toolContentItem, { maxLength: 4 }), junk),
    locations: fc.oneof(fc.array(location, { maxLength: 3 }), junk),
    rawInput: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ command: smallText }), fc.record({ url: smallText })),
    rawOutput: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const planEntries = fc.oneof(
  fc.array(
    fc.oneof(
      fc.record({
        content: smallText,
        priority: fc.oneof(fc.constantFrom('high', 'medium', 'low'), junk),
        status: fc.oneof(fc.constantFrom('pending', 'in_progress', 'completed'), junk),
      }),
      junk,
    ),
    { maxLength: 5 },
  ),
  junk,
);
const chunkKind = fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk');
const update = fc.oneof(
  { weight: 8, arbitrary: fc.record({ sessionUpdate: chunkKind, content: contentBlock }) },
  { weight: 1, arbitrary: fc.record({ sessionUpdate: chunkKind, content: contentBlock, messageId: fc.constantFrom('m1', 'm2') }) },
  { weight: 5, arbitrary: toolFields.map((f) => ({ ...f, sessionUpdate: 'tool_call' })) },
  { weight: 6, arbitrary: toolFields.map((f) => ({ ...f, sessionUpdate: 'tool_call_update' })) },
  { weight: 2, arbitrary: fc.record({ sessionUpdate: fc.constant('plan'), entries: planEntries }) },
  {
    weight: 1,
    arbitrary: fc.record({ sessionUpdate: fc.constantFrom('available_commands_update', 'usage_update', 'current_mode_update', 'made_up', ''), payload: junk }),
  },
  { weight: 1, arbitrary: fc.record({ sessionUpdate: junk }) },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true }) },
);
const requestId = fc.constantFrom('r1', 'r2', 'r3', 'r4');
const permissionState: fc.Arbitrary<PermissionView['state']> = fc.oneof(
  fc.constant({ kind: 'cancelled' as const }),
  fc.constant({ kind: 'pending' as const }),
  fc.record({ kind: fc.constant('selected' as const), optionId: smallText }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 160, arbitrary: update.map((u) => ({ op: 'update' as const, update: u })) },
  { weight: 4, arbitrary: smallText.map((text) => ({ op: 'user' as const, text })) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('permission' as const),
      toolCall: fc.oneof(toolFields, junk),
      requestId,
      options: fc.oneof(
        fc.array(fc.record({ optionId: smallText, name: smallText, kind: fc.oneof(fc.constantFrom('allow_once', 'reject_always'), junk) })),
        junk,
      ),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('resolve' as const), requestId, state: permissionState }) },
  { weight: 3, arbitrary: fc.constant({ op: 'cancel' as const }) },
  { weight: 8, arbitrary: fc.constantFrom('end_turn', 'cancelled', 'max_tokens', 'weird').map((stopReason) => ({ op: 'endTurn' as const, stopReason })) },
  { weight: 3, arbitrary: smallText.map((message) => ({ op: 'error' as const, message })) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
);

// ---- the mirror: applies host messages the way the webview store does -----------------------------

class Mirror {
  entries: Entry[] = [];
  private readonly everSeen = new Set<string>();

  apply(messages: HostMessage[]): void {
    // Through JSON, as postMessage would: catches undefined fields and shared mutable objects.
    for (const message of JSON.parse(JSON.stringify(messages)) as HostMessage[]) {
      if (message.type === 'entryUpserted') {
        const at = this.entries.findIndex((e) => e.id === message.entry.id);
        if (at >= 0) {
          assert.equal(this.entries[at].kind, message.entry.kind, 'an entry never changes kind');
          this.entries[at] = message.entry;
        } else {
          assert.ok(!this.everSeen.has(message.entry.id), `entry id ${message.entry.id} reused`);
          this.everSeen.add(message.entry.id);
          this.entries.push(message.entry);
        }
      } else if (message.type === 'textAppended') {
        const entry = this.entries.find((e) => e.id === message.id);
        assert.ok(entry !== undefined && (entry.kind === 'agent' || entry.kind === 'thought' || entry.kind === 'user'));
        assert.equal(this.entries.at(-1), entry, 'text only streams into the last entry');
        entry.text += message.text;
      } else if (message.type === 'entriesCleared') {
        this.entries = [];
      } else {
        assert.fail(`reducer emitted ${message.type}`);
      }
    }
  }
}

function runSequence(ops: Op[], counter: { updates: number }): void {
  const warnings: string[] = [];
  const reducer = new ThreadReducer({ isInWorkspace: (p) => p.startsWith('/ws/'), warn: (t) => warnings.push(t) });
  const mirror = new Mirror();
  // Every message as it was when emitted: the reducer must never mutate what it handed out.
  const emitted: Array<[HostMessage[], string]> = [];
  ops.forEach((o, i) => {
    let messages: HostMessage[];
    switch (o.op) {
      case 'update':
        counter.updates++;
        messages = reducer.applyUpdate(o.update);
        break;
      case 'user':
        messages = reducer.addUserMessage(o.text);
        break;
      case 'permission':
        messages = reducer.attachPermission(o.toolCall, o.requestId, o.options);
        break;
      case 'resolve':
        messages = reducer.resolvePermission(o.requestId, o.state);
        break;
      case 'cancel':
        messages = reducer.markCancelling();
        break;
      case 'endTurn':
        messages = reducer.endTurn(o.stopReason);
        break;
      case 'error':
        messages = reducer.addError(o.message);
        break;
      case 'clear':
        messages = reducer.clear();
        break;
    }
    mirror.apply(messages);
    emitted.push([messages, JSON.stringify(messages)]);
    if (o.op === 'endTurn' || o.op === 'cancel') {
      for (const entry of reducer.entries()) {
        if (entry.kind !== 'tool_call') continue;
        assert.ok(entry.status !== 'pending' && entry.status !== 'in_progress', `${entry.toolCallId} still ${entry.status}`);
        assert.notEqual(entry.permission?.state.kind, 'pending');
      }
    }
    if (i % 64 === 0) assert.deepEqual(mirror.entries, reducer.entries());
  });
  const entries = reducer.entries();
  assert.deepEqual(mirror.entries, entries);
  for (const [messages, json] of emitted) assert.equal(JSON.stringify(messages), json, 'an emitted message changed later');
  assert.equal(new Set(entries.map((e) => e.id)).size, entries.length, 'ids unique');
  const toolCallIds = entries.flatMap((e) => (e.kind === 'tool_call' ? [e.toolCallId] : []));
  assert.equal(new Set(toolCallIds).size, toolCallIds.length, 'one card per toolCallId');
  assert.deepEqual(
    warnings.filter((w) => w.startsWith(INTERNAL_ERROR_PREFIX)),
    [],
  );
}

test('fuzz: random valid and invalid update sequences keep every reducer invariant (≥ 100,000 updates)', () => {
  const counter = { updates: 0 };
  fc.assert(
    fc.property(fc.array(op, { minLength: 300, maxLength: 600 }), (ops) => runSequence(ops, counter)),
    { numRuns: 300, includeErrorInReport: true },
  );
  assert.ok(counter.updates >= 100_000, `only ${counter.updates} updates were fuzzed`);
  console.log(`fuzzed ${counter.updates} updates`);
});

test('fuzz: well-formed agent streams never warn and always coalesce same-kind text', () => {
  const validChunk = fc.record({
    sessionUpdate: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk'),
    content: fc.record({ type: fc.constant('text'), text: fc.string({ minLength: 1, maxLength: 20 }) }),
  });
  const validTool = fc.record({
    sessionUpdate: fc.constantFrom('tool_call', 'tool_call_update'),
    toolCallId: fc.constantFrom('t1', 't2', 't3'),
    status: fc.constantFrom('pending', 'in_progress', 'completed', 'failed'),
    title: fc.constantFrom('Read a.ts', 'Edit b.ts'),
    kind: fc.constantFrom(...acpKinds),
  });
  const validOp: fc.Arbitrary<Op> = fc.oneof(
    { weight: 10, arbitrary: fc.oneof(validChunk, validTool).map((u) => ({ op: 'update' as const, update: u })) },
    { weight: 1, arbitrary: fc.constant({ op: 'endTurn' as const, stopReason: 'end_turn' }) },
  );
  fc.assert(
    fc.property(fc.array(validOp, { maxLength: 200 }), (ops) => {
      const warnings: string[] = [];
      const reducer = new ThreadReducer({ isInWorkspace: () => true, warn: (t) => warnings.push(t) });
      for (const o of ops) {
        if (o.op === 'update') reducer.applyUpdate(o.update);
        else if (o.op === 'endTurn') reducer.endTurn(o.stopReason);
      }
      assert.deepEqual(warnings, []);
      const entries = reducer.entries();
      for (let i = 1; i < entries.length; i++) {
        const a = entries[i - 1].kind;
        assert.ok(!(a === entries[i].kind && (a === 'agent' || a === 'thought')), `two adjacent ${a} entries`);
      }
    }),
    { numRuns: 300, includeErrorInReport: true },
  );
});
