import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { Checkpoint, CheckpointRef, CheckpointState, CheckpointStoreOptions, FileChange, RecordOutcome, RestoreStep } from './checkpointTypes';
import { CheckpointError, DEFAULT_MAX_BYTES, DEFAULT_MAX_CHECKPOINTS, DEFAULT_MAX_FILE_BYTES } from './checkpointTypes';
import { CheckpointBook } from './checkpointBook';
import type { CheckpointRecord, Known, StoredState } from './checkpointRecord';
import { recordedState, sameFiles, toCheckpoint } from './checkpointRecord';
import { ContentHasher } from './contentHasher';
import type { Compared } from './checkpointRecord';
import type { ComparisonContext } from './diskComparison';
import { compareWithDisk, statAll } from './diskComparison';
import { FileSnapshot } from './fileSnapshot';
import { lstatOrUndefined, toRel } from './fsUtil';
import { GitSnapshot } from './gitSnapshot';
import { computeHunks, revertHunks } from './hunks';
import { decodeLenient, exactText, isBinary, restoreSteps } from './restorePlan';
import type { SnapshotBackend } from './snapshotBackend';

/**
 * Checkpoints of a folder, agent-agnostic: `create()` at the start of a turn records every file in
 * scope, so changes are found by comparing with the disk — whether the agent wrote through
 * `fs/write_text_file` or straight to disk, and with no watcher needed for correctness (a watcher is
 * only useful to refresh a "changed files" view by calling `changes()` again). Before each client
 * write, `recordBeforeWrite()` fills in what the capture could not know (ignored or too-large files).
 *
 * Backends: inside a git work tree, git objects in a private store borrowing the repository's
 * (`gitSnapshot.ts`; the user's index, stash, refs and HEAD are never touched); elsewhere content
 * snapshots (`fileSnapshot.ts`). Both are bounded by `maxBytes` (oldest checkpoints dropped first),
 * `maxFileBytes` and `maxCheckpoints`.
 *
 * Each checkpoint has two views (`CheckpointState`): `baseline`, which Keep and accepted hunks move
 * forward and the review UI compares against, and `start`, the turn's starting point for "Restore
 * files to before this turn". Calls are serialised: each one sees the effects of the previous one.
 */
export class CheckpointStore {
  private readonly hasher: ContentHasher;
  private readonly book: CheckpointBook;
  private readonly ctx: ComparisonContext;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly maxBytes: number;
  private readonly maxFileBytes: number;
  private readonly warn: (message: string) => void;

  private constructor(
    /** The folder covered, as given (resolved, links kept); every path handed out is under it. */
    readonly root: string,
    private readonly realRoot: string,
    private readonly backend: SnapshotBackend,
    storageDir: string,
    opts: CheckpointStoreOptions,
  ) {
    this.hasher = new ContentHasher(backend);
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.warn = opts.warn ?? (() => undefined);
    const limits = { maxBytes: this.maxBytes, maxCheckpoints: Math.max(1, opts.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS) };
    this.book = new CheckpointBook(backend, this.hasher, nodePath.join(storageDir, 'checkpoints.json'), limits, this.warn);
    this.ctx = { root, relOf: (p) => this.relOf(p), backend, hasher: this.hasher, maxBytes: this.maxBytes, maxFileBytes: this.maxFileBytes };
  }

  /** Opens (or creates) the store; picks git when `root` is in a work tree and git is installed. */
  static async open(opts: CheckpointStoreOptions): Promise<CheckpointStore> {
    // Backends work on real paths (so a storage folder inside the root is recognised); paths handed
    // out use the root as given, which is what the editor's documents use.
    const root = nodePath.resolve(opts.root);
    const realRoot = await fs.promises.realpath(root);
    await fs.promises.mkdir(opts.storageDir, { recursive: true });
    const storageDir = await fs.promises.realpath(opts.storageDir);
    const git = opts.gitPath === false ? undefined : await GitSnapshot.open(realRoot, storageDir, opts.gitPath ?? 'git');
    const backend = git ?? new FileSnapshot(realRoot, storageDir, { maxFiles: opts.maxFiles });
    const store = new CheckpointStore(root, realRoot, backend, storageDir, opts);
    if (!(await store.book.load())) {
      // Written by the other backend (the folder became, or stopped being, a repository), or
      // unreadable: start afresh, and free the other backend's storage.
      store.warn('Checkpoint: earlier checkpoints of this folder cannot be used any more; starting afresh.');
      await fs.promises.rm(nodePath.join(storageDir, backend.kind === 'git' ? 'files' : 'git'), { recursive: true, force: true });
    }
    return store;
  }

  /** `git` or `folder`: which backend this store uses. */
  get kind(): 'git' | 'folder' {
    return this.backend.kind;
  }

  /** The checkpoints kept, oldest first. */
  list(): Checkpoint[] {
    return this.book.all().map(toCheckpoint);
  }

  /** A kept checkpoint by id. */
  get(id: string): Checkpoint | undefined {
    const rec = this.book.find(id);
    return rec && toCheckpoint(rec);
  }

  /** Records the current state of every file in scope; call at the start of a turn, before prompting. */
  create(label?: string): Promise<Checkpoint> {
    return this.exclusive(async () => {
      const listing = await this.backend.list();
      const infos = await statAll(this.root, listing.paths);
      const small = [...infos.values()].filter((f) => f.size <= this.maxFileBytes);
      const ids = await this.hasher.ids(small, true);
      const previous = this.book.newest();
      const rec: CheckpointRecord = {
        id: `cp-${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}`,
        createdAt: Date.now(),
        label,
        // A turn that changed nothing shares the previous manifest instead of building it again.
        manifest: previous && sameFiles(this.book.cached(previous.manifest), ids) ? previous.manifest : await this.backend.writeManifest(ids),
        complete: listing.complete,
        skipped: new Map(),
        recorded: new Map(),
        accepted: new Map(),
      };
      for (const f of infos.values()) if (f.size > this.maxFileBytes) rec.skipped.set(f.rel, { size: f.size, mtimeMs: f.mtimeMs });
      await this.book.add(rec, ids);
      const skipped = [...rec.skipped.keys()];
      // Said once, not every turn: only when the set of skipped files changed.
      if (skipped.length > 0 && !(previous && skipped.join('\0') === [...previous.skipped.keys()].join('\0'))) {
        const shown = `${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}`;
        this.warn(`Checkpoint: ${skipped.length} file(s) over ${this.maxFileBytes} bytes not recorded: ${shown}`);
      }
      if (!listing.complete) this.warn(`Checkpoint: the folder has more files than the scan limit; files beyond it are not covered.`);
      return toCheckpoint(rec);
    });
  }

  /**
   * Call (and await) before a client write to `absPath`: if the capture did not cover the file
   * (ignored, excluded, too large), its current state is recorded now, so the write can be
   * reviewed and undone. Only the first recording of a path counts.
   */
  recordBeforeWrite(checkpoint: CheckpointRef, absPath: string): Promise<RecordOutcome> {
    return this.exclusive(async () => {
      const rec = this.book.get(checkpoint);
      const rel = this.relOf(absPath);
      if (rel === undefined) return 'outside';
      const manifest = await this.book.manifest(rec);
      const state = recordedState(rec, manifest, rel, 'start');
      if (state && state.kind !== 'unrecorded') return 'covered';
      if (!state && rec.complete && !(await this.backend.isExcluded(rel))) return 'covered';
      const stat = await lstatOrUndefined(absPath);
      if (stat && !stat.isFile()) return 'outside';
      if (stat && stat.size > this.maxBytes) return 'tooLarge';
      const [id] = stat ? await this.backend.hashFiles([absPath], true) : [undefined];
      rec.recorded.set(rel, id ?? null);
      await this.book.changed(rec);
      return 'recorded';
    });
  }

  /**
   * The files that differ between the checkpoint (`against`, default `baseline`) and the disk now,
   * sorted by path; `paths` (absolute) limits the answer to those files.
   */
  changes(checkpoint: CheckpointRef, opts: { against?: CheckpointState; paths?: readonly string[] } = {}): Promise<FileChange[]> {
    return this.exclusive(async () => (await this.compare(this.book.get(checkpoint), opts.against ?? 'baseline', opts.paths)).map((c) => c.change));
  }

  /**
   * The text of `absPath` at the checkpoint, or undefined when it did not exist then. Invalid UTF-8
   * shows as U+FFFD (for display; restoring uses the bytes). Throws `CheckpointError` (`binary`,
   * `notRecorded`, `missing`, `unknownCheckpoint`).
   */
  async readAt(checkpoint: CheckpointRef, absPath: string, opts: { state?: CheckpointState } = {}): Promise<string | undefined> {
    const bytes = await this.readBytesAt(checkpoint, absPath, opts);
    if (bytes && isBinary(bytes)) throw new CheckpointError('binary', absPath);
    return bytes && decodeLenient(bytes);
  }

  /** The bytes of `absPath` at the checkpoint, or undefined when it did not exist then. */
  readBytesAt(checkpoint: CheckpointRef, absPath: string, opts: { state?: CheckpointState } = {}): Promise<Uint8Array | undefined> {
    return this.exclusive(async () => {
      const rec = this.book.get(checkpoint);
      const rel = this.relOf(absPath);
      if (rel === undefined) throw new CheckpointError('notRecorded', absPath);
      const state = await this.stateOf(rec, rel, opts.state ?? 'baseline');
      if (state.kind === 'absent') return undefined;
      if (state.kind !== 'file') throw new CheckpointError('notRecorded', absPath);
      return this.blob(state.id, absPath);
    });
  }

  /**
   * The steps that put files back as they were at the checkpoint (`to`, default `baseline` — use
   * `start` for "Restore files to before this turn"): all changed files, or only `paths`. It is also
   * the preview: each step says which file is written or deleted. Files the checkpoint cannot
   * restore (`restorable: false` in `changes`) have no step.
   */
  restorePlan(checkpoint: CheckpointRef, opts: { to?: CheckpointState; paths?: readonly string[] } = {}): Promise<RestoreStep[]> {
    return this.exclusive(async () => {
      const compared = await this.compare(this.book.get(checkpoint), opts.to ?? 'baseline', opts.paths);
      const olds = await this.backend.readBlobs(compared.flatMap(({ before }) => (before.kind === 'file' ? [before.id] : [])));
      return restoreSteps(compared, olds);
    });
  }

  /**
   * Keep: the baseline of these files (absolute paths; default: every changed file) moves to their
   * current state, so `changes()` stops reporting them. The `start` view is unaffected.
   */
  accept(checkpoint: CheckpointRef, paths?: readonly string[]): Promise<void> {
    return this.exclusive(async () => {
      const rec = this.book.get(checkpoint);
      const rels = paths
        ? paths.map((p) => this.relOf(p)).filter((r): r is string => r !== undefined)
        : (await this.compare(rec, 'baseline')).map((c) => c.change.relPath);
      const infos = await statAll(this.root, rels);
      // An explicit Keep stores content up to the store's cap (like recordBeforeWrite), not the
      // capture's per-file cap: the user chose this file.
      const hashable = [...infos.values()].filter((f) => f.size <= this.maxBytes);
      const ids = await this.hasher.ids(hashable, true);
      for (const rel of rels) {
        const info = infos.get(rel);
        const state: StoredState = !info ? null : (ids.get(rel) ?? { size: info.size, mtimeMs: info.mtimeMs });
        rec.accepted.set(rel, state);
      }
      await this.book.changed(rec);
    });
  }

  /**
   * Keeps some hunks of one file: its baseline takes the hunks at `hunkIndexes` of
   * `computeHunks(baselineText, currentText)`, where `baselineText` is `readAt(checkpoint, absPath)`
   * and `currentText` is given (an editor's document) or read from disk. Rejecting hunks needs no
   * store call: write `revertHunks(baselineText, currentText, indexes)` to the file.
   */
  acceptHunks(checkpoint: CheckpointRef, absPath: string, hunkIndexes: Iterable<number>, currentText?: string): Promise<void> {
    return this.exclusive(async () => {
      const rec = this.book.get(checkpoint);
      const rel = this.relOf(absPath);
      if (rel === undefined) throw new CheckpointError('notRecorded', absPath);
      const state = await this.stateOf(rec, rel, 'baseline');
      if (state.kind !== 'file' && state.kind !== 'absent') throw new CheckpointError('notRecorded', absPath);
      const before = state.kind === 'file' ? exactText(await this.blob(state.id, absPath), absPath) : undefined;
      let current = currentText;
      if (current === undefined) {
        const bytes = await fs.promises.readFile(absPath).catch(() => undefined);
        current = bytes && exactText(bytes, absPath);
      }
      const hunks = computeHunks(before ?? '', current ?? '');
      const keep = new Set([...hunkIndexes].filter((i) => i >= 0 && i < hunks.length));
      if (keep.size === 0) return;
      let next: StoredState;
      if (keep.size === hunks.length && current === undefined) next = null;
      else {
        const undone = hunks.filter((h) => !keep.has(h.index)).map((h) => h.index);
        const text = revertHunks(before ?? '', current ?? '', undone);
        next = await this.backend.writeBlob(Buffer.from(text, 'utf8'));
      }
      rec.accepted.set(rel, next);
      await this.book.changed(rec, false);
    });
  }

  /** Forgets a checkpoint and frees what only it used. */
  drop(checkpoint: CheckpointRef): Promise<void> {
    return this.exclusive(async () => {
      await this.book.remove(typeof checkpoint === 'string' ? checkpoint : checkpoint.id);
    });
  }

  /** Bytes the store occupies now (what `maxBytes` bounds). */
  bytesOnDisk(): Promise<number> {
    return this.exclusive(() => this.backend.bytesOnDisk());
  }

  private async compare(rec: CheckpointRecord, state: CheckpointState, paths?: readonly string[]): Promise<Compared[]> {
    return compareWithDisk(this.ctx, rec, await this.book.manifest(rec), state, paths);
  }

  /** The state of one path, deciding "absent or unknown" for paths the record does not mention. */
  private async stateOf(rec: CheckpointRecord, rel: string, state: CheckpointState): Promise<Known> {
    const found = recordedState(rec, await this.book.manifest(rec), rel, state);
    if (found) return found;
    return rec.complete && !(await this.backend.isExcluded(rel)) ? { kind: 'absent' } : { kind: 'unknown' };
  }

  private async blob(id: string, path: string): Promise<Buffer> {
    const bytes = (await this.backend.readBlobs([id])).get(id);
    if (!bytes) throw new CheckpointError('missing', path);
    return bytes;
  }

  /** Root-relative path of an absolute path under the root as given or under its real path. */
  relOf(absPath: string): string | undefined {
    return toRel(this.root, absPath) ?? toRel(this.realRoot, absPath);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
