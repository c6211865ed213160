import * as nodePath from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { errorMessage } from '../util/errors';
import { isWithin, resolveReal, resolveRealSync } from '../util/realPath';

export type AccessOp = 'read' | 'write';

export interface PathPolicyOptions {
  /** Absolute paths of the workspace folders, read on every check (folders can change at any time). */
  roots: () => string[];
  /** The `tandem.allowFileAccessOutsideWorkspace` setting. */
  allowOutside: () => boolean;
  /** Ask the user about one access outside the workspace; resolves true when allowed. */
  askOutside: (path: string, op: AccessOp) => Promise<boolean>;
}

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
    if (op === 'write') this.refuseGitDir(path, normalized, real, roots);
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

  /**
   * No agent writes inside a `.git` (the main workspace's folder, a worktree's `.git` file, a nested
   * repository's): git runs what a repository's config names (filters, hooks, fsmonitor), and what a
   * worktree's `.git` file says decides which repository Tandem's git and VS Code's act on. Checked on
   * the path as asked and as resolved, so neither a link to a `.git` nor a `.git` that is a link passes.
   */
  private refuseGitDir(path: string, normalized: string, real: string, realRoots: string[]): void {
    const given = this.opts.roots().filter((r) => nodePath.isAbsolute(r));
    if (!inGitDir(normalized, given.map(nodePath.normalize)) && !inGitDir(real, realRoots)) return;
    throw new RequestError(-32602, `Tandem does not let agents write inside .git: ${normalized}`, { path, resolvedPath: real, reason: 'git_dir' });
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

/** True when a part of `path` below its root (or of the whole path, outside every root) is named `.git`. */
function inGitDir(path: string, roots: string[]): boolean {
  const root = roots.find((r) => isWithin(r, path));
  const rest = root === undefined ? path : nodePath.relative(root, path);
  const fold = process.platform === 'win32' || process.platform === 'darwin';
  return rest.split(/[\\/]/).some((part) => (fold ? part.toLowerCase() : part) === '.git');
}
