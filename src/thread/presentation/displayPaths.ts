/**
 * Paths in the user's words: a tool call's paths relative to the workspace folder they lie in
 * (absolute ones outside every folder kept as they are), and paths read from what agents send —
 * absolute, relative to the workspace, or absolute with the leading `/` stripped (`tmp/ws/a.md`,
 * as one agent titles files). Lexical only: nothing here touches the disk, so it is cheap enough
 * for every update; the thread's `isInWorkspace` (which resolves links) decides what may be opened.
 */
import { isAbsolute, normalize, relative, sep, posix, win32 } from 'node:path';

/** Longest path text considered (longer strings are not paths an agent means). */
const MAX_PATH_CHARS = 4096;

function withinRoot(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '') return '';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel;
}

function slashes(path: string): string {
  return sep === '\\' ? path.split(win32.sep).join(posix.sep) : path;
}

export class DisplayPaths {
  private readonly roots: string[];
  /** The first folder as given (the session's cwd): relative input paths are read against it. */
  private readonly first: string | undefined;

  /** `roots`: the workspace folders (absolute), the session's first; the longest match wins, so nested folders work. */
  constructor(roots: readonly string[]) {
    const absolute = roots.filter((r) => typeof r === 'string' && isAbsolute(r)).map((r) => normalize(r));
    this.first = absolute[0];
    this.roots = [...absolute].sort((a, b) => b.length - a.length);
  }

  /** The path as the card shows it: `/`-separated and workspace-relative inside a folder, else as given. */
  shown(path: string): string {
    if (!isAbsolute(path)) return path;
    const normal = normalize(path);
    for (const root of this.roots) {
      const rel = withinRoot(root, normal);
      if (rel !== undefined) return rel === '' ? (root.split(sep).pop() ?? root) : slashes(rel);
    }
    return path;
  }

  /** True when the path is a workspace folder itself. */
  isRoot(path: string): boolean {
    return isAbsolute(path) && this.roots.includes(normalize(path).replace(/[\\/]+$/, ''));
  }

  /** True when the path lies lexically inside a workspace folder. */
  inside(path: string): boolean {
    if (!isAbsolute(path)) return false;
    const normal = normalize(path);
    return this.roots.some((root) => withinRoot(root, normal) !== undefined);
  }

  /**
   * The absolute path a string from an agent means, or undefined when it is not one: absolute
   * paths as they are, `tmp/ws/a.md` when `/tmp/ws` is a folder, relative paths against the
   * first folder (`cwd`) when given.
   */
  resolve(candidate: unknown, cwd?: string): string | undefined {
    if (typeof candidate !== 'string') return undefined;
    const text = candidate.trim();
    if (text.length === 0 || text.length > MAX_PATH_CHARS || /[\0\n\r]/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
    if (isAbsolute(text)) return normalize(text);
    if (sep === '/' && this.roots.some((root) => `/${text}`.startsWith(`${root}/`))) return normalize(`/${text}`);
    const base = cwd ?? this.first;
    if (base === undefined) return undefined;
    const joined = normalize(`${base}${sep}${text}`);
    return withinRoot(base, joined) !== undefined ? joined : undefined;
  }

  /**
   * A title with the absolute paths in it written in the user's words: `/ws/src/a.ts` (bare, in
   * backticks or quotes) and `ws/src/a.ts` (the leading `/` stripped) become `src/a.ts`.
   */
  rewriteText(text: string): string {
    if (this.roots.length === 0 || text.length > MAX_PATH_CHARS) return text;
    let out = text;
    for (const root of this.roots) {
      for (const prefix of [root, root.slice(1)]) {
        if (prefix.length < 2 || !out.includes(prefix)) continue;
        out = out.split(prefix).reduce((acc, part, i) => {
          if (i === 0) return part;
          // Only a whole path segment: `/ws` must not rewrite `/ws2/x`.
          const before = acc.length === 0 ? '' : acc[acc.length - 1];
          const startsPath = prefix === root ? true : acc.length === 0 || /[\s`'"(]/.test(before);
          if (!startsPath || !(part.startsWith('/') || part.length === 0 || /^[\s`'")]/.test(part))) return `${acc}${prefix}${part}`;
          return part.startsWith('/') ? `${acc}${part.slice(1)}` : `${acc}${root.split('/').pop() ?? ''}${part}`;
        }, '');
      }
    }
    return out;
  }
}

/** DisplayPaths for the folders `roots()` names now, made again only when they change. */
export function displayPathsOf(roots: () => string[]): () => DisplayPaths {
  let made: { key: string; paths: DisplayPaths } | undefined;
  return () => {
    const now = roots();
    const key = now.join('\0');
    if (made?.key !== key) made = { key, paths: new DisplayPaths(now) };
    return made.paths;
  };
}
