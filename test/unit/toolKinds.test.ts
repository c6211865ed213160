/**
 * Tool kind normalisation and inference from tool names in titles and raw inputs, and the codicon
 * chosen for each kind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolKind } from '../../src/protocol/messages';
import { codiconFor, isToolKind } from '../../src/protocol/toolKinds';
import { inferToolKind } from '../../src/acp/toolKindInference';

const ALL_KINDS: ToolKind[] = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];

test('explicit ACP kinds win over any tool name', () => {
  for (const kind of ALL_KINDS.filter((k) => k !== 'other')) {
    assert.equal(inferToolKind(kind, 'execute_command', { command: 'ls' }), kind, kind);
  }
});

test('unknown, missing and non-string kinds with no recognisable name are other', () => {
  for (const kind of [undefined, null, 'other', 'teleport', 42, {}, ['read'], 'READ']) {
    assert.equal(inferToolKind(kind, 'Doing something', { foo: 1 }), 'other', JSON.stringify(kind));
  }
  assert.equal(inferToolKind(undefined, undefined, undefined), 'other');
  assert.equal(inferToolKind(undefined, '', null), 'other');
});

const TITLE_CASES: Array<[string, ToolKind]> = [
  // The coding agent tool reference (seed 003).
  ['read_file', 'read'],
  ['write_to_file', 'edit'],
  ['replace_in_file', 'edit'],
  ['search_files', 'search'],
  ['list_files', 'search'],
  ['list_code_definition_names', 'read'],
  ['apply_patch', 'edit'],
  ['find_references', 'search'],
  ['rename', 'edit'],
  ['replace_text', 'edit'],
  ['execute_command', 'execute'],
  ['kill_command', 'execute'],
  ['browser_action', 'fetch'],
  ['web_fetch', 'fetch'],
  ['web_search', 'fetch'],
  // Claude Code style names, bare, with arguments, and behind the MCP prefix.
  ['Read', 'read'],
  ['Read src/index.ts', 'read'],
  ['Edit', 'edit'],
  ['Edit hello.txt', 'edit'],
  ['Write /tmp/new.txt', 'edit'],
  ['MultiEdit', 'edit'],
  ['Bash', 'execute'],
  ['Grep', 'search'],
  ['Glob', 'search'],
  ['LS', 'search'],
  ['WebFetch', 'fetch'],
  ['WebSearch', 'fetch'],
  ['TodoWrite', 'think'],
  ['Task', 'think'],
  ['ExitPlanMode', 'switch_mode'],
  ['mcp__acp__Read', 'read'],
  ['mcp__acp__Edit', 'edit'],
  ['mcp__acp__Write', 'edit'],
  ['mcp__acp__Bash', 'execute'],
  ['mcp__some_server__web_fetch', 'fetch'],
  // Other spellings and an identifier later in the title.
  ['read-file a.ts', 'read'],
  ['ReadFile', 'read'],
  ['Tool: replace_in_file (src/a.ts)', 'edit'],
  ['delete_file old.txt', 'delete'],
  ['move_file a b', 'move'],
  ['think', 'think'],
];

test('a kind is inferred from a tool name in the title when the kind is missing or other', () => {
  for (const [title, expected] of TITLE_CASES) {
    assert.equal(inferToolKind(undefined, title, undefined), expected, `missing kind: ${title}`);
    assert.equal(inferToolKind('other', title, undefined), expected, `kind other: ${title}`);
    assert.equal(inferToolKind('made_up_kind', title, undefined), expected, `unknown kind: ${title}`);
  }
});

test('prose words in the middle of a title do not count as tool names', () => {
  assert.equal(inferToolKind(undefined, 'Reading configuration file', undefined), 'other');
  assert.equal(inferToolKind(undefined, 'Please read the docs', undefined), 'other');
  assert.equal(inferToolKind(undefined, 'Tool call', undefined), 'other');
});

test('every file, code, command and web tool of the coding agent tool reference has a kind', () => {
  const names = [
    'read_file',
    'write_to_file',
    'replace_in_file',
    'search_files',
    'list_files',
    'list_code_definition_names',
    'apply_patch',
    'find_references',
    'rename',
    'replace_text',
    'execute_command',
    'kill_command',
    'browser_action',
    'web_fetch',
    'web_search',
  ];
  for (const name of names) {
    assert.notEqual(inferToolKind(undefined, name, undefined), 'other', name);
  }
});

test('rawInput names the tool or has the shape of one family of tools', () => {
  const cases: Array<[unknown, ToolKind]> = [
    [{ tool: 'read_file', path: 'a' }, 'read'],
    [{ toolName: 'execute_command' }, 'execute'],
    [{ tool_name: 'mcp__acp__Edit' }, 'edit'],
    [{ name: 'web_search', query: 'x' }, 'fetch'],
    [{ command: 'ls -la' }, 'execute'],
    [{ cmd: 'make' }, 'execute'],
    [{ file_path: '/a', old_string: 'x', new_string: 'y' }, 'edit'],
    [{ patch: '*** Begin Patch' }, 'edit'],
    [{ url: 'https://example.com' }, 'fetch'],
    [{ pattern: 'TODO' }, 'search'],
    [{ path: '/a' }, 'other'],
    [['read_file'], 'other'],
    ['execute_command', 'other'],
    [null, 'other'],
    [{ tool: 42 }, 'other'],
  ];
  for (const [rawInput, expected] of cases) {
    assert.equal(inferToolKind(undefined, undefined, rawInput), expected, JSON.stringify(rawInput));
  }
});

test('the title is consulted before rawInput', () => {
  assert.equal(inferToolKind(undefined, 'Read a.ts', { command: 'cat a.ts' }), 'read');
  assert.equal(inferToolKind(undefined, '`ls -la`', { command: 'ls -la' }), 'execute');
});

test('isToolKind accepts exactly the ACP kinds', () => {
  for (const kind of ALL_KINDS) assert.equal(isToolKind(kind), true, kind);
  for (const value of ['', 'Read', 'cancelled', 3, null, undefined]) assert.equal(isToolKind(value), false, String(value));
});

test('every kind has its own codicon; names carry no codicon- prefix', () => {
  const icons = ALL_KINDS.map((kind) => codiconFor(kind));
  assert.equal(new Set(icons).size, ALL_KINDS.length, icons.join(','));
  for (const icon of icons) assert.match(icon, /^[a-z][a-z-]*$/);
  assert.equal(codiconFor('execute'), 'terminal');
  assert.equal(codiconFor('edit'), 'edit');
  assert.equal(codiconFor('other'), 'tools');
});

test('every codicon name exists in @vscode/codicons', () => {
  const css = readFileSync(join(import.meta.dirname, '../../node_modules/@vscode/codicons/dist/codicon.css'), 'utf8');
  for (const kind of ALL_KINDS) assert.ok(css.includes(`.codicon-${codiconFor(kind)}:before`), codiconFor(kind));
});

test("a kind the webview does not know falls back to other's icon instead of throwing", () => {
  assert.equal(codiconFor('teleport' as unknown as ToolKind), codiconFor('other'));
});

test('src/protocol/toolKinds.ts imports only from src/protocol (the webview bundles it)', () => {
  const source = readFileSync(join(import.meta.dirname, '../../src/protocol/toolKinds.ts'), 'utf8');
  const specifiers = [...source.matchAll(/^import\b[^;]*?from '([^']+)'/gms)].map((m) => m[1]);
  assert.ok(specifiers.length > 0);
  for (const specifier of specifiers) assert.match(specifier, /^\.\/[^/]+$/, specifier);
});
