/**
 * The presentation's rules one by one, and what it does with bad input: rawInput/rawOutput of any
 * shape (huge, deeply nested, not an object, binary-looking), paths outside the workspace or that do
 * not exist, parents that never arrive or arrive late, cycles. A card always degrades to what the
 * agent sent; the thread never breaks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolCallEntry } from '../../src/protocol/messages';
import { DisplayPaths } from '../../src/thread/presentation/displayPaths';
import { outputFromRaw, shapedContent, withoutModelText } from '../../src/thread/presentation/toolOutput';
import { INTERNAL_ERROR_PREFIX } from '../../src/thread/entryList';
import { payloadReducer } from '../support/agentPayloads';

const WS = '/home/me/proj';

function card(updates: Array<Record<string, unknown>>): { card: ToolCallEntry; all: ToolCallEntry[]; warnings: string[] } {
  const { reducer, warnings } = payloadReducer(WS);
  for (const u of updates) reducer.applyUpdate({ sessionUpdate: 'tool_call', ...u });
  const all = reducer.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call');
  assert.ok(!warnings.some((w) => w.startsWith(INTERNAL_ERROR_PREFIX)), warnings.join('\n'));
  return { card: all[all.length - 1], all, warnings };
}

test('paths: workspace-relative inside, absolute outside, the leading-slash-stripped form understood, folders of the same prefix left alone', () => {
  const paths = new DisplayPaths([WS, `${WS}/packages/app`]);
  assert.equal(paths.shown(`${WS}/src/a.ts`), 'src/a.ts');
  assert.equal(paths.shown(`${WS}/packages/app/index.ts`), 'index.ts', 'the innermost folder wins');
  assert.equal(paths.shown('/etc/hosts'), '/etc/hosts');
  assert.equal(paths.shown(`${WS}2/a.ts`), `${WS}2/a.ts`);
  assert.equal(paths.resolve('home/me/proj/notes.md'), `${WS}/notes.md`);
  assert.equal(paths.resolve('notes.md', WS), `${WS}/notes.md`);
  assert.equal(paths.resolve('../../etc/passwd', WS), undefined, 'a relative path may not climb out');
  assert.equal(paths.resolve('https://example.com/a'), undefined);
  assert.equal(paths.rewriteText(`Read ${WS}/a.ts and ${WS}2/b.ts`), `Read a.ts and ${WS}2/b.ts`);
  assert.equal(paths.rewriteText('Read home/me/proj/tmp/notes.md'), 'Read tmp/notes.md');
  assert.equal(paths.rewriteText('Edit `/home/me/proj/x.md`'), 'Edit `x.md`');
});

test('titles: derived from the tool and its input when the agent gives a bare name, JSON or nothing', () => {
  const title = (u: Record<string, unknown>) => card([{ toolCallId: 't', ...u }]).card.title;
  assert.equal(title({ title: 'Bash', kind: 'execute', rawInput: { command: 'npm test' } }), 'Run `npm test`');
  assert.equal(title({ title: 'ReadFile', kind: 'read', rawInput: { paths: [`${WS}/a`, `${WS}/b`, `${WS}/c`] } }), 'Read 3 files');
  assert.equal(title({ title: 'todowrite', kind: 'think', rawInput: { todos: [] } }), 'todowrite');
  assert.equal(title({ title: '{"path":"/x"}', kind: 'edit', rawInput: { path: `${WS}/x.ts`, old_string: 'a', new_string: 'b' } }), 'Edit x.ts');
  assert.equal(title({ kind: 'fetch', rawInput: { url: 'https://example.com/docs?q=1' } }), 'Fetch example.com');
  assert.equal(title({ kind: 'search', rawInput: { pattern: 'TODO', path: `${WS}/src` } }), 'Search for `TODO` in src');
  assert.equal(title({ title: 'Terminal', kind: 'execute', rawInput: { command: 'x'.repeat(500) } }).length < 100, true, 'a long command is cut');
  assert.equal(title({ title: 'Run a `weird` thing', kind: 'execute' }), 'Run a `weird` thing', 'an informative title stays');
  assert.equal(title({}), 'Tool call');
  assert.equal(
    title({ title: 'Edit', kind: 'edit', rawInput: { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' } }),
    'Edit /etc/hosts',
    'outside: absolute',
  );
});

test('locations from input only inside the workspace; a path that does not exist is still named, never a crash', () => {
  const inside = card([
    { toolCallId: 'a', kind: 'read', title: 'read_files: {"files":[…', rawInput: { files: [{ path: `${WS}/missing.ts`, start_line: 4 }] } },
  ]).card;
  assert.deepEqual(inside.locations, [{ path: `${WS}/missing.ts`, inWorkspace: true, fromInput: true, line: 4, shown: 'missing.ts' }]);
  const outside = card([{ toolCallId: 'b', kind: 'read', rawInput: { file_path: '/etc/shadow' } }]).card;
  assert.deepEqual(outside.locations, []);
  assert.equal(outside.title, 'Read /etc/shadow');
  const sent = card([{ toolCallId: 'c', kind: 'read', rawInput: { file_path: `${WS}/a.ts` }, locations: [{ path: `${WS}/b.ts` }] }]).card;
  assert.deepEqual(sent.locations, [{ path: `${WS}/b.ts`, inWorkspace: true, shown: 'b.ts' }], "the agent's locations win");
});

test('output keeps its shape: plain shell results preformatted, markdown stays, model-only text goes', () => {
  const shell = 'Command: npm test\nDirectory: (root)\nOutput: ok 1\nok 2\nExit Code: 0';
  assert.deepEqual(shapedContent([{ type: 'markdown', text: shell }]), [{ type: 'output', text: shell }]);
  assert.deepEqual(shapedContent([{ type: 'markdown', text: '## Done\n- one\n- two' }]), [{ type: 'markdown', text: '## Done\n- one\n- two' }]);
  assert.deepEqual(shapedContent([{ type: 'markdown', text: 'one line' }]), [{ type: 'markdown', text: 'one line' }]);
  assert.deepEqual(shapedContent([{ type: 'markdown', text: '```console\n$ ls\na\n```' }]), [{ type: 'output', text: '$ ls\na' }]);
  assert.deepEqual(shapedContent([{ type: 'markdown', text: '<system-reminder>\nfor the model\n</system-reminder>' }]), []);
  assert.equal(withoutModelText('The answer.\nagentId: abc (use SendMessage …)\n<usage>total_tokens: 5</usage>'), 'The answer.\n');
});

test('rawOutput of any shape: strings, stdout/stderr/exit codes, per-item results; huge, deep, binary or odd values degrade', () => {
  const shown = (p: string) => p;
  assert.deepEqual(outputFromRaw({ stdout: 'out\n', stderr: 'err\n', exitCode: 2 }, shown), [
    { type: 'output', text: 'out\n', stream: 'stdout' },
    { type: 'output', text: 'err\n', stream: 'stderr', exitCode: 2 },
  ]);
  assert.deepEqual(outputFromRaw('{"error":"✖ Invalid input"}', shown), [{ type: 'output', text: '✖ Invalid input', failed: true }]);
  assert.deepEqual(outputFromRaw(42, shown), []);
  assert.deepEqual(outputFromRaw(null, shown), []);
  const huge = outputFromRaw('x'.repeat(1_000_000), shown);
  assert.ok(huge.length === 1 && huge[0].type === 'output' && huge[0].truncated === true && huge[0].text.length === 64 * 1024);
  let deep: unknown = 'bottom';
  for (let i = 0; i < 10_000; i++) deep = { result: deep };
  assert.deepEqual(outputFromRaw(deep, shown), [], 'too deep: nothing, and no stack overflow');
  const binary = outputFromRaw(String.fromCharCode(...Array.from({ length: 500 }, (_, i) => i % 32)), shown);
  assert.match(binary[0]?.type === 'output' ? binary[0].text : '', /binary data/);
  const many = outputFromRaw(
    Array.from({ length: 500 }, (_, i) => ({ query: `q${i}`, result: `r${i}` })),
    shown,
  );
  assert.equal(many.length, 20, 'bounded');
});

test('bad rawInput never breaks the card: huge, deep, a list, a number, a binary-looking path', () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 5000; i++) deep = { file_path: deep };
  const cases: unknown[] = [
    { file_path: `${WS}/${'a'.repeat(2_000_000)}` },
    deep,
    [1, 2, 3],
    7,
    { file_path: '\u0000\u0001\u0002' },
    { command: ['x', { y: 1 }] },
  ];
  for (const rawInput of cases) {
    const { card: c } = card([{ toolCallId: 'x', kind: 'edit', title: 'Edit', rawInput }]);
    assert.equal(typeof c.title, 'string');
    assert.ok(c.title.length < 400, 'a title stays short');
  }
});

test('subagents: a parent that never arrives, arrives late, or would make a cycle leaves the child at the top level', () => {
  const meta = (parent: string) => ({ _meta: { claudeCode: { parentToolUseId: parent } } });
  const never = card([{ toolCallId: 'child', title: 'Read a', ...meta('ghost') }]).card;
  assert.equal(never.parentId, undefined);
  const late = card([
    { toolCallId: 'child', title: 'Read a', ...meta('p') },
    { toolCallId: 'p', title: 'Task', _meta: { claudeCode: { toolName: 'Task' } } },
    { toolCallId: 'child', status: 'completed', ...meta('p') },
  ]);
  assert.equal(late.all.find((c) => c.toolCallId === 'child')?.parentId, undefined);
  const self = card([{ toolCallId: 'me', title: 'Read a', ...meta('me') }]).card;
  assert.equal(self.parentId, undefined);
  const chain = card([
    { toolCallId: 'a', title: 'Task', status: 'in_progress', _meta: { claudeCode: { toolName: 'Task' } } },
    { toolCallId: 'b', title: 'Task', status: 'in_progress', ...meta('a'), _meta: { claudeCode: { toolName: 'Agent', parentToolUseId: 'a' } } },
    { toolCallId: 'c', title: 'Read x', ...meta('b') },
  ]);
  const [a, b, c] = chain.all;
  assert.deepEqual([a.parentId, b.parentId, c.parentId], [undefined, a.id, b.id], 'nested subagents nest');
});

test('subagents without markers: calls that start while the only open call is a running subagent belong to it; not with two', () => {
  const spawn = (id: string) => ({
    toolCallId: id,
    kind: 'think',
    status: 'in_progress',
    title: 'spawn_agent: check',
    rawInput: { task: 'check', systemPrompt: '' },
  });
  const one = card([spawn('s'), { toolCallId: 'r', kind: 'read', rawInput: { file_path: `${WS}/a` } }]);
  assert.equal(one.all[1].parentId, one.all[0].id);
  const two = card([spawn('s1'), spawn('s2'), { toolCallId: 'r', kind: 'read', rawInput: { file_path: `${WS}/a` } }]);
  assert.equal(two.all[2].parentId, undefined, 'which one? neither');
  const explicit = card([
    { toolCallId: 'x', title: 'Read', _meta: { claudeCode: { parentToolUseId: 'nobody' } } },
    spawn('s'),
    { toolCallId: 'r', kind: 'read', rawInput: { file_path: `${WS}/a` } },
  ]);
  assert.equal(explicit.all[2].parentId, undefined, 'an agent that marks children is never guessed for');
});

test("a subagent's text goes under its parent and never continues the main agent's message", () => {
  const { reducer } = payloadReducer(WS);
  reducer.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'p', title: 'Task', status: 'in_progress', _meta: { claudeCode: { toolName: 'Agent' } } });
  reducer.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'sub ' }, _meta: { claudeCode: { parentToolUseId: 'p' } } });
  reducer.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'more' }, _meta: { claudeCode: { parentToolUseId: 'p' } } });
  reducer.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'main' } });
  const [parent, sub, main] = reducer.entries();
  assert.deepEqual([sub.kind, 'text' in sub && sub.text, 'parentId' in sub && sub.parentId], ['agent', 'sub more', parent.id]);
  assert.deepEqual([main.kind, 'text' in main && main.text, 'parentId' in main ? main.parentId : undefined], ['agent', 'main', undefined]);
});

test('a stored thread keeps its links: a restored child finds its restored parent, a dangling link is dropped', () => {
  const { reducer } = payloadReducer(WS);
  reducer.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'p', title: 'Task', status: 'in_progress', _meta: { claudeCode: { toolName: 'Agent' } } });
  reducer.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Read a', _meta: { claudeCode: { parentToolUseId: 'p' } } });
  const stored = reducer.storedEntries();
  const { reducer: again } = payloadReducer(WS);
  again.restore([...stored, { ...stored[1], id: 'e99', toolCallId: 'orphan', parentId: 'e404' } as ToolCallEntry]);
  const [p, c, orphan] = again.entries() as ToolCallEntry[];
  assert.equal(c.parentId, p.id);
  assert.equal(orphan.parentId, undefined);
  assert.equal(p.title, 'Subagent');
});

test('a tool that ran on a hosted agent’s server takes no locations from its input and is not watched on this disk', () => {
  const update = { toolCallId: 's', kind: 'edit', title: 'write_file', rawInput: { path: `${WS}/notes.md`, content: 'x' } };
  const here = payloadReducer(WS).reducer;
  here.applyUpdate({ sessionUpdate: 'tool_call', ...update });
  assert.deepEqual(
    here.findToolCall('s')?.locations.map((l) => l.path),
    [`${WS}/notes.md`],
    'the same call run here is followed',
  );
  assert.ok(here.observation('s'), 'and watched');
  const server = payloadReducer(WS).reducer;
  server.applyUpdate({ sessionUpdate: 'tool_call', ...update, _meta: { tandem: { ranOn: 'server' } } });
  const shown = server.findToolCall('s');
  assert.equal(shown?.ranOn, 'server');
  assert.deepEqual(shown?.locations, [], 'the server’s notes.md is not this workspace’s');
  assert.equal(server.observation('s'), undefined);
  assert.equal(shown?.title, 'Edit notes.md', 'the title still says what it did');
});

test('an insert or append without an old text makes no diff from the input (it would read as a new file of one line); a write does', () => {
  const diffs = (rawInput: Record<string, unknown>) =>
    card([{ toolCallId: 'i', kind: 'edit', status: 'completed', title: 'editor', rawInput }]).card.content.filter((c) => c.type === 'diff');
  assert.deepEqual(diffs({ command: 'insert', path: `${WS}/a.ts`, insert_line: 3, new_str: 'added();' }), []);
  assert.equal(diffs({ command: 'create', path: `${WS}/b.ts`, file_text: 'whole\n' }).length, 1);
  assert.equal(diffs({ file_path: `${WS}/c.ts`, content: 'whole\n' }).length, 1, 'a write names the whole file');
  assert.equal(diffs({ command: 'str_replace', path: `${WS}/d.ts`, old_str: 'a', new_str: 'b' }).length, 1);
});

test('relative input paths are read against the first folder (the session’s), not the shortest', () => {
  const paths = new DisplayPaths(['/work/repo-worktree', '/w']);
  assert.equal(paths.resolve('src/index.ts'), '/work/repo-worktree/src/index.ts');
});
