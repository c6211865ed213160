import type { SnapshotBackend } from './snapshotBackend';

/** A regular file as seen by `lstat`. */
export interface FileInfo {
  /** Root-relative, `/`-separated. */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * Files modified this close to the moment they were hashed are hashed again next time: a later
 * write within the file system's timestamp granularity (up to 2 s on FAT, 1 s on HFS+) could keep
 * size and mtime identical while the content changed — git's "racy clean" problem.
 */
const RACY_MS = 2000;

interface Cached {
  size: number;
  mtimeMs: number;
  ino: number;
  id: string;
  /** Known to be in the backend's store (false after a garbage collection until rewritten). */
  stored: boolean;
  hashedAt: number;
}

/**
 * Content ids of files through a stat cache (size, mtime, inode), so a capture or a comparison only
 * reads the files that changed since the last look — what keeps a checkpoint per turn cheap.
 */
export class ContentHasher {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly backend: SnapshotBackend) {}

  /** Ids of these files (a file that vanished meanwhile is left out). With `write`, also stored. */
  async ids(files: readonly FileInfo[], write: boolean): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const todo: FileInfo[] = [];
    for (const f of files) {
      const c = this.cache.get(f.rel);
      const fresh = c && c.size === f.size && c.mtimeMs === f.mtimeMs && c.ino === f.ino && c.hashedAt - f.mtimeMs > RACY_MS;
      if (c && fresh && (c.stored || !write)) out.set(f.rel, c.id);
      else todo.push(f);
    }
    // Taken before reading, so the racy check errs on the side of hashing again.
    const hashedAt = Date.now();
    const ids = await this.backend.hashFiles(
      todo.map((f) => f.abs),
      write,
    );
    todo.forEach((f, i) => {
      const id = ids[i];
      if (id === undefined) {
        this.cache.delete(f.rel);
        return;
      }
      const previous = this.cache.get(f.rel);
      const stored = write || (previous?.id === id && previous.stored);
      this.cache.set(f.rel, { size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, id, stored, hashedAt });
      out.set(f.rel, id);
    });
    return out;
  }

  /** After a garbage collection nothing is known to be stored any more. */
  forgetStored(): void {
    for (const c of this.cache.values()) c.stored = false;
  }
}
