/**
 * Path globs for read / edit / delete / move rules.
 *
 * Globs are matched with `minimatch`: a maintained, widely used implementation of the glob syntax
 * people already know from .gitignore and VS Code (`**`, `*`, `?`, `[…]`, `{a,b}`), already in
 * node_modules (it comes with @vscode/vsce) and bundled by esbuild, so writing our own glob engine
 * would only add bugs. Options are fixed here so every rule means the same thing on every platform:
 * `/` is the only separator and `\` always escapes, a leading `!` or `#` is literal (no negation or
 * comment: `!secret` must not mean "everything but secret").
 *
 * Which way to err depends on the decision. An allow rule must cover every path the request touches
 * in every form we know (as written and, when a resolver is given, its real location), and its
 * wildcards skip dot files and folders (`**` does not reach `.git/hooks` or `.env`; name them
 * explicitly). A reject rule fires when any path in any form matches, and its wildcards include
 * dot files. Either way a relative glob only sees paths inside the workspace root.
 */
import * as l10n from '@vscode/l10n';
import * as nodePath from 'node:path';
import { Minimatch } from 'minimatch';
import type { MinimatchOptions } from 'minimatch';

/** How a path-glob match is judged; filled from the rule's decision and the match context. */
export interface PathGlobOptions {
  /** `allow`: every path must match, dot files need explicit naming. `reject`: any path matching is enough. */
  decision: 'allow' | 'reject';
  /** Absolute workspace root that relative globs are resolved against; without it only absolute globs match. */
  workspaceRoot: string | undefined;
  /** Compare case-insensitively (true on Windows and macOS, whose file systems usually are). */
  caseInsensitive: boolean;
  /**
   * Optional resolver of a path's real location (symlinks followed). When given, an allowed path
   * must match both as written and resolved, so a link inside the workspace that points outside does
   * not inherit the workspace's rules. A resolver that throws makes the path match no allow rule.
   */
  realPath?: (absolutePath: string) => string;
}

/** Longest glob accepted; brace sets expand, so unbounded input could be slow to compile. */
export const MAX_GLOB_LENGTH = 1000;

/** Every character with a meaning in minimatch patterns, including brace and extglob syntax. */
const GLOB_SPECIAL = /[*?[\]{}()!+@#,\\]/g;

/** A literal path as a glob that matches exactly that path (`app/[id]/page.tsx` stays one file). */
export function escapeGlob(literal: string): string {
  return literal.replace(GLOB_SPECIAL, (c) => `\\${c}`);
}

/** True for a glob anchored at the file system root (`/etc/**`, `C:/tools/**`). */
export function isAbsoluteGlob(glob: string): boolean {
  return glob.startsWith('/') || /^[A-Za-z]:\//.test(glob);
}

const compiled = new Map<string, Minimatch>();

function compile(glob: string, options: MinimatchOptions): Minimatch {
  const key = `${options.dot ? 'd' : '-'}${options.nocase ? 'i' : '-'}${glob}`;
  let matcher = compiled.get(key);
  if (matcher === undefined) {
    // A small cache: rules are few, but every permission request consults all of them.
    if (compiled.size > 500) compiled.clear();
    matcher = new Minimatch(glob, options);
    compiled.set(key, matcher);
  }
  return matcher;
}

function minimatchOptions(dot: boolean, nocase: boolean): MinimatchOptions {
  return { dot, nocase, nonegate: true, nocomment: true, platform: 'linux', windowsPathsNoEscape: false };
}

/** Why `glob` cannot be a path rule, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.trim().length === 0) return l10n.t('The path glob is empty.');
  if (glob.length > MAX_GLOB_LENGTH) return l10n.t('The path glob is too long.');
  if (/[\u0000-\u001f\u007f]/.test(glob)) return l10n.t('The path glob contains a control character.');
  if (glob.split('/').some((segment) => segment === '..' || segment === '.')) {
    return l10n.t('The path glob cannot contain `.` or `..` segments; write the path it stands for.');
  }
  try {
    if (compile(glob, minimatchOptions(false, false)).makeRe() === false) return l10n.t('The path glob is not valid.');
  } catch {
    return l10n.t('The path glob is not valid.');
  }
  return undefined;
}

/** `path` with `/` separators (what globs are written in). */
function toSlashes(path: string): string {
  return nodePath.sep === '\\' ? path.replace(/\\/g, '/') : path;
}

/**
 * `path` relative to `root` with `/` separators, or undefined when it is not below the root (or is
 * the root itself). Both must be absolute. With `caseInsensitive`, the result is lower case.
 */
export function workspaceRelative(path: string, root: string, caseInsensitive: boolean): string | undefined {
  const fold = (p: string): string => (caseInsensitive ? p.toLowerCase() : p);
  const rel = nodePath.relative(fold(nodePath.normalize(root)), fold(nodePath.normalize(path)));
  if (rel === '' || rel.startsWith('..') || nodePath.isAbsolute(rel)) return undefined;
  return toSlashes(rel);
}

/** Does one absolute path (in one form) match? Relative globs only see paths inside the root. */
function formMatches(glob: string, absolute: string, opts: PathGlobOptions): boolean {
  const options = minimatchOptions(opts.decision === 'reject', opts.caseInsensitive);
  if (isAbsoluteGlob(glob)) return compile(glob, options).match(toSlashes(nodePath.normalize(absolute)));
  if (opts.workspaceRoot === undefined || !nodePath.isAbsolute(opts.workspaceRoot)) return false;
  const rel = workspaceRelative(absolute, opts.workspaceRoot, opts.caseInsensitive);
  return rel !== undefined && compile(glob, options).match(rel);
}

/**
 * The forms of one path to test: as written (normalised) and, with a resolver, its real location.
 * Undefined when the path is not absolute or cannot be resolved: it can then satisfy no allow rule.
 */
function formsOf(path: string, opts: PathGlobOptions): string[] | undefined {
  if (!nodePath.isAbsolute(path)) return undefined;
  const written = nodePath.normalize(path);
  if (opts.realPath === undefined) return [written];
  try {
    const real = opts.realPath(written);
    return real === written ? [written] : [written, real];
  } catch {
    return undefined;
  }
}

/**
 * Whether a request touching `paths` (absolute) falls under `glob`. Allow: at least one path, and
 * every path matches in every form. Reject: some path matches in some form. Invalid globs never match.
 */
export function pathsMatchGlob(glob: string, paths: readonly string[], opts: PathGlobOptions): boolean {
  if (paths.length === 0 || globProblem(glob) !== undefined) return false;
  if (opts.decision === 'allow') {
    return paths.every((path) => {
      const forms = formsOf(path, opts);
      return forms !== undefined && forms.every((form) => formMatches(glob, form, opts));
    });
  }
  return paths.some((path) => {
    const forms = nodePath.isAbsolute(path) ? (formsOf(path, opts) ?? [nodePath.normalize(path)]) : [];
    return forms.some((form) => formMatches(glob, form, opts));
  });
}

/**
 * The narrowest glob covering exactly `paths`: each path escaped, relative to the workspace root when
 * inside it, absolute otherwise; several paths become a `{a,b}` set. Undefined when there is no path
 * or one is not absolute.
 */
export function globForPaths(paths: readonly string[], workspaceRoot: string | undefined): string | undefined {
  if (paths.length === 0 || paths.some((p) => !nodePath.isAbsolute(p))) return undefined;
  const globs = new Set<string>();
  for (const path of paths) {
    const rel = workspaceRoot !== undefined && nodePath.isAbsolute(workspaceRoot) ? workspaceRelative(path, workspaceRoot, false) : undefined;
    globs.add(escapeGlob(rel ?? toSlashes(nodePath.normalize(path))));
  }
  const list = [...globs];
  return list.length === 1 ? list[0] : `{${list.join(',')}}`;
}
