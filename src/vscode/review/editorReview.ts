import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../../review/checkpointStore';
import type { RestoreStep } from '../../review/checkpointTypes';
import type { ReviewHost } from '../../conversation/conversationReview';
import type { FolderStorage } from '../../store/folderStorage';
import { Disposable, Emitter } from '../../util/disposable';
import { errorMessage } from '../../util/errors';
import { assertTargets } from '../../worktree/applyTargets';
import type { OutputLog } from '../core/outputLog';

/**
 * The editor side of the review: the workspace's checkpoint store (in the extension's workspace
 * storage, per folder), the editor's text of a file (unsaved changes included), restores applied as one
 * WorkspaceEdit (visible, undoable as one step) and saved, the rewind preview as a modal dialog,
 * and a file watcher that tells the shown conversation to refresh its changed files (agents that
 * write the disk themselves are noticed that way). What the user changes in the editor — a save, a
 * file created, deleted or renamed there, a transcript Tandem exported for them — is told to every
 * conversation's review: it is the user's work, never the agent's.
 */
export class EditorReview extends Disposable implements ReviewHost {
  /** Stores opened (or opening), by their storage folder. */
  private readonly opening = new Map<string, Promise<CheckpointStore | undefined>>();
  private readonly userChanges = this.register(new Emitter<string>());
  readonly onUserChange = this.userChanges.event;

  constructor(
    /** The folder's storage (undefined without a folder); checkpoints wait until it is ready. */
    private readonly storage: FolderStorage | undefined,
    private readonly log: OutputLog,
    onFilesChanged: () => void,
  ) {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*'));
    this.register(watcher.onDidChange(onFilesChanged));
    this.register(watcher.onDidCreate(onFilesChanged));
    this.register(watcher.onDidDelete(onFilesChanged));
    const user = (uri: vscode.Uri) => this.userWrote(uri);
    // An agent's own fs write is saved through the editor too: the review has claimed it for the agent before.
    this.register(vscode.workspace.onDidSaveTextDocument((d) => user(d.uri)));
    this.register(vscode.workspace.onDidCreateFiles((e) => e.files.forEach(user)));
    this.register(vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(user)));
    this.register(vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => [f.oldUri, f.newUri].forEach(user))));
  }

  /** The user changed a file, or Tandem wrote one for them (an exported transcript): their work, not the agent's. */
  userWrote(file: vscode.Uri): void {
    if (file.scheme === 'file') this.userChanges.fire(file.fsPath);
  }

  checkpoints(): Promise<CheckpointStore | undefined> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return root ? this.open(root, 'checkpoints') : Promise.resolve(undefined);
  }

  /**
   * The review of a conversation working elsewhere (its git worktree): its own checkpoint store,
   * kept in the folder's storage under `worktrees/<key>`; the editor side is the same.
   */
  forRoot(root: string, key: string): ReviewHost {
    return {
      checkpoints: () => this.open(root, path.join('worktrees', key)),
      readCurrent: (file) => this.readCurrent(file),
      // Undo and rewind stay in the worktree, checked as Apply is (a link the agent made is not followed).
      apply: (plan, label) => this.apply(plan, label, root),
      confirmRewind: (plan) => this.confirmRewind(plan),
      onUserChange: this.onUserChange,
    };
  }

  private open(root: string, dir: string): Promise<CheckpointStore | undefined> {
    // No folder, nowhere to keep them, or an untrusted workspace (no agent runs there anyway).
    const storage = this.storage;
    if (!storage || !vscode.workspace.isTrusted) return Promise.resolve(undefined);
    let opening = this.opening.get(dir);
    if (!opening) {
      opening = storage.ready
        .then(() => CheckpointStore.open({ root, storageDir: path.join(storage.dir, dir), maxCheckpoints: 200, warn: (m) => this.log.warn(m) }))
        .catch((err) => {
          this.log.warn(`Checkpoints are off: ${errorMessage(err)}`);
          this.opening.delete(dir);
          return undefined;
        });
      this.opening.set(dir, opening);
    }
    return opening;
  }

  async readCurrent(file: string): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    if (open) return open.getText();
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
    } catch {
      return undefined;
    }
  }

  /**
   * `within`: the folder every target must stay in — a worktree's repository for its Apply, else the
   * workspace folder the checkpoints are of (Undo, Reject, Restore) — checked here on the final
   * paths, after every question was answered: a target that a link leads outside the folder, or that
   * is a link itself, refuses the whole edit (an agent may have swapped a file for a link).
   */
  async apply(plan: readonly RestoreStep[], label: string, within = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath): Promise<void> {
    if (within !== undefined) await assertTargets(within, plan);
    const edit = new vscode.WorkspaceEdit();
    const toSave: vscode.Uri[] = [];
    for (const step of plan) {
      const uri = vscode.Uri.file(step.path);
      if (step.kind === 'delete') {
        edit.deleteFile(uri, { ignoreIfNotExists: true }, { label, needsConfirmation: false });
        continue;
      }
      const bytes = step.kind === 'write' ? new TextEncoder().encode(step.text) : step.bytes;
      const document = step.kind === 'write' ? await this.openIfExists(uri) : undefined;
      if (document && step.kind === 'write') {
        const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
        edit.replace(uri, whole, step.text, { label, needsConfirmation: false });
        toSave.push(uri);
      } else {
        edit.createFile(uri, { overwrite: true, contents: bytes }, { label, needsConfirmation: false });
      }
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(l10n.t('the editor refused the edit'));
    for (const uri of toSave) {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (document?.isDirty) await document.save();
    }
  }

  async confirmRewind(plan: readonly RestoreStep[]): Promise<boolean> {
    const lines = plan
      .slice(0, 20)
      .map((s) => (s.kind === 'delete' ? l10n.t('{0} — deleted (it did not exist then)', s.relPath) : l10n.t('{0} — restored', s.relPath)));
    if (plan.length > 20) lines.push(l10n.t('… and {0} more', plan.length - 20));
    const restore = l10n.t('Restore');
    const answer = await vscode.window.showWarningMessage(
      plan.length === 1
        ? l10n.t('Restore 1 file to how it was before this turn?')
        : l10n.t('Restore {0} files to how they were before this turn?', plan.length),
      { modal: true, detail: `${lines.join('\n')}\n\n${l10n.t('This is one step you can undo in the editor. The agent is told with your next message.')}` },
      restore,
    );
    return answer === restore;
  }

  private async openIfExists(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open;
    try {
      await vscode.workspace.fs.stat(uri);
      return await vscode.workspace.openTextDocument(uri);
    } catch {
      return undefined;
    }
  }
}
