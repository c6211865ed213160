import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { splitZ } from '../review/gitProcess';
import type { PinnedWorktree, WorktreeGit } from './worktreeGit';

/** One path that differs between two trees (renames are a delete and an add). */
export interface TreeChange {
  /** `/`-separated, relative to the repository's top. */
  relPath: string;
  status: 'added' | 'modified' | 'deleted';
  /** Blob ids on each side (absent on the side where the path does not exist). */
  before?: string;
  after?: string;
  /** A submodule (gitlink) rather than a file: its content is another repository's commit. */
  submodule: boolean;
  /** A symbolic link on either side (mode 120000): its blob is where the link points, not a file's text. */
  link: boolean;
}

const ZERO = /^0+$/;

/**
 * The worktree's whole state as a git tree — committed, staged, unstaged and untracked files that
 * are not ignored — built in a throwaway index seeded from the worktree's own (so unchanged files
 * are not hashed again). The worktree's index, HEAD and files are not touched; the blobs of changed
 * files land in the repository's object store, as `git add` would put them there. Filters named by
 * the worktree's `.gitattributes` run as `git add` would run them: their commands come from the
 * repository's and the user's config only, since the git dir is pinned (LFS pointers stay pointers).
 */
export async function snapshotTree(git: WorktreeGit, at: PinnedWorktree): Promise<string> {
  const dir = await fs.promises.mkdtemp(nodePath.join(os.tmpdir(), 'tandem-snapshot-'));
  const index = nodePath.join(dir, 'index');
  const env = { GIT_INDEX_FILE: index };
  try {
    const copied = await copyIndex(nodePath.join(at.gitDir, 'index'), index);
    if (!copied) await git.runIn(at, ['read-tree', 'HEAD'], { env });
    await git.runIn(at, ['add', '-A', '--', '.'], { env });
    return await git.textIn(at, ['write-tree'], { env });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Copies an index keeping its modification time: git trusts an entry's cached stat data only when
 * the index is newer than the file ("racy git"), so a copy with a fresh time would hide an edit made
 * in the same second as the checkout that left the size unchanged.
 */
async function copyIndex(from: string, to: string): Promise<boolean> {
  try {
    const stat = await fs.promises.stat(from);
    await fs.promises.copyFile(from, to);
    await fs.promises.utimes(to, stat.atime, stat.mtime);
    return true;
  } catch {
    return false;
  }
}

/** The paths that differ between two trees (or commits), sorted as git lists them. */
export async function treeChanges(git: WorktreeGit, at: PinnedWorktree, from: string, to: string): Promise<TreeChange[]> {
  const out = await git.runIn(at, ['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
  const parts = splitZ(out.stdout);
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    // ":100644 100644 <old> <new> M" then the path.
    const [oldMode, newMode, oldId, newId, status] = parts[i].replace(/^:/, '').split(' ');
    const relPath = parts[i + 1];
    const submodule = oldMode === '160000' || newMode === '160000';
    const link = oldMode === '120000' || newMode === '120000';
    const change: TreeChange = { relPath, status: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified', submodule, link };
    if (!ZERO.test(oldId)) change.before = oldId;
    if (!ZERO.test(newId)) change.after = newId;
    changes.push(change);
  }
  return changes;
}

/**
 * Blobs as they are checked out at their paths (end-of-line conversion, `.gitattributes` filters),
 * so they compare with the files on disk: with `core.autocrlf` a stored LF file is CRLF in the
 * workspace. One `cat-file --filters` per blob: in batch mode git reports the stored size but
 * writes the filtered content, so a batch cannot be split reliably. Keyed by id.
 */
export async function readCheckedOutBlobs(
  git: WorktreeGit,
  at: PinnedWorktree,
  blobs: ReadonlyArray<{ id: string; path: string }>,
): Promise<Map<string, Buffer>> {
  const unique = [...new Map(blobs.map((b) => [b.id, b])).values()];
  const found = new Map<string, Buffer>();
  // A few at a time: a large apply must not start hundreds of processes at once.
  for (let i = 0; i < unique.length; i += 8) {
    await Promise.all(
      unique.slice(i, i + 8).map(async ({ id, path }) => {
        // One that cannot be read is left out: its file is skipped with the reason, not the whole plan.
        const out = await git.runIn(at, ['cat-file', '--filters', `--path=${path}`, id]).catch(() => undefined);
        if (out) found.set(id, Buffer.from(out.stdout));
      }),
    );
  }
  return found;
}
