import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { SnapshotBackend } from './snapshotBackend';
import { mapLimit, toRel, walkObjects, writeFileAtomic } from './fsUtil';

const deflate = promisify(zlib.deflate);
const inflate = promisify(zlib.inflate);

/** Folder names never descended into: version-control metadata and dependency trees. */
export const DEFAULT_EXCLUDED_NAMES = ['.git', '.hg', '.svn', 'node_modules'];
/** How many files a scan lists before it stops (a workspace opened on a home folder). */
export const DEFAULT_MAX_FILES = 20_000;

export interface FileSnapshotOptions {
  /** Directory names skipped wherever they appear (default `DEFAULT_EXCLUDED_NAMES`). */
  excludedNames?: readonly string[];
  /** Files listed before the scan stops and reports itself incomplete (default 20,000). */
  maxFiles?: number;
}

/**
 * Checkpoint storage for a folder that is not in a git repository: a directory walk for the scope
 * and a content-addressed store under `storageDir/files/objects` (SHA-256 ids, zlib-compressed,
 * one file per distinct content, so an unchanged file costs nothing in the next checkpoint).
 * Manifests are JSON stored in the same way. Symlinks are not followed (a link's target inside the
 * root is listed in its own right).
 */
export class FileSnapshot implements SnapshotBackend {
  readonly kind = 'folder' as const;
  private readonly objects: string;
  private readonly excluded: ReadonlySet<string>;
  private readonly maxFiles: number;
  /** Fan-out folders known to exist (creating files dominates a first capture; skip the mkdir). */
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly storageDir: string,
    opts: FileSnapshotOptions = {},
  ) {
    this.objects = nodePath.join(storageDir, 'files', 'objects');
    this.excluded = new Set(opts.excludedNames ?? DEFAULT_EXCLUDED_NAMES);
    this.maxFiles = opts.maxFiles ?? DEFAULT_MAX_FILES;
  }

  async list(): Promise<{ paths: string[]; complete: boolean }> {
    const paths: string[] = [];
    const dirs = [''];
    while (dirs.length > 0) {
      const dir = dirs.pop()!;
      const abs = nodePath.join(this.root, ...dir.split('/'));
      if (abs === this.storageDir) continue;
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(abs, { withFileTypes: true });
      } catch {
        continue; // unreadable or vanished: nothing to record
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!this.excluded.has(entry.name)) dirs.push(rel);
        } else if (entry.isFile()) {
          if (paths.length >= this.maxFiles) return { paths: paths.sort(), complete: false };
          paths.push(rel);
        }
      }
    }
    return { paths: paths.sort(), complete: true };
  }

  async isExcluded(relPath: string): Promise<boolean> {
    const storageRel = toRel(this.root, this.storageDir);
    if (storageRel !== undefined && (relPath === storageRel || relPath.startsWith(`${storageRel}/`))) return true;
    return relPath
      .split('/')
      .slice(0, -1)
      .some((name) => this.excluded.has(name));
  }

  async hashFiles(absPaths: string[], write: boolean): Promise<Array<string | undefined>> {
    return mapLimit(absPaths, 8, async (file) => {
      let bytes: Buffer;
      try {
        bytes = await fs.promises.readFile(file);
      } catch {
        return undefined;
      }
      return write ? this.writeBlob(bytes) : sha256(bytes);
    });
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    const id = sha256(bytes);
    const file = this.objectPath(id);
    if (fs.existsSync(file)) return id;
    const dir = nodePath.dirname(file);
    // Small contents (most source files) compress faster inline than through the thread pool.
    const data = bytes.length < 64 * 1024 ? zlib.deflateSync(bytes) : await deflate(bytes);
    try {
      await writeFileAtomic(file, data, { dirExists: this.madeDirs.has(dir) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await writeFileAtomic(file, data); // the folder went away under us: make it again
    }
    this.madeDirs.add(dir);
    return id;
  }

  async readBlobs(ids: string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    await mapLimit([...new Set(ids)], 8, async (id) => {
      try {
        found.set(id, await inflate(await fs.promises.readFile(this.objectPath(id))));
      } catch {
        // missing (or damaged): reported by absence
      }
    });
    return found;
  }

  async writeManifest(files: ReadonlyMap<string, string>): Promise<string> {
    // Sorted pairs: the same files give the same bytes, hence the same id (unchanged turns share it).
    const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return this.writeBlob(Buffer.from(JSON.stringify(sorted)));
  }

  async readManifest(ref: string): Promise<Map<string, string>> {
    const bytes = (await this.readBlobs([ref])).get(ref);
    if (!bytes) throw new Error(`checkpoint manifest ${ref} is missing`);
    return new Map(JSON.parse(bytes.toString('utf8')) as Array<[string, string]>);
  }

  async collectGarbage(manifests: readonly string[], blobs: ReadonlySet<string>): Promise<void> {
    const live = new Set(blobs);
    for (const ref of new Set(manifests)) {
      live.add(ref);
      const files = await this.readManifest(ref).catch(() => new Map<string, string>());
      for (const id of files.values()) live.add(id);
    }
    await walkObjects(this.objects, async (id, file) => {
      if (!live.has(id)) await fs.promises.rm(file, { force: true });
    });
  }

  async bytesOnDisk(): Promise<number> {
    let total = 0;
    await walkObjects(this.objects, async (_id, _file, size) => {
      total += size;
    });
    return total;
  }

  private objectPath(id: string): string {
    return nodePath.join(this.objects, id.slice(0, 2), id.slice(2));
  }
}

function sha256(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
