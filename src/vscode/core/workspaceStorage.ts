import type * as vscode from 'vscode';
import { openFolderStorage, workspaceKey, type FolderStorage } from '../../store/folderStorage';

/** The open workspace's key on this machine (see workspaceKey): its file-system folders only. */
export function workspaceKeyOf(workspace: typeof vscode.workspace): string | undefined {
  const file = workspace.workspaceFile?.scheme === 'file' ? workspace.workspaceFile.fsPath : undefined;
  const folders = (workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  return workspaceKey(file, folders);
}

/**
 * Where this window keeps its conversations, checkpoints and workspace rules: per folder, found by
 * its path on this machine rather than by its URI (which carries the address in code-server and
 * remotes). `hasFolder` is false in a window without a folder (conversations then live in global
 * storage, and there are no checkpoints or workspace rules).
 */
export function openWorkspaceStorage(
  context: vscode.ExtensionContext,
  workspace: typeof vscode.workspace,
  warn: (text: string) => void,
): FolderStorage & { hasFolder: boolean } {
  const storage = openFolderStorage({ globalDir: context.globalStorageUri.fsPath, uriDir: context.storageUri?.fsPath, key: workspaceKeyOf(workspace), warn });
  return { ...storage, hasFolder: context.storageUri !== undefined };
}
