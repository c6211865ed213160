import * as vscode from 'vscode';
import type { FileAccess } from '../../client/fsHandler';
import { NodeFileAccess } from '../../client/nodeFileAccess';

/**
 * FileAccess through the editor: reads see unsaved changes of open documents; writes are a
 * WorkspaceEdit (visible in the editor, one undo step) followed by a save. Paths reaching here have
 * already passed the PathPolicy.
 */
export class EditorFileAccess implements FileAccess {
  private readonly disk = new NodeFileAccess();

  async readText(path: string): Promise<string> {
    const open = findOpenDocument(path);
    if (open) return open.getText();
    return this.disk.readText(path);
  }

  async writeText(path: string, text: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    const edit = new vscode.WorkspaceEdit();
    let document = findOpenDocument(path);
    if (!document && !(await exists(uri))) {
      // createFile makes the missing parent folders too.
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused to create ${path}.`);
      document = await vscode.workspace.openTextDocument(uri);
      if (document.isDirty) await document.save();
      return;
    }
    document ??= await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, whole, text);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${path}.`);
    if (!(await document.save())) throw new Error(`Saving ${path} failed.`);
  }
}

function findOpenDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
