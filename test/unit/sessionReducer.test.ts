/**
 * The session reducer, rule by rule: text streaming and coalescing, plans, tool call upserts and
 * content, permissions, turn ends, cancellation, unknown updates. Every test also checks that
 * replaying the emitted messages into a mirror gives exactly `entries()`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Entry, HostMessage, ToolCallEntry } from '../../src/protocol/messages';
import { INTERNAL_ERROR_PREFIX } from '../../src/thread/entryList';
import { ThreadReducer } from '../../src/thread/threadReducer';
import { RAW_JSON_LIMIT } from '../../src/thread/updateParsing';

/** A reducer plus a mirror that applies its messages the way the webview store does. */
function harness(isInWorkspace: (path: string) => boolean = (p) => p.startsWith('/ws/')) {
  const warnings: string[] = [];
  const reducer = new ThreadReducer({ isInWorkspace, warn: (text) => warnings.push(text) });
  let mirror: Entry[] = [];
  const replay = (messages: HostMessage[]): HostMessage[] => {
    for (const message of JSON.parse(JSON.stringify(messages)) as HostMessage[]) {
      if (message.type === 'entryUpserted') {
        const at = mirror.findIndex((e) => e.id === message.entry.id);
        if (at >= 0) mirror[at] = message.entry;
        else mirror.push(message.entry);
      } else if (message.type === 'textAppended') {
        const entry = mirror.find((e) => e.id === message.id);
        assert.ok(entry && 'text' in entry, `textAppended for ${message.id}`);
        entry.text += message.text;
      } else if (message.type === 'entriesCleared') {
        mirror = [];
      } else {
        assert.fail(`unexpected message ${message.type}`);
      }
    }
    return messages;
  };
  const h = {
    reducer,
    warnings,
    update: (u: unknown) => replay(reducer.applyUpdate(u)),
    run: (f: (r: ThreadReducer) => HostMessage[]) => replay(f(reducer)),
    entries: () => reducer.entries(),
    tool: (id: string): ToolCallEntry => {
      const t = reducer.findToolCall(id);
      assert.ok(t, `tool call ${id}`);
      return t;
    },
    check: () => {
      assert.deepEqual(mirror, reducer.entries());
      assert.ok(!warnings.some((w) => w.startsWith(INTERNAL_ERROR_PREFIX)), warnings.join('\n'));
    },
  };
  return h;
}

const text = (t: string) => ({ type: 'text', text: t });
const chunk = (kind: string, t: string, extra: object = {}) => ({ sessionUpdate: kind, content: text(t), ...extra });
const kinds = (entries: Entry[]) => entries.map((e) => e.kind);

test('consecutive agent chunks coalesce into one entry, streamed as textAppended of the chunk only', () => {
  const h = harness();
  const first = h.update(chunk('agent_message_chunk', 'Hel'));
  assert.equal(first.length, 1);
  assert.equal(first[0].type, 'entryUpserted');
  const second = h.update(chunk('agent_message_chunk', 'lo'));
  assert.deepEqual(second, [{ type: 'textAppended', id: h.entries()[0].id, text: 'lo' }]);
  assert.deepEqual(h.entries(), [{ kind: 'agent', id: h.entries()[0].id, text: 'Hello' }]);
  h.check();
});

test('a change of text kind, or any entry in between, starts a new entry', () => {
  const h = harness();
  h.update(chunk('agent_message_chunk', 'a1'));
  h.update(chunk('agent_thought_chunk', 't1'));
  h.update(chunk('agent_thought_chunk', 't2'));
  h.update(chunk('agent_message_chunk', 'a2'));
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read' });
  h.update(chunk('agent_message_chunk', 'a3'));
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
  h.update(chunk('agent_message_chunk', 'a4'));
  const entries = h.entries();
  assert.deepEqual(kinds(entries), ['agent', 'thought', 'agent', 'tool_call', 'agent']);
  assert.deepEqual(
    entries.filter((e) => 'text' in e).map((e) => (e as { text: string }).text),
    ['a1', 't1t2', 'a2', 'a3a4'],
    'an update to an existing card adds no entry, so streaming continues',
  );
  h.check();
});

test('user_message_chunk coalesces into a user entry; the composer message is never extended', () => {
  const h = harness();
  h.update(chunk('user_message_chunk', 'replayed '));
  h.update(chunk('user_message_chunk', 'history'));
  h.run((r) => r.addUserMessage('typed'));
  h.update(chunk('user_message_chunk', 'echo'));
  assert.deepEqual(
    h.entries().map((e) => [e.kind, (e as { text: string }).text]),
    [
      ['user', 'replayed history'],
      ['user', 'typed'],
      ['user', 'echo'],
    ],
  );
  h.check();
});

test('a new messageId starts a new entry even for the same kind', () => {
  const h = harness();
  h.update(chunk('agent_message_chunk', 'one', { messageId: 'm1' }));
  h.update(chunk('agent_message_chunk', ' more', { messageId: 'm1' }));
  h.update(chunk('agent_message_chunk', 'two', { messageId: 'm2' }));
  assert.deepEqual(
    h.entries().map((e) => (e as { text: string }).text),
    ['one more', 'two'],
  );
  h.check();
});

test('content blocks in chunks: image note, links, fenced resources; unknown blocks warn', () => {
  const cases: Array<[unknown, string | undefined]> = [
    [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }, '[image]'],
    [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }, '[audio]'],
    [{ type: 'resource_link', uri: 'file:///ws/a b.ts', name: 'a [b].ts' }, '[a \\[b\\].ts](<file:///ws/a b.ts>)'],
    [{ type: 'resource', resource: { uri: 'file:///x', text: 'code ``` here' } }, '\n````\ncode ``` here\n````\n'],
    [{ type: 'resource', resource: { uri: 'file:///bin', blob: 'AAAA' } }, '[file:///bin](<file:///bin>)'],
    [{ type: 'hologram', text: 'x' }, undefined],
    [{ type: 'text', text: 42 }, undefined],
    [{ type: 'resource', resource: 'nope' }, undefined],
    ['just a string', undefined],
    [null, undefined],
  ];
  for (const [block, expected] of cases) {
    const h = harness();
    h.update({ sessionUpdate: 'agent_message_chunk', content: block });
    const entries = h.entries();
    if (expected === undefined) {
      assert.equal(entries.length, 0, JSON.stringify(block));
      assert.equal(h.warnings.length, 1, JSON.stringify(block));
    } else {
      assert.deepEqual(
        entries.map((e) => (e as { text: string }).text),
        [expected],
        JSON.stringify(block),
      );
      assert.equal(h.warnings.length, 0, JSON.stringify(block));
    }
    h.check();
  }
});

test('an empty chunk creates no entry', () => {
  const h = harness();
  assert.deepEqual(h.update(chunk('agent_message_chunk', '')), []);
  assert.equal(h.entries().length, 0);
});

test('a plan is one entry per turn that each plan update replaces; items are validated', () => {
  const h = harness();
  h.update({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] });
  h.update(chunk('agent_message_chunk', 'working'));
  const second = h.update({
    sessionUpdate: 'plan',
    entries: [
      { content: 'a', priority: 'high', status: 'completed' },
      { content: 'b', priority: 'urgent', status: 'blocked' },
      { content: 'c' },
      { priority: 'low' },
      'junk',
    ],
  });
  const plans = h.entries().filter((e) => e.kind === 'plan');
  assert.equal(plans.length, 1);
  assert.equal(second.length, 1);
  assert.equal(second[0].type === 'entryUpserted' && second[0].entry.id, plans[0].id);
  assert.deepEqual(plans[0].kind === 'plan' && plans[0].items, [
    { content: 'a', priority: 'high', status: 'completed' },
    { content: 'b', priority: 'medium', status: 'pending' },
    { content: 'c', priority: 'medium', status: 'pending' },
  ]);
  assert.equal(h.warnings.length, 2, 'two dropped plan entries');
  assert.deepEqual(kinds(h.entries()), ['plan', 'agent'], 'the plan keeps its position');

  h.run((r) => r.endTurn('end_turn'));
  h.update({ sessionUpdate: 'plan', entries: [] });
  assert.equal(h.entries().filter((e) => e.kind === 'plan').length, 2, 'a new turn gets its own plan');
  h.update({ sessionUpdate: 'plan', entries: 'not a list' });
  assert.equal(h.warnings.length, 3);
  h.run((r) => r.addUserMessage('next prompt, even without a turn end'));
  h.update({ sessionUpdate: 'plan', entries: [] });
  assert.equal(h.entries().filter((e) => e.kind === 'plan').length, 3, 'a new prompt starts a new plan');
  h.check();
});

test('tool_call creates a card; a repeated tool_call and tool_call_update change only the fields they carry', () => {
  const h = harness();
  h.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'Edit',
    kind: 'edit',
    status: 'pending',
    content: [{ type: 'diff', path: '/ws/a.ts', oldText: 'x', newText: 'y' }],
    locations: [{ path: '/ws/a.ts', line: 3 }],
    rawInput: { file_path: '/ws/a.ts' },
  });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit a.ts' });
  let t = h.tool('c1');
  assert.equal(t.title, 'Edit a.ts');
  assert.equal(t.status, 'pending');
  assert.equal(t.content.length, 1);
  assert.equal(t.toolKind, 'edit');

  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' });
  t = h.tool('c1');
  assert.equal(t.status, 'in_progress');
  assert.equal(t.title, 'Edit a.ts');
  assert.deepEqual(t.locations, [{ path: '/ws/a.ts', line: 3, inWorkspace: true }]);
  assert.equal(t.rawInput, JSON.stringify({ file_path: '/ws/a.ts' }, null, 2));

  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [], locations: [{ path: '/etc/passwd' }], rawOutput: 'ok' });
  t = h.tool('c1');
  assert.deepEqual(t.content, [], 'content replaced by the empty list');
  assert.deepEqual(t.locations, [{ path: '/etc/passwd', inWorkspace: false }]);
  assert.equal(t.rawOutput, '"ok"');

  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: null, content: null, status: null });
  assert.deepEqual(h.tool('c1'), t, 'null fields mean "not sent"');
  assert.equal(h.entries().filter((e) => e.kind === 'tool_call').length, 1);
  h.check();
});

test('an update for an unknown id creates the card; a call may start in any status', () => {
  const h = harness();
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress' });
  assert.equal(h.tool('ghost').title, 'Tool call');
  assert.equal(h.tool('ghost').toolKind, 'other');
  for (const status of ['pending', 'in_progress', 'completed', 'failed']) {
    h.update({ sessionUpdate: 'tool_call', toolCallId: `s-${status}`, title: 'x', status });
    assert.equal(h.tool(`s-${status}`).status, status);
  }
  h.update({ sessionUpdate: 'tool_call', toolCallId: 7, title: 'numeric id' });
  assert.equal(h.tool('7').title, 'numeric id');
  h.check();
});

test('a status outside the ACP set is ignored with a warning', () => {
  for (const status of ['cancelled', 'done', 3, {}]) {
    const h = harness();
    h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', status: 'in_progress' });
    h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status });
    assert.equal(h.tool('c').status, 'in_progress', JSON.stringify(status));
    assert.equal(h.warnings.length, 1);
    h.check();
  }
});

test('kinds: unknown → other, other + recognisable name → inferred, sharpened title re-infers', () => {
  const h = harness();
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Frobnicate', kind: 'teleport' });
  assert.equal(h.tool('a').toolKind, 'other');
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Mode', kind: 'switch_mode' });
  assert.equal(h.tool('b').toolKind, 'switch_mode');
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Working', kind: 'other' });
  assert.equal(h.tool('c').toolKind, 'other');
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'execute_command npm test' });
  assert.equal(h.tool('c').toolKind, 'execute');
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'd', title: 'Something', rawInput: { url: 'https://x' } });
  assert.equal(h.tool('d').toolKind, 'fetch');
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'd', kind: 'search' });
  assert.equal(h.tool('d').toolKind, 'search', 'a later explicit kind wins');
  h.check();
});

test('tool call content items: markdown, image, link, diffs (new files), terminal; invalid items skipped', () => {
  const h = harness();
  h.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'c',
    content: [
      { type: 'content', content: text('**done**') },
      { type: 'content', content: { type: 'image', mimeType: 'image/png', data: 'iVBO' } },
      { type: 'content', content: { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts' } },
      { type: 'content', content: { type: 'resource', resource: { uri: 'file:///r', text: 'body' } } },
      { type: 'diff', path: '/ws/a.ts', oldText: 'old', newText: 'new' },
      { type: 'diff', path: '/ws/new1.ts', oldText: null, newText: 'n1' },
      { type: 'diff', path: '/ws/new2.ts', newText: 'n2' },
      { type: 'diff', path: '/ws/new3.ts', oldText: '', newText: 'n3' },
      { type: 'terminal', terminalId: 'term-never-created' },
      { type: 'diff', path: '/ws/bad.ts' },
      { type: 'terminal' },
      { type: 'content', content: { type: 'sparkle' } },
      { type: 'mystery' },
      null,
      'text',
    ],
  });
  // Diffs reach the panel as hunks (no whole texts); "", null and a missing old text all mean a new file.
  const diffOf = (path: string, isNew: boolean, lines: Array<[string, string]>) => ({
    type: 'diff',
    path,
    isNew,
    added: lines.filter(([k]) => k === 'add').length,
    removed: lines.filter(([k]) => k === 'del').length,
    hunks: [
      {
        oldStart: 1,
        oldLines: isNew ? 0 : 1,
        newStart: 1,
        newLines: 1,
        row: 0,
        lines: lines.map(([kind, text]) => ({ kind, text, noEol: true })),
        more: 0,
        collapsedBefore: 0,
      },
    ],
    collapsedAfter: 0,
  });
  const content = h.tool('c').content.map((item) => (item.type === 'diff' ? { ...item, diffId: 0 } : item));
  assert.deepEqual(content, [
    { type: 'markdown', text: '**done**' },
    { type: 'image', mimeType: 'image/png', data: 'iVBO' },
    { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts' },
    // An embedded text resource is fenced text: shown as the tool's output, preformatted.
    { type: 'output', text: 'body' },
    {
      ...diffOf('/ws/a.ts', false, [
        ['del', 'old'],
        ['add', 'new'],
      ]),
      diffId: 0,
    },
    { ...diffOf('/ws/new1.ts', true, [['add', 'n1']]), diffId: 0 },
    { ...diffOf('/ws/new2.ts', true, [['add', 'n2']]), diffId: 0 },
    { ...diffOf('/ws/new3.ts', true, [['add', 'n3']]), diffId: 0 },
    { type: 'terminal', terminalId: 'term-never-created' },
  ]);
  assert.equal(h.warnings.length, 6);
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', content: 'not a list' });
  assert.equal(h.tool('c').content.length, 9, 'a non-list content leaves the old list');
  assert.equal(h.warnings.length, 7);
  h.check();
});

test('locations: inWorkspace from the checker, line only when a positive integer, bad items skipped', () => {
  const h = harness((p) => {
    if (p === '/boom') throw new Error('checker failed');
    return p.startsWith('/ws/');
  });
  h.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'c',
    locations: [{ path: '/ws/a', line: 1 }, { path: '/out/b', line: 0 }, { path: '/ws/c', line: 2.5 }, { path: '/boom' }, { line: 3 }, 'x'],
  });
  assert.deepEqual(h.tool('c').locations, [
    { path: '/ws/a', line: 1, inWorkspace: true },
    { path: '/out/b', inWorkspace: false },
    { path: '/ws/c', inWorkspace: true },
    { path: '/boom', inWorkspace: false },
  ]);
  h.check();
});

test('rawInput/rawOutput are formatted JSON, very large values are cut with a note', () => {
  const h = harness();
  const big = { data: 'x'.repeat(RAW_JSON_LIMIT + 1000) };
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', rawInput: { a: [1, 2] }, rawOutput: big });
  assert.equal(h.tool('c').rawInput, '{\n  "a": [\n    1,\n    2\n  ]\n}');
  const out = h.tool('c').rawOutput ?? '';
  assert.ok(out.length < RAW_JSON_LIMIT + 200);
  assert.match(out, /truncated: \d+ characters in total\)$/);
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', rawInput: false });
  assert.equal(h.tool('c').rawInput, 'false');
  h.check();
});

test('unknown updates: known-but-unrendered kinds are silent, others warn, nothing throws', () => {
  const h = harness();
  for (const kind of ['available_commands_update', 'usage_update', 'current_mode_update', 'config_option_update', 'session_info_update']) {
    assert.deepEqual(h.update({ sessionUpdate: kind, whatever: 1 }), []);
  }
  assert.equal(h.warnings.length, 0);
  const bad: unknown[] = [
    { sessionUpdate: 'made_up_kind' },
    { sessionUpdate: 42 },
    {},
    null,
    'string',
    17,
    [1, 2],
    { sessionUpdate: 'tool_call' },
    { sessionUpdate: 'tool_call_update', toolCallId: '' },
    { sessionUpdate: 'tool_call', toolCallId: {} },
    Object.create(null),
  ];
  for (const update of bad) assert.deepEqual(h.update(update), []);
  assert.equal(h.warnings.length, bad.length);
  // A kind from a newer agent is named in a clear warning, never a reducer failure.
  assert.ok(h.warnings.includes('Ignored a session update of unknown kind "made_up_kind".'), h.warnings.join('\n'));
  assert.ok(!h.warnings.some((w) => w.startsWith(INTERNAL_ERROR_PREFIX)));
  assert.equal(h.entries().length, 0);
  h.check();
});

test('even hostile objects (throwing getters) do not make applyUpdate throw', () => {
  const h = harness();
  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
    },
  );
  assert.deepEqual(h.reducer.applyUpdate(hostile), []);
  assert.ok(h.warnings.some((w) => w.startsWith(INTERNAL_ERROR_PREFIX)));
});

test('endTurn: unfinished calls become cancelled, final ones stay, prompts are cancelled, a turn_end is added', () => {
  const h = harness();
  h.run((r) => r.addUserMessage('go'));
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'p', status: 'pending' });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'r', status: 'in_progress' });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'ok', status: 'completed' });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'bad', status: 'failed' });
  h.run((r) => r.attachPermission({ toolCallId: 'ok' }, 'req-1', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  const messages = h.run((r) => r.endTurn('end_turn'));
  assert.deepEqual([h.tool('p').status, h.tool('r').status, h.tool('ok').status, h.tool('bad').status], ['cancelled', 'cancelled', 'completed', 'failed']);
  assert.deepEqual(h.tool('ok').permission?.state, { kind: 'cancelled' });
  const last = h.entries().at(-1);
  assert.deepEqual(last && { kind: last.kind, stopReason: last.kind === 'turn_end' && last.stopReason }, { kind: 'turn_end', stopReason: 'end_turn' });
  assert.equal(messages.length, 4, 'p, r, ok (permission) and the turn_end');
  h.check();
});

test('updates after the turn ended still apply to existing cards, and the next turn end settles them', () => {
  const h = harness();
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Run', status: 'in_progress' });
  h.run((r) => r.endTurn('cancelled'));
  assert.equal(h.tool('c').status, 'cancelled');
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed', rawOutput: { error: 'killed' } });
  assert.equal(h.tool('c').status, 'failed');
  assert.match(h.tool('c').rawOutput ?? '', /killed/);
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'in_progress' });
  h.run((r) => r.endTurn('end_turn'));
  assert.equal(h.tool('c').status, 'cancelled');
  assert.equal(h.entries().filter((e) => e.kind === 'tool_call').length, 1);
  h.check();
});

test('markCancelling marks unfinished calls and prompts cancelled now; the agent may still update them', () => {
  const h = harness();
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'a', status: 'in_progress' });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'b', status: 'pending' });
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'done', status: 'completed' });
  h.run((r) => r.attachPermission({ toolCallId: 'b' }, 'req', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  const messages = h.run((r) => r.markCancelling());
  assert.equal(messages.length, 2);
  assert.deepEqual([h.tool('a').status, h.tool('b').status, h.tool('done').status], ['cancelled', 'cancelled', 'completed']);
  assert.deepEqual(h.tool('b').permission?.state, { kind: 'cancelled' });
  assert.ok(!h.entries().some((e) => e.kind === 'turn_end'), 'the turn has not ended yet');
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' });
  assert.equal(h.tool('a').status, 'completed', 'a later update from the agent is accepted');
  h.run((r) => r.endTurn('cancelled'));
  assert.equal(h.tool('a').status, 'completed');
  h.check();
});

test('a permission request may be the first mention of a tool call: the card is built from it', () => {
  const h = harness();
  h.update(chunk('agent_message_chunk', 'I will edit'));
  h.run((r) =>
    r.attachPermission({ toolCallId: 'edit-1', title: 'Edit a.ts', kind: 'edit', content: [{ type: 'diff', path: '/ws/a.ts', newText: 'x' }] }, 'r1', [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      { optionId: 'never', name: 'Never', kind: 'reject_always' },
      { optionId: 'deny', name: 'Deny', kind: 'deny_forever' },
      { optionId: 'odd', kind: 'whatever' },
      { name: 'no id' },
    ]),
  );
  const t = h.tool('edit-1');
  assert.equal(t.title, 'Edit a.ts');
  assert.equal(t.toolKind, 'edit');
  assert.equal(t.status, 'pending');
  assert.equal(t.content.length, 1);
  assert.deepEqual(t.permission, {
    requestId: 'r1',
    state: { kind: 'pending' },
    options: [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      { optionId: 'never', name: 'Never', kind: 'reject_always' },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
      { optionId: 'odd', name: 'odd', kind: 'allow_once' },
    ],
  });
  // The tool_call that follows the request merges into the same card.
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', status: 'in_progress' });
  assert.equal(h.entries().filter((e) => e.kind === 'tool_call').length, 1);
  assert.equal(h.tool('edit-1').permission?.requestId, 'r1');
  h.run((r) => r.resolvePermission('r1', { kind: 'selected', optionId: 'once' }));
  assert.deepEqual(h.tool('edit-1').permission?.state, { kind: 'selected', optionId: 'once' });
  h.run((r) => r.endTurn('end_turn'));
  assert.deepEqual(h.tool('edit-1').permission?.state, { kind: 'selected', optionId: 'once' }, 'an answered prompt stays answered');
  h.check();
});

test('a permission request on a known card merges fields; a newer request supersedes the older one', () => {
  const h = harness();
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Bash', kind: 'execute', status: 'pending' });
  h.run((r) => r.attachPermission({ toolCallId: 'x', title: 'Run npm test' }, 'r1', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  assert.equal(h.tool('x').title, 'Run npm test');
  assert.equal(h.tool('x').toolKind, 'execute');
  h.run((r) => r.attachPermission({ toolCallId: 'x' }, 'r2', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  assert.deepEqual(
    h.run((r) => r.resolvePermission('r1', { kind: 'cancelled' })),
    [],
    'the superseded request changes nothing',
  );
  assert.deepEqual(
    h.run((r) => r.resolvePermission('nope', { kind: 'cancelled' })),
    [],
  );
  assert.equal(h.tool('x').permission?.requestId, 'r2');
  assert.deepEqual(h.tool('x').permission?.state, { kind: 'pending' });
  h.check();
});

test('a permission request without a usable toolCall still gets a card the user can answer', () => {
  for (const toolCall of [undefined, null, 'x', {}, { toolCallId: '' }]) {
    const h = harness();
    h.run((r) => r.attachPermission(toolCall, 'r9', 'not a list'));
    const cards = h.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    assert.equal(cards.length, 1, JSON.stringify(toolCall));
    assert.equal(cards[0].permission?.requestId, 'r9');
    assert.deepEqual(cards[0].permission?.options, []);
    h.run((r) => r.resolvePermission('r9', { kind: 'cancelled' }));
    assert.deepEqual(h.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call')[0].permission?.state, { kind: 'cancelled' });
    h.check();
  }
});

test('addError and clear; ids are unique and never reused after clear', () => {
  const h = harness();
  h.run((r) => r.addError('The agent exited.', 'stderr tail', 'restart'));
  h.run((r) => r.addError('Plain.'));
  assert.deepEqual(
    h.entries().map((e) => ({ ...e, id: undefined })),
    [
      { kind: 'error', id: undefined, message: 'The agent exited.', detail: 'stderr tail', action: 'restart' },
      { kind: 'error', id: undefined, message: 'Plain.' },
    ],
  );
  assert.ok(!('detail' in h.entries()[1]), 'no undefined fields on the DTO');
  const before = new Set(h.entries().map((e) => e.id));
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', status: 'in_progress' });
  h.run((r) => r.attachPermission({ toolCallId: 'c' }, 'r', []));
  assert.deepEqual(
    h.run((r) => r.clear()),
    [{ type: 'entriesCleared' }],
  );
  assert.deepEqual(h.entries(), []);
  assert.equal(h.reducer.findToolCall('c'), undefined);
  assert.deepEqual(
    h.run((r) => r.resolvePermission('r', { kind: 'cancelled' })),
    [],
  );
  h.update(chunk('agent_message_chunk', 'fresh'));
  h.update({ sessionUpdate: 'tool_call', toolCallId: 'c' });
  for (const entry of h.entries()) assert.ok(!before.has(entry.id), entry.id);
  assert.equal(h.tool('c').status, 'pending', 'the same toolCallId in a new session is a new card');
  h.check();
});

test('entries() and emitted entries are snapshots: later changes do not leak into them', () => {
  const h = harness();
  const first = h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'A', content: [{ type: 'content', content: text('1') }] });
  const firstEntry = first[0].type === 'entryUpserted' ? first[0].entry : undefined;
  const snapshot = h.entries();
  h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'B', status: 'completed', content: [] });
  assert.equal(firstEntry?.kind === 'tool_call' && firstEntry.title, 'A');
  assert.equal(firstEntry?.kind === 'tool_call' && firstEntry.content.length, 1);
  assert.equal(snapshot[0].kind === 'tool_call' && snapshot[0].status, 'pending');
  const copy = h.entries()[0];
  if (copy.kind === 'tool_call') copy.title = 'mutated';
  assert.equal(h.tool('c').title, 'B');
  h.update(chunk('agent_message_chunk', 'x'));
  const textCopy = h.entries()[1];
  h.update(chunk('agent_message_chunk', 'y'));
  assert.equal(textCopy.kind === 'agent' && textCopy.text, 'x');
  h.check();
});

test('streaming many chunks sends each chunk once and only the chunk (O(chunk) per update)', () => {
  const h = harness();
  const n = 50_000;
  let sent = 0;
  for (let i = 0; i < n; i++) {
    const piece = `chunk ${i} `;
    const messages = h.reducer.applyUpdate(chunk('agent_message_chunk', piece));
    assert.equal(messages.length, 1);
    const m = messages[0];
    if (i === 0) assert.equal(m.type, 'entryUpserted');
    else {
      assert.equal(m.type, 'textAppended');
      assert.equal(m.type === 'textAppended' && m.text, piece);
    }
    sent += piece.length;
  }
  const entries = h.entries();
  assert.equal(entries.length, 1);
  assert.equal(entries[0].kind === 'agent' && entries[0].text.length, sent);
});

test('a throwing logger does not break the reducer', () => {
  const reducer = new ThreadReducer({
    isInWorkspace: () => true,
    warn: () => {
      throw new Error('log down');
    },
  });
  assert.deepEqual(reducer.applyUpdate({ sessionUpdate: 'nope' }), []);
  assert.equal(reducer.applyUpdate(chunk('agent_message_chunk', 'still works')).length, 1);
});

test('a requestId reused for another card cancels the older, now unanswerable, prompt', () => {
  const h = harness();
  h.run((r) => r.attachPermission({ toolCallId: 'one' }, 'r1', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  const messages = h.run((r) => r.attachPermission({ toolCallId: 'two' }, 'r1', [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]));
  assert.equal(messages.length, 2);
  assert.deepEqual(h.tool('one').permission?.state, { kind: 'cancelled' });
  h.run((r) => r.resolvePermission('r1', { kind: 'selected', optionId: 'y' }));
  assert.deepEqual(h.tool('two').permission?.state, { kind: 'selected', optionId: 'y' });
  assert.deepEqual(h.tool('one').permission?.state, { kind: 'cancelled' });
  h.check();
});
