import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Atomic, serialised file writes (node:fs only, no editor API).
 *
 * A reader sees either the old file or the new one, never half of each: data goes to a temporary
 * file in the same folder (same file system, so the rename cannot turn into a copy), is flushed to
 * disk, then renamed over the target. Temporary names end in `.tmp` so a crash leaves something
 * that is recognisably ours and that no loader ever mistakes for the real file.
 */

/** Codes for which a rename is retried: on Windows a reader or a virus scanner briefly holding the target. */
const RETRY_CODES = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_ATTEMPTS = 4;

/** A fresh temporary name next to `file`. Random, so two writers can never share one. */
export function tempPathFor(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** True for names `tempPathFor` produces (used to sweep what a crash left behind). */
export function isTempPath(file: string): boolean {
  return /\.[0-9a-f]{12}\.tmp$/.test(file);
}

/**
 * Who may read what is written: `file` for the file, `dir` for the folders created on the way
 * (the process's umask applies as usual). Private data (a conversation) uses 0o600 / 0o700. Only
 * what is created gets them: an existing folder keeps its mode.
 */
export interface FileModes {
  file?: number;
  dir?: number;
}

/**
 * Writes `data` to `file` atomically, creating the folder on demand. When `stillWanted` returns
 * false just before the rename (a newer synchronous write has landed meanwhile), the temporary
 * file is discarded instead, so old content never replaces newer content.
 */
export async function writeFileAtomic(file: string, data: string, stillWanted?: () => boolean, modes: FileModes = {}): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, ...(modes.dir !== undefined ? { mode: modes.dir } : {}) });
  const tmp = tempPathFor(file);
  try {
    // The temporary file is always new, so its mode is the one the renamed file has.
    await fs.promises.writeFile(tmp, data, { flush: true, ...(modes.file !== undefined ? { mode: modes.file } : {}) });
    if (stillWanted && !stillWanted()) {
      await fs.promises.rm(tmp, { force: true });
      return;
    }
    await renameWithRetry(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The synchronous twin of `writeFileAtomic`, for extension shutdown when nothing may be awaited. */
export function writeFileAtomicSync(file: string, data: string, modes: FileModes = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, ...(modes.dir !== undefined ? { mode: modes.dir } : {}) });
  const tmp = tempPathFor(file);
  try {
    fs.writeFileSync(tmp, data, { flush: true, ...(modes.file !== undefined ? { mode: modes.file } : {}) });
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // The original error is the one worth reporting.
    }
    throw err;
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await fs.promises.rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (process.platform !== 'win32' || !RETRY_CODES.has(code) || attempt >= RENAME_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

/** What a queued operation does to its file. */
type FileOp = { kind: 'write'; data: string } | { kind: 'remove' };

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** Per-file state: at most one operation running and one waiting (the latest asked for). */
interface Slot {
  pending?: { op: FileOp; waiters: Waiter[] };
  running?: Promise<void>;
  /** Bumped by every synchronous operation; a running async write compares it before renaming. */
  syncGeneration: number;
}

/**
 * Serialises writes and removals per file while letting different files proceed in parallel.
 *
 * Operations on one file never interleave. While one runs, later requests collapse into a single
 * pending one holding only the newest content (a burst of saves costs two writes, not N); every
 * caller's promise settles when content at least as new as theirs is on disk.
 */
export class FileWriteQueue {
  private readonly slots = new Map<string, Slot>();

  /** `modes`: for every file this queue writes and the folders it creates (see FileModes). */
  constructor(private readonly modes: FileModes = {}) {}

  /** Atomically replaces `file` with `data`, after whatever is already running on that file. */
  write(file: string, data: string): Promise<void> {
    return this.enqueue(file, { kind: 'write', data });
  }

  /** Deletes `file` (missing is fine), ordered with the writes so a late write cannot resurrect it. */
  remove(file: string): Promise<void> {
    return this.enqueue(file, { kind: 'remove' });
  }

  /** Resolves once nothing is running or waiting for `file`. Never rejects. */
  async settled(file: string): Promise<void> {
    for (let slot = this.slots.get(file); slot?.running; slot = this.slots.get(file)) {
      await slot.running;
    }
  }

  /** Resolves once every queued operation on every file has finished. Never rejects. */
  async idle(): Promise<void> {
    while (this.slots.size > 0) {
      await Promise.all([...this.slots.values()].map((slot) => slot.running));
    }
  }

  /**
   * Performs every waiting operation now, synchronously (shutdown). An async write already past
   * its point of no return (the rename was issued) may still land afterwards; one that has not
   * yet renamed sees the newer synchronous write and discards itself.
   */
  flushSync(): void {
    const errors: unknown[] = [];
    for (const [file, slot] of this.slots) {
      const pending = slot.pending;
      if (!pending) continue;
      slot.pending = undefined;
      try {
        this.performSync(file, slot, pending.op);
        for (const w of pending.waiters) w.resolve();
      } catch (err) {
        errors.push(err);
        for (const w of pending.waiters) w.reject(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  }

  /** Writes `file` synchronously, superseding anything waiting for it. */
  writeSync(file: string, data: string): void {
    this.runSync(file, { kind: 'write', data });
  }

  /** Deletes `file` synchronously (missing is fine), superseding anything waiting for it. */
  removeSync(file: string): void {
    this.runSync(file, { kind: 'remove' });
  }

  /** True while an operation on `file` is running or waiting. */
  isBusy(file: string): boolean {
    return this.slots.has(file);
  }

  private runSync(file: string, op: FileOp): void {
    const slot = this.slotFor(file);
    const pending = slot.pending;
    slot.pending = undefined;
    try {
      this.performSync(file, slot, op);
    } catch (err) {
      for (const w of pending?.waiters ?? []) w.reject(err);
      throw err;
    } finally {
      if (!slot.running) this.slots.delete(file);
    }
    for (const w of pending?.waiters ?? []) w.resolve();
  }

  private performSync(file: string, slot: Slot, op: FileOp): void {
    slot.syncGeneration++;
    if (op.kind === 'write') writeFileAtomicSync(file, op.data, this.modes);
    else fs.rmSync(file, { force: true });
  }

  private slotFor(file: string): Slot {
    let slot = this.slots.get(file);
    if (!slot) {
      slot = { syncGeneration: 0 };
      this.slots.set(file, slot);
    }
    return slot;
  }

  private enqueue(file: string, op: FileOp): Promise<void> {
    const slot = this.slotFor(file);
    return new Promise<void>((resolve, reject) => {
      if (slot.pending) {
        // Superseded: the older content is never written; its callers wait for the newer one.
        slot.pending.op = op;
        slot.pending.waiters.push({ resolve, reject });
      } else {
        slot.pending = { op, waiters: [{ resolve, reject }] };
      }
      slot.running ??= this.drain(file, slot);
    });
  }

  private async drain(file: string, slot: Slot): Promise<void> {
    // Start on a later microtask so `slot.running` is assigned before anything below reads it.
    await Promise.resolve();
    while (slot.pending) {
      const { op, waiters } = slot.pending;
      slot.pending = undefined;
      const generation = slot.syncGeneration;
      try {
        if (op.kind === 'write') await writeFileAtomic(file, op.data, () => slot.syncGeneration === generation, this.modes);
        else await fs.promises.rm(file, { force: true });
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    slot.running = undefined;
    if (this.slots.get(file) === slot) this.slots.delete(file);
  }
}
