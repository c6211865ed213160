// Runs inside the real extension host: the tandem MCP server's editor side (issue 32) —
// VsCodeEditorQueries, the extension's own adapter, bundled into this test — asking the real editor
// and the language features code-server ships (the built-in TypeScript extension and its tsserver)
// about a small TypeScript project with a known type error. Nothing here is faked: the diagnostics,
// symbols, definitions, references and hovers are tsserver's, the tabs and buffers VS Code's.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FileAccessError } from '../../../src/client/fsHandler';
import type { EditorPosition } from '../../../src/mcp/editorToolsPort';
import { editorToolsHost, VsCodeEditorQueries } from '../../../src/vscode/editor/editorQueries';
import { FollowAlong } from '../../../src/vscode/editor/followAlong';

const LIB = [
  'export function greet(name: string): string {',
  "  return 'hello ' + name;",
  '}',
  '',
  'export class Greeter {',
  '  hello(): string {',
  "    return greet('world');",
  '  }',
  '}',
  '',
].join('\n');
const MAIN = ['import { greet, Greeter } from "./lib";', '', "export const count: number = greet('a');", 'export const greeter = new Greeter();', ''].join(
  '\n',
);
const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2020', module: 'commonjs' }, include: ['*.ts'] });

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host tests run with a workspace folder open');
  return folder.uri.fsPath;
}

/** Where `word` starts on 0-based `line` of `text` (a position inside a symbol for the providers). */
function at(text: string, line: number, word: string): EditorPosition {
  const character = text.split('\n')[line]?.indexOf(word) ?? -1;
  assert.ok(character >= 0, `${word} is on line ${line}`);
  return { line, character };
}

/** Asks again until `accept` takes the answer: tsserver loads the project in its own time. */
async function eventually<T>(ask: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await ask();
  while (!accept(last)) {
    if (Date.now() > deadline) assert.fail(`${what}: no acceptable answer within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    last = await ask();
  }
  return last;
}

async function show(path: string, options: vscode.TextDocumentShowOptions = {}): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  return vscode.window.showTextDocument(document, { preview: false, ...options });
}

/** Closes every editor, throwing away unsaved changes, untitled ones too (no "save?" dialog in a test). */
async function closeAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty) continue;
    await vscode.window.showTextDocument(document);
    // Revert-and-close only closes a file open in two groups (its text stays dirty); files.revert reverts it.
    // An untitled one has nothing to revert to: it is closed, its text dropped.
    await vscode.commands.executeCommand(document.isUntitled ? 'workbench.action.revertAndCloseActiveEditor' : 'workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function registerEditorQueriesTests(): void {
  suite('the tandem MCP server: the editor answers (VsCodeEditorQueries)', function () {
    // The first question starts tsserver.
    this.timeout(150_000);
    let dir = '';
    let lib = '';
    let main = '';
    let follow: FollowAlong;
    let queries: VsCodeEditorQueries;

    suiteSetup(async () => {
      dir = mkdtempSync(join(workspaceRoot(), 'editor-queries-'));
      lib = join(dir, 'lib.ts');
      main = join(dir, 'main.ts');
      writeFileSync(lib, LIB);
      writeFileSync(main, MAIN);
      writeFileSync(join(dir, 'tsconfig.json'), TSCONFIG);
      follow = new FollowAlong(() => true);
      queries = new VsCodeEditorQueries(follow);
      // The TypeScript extension starts on the first TypeScript document and checks the open ones.
      await show(main);
      await eventually(
        () => queries.diagnostics(main),
        (found) => found.length > 0,
        'tsserver checks main.ts',
      );
    });
    teardown(closeAll);
    suiteTeardown(() => {
      follow?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    test("diagnostics: the file's type error from tsserver, 0-based, with source and code; also in the workspace's list", async () => {
      const found = await queries.diagnostics(main);
      const error = found.find((d) => d.code === '2322');
      assert.ok(error, `the TS2322 error is reported: ${JSON.stringify(found)}`);
      assert.deepEqual(
        { path: error.path, severity: error.severity, source: error.source, start: error.range.start },
        { path: main, severity: 'error', source: 'ts', start: at(MAIN, 2, 'count') },
      );
      assert.match(error.message, /not assignable to type 'number'/);
      const workspace = await queries.diagnostics(undefined);
      assert.ok(
        workspace.some((d) => d.path === main && d.code === '2322'),
        'the whole workspace list has it too',
      );
      assert.equal(
        workspace.some((d) => d.severity === 'hint'),
        false,
        'no hints in the workspace list',
      );
    });

    test('definition: the call in main.ts goes to the function in lib.ts (a LocationLink from tsserver)', async () => {
      const found = await eventually(
        () => queries.definition(main, at(MAIN, 2, 'greet')),
        (l) => l.length > 0,
        'definition',
      );
      assert.deepEqual(found, [{ path: lib, range: { start: at(LIB, 0, 'greet'), end: { line: 0, character: at(LIB, 0, 'greet').character + 5 } } }]);
    });

    test('references: every use of greet, across both files', async () => {
      const found = await eventually(
        () => queries.references(lib, at(LIB, 0, 'greet')),
        (l) => l.length >= 4,
        'references',
      );
      const places = found.map((l) => `${l.path === lib ? 'lib' : l.path === main ? 'main' : l.path}:${l.range.start.line}`).sort();
      assert.deepEqual(places, ['lib:0', 'lib:6', 'main:0', 'main:2']);
    });

    test("hover: tsserver's signature of greet as Markdown", async () => {
      const texts = await eventually(
        () => queries.hover(lib, at(LIB, 6, 'greet')),
        (t) => t.length > 0,
        'hover',
      );
      assert.ok(
        texts.some((t) => t.includes('function greet(name: string): string')),
        JSON.stringify(texts),
      );
    });

    test('document symbols: the outline of lib.ts, nested, kinds by name', async () => {
      const outline = await eventually(
        () => queries.documentSymbols(lib),
        (s) => s.length >= 2,
        'document symbols',
      );
      const greet = outline.find((s) => s.name === 'greet');
      const greeter = outline.find((s) => s.name === 'Greeter');
      assert.equal(greet?.kind, 'Function');
      assert.equal(greet?.range.start.line, 0);
      assert.equal(greeter?.kind, 'Class');
      assert.deepEqual(
        greeter?.children?.map((c) => [c.name, c.kind, c.range.start.line]),
        [['hello', 'Method', 5]],
      );
    });

    test('workspace symbols: Greeter found by name in lib.ts', async () => {
      const found = await eventually(
        () => queries.workspaceSymbols('Greeter'),
        (s) => s.some((x) => x.name === 'Greeter' && x.location.path === lib),
        'workspace symbols',
      );
      const greeter = found.find((s) => s.name === 'Greeter' && s.location.path === lib);
      assert.equal(greeter?.kind, 'Class');
      assert.equal(greeter?.location.range.start.line, 4);
    });

    test('selection: the active editor, its range and text; undefined for an untitled editor', async () => {
      const editor = await show(lib);
      const start = at(LIB, 0, 'greet');
      editor.selection = new vscode.Selection(start.line, start.character, start.line, start.character + 5);
      assert.deepEqual(await queries.selection(), { path: lib, range: { start, end: { line: 0, character: start.character + 5 } }, text: 'greet' });

      const untitled = await vscode.workspace.openTextDocument({ content: 'not a file' });
      await vscode.window.showTextDocument(untitled);
      assert.equal(await queries.selection(), undefined);
    });

    test("open editors: files of the tabs (a diff's modified side), the active one, the dirty one; untitled left out", async () => {
      const left = join(dir, 'left.txt');
      const right = join(dir, 'right.txt');
      writeFileSync(left, 'left\n');
      writeFileSync(right, 'right\n');
      await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(left), vscode.Uri.file(right), 'left ↔ right');
      await show(lib, { viewColumn: vscode.ViewColumn.Two });
      const dirty = await show(main, { viewColumn: vscode.ViewColumn.One });
      assert.ok(await dirty.edit((b) => b.insert(new vscode.Position(1, 0), '// unsaved\n')));
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'scratch' }), { viewColumn: vscode.ViewColumn.Two });
      await show(main, { viewColumn: vscode.ViewColumn.One });

      const editors = await queries.openEditors();
      const byPath = new Map(editors.map((e) => [e.path, e]));
      assert.deepEqual([...byPath.keys()].sort(), [lib, main, right].sort(), JSON.stringify(editors));
      assert.deepEqual(byPath.get(main), { path: main, active: true, dirty: true, languageId: 'typescript' });
      assert.deepEqual(byPath.get(lib), { path: lib, active: false, dirty: false, languageId: 'typescript' });
      assert.equal(byPath.get(right)?.active, false);
    });

    test('readText: the unsaved buffer of an open file, the disk otherwise, notFound for a missing one', async () => {
      const editor = await show(main);
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// typed, not saved\n')));
      assert.equal(await queries.readText(main), '// typed, not saved\n' + MAIN);

      const closed = join(dir, 'closed.txt');
      writeFileSync(closed, 'on disk\n');
      assert.equal(await queries.readText(closed), 'on disk\n');

      await assert.rejects(queries.readText(join(dir, 'missing.ts')), (err: unknown) => err instanceof FileAccessError && err.kind === 'notFound');
      mkdirSync(join(dir, 'folder'));
      await assert.rejects(queries.readText(join(dir, 'folder')), (err: unknown) => err instanceof FileAccessError && err.kind === 'isDirectory');
    });

    test('openFile: a preview editor at the 0-based line, revealed', async () => {
      const long = join(dir, 'long.ts');
      writeFileSync(long, Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n');
      await show(main);
      await queries.openFile(long, 299);

      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === long);
      assert.ok(editor, 'the file is shown');
      // The renderer tells the extension host its scroll position a moment after it scrolled.
      await eventually(
        async () => editor.visibleRanges,
        (ranges) => ranges.some((r) => r.start.line <= 299 && r.end.line >= 299),
        'line 300 is in view',
        10_000,
      );
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === long);
      assert.equal(tab?.isPreview, true, 'a preview tab, replaced by the next one');
    });

    test('the host offers the server while tandem.editorTools is not false (the workspace is trusted here)', async () => {
      const host = editorToolsHost(follow, '/nowhere/mcpStdioBridge.js');
      const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('tandem');
      assert.equal(vscode.workspace.isTrusted, true);
      assert.equal(host.enabled(), true, 'on by default');
      try {
        await config().update('editorTools', false, vscode.ConfigurationTarget.Global);
        assert.equal(host.enabled(), false, 'off when the user turns it off');
      } finally {
        await config().update('editorTools', undefined, vscode.ConfigurationTarget.Global);
      }
      assert.equal(host.enabled(), true);
      assert.ok(host.queries instanceof VsCodeEditorQueries);
      assert.equal(host.stdioBridge, '/nowhere/mcpStdioBridge.js');
    });
  });
}
