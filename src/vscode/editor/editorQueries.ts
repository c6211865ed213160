import * as vscode from 'vscode';
import type { EditorToolsHost } from '../../conversation/ports';
import type {
  DocumentSymbol,
  EditorDiagnostic,
  EditorLocation,
  EditorPosition,
  EditorQueries,
  EditorSelection,
  OpenEditor,
  WorkspaceSymbol,
} from '../../mcp/editorToolsPort';
import { setting } from '../settings/settings';
import {
  filePath,
  hoverTexts,
  toDiagnostics,
  toDocumentSymbols,
  toLocations,
  toOpenEditors,
  toRange,
  toWorkspaceSymbols,
  type DocumentSymbolLike,
  type HoverLike,
  type LocationLike,
  type LocationLinkLike,
  type SymbolInformationLike,
  type TabLike,
} from './editorAnswers';
import { EditorFileAccess } from './editorFileAccess';
import type { FollowAlong } from './followAlong';

/**
 * The editor's side of the `tandem` MCP server: what VS Code knows, over its API and the provider
 * commands (so every language extension the user has answers). Thin on purpose — each method makes
 * the calls and hands the answer to `editorAnswers.ts`, where the mapping is (and is unit-tested).
 * Paths reaching here have passed the session's PathPolicy.
 */
export class VsCodeEditorQueries implements EditorQueries {
  /** The same reads as the agent's fs/read_text_file: open buffers first, the same FileAccessError kinds. */
  private readonly files = new EditorFileAccess();

  constructor(private readonly follow: FollowAlong) {}

  async diagnostics(path: string | undefined): Promise<EditorDiagnostic[]> {
    if (path === undefined) return toDiagnostics(vscode.languages.getDiagnostics(), true);
    const uri = vscode.Uri.file(path);
    return toDiagnostics([[uri, vscode.languages.getDiagnostics(uri)]], false);
  }

  async selection(): Promise<EditorSelection | undefined> {
    const editor = vscode.window.activeTextEditor;
    const path = filePath(editor?.document.uri);
    if (!editor || path === undefined) return undefined;
    return { path, range: toRange(editor.selection), text: editor.document.getText(editor.selection) };
  }

  async openEditors(): Promise<OpenEditor[]> {
    const activeGroup = vscode.window.tabGroups.activeTabGroup;
    const languages = new Map(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file').map((d) => [d.uri.fsPath, d.languageId]));
    const tabs: TabLike[] = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.map((tab) => {
        const path = filePath(tabUri(tab));
        const languageId = path === undefined ? undefined : languages.get(path);
        return { path, active: group === activeGroup && tab.isActive, dirty: tab.isDirty, ...(languageId === undefined ? {} : { languageId }) };
      }),
    );
    return toOpenEditors(tabs);
  }

  readText(path: string): Promise<string> {
    return this.files.readText(path);
  }

  async workspaceSymbols(query: string): Promise<WorkspaceSymbol[]> {
    const answer = await vscode.commands.executeCommand<SymbolInformationLike[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
    return toWorkspaceSymbols(answer, kindName);
  }

  async documentSymbols(path: string): Promise<DocumentSymbol[]> {
    const answer = await vscode.commands.executeCommand<Array<DocumentSymbolLike | SymbolInformationLike> | undefined>(
      'vscode.executeDocumentSymbolProvider',
      vscode.Uri.file(path),
    );
    return toDocumentSymbols(answer, kindName);
  }

  definition(path: string, at: EditorPosition): Promise<EditorLocation[]> {
    return this.locations('vscode.executeDefinitionProvider', path, at);
  }

  references(path: string, at: EditorPosition): Promise<EditorLocation[]> {
    return this.locations('vscode.executeReferenceProvider', path, at);
  }

  async hover(path: string, at: EditorPosition): Promise<string[]> {
    const answer = await vscode.commands.executeCommand<HoverLike[] | undefined>('vscode.executeHoverProvider', vscode.Uri.file(path), position(at));
    return hoverTexts(answer);
  }

  /** Follow-along's reveal: a preview editor, focus left where the user has it, the line highlighted a moment. */
  openFile(path: string, line: number | undefined): Promise<void> {
    // FollowAlong counts lines from 1 (0 or none: the top); the port from 0.
    return this.follow.open(path, line === undefined ? undefined : line + 1);
  }

  private async locations(command: string, path: string, at: EditorPosition): Promise<EditorLocation[]> {
    const answer = await vscode.commands.executeCommand<Array<LocationLike | LocationLinkLike> | undefined>(command, vscode.Uri.file(path), position(at));
    return toLocations(answer);
  }
}

/**
 * What EditorPorts.editorTools is: the queries, offered while `tandem.editorTools` is not turned off
 * and the workspace is trusted (read when a session opens, so a change applies to the next one).
 */
export function editorToolsHost(follow: FollowAlong, stdioBridge: string): EditorToolsHost {
  return { queries: new VsCodeEditorQueries(follow), enabled: () => setting('editorTools') !== false && vscode.workspace.isTrusted, stdioBridge };
}

function position(at: EditorPosition): vscode.Position {
  return new vscode.Position(at.line, at.character);
}

function kindName(kind: number): string {
  return vscode.SymbolKind[kind] ?? 'Unknown';
}

/** The file a tab shows: a text editor's, a diff's modified side, a notebook's or a custom editor's. */
function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return input.uri;
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return input.modified;
  return undefined;
}
