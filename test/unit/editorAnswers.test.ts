// The VS Code adapter of the tandem MCP server: what the editor's API and provider commands answer,
// mapped to the EditorQueries shapes (src/vscode/editor/editorAnswers.ts). Plain objects shaped as
// VS Code's classes stand in here; test/e2e/host/editorQueries.hostTest.ts asks the real editor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  codeText,
  hoverTexts,
  severityName,
  toDiagnostics,
  toDocumentSymbols,
  toLocations,
  toOpenEditors,
  toWorkspaceSymbols,
  type DiagnosticLike,
  type UriLike,
} from '../../src/vscode/editor/editorAnswers';

const file = (fsPath: string): UriLike => ({ scheme: 'file', fsPath });
const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
// As vscode.SymbolKind names them.
const KINDS = ['File', 'Module', 'Namespace', 'Package', 'Class', 'Method', 'Property', 'Field', 'Constructor', 'Enum', 'Interface', 'Function', 'Variable'];
const kindName = (kind: number): string => KINDS[kind] ?? 'Unknown';

test('diagnostics: severity names, 0-based ranges, source and code as text; non-file URIs left out', () => {
  const diagnostics: DiagnosticLike[] = [
    { range: range(3, 6, 3, 7), message: "Type 'string' is not assignable to type 'number'.", severity: 0, source: 'ts', code: 2322 },
    { range: range(0, 0, 0, 5), message: 'unused', severity: 3, code: { value: 'no-unused' } },
    { range: range(1, 2, 1, 4), message: 'careful', severity: 1, source: '', code: '' },
  ];
  const entries = [
    [file('/w/a.ts'), diagnostics],
    [{ scheme: 'untitled', fsPath: 'Untitled-1' }, [{ range: range(0, 0, 0, 1), message: 'x', severity: 0 }]],
    [{ scheme: 'git', fsPath: '/w/a.ts' }, [{ range: range(0, 0, 0, 1), message: 'y', severity: 0 }]],
  ] as const;

  assert.deepEqual(toDiagnostics(entries, false), [
    { path: '/w/a.ts', severity: 'error', range: range(3, 6, 3, 7), message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' },
    { path: '/w/a.ts', severity: 'hint', range: range(0, 0, 0, 5), message: 'unused', code: 'no-unused' },
    { path: '/w/a.ts', severity: 'warning', range: range(1, 2, 1, 4), message: 'careful' },
  ]);
  // The whole workspace's list leaves hints out.
  assert.deepEqual(
    toDiagnostics(entries, true).map((d) => d.severity),
    ['error', 'warning'],
  );
});

test('severity numbers and code forms', () => {
  assert.deepEqual([0, 1, 2, 3, 9].map(severityName), ['error', 'warning', 'information', 'hint', 'hint']);
  assert.equal(codeText(undefined), undefined);
  assert.equal(codeText(0), '0');
  assert.equal(codeText({ value: 7006 }), '7006');
  assert.equal(codeText('E1'), 'E1');
});

test('locations: Location and LocationLink (its selection range when given), non-file and duplicates dropped', () => {
  const answer = [
    { uri: file('/w/lib.ts'), range: range(0, 16, 0, 21) },
    { targetUri: file('/w/lib.ts'), targetRange: range(0, 0, 2, 1), targetSelectionRange: range(0, 16, 0, 21) },
    { targetUri: file('/w/other.ts'), targetRange: range(4, 0, 6, 1) },
    { uri: { scheme: 'git', fsPath: '/w/lib.ts' }, range: range(0, 0, 0, 1) },
    { targetUri: { scheme: 'vscode-notebook-cell', fsPath: '/w/n.ipynb' }, targetRange: range(0, 0, 0, 1) },
  ];
  assert.deepEqual(toLocations(answer), [
    { path: '/w/lib.ts', range: range(0, 16, 0, 21) },
    { path: '/w/other.ts', range: range(4, 0, 6, 1) },
  ]);
  assert.deepEqual(toLocations(undefined), []);
  assert.deepEqual(toLocations(null), []);
});

test('workspace symbols: kind by name, container kept when given, unresolved ranges at the top, non-file dropped', () => {
  const answer = [
    { name: 'Greeter', kind: 4, containerName: '', location: { uri: file('/w/lib.ts'), range: range(2, 0, 4, 1) } },
    { name: 'hello', kind: 5, containerName: 'Greeter', location: { uri: file('/w/lib.ts'), range: range(3, 2, 3, 30) } },
    { name: 'lazy', kind: 11, location: { uri: file('/w/lazy.ts') } },
    { name: 'remote', kind: 11, location: { uri: { scheme: 'vscode-vfs', fsPath: '/r.ts' }, range: range(0, 0, 0, 1) } },
  ];
  assert.deepEqual(toWorkspaceSymbols(answer, kindName), [
    { name: 'Greeter', kind: 'Class', location: { path: '/w/lib.ts', range: range(2, 0, 4, 1) } },
    { name: 'hello', kind: 'Method', containerName: 'Greeter', location: { path: '/w/lib.ts', range: range(3, 2, 3, 30) } },
    { name: 'lazy', kind: 'Function', location: { path: '/w/lazy.ts', range: range(0, 0, 0, 0) } },
  ]);
});

test('document symbols: a DocumentSymbol tree keeps its nesting and details', () => {
  const answer = [
    {
      name: 'Greeter',
      kind: 4,
      detail: '',
      range: range(2, 0, 4, 1),
      selectionRange: range(2, 13, 2, 20),
      children: [{ name: 'hello', kind: 5, detail: '(): string', range: range(3, 2, 3, 30), selectionRange: range(3, 2, 3, 7), children: [] }],
    },
    { name: 'greet', kind: 11, range: range(0, 0, 0, 60), selectionRange: range(0, 16, 0, 21), children: [] },
  ];
  assert.deepEqual(toDocumentSymbols(answer, kindName), [
    {
      name: 'Greeter',
      kind: 'Class',
      range: range(2, 0, 4, 1),
      children: [{ name: 'hello', kind: 'Method', detail: '(): string', range: range(3, 2, 3, 30) }],
    },
    { name: 'greet', kind: 'Function', range: range(0, 0, 0, 60) },
  ]);
});

test('document symbols: flat SymbolInformation answers stay flat, the container as detail', () => {
  const answer = [
    { name: 'Greeter', kind: 4, containerName: '', location: { uri: file('/w/lib.ts'), range: range(2, 0, 4, 1) } },
    { name: 'hello', kind: 5, containerName: 'Greeter', location: { uri: file('/w/lib.ts'), range: range(3, 2, 3, 30) } },
    { name: 'noRange', kind: 5, location: { uri: file('/w/lib.ts') } },
  ];
  assert.deepEqual(toDocumentSymbols(answer, kindName), [
    { name: 'Greeter', kind: 'Class', range: range(2, 0, 4, 1) },
    { name: 'hello', kind: 'Method', detail: 'Greeter', range: range(3, 2, 3, 30) },
  ]);
  assert.deepEqual(toDocumentSymbols(undefined, kindName), []);
});

test('hover: MarkdownString values, plain MarkedStrings and fenced {language, value}; empty parts dropped', () => {
  const answer = [
    { contents: [{ value: '```typescript\nfunction greet(name: string): string\n```' }, { value: 'Says hello.' }] },
    { contents: ['plain text', { language: 'python', value: 'def f(): ...' }, { value: '   ' }, ''] },
  ];
  assert.deepEqual(hoverTexts(answer), [
    '```typescript\nfunction greet(name: string): string\n```',
    'Says hello.',
    'plain text',
    '```python\ndef f(): ...\n```',
  ]);
  assert.deepEqual(hoverTexts(undefined), []);
});

test('open editors: one per file, active or dirty when any of its tabs is; tabs without a file left out', () => {
  const editors = toOpenEditors([
    { path: '/w/a.ts', active: false, dirty: false, languageId: 'typescript' },
    { path: undefined, active: false, dirty: false },
    { path: '/w/b.md', active: false, dirty: true },
    // The same file in a second group, active there: the user is in it.
    { path: '/w/a.ts', active: true, dirty: true },
  ]);
  assert.deepEqual(editors, [
    { path: '/w/a.ts', active: true, dirty: true, languageId: 'typescript' },
    { path: '/w/b.md', active: false, dirty: true },
  ]);
});
