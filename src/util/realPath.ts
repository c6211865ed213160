import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/**
 * Where a path really is, for every check that decides whether Tandem may write somewhere: the
 * agent's own requests (PathPolicy) and what Apply brings over from a worktree. One walk for both,
 * so a link that counts as "outside" for the agent counts as outside for Apply too.
 */

/** How many symlinks we follow by hand before giving up (Linux's own limit is 40). */
const MAX_LINK_HOPS = 40;

/** True when `child` is `root` or lies below it. Case-insensitive where the file system usually is. */
export function isWithin(root: string, child: string): boolean {
  const fold = process.platform === 'win32' || process.platform === 'darwin';
  const r = fold ? root.toLowerCase() : root;
  const c = fold ? child.toLowerCase() : child;
  const rel = nodePath.relative(r, c);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/**
 * Real path of `path`, which may not exist yet. Walks up to the deepest existing ancestor, takes its
 * realpath and re-appends the missing tail. A dangling symlink on the way is followed by hand, since
 * writing through it would create its target.
 */
export async function resolveReal(path: string, hops = 0): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
  try {
    return await fs.promises.realpath(path);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  // The path (or an ancestor) does not exist, or is a dangling link.
  try {
    const st = await fs.promises.lstat(path);
    if (st.isSymbolicLink()) {
      const target = await fs.promises.readlink(path);
      return resolveReal(nodePath.resolve(nodePath.dirname(path), target), hops + 1);
    }
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const parent = nodePath.dirname(path);
  if (parent === path) return path;
  const realParent = await resolveReal(parent, hops);
  return nodePath.join(realParent, nodePath.basename(path));
}

/** Synchronous twin of `resolveReal` (display decisions that cannot wait). */
export function resolveRealSync(path: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
  try {
    return fs.realpathSync(path);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  try {
    const st = fs.lstatSync(path);
    if (st.isSymbolicLink()) {
      return resolveRealSync(nodePath.resolve(nodePath.dirname(path), fs.readlinkSync(path)), hops + 1);
    }
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const parent = nodePath.dirname(path);
  if (parent === path) return path;
  return nodePath.join(resolveRealSync(parent, hops), nodePath.basename(path));
}

/** The real path of a root, or the root as given when it cannot be resolved (it is compared, never written). */
export async function realRoot(root: string): Promise<string> {
  return resolveReal(nodePath.normalize(root)).catch(() => nodePath.normalize(root));
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // ENOTDIR: an ancestor is a regular file; the walk up will find it and the I/O will fail clearly.
  return code === 'ENOENT' || code === 'ENOTDIR';
}
