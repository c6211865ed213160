/**
 * What a reply's code block buttons ask of the editor: insert the code at the cursor of the active
 * editor (every selection replaced, in one edit, so one Undo takes it back), open it in a new
 * untitled editor in the block's language, or copy it (when the panel could not). The code is the
 * agent's text: it goes into documents only, never run, never written to disk by Tandem.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { editorLanguageId } from './codeLanguageIds';

export async function insertCodeAtCursor(code: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(l10n.t('Open a file in the editor first: Insert at Cursor puts the code where its cursor is.'));
    return;
  }
  const inserted = await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, code);
  });
  if (!inserted)
    void vscode.window.showWarningMessage(l10n.t('The code could not be inserted into {0}.', vscode.workspace.asRelativePath(editor.document.uri)));
}

export async function openCodeInNewFile(code: string, fence: string | undefined): Promise<void> {
  const known = await vscode.languages.getLanguages();
  const document = await vscode.workspace.openTextDocument({ content: code, language: editorLanguageId(fence, known) });
  await vscode.window.showTextDocument(document, { preview: false });
}

export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
}
