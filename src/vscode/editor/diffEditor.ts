import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IDisposable } from '../../util/disposable';

const SCHEME = 'tandem-diff';

/**
 * "Open diff": VS Code's native diff editor with the agent's old text as a read-only virtual document
 * on the left and the new text on the right. Texts live in memory, keyed by a counter, so a diff stays
 * openable after the agent has moved on.
 */
export class DiffEditor implements IDisposable {
  private readonly texts = new Map<string, string>();
  private counter = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    provideTextDocumentContent: (uri) => this.texts.get(uri.query) ?? '',
  });

  async open(diff: { path: string; oldText: string | null; newText: string; title: string }): Promise<void> {
    const name = path.basename(diff.path);
    const left = this.store(diff.path, 'before', diff.oldText ?? '');
    const right = this.store(diff.path, 'after', diff.newText);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} — ${diff.title}`, { preview: true });
  }

  /**
   * Review: the file's earlier text (read-only, left) against the file itself (right), so edits in
   * the diff editor — including its "revert block" arrows — change the real file.
   */
  async openAgainstFile(filePath: string, before: string | undefined, title: string): Promise<void> {
    const left = this.store(filePath, 'before', before ?? '');
    await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(filePath), `${path.basename(filePath)} — ${title}`, { preview: true });
  }

  private store(filePath: string, side: string, text: string): vscode.Uri {
    const key = `${side}-${++this.counter}`;
    this.texts.set(key, text);
    // Keep the real file name in the path so the editor picks the right language mode.
    return vscode.Uri.from({ scheme: SCHEME, path: filePath, query: key });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
