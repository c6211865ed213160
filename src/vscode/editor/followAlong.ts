import * as vscode from 'vscode';
import type { IDisposable } from '../../util/disposable';

const HIGHLIGHT_MS = 1500;

/**
 * Reveals what the agent touches: opens the file in a preview editor at the line without taking
 * focus (the user may be typing in the composer) and briefly highlights the line with a theme colour.
 */
export class FollowAlong implements IDisposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
    isWholeLine: true,
  });
  private clearTimer: ReturnType<typeof setTimeout> | undefined;
  private last = '';
  /** Reveals are serialised so a burst of locations cannot open editors out of order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly enabled: () => boolean) {}

  reveal(path: string, line: number | undefined): void {
    if (!this.enabled()) return;
    const key = `${path}:${line ?? ''}`;
    if (key === this.last) return;
    this.last = key;
    this.queue = this.queue
      .then(() => this.open(path, line))
      .catch(() => {
        // Not shown (e.g. a tool call names a file the agent has yet to create): forget it, so the
        // fs/write_text_file that creates it a moment later reveals it instead of being deduplicated.
        if (this.last === key) this.last = '';
      });
  }

  /** Opens a location on request (a click in the panel): takes focus, permanent editor. */
  async open(path: string, line: number | undefined, explicit = false): Promise<void> {
    const uri = vscode.Uri.file(path);
    const document = await vscode.workspace.openTextDocument(uri);
    const target = line && line > 0 ? Math.min(line - 1, Math.max(0, document.lineCount - 1)) : 0;
    const range = new vscode.Range(target, 0, target, 0);
    const editor = await vscode.window.showTextDocument(document, {
      preserveFocus: !explicit,
      preview: !explicit,
      selection: explicit ? range : undefined,
      viewColumn: vscode.ViewColumn.Active,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    if (line && line > 0) this.highlight(editor, range);
  }

  private highlight(editor: vscode.TextEditor, range: vscode.Range): void {
    editor.setDecorations(this.decoration, [range]);
    if (this.clearTimer) clearTimeout(this.clearTimer);
    this.clearTimer = setTimeout(() => editor.setDecorations(this.decoration, []), HIGHLIGHT_MS);
  }

  dispose(): void {
    if (this.clearTimer) clearTimeout(this.clearTimer);
    this.decoration.dispose();
  }
}
