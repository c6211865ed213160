import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { errorMessage } from '../util/errors';

export type AccessOp = 'read' | 'write';

export interface PathPolicyOptions {
  /** Absolute paths of the workspace folders, read on every check (folders can change at any time). */
  roots: () => string[];
  /** The `tandem.allowFileAccessOutsideWorkspace` setting. */
  allowOutside: () => boolean;
  /** Ask the user about one access outside the workspace; resolves true when allowed. */
  askOutside: (path: string, op: AccessOp) => Promise<boolean>;
}

/** How many symlinks we follow by hand before giving up (Linux's own limit is 40). */
const MAX_LINK_HOPS = 40;

/**
 * Decides whether the agent may touch a path. The boundary is the *real* location: `..` is
 * normalised and symlinks are resolved (of the path itself or, for a file that does not exist yet,
 * of its deepest existing ancestor), so a link inside the workspace that points outside counts as
 * outside. Consent for outside paths is asked each time (no per-session memory) unless the setting
 * allows it: a remembered "yes" for one path would silently extend to whatever that path later
 * links to, and agents rarely leave the workspace, so the extra prompts are cheap.
 */
export class PathPolicy {
  constructor(private readonly opts: PathPolicyOptions) {}

  /** The same policy (consent, the outside-access setting) over other roots: a session in its own worktree. */
  withRoots(roots: () => string[]): PathPolicy {
    return new PathPolicy({ ...this.opts, roots });
  }

  /** The workspace folders as configured now. */
  roots(): string[] {
    return this.opts.roots();
  }

  /**
   * Synchronous containment test for display decisions (follow-along does not auto-open outside
   * locations). Resolves symlinks like `check`, but never asks and never throws.
   */
  isInWorkspace(path: string): boolean {
    if (!nodePath.isAbsolute(path)) return false;
    let real: string;
    try {
      real = resolveRealSync(nodePath.normalize(path));
    } catch {
      return false;
    }
    return this.realRootsSync().some((root) => isWithin(root, real));
  }

  /**
   * Resolves `path` to its real location and returns it when access is allowed; otherwise throws a
   * `RequestError` the agent can show to the user. Callers must use the returned path for the
   * actual I/O so that what was checked is what gets touched.
   */
  async check(path: string, op: AccessOp): Promise<string> {
    if (typeof path !== 'string' || path.length === 0 || !nodePath.isAbsolute(path)) {
      throw new RequestError(-32602, `Path must be absolute: ${String(path)}`, { path });
    }
    const normalized = nodePath.normalize(path);
    let real: string;
    try {
      real = await resolveReal(normalized);
    } catch (err) {
      throw new RequestError(-32602, `Cannot resolve ${normalized}: ${errorMessage(err)}`, { path });
    }
    const roots = await this.realRoots();
    if (roots.some((root) => isWithin(root, real))) return real;
    if (this.opts.allowOutside()) return real;
    const shown = real === normalized ? real : `${normalized} (resolves to ${real})`;
    let allowed = false;
    try {
      allowed = await this.opts.askOutside(real, op);
    } catch {
      allowed = false;
    }
    if (allowed) return real;
    throw new RequestError(
      -32602,
      `${shown} is outside the workspace folders; the user did not allow ${op} access. ` +
        'Set tandem.allowFileAccessOutsideWorkspace to true to allow access outside the workspace.',
      { path, resolvedPath: real, reason: 'outside_workspace' },
    );
  }

  private async realRoots(): Promise<string[]> {
    const roots = this.opts.roots().filter((r) => nodePath.isAbsolute(r));
    return Promise.all(roots.map((r) => resolveReal(nodePath.normalize(r)).catch(() => nodePath.normalize(r))));
  }

  private realRootsSync(): string[] {
    return this.opts
      .roots()
      .filter((r) => nodePath.isAbsolute(r))
      .map((r) => {
        try {
          return resolveRealSync(nodePath.normalize(r));
        } catch {
          return nodePath.normalize(r);
        }
      });
  }
}

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
async function resolveReal(path: string, hops = 0): Promise<string> {
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

/** Synchronous twin of `resolveReal` for `isInWorkspace`. */
function resolveRealSync(path: string, hops = 0): string {
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

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // ENOTDIR: an ancestor is a regular file; the walk up will find it and the I/O will fail clearly.
  return code === 'ENOENT' || code === 'ENOTDIR';
}
