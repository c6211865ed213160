// The tandem server's registry: the 13 contract tools as tools/list shows them, and calls that
// always answer (bad arguments, refused paths and editor failures are results the model reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EDITOR_TOOL_NAMES, EditorToolRegistry, UnknownToolError, type ObservedCall, type ToolCallOutcome } from '../../../src/mcp/toolRegistry';
import { fakePort, fakeWorkspace, methods } from '../../support/fakeToolPort';

const CONTRACT = [
  'diagnostics',
  'selection',
  'open_editors',
  'read_file',
  'symbols',
  'document_symbols',
  'definition',
  'references',
  'hover',
  'edit_file',
  'write_file',
  'open_file',
  'run_in_terminal',
];

const CHANGING = new Set(['edit_file', 'write_file', 'run_in_terminal']);

const signal = new AbortController().signal;

test('list() gives exactly the 13 contract tools, each described, with a schema and the right hints', (t) => {
  const registry = new EditorToolRegistry(fakePort(fakeWorkspace(t)));
  const listed = registry.list();
  assert.deepEqual(listed.map((l) => l.name).sort(), [...CONTRACT].sort());
  assert.deepEqual([...EDITOR_TOOL_NAMES].sort(), [...CONTRACT].sort());
  for (const tool of listed) {
    assert.ok(tool.description.length > 60, `${tool.name}: a description a model can use`);
    assert.ok(tool.title.length > 0, tool.name);
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    const changes = CHANGING.has(tool.name);
    assert.deepEqual(
      tool.annotations,
      { title: tool.title, readOnlyHint: !changes, destructiveHint: changes, openWorldHint: false },
      `${tool.name}: ${changes ? 'changes something' : 'reads only'}`,
    );
  }
});

test('the card kind of each tool', (t) => {
  const registry = new EditorToolRegistry(fakePort(fakeWorkspace(t)));
  const kinds = Object.fromEntries(CONTRACT.map((n) => [n, registry.kindOf(n)]));
  assert.deepEqual(kinds, {
    diagnostics: 'read',
    selection: 'read',
    open_editors: 'read',
    read_file: 'read',
    symbols: 'search',
    document_symbols: 'read',
    definition: 'search',
    references: 'search',
    hover: 'read',
    edit_file: 'edit',
    write_file: 'edit',
    open_file: 'other',
    run_in_terminal: 'execute',
  });
  assert.equal(registry.kindOf('rm_rf'), undefined);
});

test('an unknown tool throws UnknownToolError naming the tools there are; nothing reaches the editor', async (t) => {
  const port = fakePort(fakeWorkspace(t));
  const registry = new EditorToolRegistry(port);
  await assert.rejects(registry.call('delete_everything', {}, signal), (err: unknown) => {
    assert.ok(err instanceof UnknownToolError);
    assert.equal(err.tool, 'delete_everything');
    assert.match(err.message, /Unknown tool: delete_everything\. The tandem server has: diagnostics, selection, .*run_in_terminal\./);
    return true;
  });
  assert.deepEqual(port.calls, []);
});

test('bad arguments are an error result the model can act on, not a throw; the tool does not run', async (t) => {
  const port = fakePort(fakeWorkspace(t));
  const heard: string[] = [];
  const registry = new EditorToolRegistry(port, { started: (c) => heard.push(`started ${c.name}`), ended: (c) => heard.push(`ended ${c.name}`) });
  assert.deepEqual(await registry.call('read_file', { path: 'a.ts', startLine: 0 }, signal), {
    text: 'Invalid arguments for read_file: `startLine` must be ≥ 1, got 0.',
    isError: true,
    truncated: false,
  });
  assert.deepEqual(await registry.call('hover', 'a.ts:1:1', signal), {
    text: 'Invalid arguments for hover: arguments must be an object, got the string "a.ts:1:1".',
    isError: true,
    truncated: false,
  });
  assert.deepEqual(port.calls, []);
  assert.deepEqual(heard, ['started read_file', 'ended read_file', 'started hover', 'ended hover'], 'every call has its card, failed with why');
});

test('missing arguments (undefined or null) are an empty object: fine for a tool that takes none', async (t) => {
  const port = fakePort(fakeWorkspace(t));
  const registry = new EditorToolRegistry(port);
  for (const args of [undefined, null]) {
    const outcome = await registry.call('open_editors', args, signal);
    assert.deepEqual(outcome, { text: 'No files are open in editor tabs.', isError: false, truncated: false });
  }
  const needsPath = await registry.call('read_file', undefined, signal);
  assert.equal(needsPath.text, 'Invalid arguments for read_file: `path` is required.');
});

test('a port that throws gives an error result "<tool> failed: …"', async (t) => {
  const w = fakeWorkspace(t);
  w.file('a.ts', 'x');
  const port = fakePort(w, {
    answers: {
      diagnostics: () => Promise.reject(new Error('the language server crashed')),
      hover: () => Promise.reject(new Error('no provider')),
    },
  });
  const registry = new EditorToolRegistry(port);
  assert.deepEqual(await registry.call('diagnostics', {}, signal), {
    text: 'diagnostics failed: the language server crashed',
    isError: true,
    truncated: false,
  });
  assert.deepEqual(await registry.call('hover', { path: 'a.ts', line: 1, character: 1 }, signal), {
    text: 'hover failed: no provider',
    isError: true,
    truncated: false,
  });
  const refused = await registry.call('run_in_terminal', { command: 'ls' }, signal);
  assert.deepEqual(refused, { text: 'run_in_terminal failed: no terminal in this test', isError: true, truncated: false });
});

test('a call whose signal was aborted says it was cancelled', async (t) => {
  const controller = new AbortController();
  const port = fakePort(fakeWorkspace(t), {
    runCommand: () => {
      controller.abort();
      return Promise.reject(new Error('terminal killed'));
    },
  });
  const registry = new EditorToolRegistry(port);
  assert.deepEqual(await registry.call('run_in_terminal', { command: 'sleep 100' }, controller.signal), {
    text: 'run_in_terminal was cancelled.',
    isError: true,
    truncated: false,
  });
});

test('the observer hears listed, and each call start and end with its seq, kind, args and outcome', async (t) => {
  const w = fakeWorkspace(t);
  const file = w.file('src/a.ts', 'one\ntwo\n');
  const port = fakePort(w, { answers: { diagnostics: () => Promise.reject(new Error('boom')) } });
  const heard: Array<[string, ObservedCall?, ToolCallOutcome?]> = [];
  const registry = new EditorToolRegistry(port, {
    listed: () => heard.push(['listed']),
    started: (c) => heard.push(['started', c]),
    ended: (c, o) => heard.push(['ended', c, o]),
  });
  registry.list();
  await registry.call('read_file', { path: 'src/a.ts', endLine: 1 }, signal);
  await registry.call('read_file', { path: 7 }, signal); // invalid: a card that says why, the tool not run
  await registry.call('diagnostics', { path: 'src/a.ts' }, signal);
  const first = { seq: 1, name: 'read_file', kind: 'read', args: { path: 'src/a.ts', endLine: 1 } };
  const invalid = { seq: 2, name: 'read_file', kind: 'read', args: { path: 7 } };
  const second = { seq: 3, name: 'diagnostics', kind: 'read', args: { path: 'src/a.ts' } };
  assert.deepEqual(heard, [
    ['listed'],
    ['started', first],
    ['ended', first, { text: 'one\n', isError: false, truncated: false }],
    ['started', invalid],
    ['ended', invalid, { text: 'Invalid arguments for read_file: `path` must be a string, got the number 7.', isError: true, truncated: false }],
    ['started', second],
    ['ended', second, { text: 'diagnostics failed: boom', isError: true, truncated: false }],
  ]);
  assert.deepEqual(methods(port), ['readText', 'diagnostics']);
  assert.deepEqual(port.calls[1].args, [file]);
});

test('a result over the character cap comes back cut, with the note, and truncated: true', async (t) => {
  const w = fakeWorkspace(t);
  w.file('big.txt', 'x'.repeat(100_000));
  const registry = new EditorToolRegistry(fakePort(w));
  const outcome = await registry.call('read_file', { path: 'big.txt' }, signal);
  assert.equal(outcome.truncated, true);
  assert.equal(outcome.isError, false);
  assert.ok(outcome.text.length <= 48_000, `${outcome.text.length} characters`);
  assert.match(outcome.text, /\n\[truncated: showing the first \d+ of 100000 characters; ask for a smaller range/);
});

test('a list over 200 items says truncated: true at the registry too, not only in its note', async (t) => {
  const w = fakeWorkspace(t);
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const many = Array.from({ length: 250 }, (_, i) => ({ path: `${w.ws}/f${i}.ts`, severity: 'error' as const, range: at, message: `e${i}` }));
  const registry = new EditorToolRegistry(fakePort(w, { answers: { diagnostics: async () => many } }));
  const outcome = await registry.call('diagnostics', {}, signal);
  assert.match(outcome.text, /\[truncated: showing the first 200 of 250 problems/);
  assert.equal(outcome.truncated, true);
});
