import * as l10n from '@vscode/l10n';
import type { CheckpointStore } from '../review/checkpointStore';
import type { RestoreStep } from '../review/checkpointTypes';
import { computeHunks, revertHunks } from '../review/hunks';
import { TurnAttribution } from '../review/turnAttribution';
import { unifiedHunk, type ChangedFileView, type ReviewView } from '../protocol/messages';
import type { ReviewState } from '../store/conversationFormat';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { hunkView, lineRange } from './hunkViews';
import type { ProtocolLog } from '../acp/protocolLog';

/** What the review needs from the editor (the VS Code adapter; plain disk in tests). */
export interface ReviewHost {
  /** The workspace's checkpoint store, opened on first use; undefined when there is no folder. */
  checkpoints(): Promise<CheckpointStore | undefined>;
  /** A file's text now (the editor's, unsaved changes included); undefined when it does not exist. */
  readCurrent(path: string): Promise<string | undefined>;
  /** Applies a plan as one undoable step and saves it. */
  apply(plan: readonly RestoreStep[], label: string): Promise<void>;
  /** Shows what a rewind would change and asks; true to go ahead. */
  confirmRewind(plan: readonly RestoreStep[]): Promise<boolean>;
  /** Files the user changed (saved, created, deleted, renamed in the editor; Tandem's exports); absent: none are told. */
  onUserChange?(listener: (path: string) => void): IDisposable;
}

const REFRESH_MS = 300;

/**
 * What a conversation changed in the workspace, whichever way the agent changed it: a checkpoint at
 * the start of every turn (and a record before every client write), a strip of changed files since
 * the conversation's review baseline with Keep and Undo (per file, per hunk, or all), and "restore
 * files to before this turn". What the user undid is told to the agent with the next prompt.
 * Only its own changes count (TurnAttribution): never the user's saves nor what changed between
 * turns; a change in a turn that nobody claims is marked outside, and Keep all / Undo all skip it.
 */
export class ConversationReview {
  private baseline: string | undefined;
  private readonly attribution: TurnAttribution;
  /** The store once opened, for claims that arrive synchronously (tool calls). */
  private opened: CheckpointStore | undefined;
  private readonly subscription: IDisposable | undefined;
  private files: ChangedFileView[] = [];
  private readonly openHunks = new Set<string>();
  private notes: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private busy = false;
  /** Refreshes started so far: a refresh that is not the latest drops its result. */
  private refreshes = 0;
  private error: string | undefined;

  constructor(
    private readonly host: ReviewHost | undefined,
    private readonly log: ProtocolLog,
    /** The strip changed (files, busy, error). */
    private readonly changed: (review: ReviewView) => void,
  ) {
    this.attribution = new TurnAttribution((message) => log.warn(message));
    this.subscription = host?.onUserChange?.((path) => {
      this.attribution.user(this.opened, path);
      this.refreshSoon();
    });
  }

  /** What the transcript keeps, so the review survives a restart. */
  state(): ReviewState {
    return this.baseline === undefined ? {} : { baseline: this.baseline, claims: this.attribution.state() };
  }

  restore(state: ReviewState | undefined): void {
    this.baseline = state?.baseline;
    if (this.baseline !== undefined) this.attribution.restore(state?.claims);
    if (this.baseline !== undefined) this.refreshSoon();
  }

  view(): ReviewView {
    return {
      files: this.files.map((f) => ({ ...f })),
      ...(this.busy ? { busy: true } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
  }

  /** Records the workspace before a turn; resolves with the checkpoint id (undefined: none taken). */
  beginTurn(label: string): Promise<string | undefined> {
    return this.attribution.inOrder(async () => {
      const store = await this.store();
      if (!store) return undefined;
      const checkpoint = await this.attribution.beginTurn(store, this.baseline, label);
      if (checkpoint !== undefined && (this.baseline === undefined || !store.get(this.baseline))) {
        this.baseline = checkpoint;
        this.attribution.reset();
      }
      return checkpoint;
    });
  }

  /**
   * The turn is over (answered, failed, abandoned): who changed what during it is settled, and the
   * strip refreshed. Resolves after every turn start and end asked for before (a no-op when idle).
   */
  endTurn(): Promise<void> {
    return this.attribution.inOrder(async () => {
      if (!this.attribution.inTurn) return;
      await this.attribution.endTurn(await this.store(), this.baseline);
      await this.refresh();
    });
  }

  /** A live tool call of the agent's names files it changes (an edit, delete or move, or its diff). */
  agentChanges(paths: readonly string[]): void {
    if (paths.length === 0) return;
    this.attribution.agent(this.opened, paths);
    this.refreshSoon();
  }

  /** Before a client write: the file's state now goes into the checkpoints that need it. */
  async beforeWrite(path: string): Promise<void> {
    const store = await this.store();
    if (!store) return;
    this.attribution.agent(store, [path]);
    for (const id of new Set([this.baseline, this.attribution.latest])) {
      if (id !== undefined && store.get(id))
        await store.recordBeforeWrite(id, path).catch((err) => this.log.warn(`Checkpoint of ${path}: ${errorMessage(err)}`));
    }
  }

  /** Something may have changed on disk: the strip is refreshed after a short quiet period. */
  refreshSoon(): void {
    if (this.baseline === undefined || !this.host) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
    this.timer.unref?.();
  }

  async refresh(): Promise<void> {
    // Refreshes overlap (a watcher's, an Undo's): only the latest one started may set the strip, or an
    // older one that read the disk before the Undo would end last and show the undone files again.
    const generation = ++this.refreshes;
    const store = await this.store();
    const baseline = this.baseline;
    if (!store || baseline === undefined) return;
    let files: ChangedFileView[] | undefined;
    let error: string | undefined;
    try {
      const changes = await this.attribution.changes(store, baseline);
      files = [];
      for (const { change, origin } of changes) {
        const view: ChangedFileView = {
          path: change.path,
          relPath: change.relPath,
          status: change.status,
          added: change.added,
          removed: change.removed,
          binary: change.binary,
          restorable: change.restorable,
          ...(origin === 'outside' ? { outside: true } : {}),
          ...(this.openHunks.has(change.path) && !change.binary ? { hunks: (await this.hunksOf(store, baseline, change.path)).map(hunkView) } : {}),
        };
        files.push(view);
      }
    } catch (err) {
      error = l10n.t('The changed files could not be listed: {0}', errorMessage(err));
    }
    if (generation !== this.refreshes) return;
    if (files) this.files = files;
    this.error = error;
    this.emit();
  }

  /** Keep: these files (default: every file the agent changed; never one changed outside it) as they are. */
  async keep(paths?: readonly string[]): Promise<void> {
    await this.run(async (store, baseline) => {
      const chosen = paths ?? (await this.attribution.agentPaths(store, baseline));
      if (chosen.length === 0) return;
      await store.accept(baseline, chosen);
      this.attribution.forget(store, chosen);
    });
  }

  /** Undo: these files (default: every file the agent changed; never one changed outside it) back to the baseline. */
  async undo(paths?: readonly string[]): Promise<void> {
    await this.run(async (store, baseline) => {
      const chosen = paths ?? (await this.attribution.agentPaths(store, baseline));
      if (chosen.length === 0) return;
      const plan = await store.restorePlan(baseline, { to: 'baseline', paths: chosen });
      if (plan.length === 0) return;
      await this.host!.apply(plan, paths?.length === 1 ? l10n.t("Undo the agent's changes to {0}", plan[0].relPath) : l10n.t("Undo the agent's changes"));
      this.attribution.forget(store, chosen);
      this.notes.push(`The user undid your changes to ${plan.map((s) => s.relPath).join(', ')}; those files are back to how they were before.`);
    });
  }

  async toggleHunks(path: string, open: boolean): Promise<void> {
    if (open) this.openHunks.add(path);
    else this.openHunks.delete(path);
    await this.refresh();
  }

  async hunk(path: string, index: number, action: 'accept' | 'reject'): Promise<void> {
    await this.run(async (store, baseline) => {
      const current = (await this.host!.readCurrent(path)) ?? '';
      if (action === 'accept') {
        await store.acceptHunks(baseline, path, [index], current);
        return;
      }
      const before = (await store.readAt(baseline, path, { state: 'baseline' })) ?? '';
      const hunk = computeHunks(before, current).find((h) => h.index === index);
      if (!hunk) return;
      const relPath = this.files.find((f) => f.path === path)?.relPath ?? path;
      await this.host!.apply([{ kind: 'write', path, relPath, text: revertHunks(before, current, [index]) }], l10n.t('Reject a change to {0}', relPath));
      const where = hunk.newLines > 0 ? lineRange(hunk.newStart, hunk.newLines) : `after line ${Math.max(0, hunk.newStart - 1)}`;
      this.notes.push(`The user rejected your change to ${relPath} (${where}); that part of the file is back to how it was before.`);
    });
  }

  /** Restores the files to how they were before the turn that took `checkpoint` (after a preview). */
  /** Resolves with what happened: restored, nothing to restore, the user said no to the preview, or it failed (the strip says why). */
  async rewind(checkpoint: string, prompt: string): Promise<'restored' | 'unchanged' | 'declined' | 'failed'> {
    let outcome: 'restored' | 'unchanged' | 'declined' | 'failed' = 'failed';
    await this.run(async (store) => {
      if (!store.get(checkpoint))
        throw new Error(l10n.t("this turn's checkpoint is no longer kept (older checkpoints are dropped to stay within the size limit)"));
      const plan = await store.restorePlan(checkpoint, { to: 'start' });
      if (plan.length === 0) return void (outcome = 'unchanged');
      if (!(await this.host!.confirmRewind(plan))) return void (outcome = 'declined');
      await this.host!.apply(plan, l10n.t('Restore files to before this turn'));
      outcome = 'restored';
      const quoted = prompt.length > 60 ? `${prompt.slice(0, 60)}…` : prompt;
      this.notes.push(
        `The user restored ${plan.length} file(s) (${plan.map((s) => s.relPath).join(', ')}) to how they were before their message "${quoted}"; your changes since then are gone.`,
      );
    });
    return outcome;
  }

  /** The file's text at the review baseline (the left side of "Open diff"); undefined: it did not exist. */
  async baselineText(path: string): Promise<string | undefined> {
    const store = await this.store();
    if (!store || this.baseline === undefined) return undefined;
    return store.readAt(this.baseline, path, { state: 'baseline' });
  }

  /** The changed hunk of `path` over lines `startLine`–`endLine` (as changed), as unified text; undefined: none there. */
  async hunkAt(path: string, startLine: number, endLine: number): Promise<string | undefined> {
    const store = await this.store();
    if (!store || this.baseline === undefined) return undefined;
    const hunks = await this.hunksOf(store, this.baseline, path);
    const hit = hunks.find((h) => h.newStart <= endLine && startLine <= h.newStart + Math.max(h.newLines, 1) - 1);
    return hit && unifiedHunk(hit);
  }

  /** What to tell the agent with the next prompt (once). */
  takeNotes(): string | undefined {
    if (this.notes.length === 0) return undefined;
    const text = this.notes.join('\n');
    this.notes = [];
    return text;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription?.dispose();
  }

  private async hunksOf(store: CheckpointStore, baseline: string, path: string): Promise<ReturnType<typeof computeHunks>> {
    const [before, now] = await Promise.all([store.readAt(baseline, path, { state: 'baseline' }).catch(() => undefined), this.host!.readCurrent(path)]);
    return computeHunks(before ?? '', now ?? '');
  }

  private async run(work: (store: CheckpointStore, baseline: string) => Promise<void>): Promise<void> {
    const store = await this.store();
    if (!store || this.baseline === undefined) return;
    this.busy = true;
    this.emit();
    try {
      await work(store, this.baseline);
      this.error = undefined;
    } catch (err) {
      this.error = l10n.t('That did not work: {0}', errorMessage(err));
    } finally {
      this.busy = false;
    }
    await this.refresh();
  }

  private async store(): Promise<CheckpointStore | undefined> {
    try {
      return (this.opened = await this.host?.checkpoints());
    } catch (err) {
      this.log.warn(`Checkpoints are not available: ${errorMessage(err)}`);
      return undefined;
    }
  }

  private emit(): void {
    this.changed(this.view());
  }
}
