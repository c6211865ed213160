// Runs inside the real extension host: the agent's fs/* requests served through the editor
// (issue 4, "Files"). EditorFileAccess is the extension's own adapter and FsHandler + PathPolicy its
// own core, bundled into this test; the documents, editors, undo stack and disk are VS Code's.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FsHandler } from '../../../src/client/fsHandler';
import { PathPolicy } from '../../../src/client/pathPolicy';
import { EditorFileAccess } from '../../../src/vscode/editor/editorFileAccess';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host tests run with a workspace folder open');
  return folder.uri.fsPath;
}

/** Shows `path` in an editor (focused, so `undo` applies to it). */
async function show(path: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  return vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
}

/** Closes every editor, throwing away unsaved changes (no "save?" dialog in a test). */
async function closeAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== 'file') continue;
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function registerFsEditorTests(): void {
  suite('fs/* through the editor', () => {
    let dir = '';
    const access = new EditorFileAccess();
    const fs = (): FsHandler =>
      new FsHandler({ files: access, policy: new PathPolicy({ roots: () => [workspaceRoot()], allowOutside: () => false, askOutside: async () => false }) });

    suiteSetup(() => {
      dir = mkdtempSync(join(workspaceRoot(), 'fs-editor-'));
    });
    teardown(closeAll);
    suiteTeardown(() => rmSync(dir, { recursive: true, force: true }));

    test('reading an open document with unsaved changes returns the unsaved text', async () => {
      const path = join(dir, 'dirty.txt');
      writeFileSync(path, 'saved line\n');
      const editor = await show(path);
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'unsaved ')));
      assert.equal(editor.document.isDirty, true);

      assert.equal(await access.readText(path), 'unsaved saved line\n');
      const viaAcp = await fs().readTextFile({ sessionId: 's', path, line: 1, limit: 1 });
      assert.match(viaAcp.content, /^unsaved saved line/);
      assert.equal(readFileSync(path, 'utf8'), 'saved line\n', 'the disk still has the saved text');
    });

    test('reading a file that is not open returns the disk text', async () => {
      const path = join(dir, 'closed.txt');
      writeFileSync(path, 'on disk\n');
      assert.equal(
        vscode.workspace.textDocuments.some((d) => d.uri.fsPath === path),
        false,
      );
      assert.equal(await access.readText(path), 'on disk\n');
    });

    test('writing a CRLF file keeps CRLF, shows the new text in the editor, saves, and is one undo step', async () => {
      const path = join(dir, 'crlf.txt');
      const before = 'first\r\nsecond\r\nthird\r\n';
      writeFileSync(path, before);
      const editor = await show(path);
      assert.equal(editor.document.eol, vscode.EndOfLine.CRLF);

      // The agent sends LF text, as agents do.
      await fs().writeTextFile({ sessionId: 's', path, content: 'first\nSECOND\nthird\nfourth\n' });
      assert.equal(readFileSync(path, 'utf8'), 'first\r\nSECOND\r\nthird\r\nfourth\r\n', 'saved to disk with CRLF');
      assert.equal(editor.document.getText(), 'first\r\nSECOND\r\nthird\r\nfourth\r\n', 'the editor shows the new text');
      assert.equal(editor.document.eol, vscode.EndOfLine.CRLF);
      assert.equal(editor.document.isDirty, false, 'the document was saved');

      // One undo restores the whole old text: the write was a single edit.
      await vscode.commands.executeCommand('undo');
      assert.equal(editor.document.getText(), before);
      assert.equal(editor.document.isDirty, true, 'the undo is an unsaved change');
    });

    test('writing a new file creates its missing parent folders and opens it with the text', async () => {
      const path = join(dir, 'new', 'deeper', 'still', 'created.ts');
      assert.equal(existsSync(join(dir, 'new')), false);
      await fs().writeTextFile({ sessionId: 's', path, content: 'export const created = true;\n' });
      assert.equal(readFileSync(path, 'utf8'), 'export const created = true;\n');
      const document = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path);
      assert.ok(document, 'the new file is an open document');
      assert.equal(document.getText(), 'export const created = true;\n');
      assert.equal(document.isDirty, false);
    });

    test('writing a file that is open but not dirty replaces its text in the editor', async () => {
      const path = join(dir, 'open.txt');
      writeFileSync(path, 'old\n');
      const editor = await show(path);
      await access.writeText(path, 'new\n');
      assert.equal(editor.document.getText(), 'new\n');
      assert.equal(readFileSync(path, 'utf8'), 'new\n');
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path, 'still the same editor');
    });
  });
}
