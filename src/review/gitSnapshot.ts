import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { SnapshotBackend } from './snapshotBackend';
import { parseCatFileBatch, runGit, splitZ, quoteC } from './gitProcess';
import { toRel, walkObjects } from './fsUtil';

/**
 * Checkpoint storage for a folder inside a git repository.
 *
 * Scope: what the repository sees — tracked files plus untracked files that are not ignored
 * (`git ls-files -c -o --exclude-standard`), so `node_modules`, build output and whatever else the
 * project ignores cost nothing.
 *
 * Storage: a private bare repository in `storageDir/git` whose `objects/info/alternates` points at
 * the user's object store. Blobs are hashed with `hash-object -w --no-filters` (exact bytes: no
 * clean/smudge filters, no line-ending normalisation, no LFS), so git writes an object only when the
 * user's store does not already have it: unchanged tracked files cost nothing, and only new content
 * (untracked files, edits) lands in our store, zlib-compressed. Manifests are trees built in a
 * throwaway index (`update-index --index-info` + `write-tree`), so consecutive checkpoints share
 * every unchanged subtree.
 *
 * What is never touched in the user's repository: the index (we only read it through `ls-files`),
 * HEAD, refs, branches, stash, config, hooks, the working tree. Nothing is written under their
 * `.git` at all; the one side effect is git's own "freshening" (mtime bump) of an existing object it
 * was asked to write again, the same thing `git add` does, which only delays its pruning.
 *
 * Garbage: our objects are referenced by no ref, so the user's `git gc` never sees them, and we
 * delete our own loose objects once no kept checkpoint needs them (`collectGarbage`). A blob we
 * found in the user's store is not copied; if it was reachable only from their index and they drop
 * it, their `git gc` may prune it after the expiry (2 weeks by default). That checkpoint then
 * reports the file's content as missing — acceptable for a review aid, and the price of not
 * duplicating the repository.
 */
export class GitSnapshot implements SnapshotBackend {
  readonly kind = 'git' as const;

  private constructor(
    private readonly root: string,
    private readonly gitDir: string,
    private readonly gitPath: string,
    /** `storageDir` relative to root when it lies inside it: never part of a checkpoint. */
    private readonly storageRel: string | undefined,
  ) {}

  /**
   * The git backend for `root`, or undefined when git is not installed, `root` is not inside a
   * work tree, or `root` itself is ignored (then the folder backend is the honest choice).
   */
  static async open(root: string, storageDir: string, gitPath = 'git'): Promise<GitSnapshot | undefined> {
    let objectsDir: string;
    let format = 'sha1';
    try {
      await runGit(gitPath, ['rev-parse', '--show-toplevel'], { cwd: root });
      const ignored = await runGit(gitPath, ['check-ignore', '-q', '.'], { cwd: root, okCodes: [0, 1] });
      if (ignored.code === 0) return undefined;
      const out = await runGit(gitPath, ['rev-parse', '--git-path', 'objects'], { cwd: root });
      objectsDir = nodePath.resolve(root, out.stdout.toString('utf8').trim());
      const fmt = await runGit(gitPath, ['rev-parse', '--show-object-format'], { cwd: root, okCodes: [0, 128, 129] });
      if (fmt.code === 0 && fmt.stdout.toString().trim()) format = fmt.stdout.toString().trim();
    } catch {
      return undefined;
    }
    const gitDir = nodePath.join(storageDir, 'git');
    try {
      if (!fs.existsSync(nodePath.join(gitDir, 'HEAD'))) {
        const formatArgs = format === 'sha1' ? [] : [`--object-format=${format}`];
        // --template= : no sample hooks or description, just the object store and a HEAD.
        await runGit(gitPath, ['init', '-q', '--bare', '--template=', ...formatArgs, gitDir], { cwd: storageDir });
      }
      // Rewritten on every open: the repository may have moved since.
      await fs.promises.mkdir(nodePath.join(gitDir, 'objects', 'info'), { recursive: true });
      await fs.promises.writeFile(nodePath.join(gitDir, 'objects', 'info', 'alternates'), `${objectsDir}\n`);
    } catch {
      return undefined;
    }
    return new GitSnapshot(root, gitDir, gitPath, toRel(root, storageDir));
  }

  /** A command on our private repository. Path protections are off: its trees are never checked out. */
  private ours(args: string[], opts: { input?: string | Uint8Array; env?: Record<string, string>; okCodes?: number[] } = {}) {
    const safe = ['-c', 'core.protectNTFS=false', '-c', 'core.protectHFS=false'];
    return runGit(this.gitPath, [...safe, '--git-dir', this.gitDir, ...args], { ...opts, cwd: this.gitDir });
  }

  private inStorage(rel: string): boolean {
    return this.storageRel !== undefined && (rel === this.storageRel || rel.startsWith(`${this.storageRel}/`));
  }

  async list(): Promise<{ paths: string[]; complete: boolean }> {
    // Read-only on the user's index. Paths come out relative to the cwd, i.e. to root.
    const out = await runGit(this.gitPath, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: this.root });
    const paths = new Set<string>();
    for (const p of splitZ(out.stdout)) {
      // "dir/" is an untracked nested repository: its files belong to another repository.
      if (!p.endsWith('/') && !this.inStorage(p)) paths.add(p);
    }
    return { paths: [...paths].sort(), complete: true };
  }

  async isExcluded(relPath: string): Promise<boolean> {
    if (this.inStorage(relPath) || relPath.split('/').includes('.git')) return true;
    // Whether ls-files would list this path (ignored files, and files in nested repositories, not).
    const out = await runGit(this.gitPath, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', `:(literal)${relPath}`], {
      cwd: this.root,
      okCodes: [0, 128],
    });
    if (out.code !== 0) return true;
    if (splitZ(out.stdout).includes(relPath)) return false;
    // A path that does not exist is never listed: ask the ignore rules directly.
    const ignored = await runGit(this.gitPath, ['check-ignore', '-q', '-z', '--stdin'], { cwd: this.root, input: `${relPath}\0`, okCodes: [0, 1, 128] });
    return ignored.code !== 1 || fs.existsSync(nodePath.join(this.root, relPath));
  }

  async hashFiles(absPaths: string[], write: boolean): Promise<Array<string | undefined>> {
    if (absPaths.length === 0) return [];
    const args = ['hash-object', ...(write ? ['-w'] : []), '--no-filters', '--stdin-paths'];
    const batch = await this.ours(args, { input: absPaths.map((p) => `${quoteC(p)}\n`).join(''), okCodes: [0, 128] });
    if (batch.code === 0) return lines(batch.stdout);
    // Some file vanished or is unreadable, which aborts the whole batch: go one by one.
    const ids: Array<string | undefined> = [];
    for (const p of absPaths) {
      const one = await this.ours(args, { input: `${quoteC(p)}\n`, okCodes: [0, 128] });
      ids.push(one.code === 0 ? lines(one.stdout)[0] : undefined);
    }
    return ids;
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    const out = await this.ours(['hash-object', '-w', '--no-filters', '--stdin'], { input: bytes });
    return out.stdout.toString('utf8').trim();
  }

  async readBlobs(ids: string[]): Promise<Map<string, Buffer>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    return parseCatFileBatch((await this.ours(['cat-file', '--batch'], { input: unique.map((id) => `${id}\n`).join('') })).stdout);
  }

  async writeManifest(files: ReadonlyMap<string, string>): Promise<string> {
    const index = nodePath.join(this.gitDir, `manifest-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.index`);
    const env = { GIT_INDEX_FILE: index };
    try {
      const input = [...files].map(([rel, id]) => `100644 blob ${id}\t${rel}\0`).join('');
      await this.ours(['update-index', '-z', '--index-info'], { input, env });
      return (await this.ours(['write-tree'], { env })).stdout.toString('utf8').trim();
    } finally {
      await fs.promises.rm(index, { force: true });
      await fs.promises.rm(`${index}.lock`, { force: true });
    }
  }

  async readManifest(ref: string): Promise<Map<string, string>> {
    const out = await this.ours(['ls-tree', '-r', '-z', '--full-tree', ref]);
    const files = new Map<string, string>();
    for (const entry of splitZ(out.stdout)) {
      const tab = entry.indexOf('\t');
      const [, type, id] = entry.slice(0, tab).split(' ');
      if (type === 'blob') files.set(entry.slice(tab + 1), id);
    }
    return files;
  }

  async collectGarbage(manifests: readonly string[], blobs: ReadonlySet<string>): Promise<void> {
    const live = new Set(blobs);
    for (const tree of new Set(manifests)) {
      live.add(tree);
      const out = await this.ours(['ls-tree', '-r', '-t', '-z', '--full-tree', tree], { okCodes: [0, 128] });
      for (const entry of splitZ(out.stdout)) live.add(entry.slice(0, entry.indexOf('\t')).split(' ')[2]);
    }
    await walkObjects(nodePath.join(this.gitDir, 'objects'), async (id, file) => {
      if (!live.has(id)) await fs.promises.rm(file, { force: true });
    });
  }

  async bytesOnDisk(): Promise<number> {
    let total = 0;
    await walkObjects(nodePath.join(this.gitDir, 'objects'), async (_id, _file, size) => {
      total += size;
    });
    return total;
  }
}

function lines(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}
