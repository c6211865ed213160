import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isWithin } from '../../util/realPath';
import type { WorktreeHost } from '../../conversation/worktreeHost';
import type { WorktreeOffer } from '../../protocol/messages';
import type { ConversationMeta } from '../../store/conversationMeta';
import { Disposable, type IDisposable } from '../../util/disposable';
import { WorktreeService } from '../../worktree/worktreeService';
import type { EditorReview } from '../review/editorReview';
import { MergeEditor } from './mergeEditor';
import type { OutputLog } from '../core/outputLog';
import { setting } from '../settings/settings';
import { askOnClose, commitMessage, confirmApply, confirmDiscard, confirmForce } from './worktreeDialogs';

/**
 * The editor's side of conversation worktrees (`WorktreeHost`): where they live (`tandem.worktreesFolder`
 * or Tandem's global storage, always outside the workspace), whether they are offered (a trusted
 * folder in a git repository with a commit), the dialogs and the merge editor, watchers on the
 * worktree folders, and a badge on every file shown from a worktree so follow-along never passes
 * one off as the workspace's own.
 */
export class EditorWorktrees extends Disposable implements WorktreeHost {
  readonly service: WorktreeService;
  private readonly merges: MergeEditor;
  private readonly labels = this.register(new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>());
  private bound: ConversationMeta[] = [];

  constructor(
    private readonly globalStorage: string,
    private readonly review: EditorReview,
    private readonly log: OutputLog,
  ) {
    super();
    this.service = new WorktreeService(() => this.folder());
    this.merges = this.register(new MergeEditor(log));
    this.register(
      vscode.window.registerFileDecorationProvider({
        onDidChangeFileDecorations: this.labels.event,
        provideFileDecoration: (uri) => this.decoration(uri),
      }),
    );
  }

  /** Whether the workspace's folder can give new conversations a worktree, and why not. */
  async offer(): Promise<WorktreeOffer> {
    const byDefault = setting('newConversationsInWorktree') === true;
    const blocked = this.blocked();
    if (blocked) return { available: false, reason: blocked, byDefault };
    const probe = await this.service.probe(this.workspaceFolder()!);
    return probe.ok ? { available: true, byDefault } : { available: false, reason: probe.error.message, byDefault };
  }

  blocked(): string | undefined {
    if (!this.workspaceFolder()) return l10n.t('Open a folder first: worktrees are made from its git repository.');
    if (!vscode.workspace.isTrusted) return l10n.t('This workspace is not trusted, so Tandem does not run git in it.');
    return undefined;
  }

  /** The folder the worktrees go in. */
  folder(): string {
    const configured = setting('worktreesFolder')?.trim();
    // Inside a workspace folder the worktrees would be the main tree's files too (search, git, agents).
    const inside = configured ? (vscode.workspace.workspaceFolders ?? []).find((f) => isWithin(f.uri.fsPath, configured)) : undefined;
    if (configured && path.isAbsolute(configured) && !inside) return configured;
    if (inside) this.log.warn(`tandem.worktreesFolder "${configured}" is inside the workspace folder ${inside.uri.fsPath}; using Tandem's own folder instead.`);
    else if (configured) this.log.warn(`tandem.worktreesFolder must be an absolute path; using Tandem's own folder instead of "${configured}".`);
    return path.join(this.globalStorage, 'worktrees');
  }

  readMain = async (file: string): Promise<Uint8Array | undefined> => {
    // Unsaved edits count as the user's; a saved file is read as bytes (an open document drops a BOM).
    // Compared as URIs (a drive letter's case differs between fsPath and a real path on Windows), and
    // by real path (the same file may be open under a link and under its real path).
    const target = vscode.Uri.file(file).toString();
    const real = realPath(file) ?? file;
    const open = vscode.workspace.textDocuments.find(
      (d) => d.isDirty && d.uri.scheme === 'file' && (d.uri.toString() === target || realPath(d.uri.fsPath) === real),
    );
    if (open) return new TextEncoder().encode(open.getText());
    return fs.promises.readFile(file).catch(() => undefined);
  };

  reviewFor(conversationId: string, root: string) {
    return this.review.forRoot(root, conversationId);
  }

  confirmApply = confirmApply;
  commitMessage = commitMessage;
  confirmDiscard = confirmDiscard;
  askOnClose = askOnClose;
  confirmForce = confirmForce;

  apply(steps: Parameters<EditorReview['apply']>[0], label: string, repo: string): Promise<void> {
    return this.review.apply(steps, label, repo);
  }

  resolveConflicts(...args: Parameters<MergeEditor['open']>): Promise<void> {
    return this.merges.open(...args);
  }

  inform(message: string, error = false): void {
    if (error) void vscode.window.showErrorMessage(l10n.t('Tandem: {0}', message));
    else void vscode.window.showInformationMessage(l10n.t('Tandem: {0}', message));
  }

  watch(root: string, changed: () => void): IDisposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    watcher.onDidChange(changed);
    watcher.onDidCreate(changed);
    watcher.onDidDelete(changed);
    return watcher;
  }

  /** The conversations that have a worktree (their files get the badge); called when tabs or History change. */
  setBound(metas: readonly ConversationMeta[]): void {
    const next = metas.filter((m) => m.worktree !== undefined);
    const key = (list: ConversationMeta[]) => list.map((m) => `${m.worktree!.path}\0${m.worktree!.branch}`).join('\n');
    if (key(next) === key(this.bound)) return;
    this.bound = next;
    this.labels.fire(undefined);
  }

  /** The conversation whose worktree holds `file`, if any. */
  owner(file: string): ConversationMeta | undefined {
    return this.bound.find((m) => isWithin(m.worktree!.path, file));
  }

  private decoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== 'file') return undefined;
    const meta = this.owner(uri.fsPath);
    if (!meta) return undefined;
    const tooltip = l10n.t('In the worktree of "{0}" (branch {1}), not the workspace’s own file', meta.title, meta.worktree!.branch);
    return new vscode.FileDecoration('WT', tooltip, new vscode.ThemeColor('charts.purple'));
  }

  private workspaceFolder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
