import * as nodePath from 'node:path';
import { errorMessage } from '../util/errors';
import { isWithin, resolveRealSync } from '../util/realPath';
import type { AccessOp, PathPolicy } from '../client/pathPolicy';
import { ToolArgumentError } from './toolSchema';

/**
 * A tool's `path` argument to the real path the editor may touch. Relative paths are the
 * workspace's: against the first root, or — in a multi-root workspace, the way VS Code writes them
 * (`asRelativePath`) — against the root whose folder name is the first segment. Then the session's
 * own `PathPolicy` decides, exactly as for `fs/read_text_file` / `fs/write_text_file` (symlinks
 * resolved, outside the roots only with the setting or the user's consent, never inside `.git` for
 * writes); its refusal message reaches the model as the tool's error.
 */
export async function resolveToolPath(policy: PathPolicy, path: string, op: AccessOp): Promise<string> {
  const absolute = toAbsolute(policy.roots(), path);
  try {
    return await policy.check(absolute, op);
  } catch (err) {
    throw new ToolPathError(errorMessage(err));
  }
}

/** Refused or unresolvable path; the message is the policy's, for the model. */
export class ToolPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolPathError';
  }
}

function toAbsolute(roots: string[], path: string): string {
  if (nodePath.isAbsolute(path)) return nodePath.normalize(path);
  const absoluteRoots = roots.filter((r) => nodePath.isAbsolute(r));
  if (absoluteRoots.length === 0) {
    throw new ToolArgumentError(`\`path\` ${JSON.stringify(path)} is relative, but no workspace folder is open; pass an absolute path`);
  }
  const [first, ...rest] = path.split(/[\\/]/);
  if (absoluteRoots.length > 1 && rest.length > 0) {
    const named = absoluteRoots.find((r) => nodePath.basename(r) === first);
    if (named) return nodePath.join(named, ...rest);
  }
  return nodePath.join(absoluteRoots[0], path);
}

/**
 * How a path is shown to the model: relative to the root it is in (the form it can send back), or
 * absolute outside every root. With several roots the folder name leads, as VS Code writes it.
 */
export function displayPath(roots: string[], path: string): string {
  const absoluteRoots = roots.filter((r) => nodePath.isAbsolute(r)).map((r) => nodePath.normalize(r));
  // The policy hands back real paths: a root opened through a symlink (macOS's /var → /private/var,
  // a linked checkout) is matched by its real location too, or every path would show absolute.
  const found = absoluteRoots.map((root) => ({ root, base: [root, realRoot(root)].find((r) => isWithin(r, path)) })).find((r) => r.base !== undefined);
  if (found?.base === undefined) return path;
  const { root, base } = found;
  const relative = nodePath.relative(base, path).split(nodePath.sep).join('/');
  if (relative === '') return absoluteRoots.length > 1 ? nodePath.basename(root) : '.';
  return absoluteRoots.length > 1 ? `${nodePath.basename(root)}/${relative}` : relative;
}

function realRoot(root: string): string {
  try {
    return resolveRealSync(root);
  } catch {
    return root;
  }
}
