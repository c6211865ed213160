import { spawn } from 'node:child_process';

/**
 * Runs the `git` CLI for the checkpoint backend: no shell, stdin fed from a buffer, stdout kept as
 * bytes (blob contents and `-z` output are not text).
 */

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitRunOptions {
  cwd?: string;
  /** Written to stdin, then stdin is closed. */
  input?: string | Uint8Array;
  /** Extra environment variables (on top of the cleaned inherited environment). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 from `check-ignore`). */
  okCodes?: number[];
}

/**
 * Variables that would point git at another repository, index or object store than the one we
 * name. They leak in when the editor was started from a git hook or a script; dropping them keeps
 * every command about the folder we were given.
 */
const LOCATION_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_ATTR_SOURCE',
];

/**
 * Config overrides on every command. None of the commands we run writes the user's index or refs,
 * but these make sure no side effect sneaks in: no fsmonitor daemon started inside their `.git`, no
 * automatic gc/maintenance, no split index.
 */
const CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'core.splitIndex=false'];

export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(' ')} failed (${result.code}): ${result.stderr.trim().split('\n').slice(-2).join(' ')}`);
    this.name = 'GitFailure';
  }
}

export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of LOCATION_VARS) delete env[name];
  // No locks taken just to refresh stat data, and never a credential prompt.
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', ...extra };
}

/** Runs `git <args>`; rejects with `GitFailure` on an exit code outside `okCodes` (default [0]). */
export function runGit(gitPath: string, args: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(gitPath, [...CONFIG, ...args], {
      cwd: opts.cwd,
      env: gitEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    // A command that exits early (bad path) closes stdin under us; the exit code tells the story.
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
      if ((opts.okCodes ?? [0]).includes(result.code)) resolve(result);
      else reject(new GitFailure(args, result));
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** The blobs in `cat-file --batch` output ("<id> <type> <size>\n<bytes>\n", or "<id> missing\n"), by id. */
export function parseCatFileBatch(out: Buffer): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol === -1) break;
    const [id, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (size === undefined) continue;
    const length = Number(size);
    if (type === 'blob') found.set(id, Buffer.from(out.subarray(at, at + length)));
    at += length + 1;
  }
  return found;
}

/** Splits `-z` output into its NUL-terminated records. */
export function splitZ(out: Buffer): string[] {
  const text = out.toString('utf8');
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * C-style quoting as git's `--stdin-paths` readers unquote it: lets any path through a
 * line-based protocol (a newline, a trailing CR, a leading quote).
 */
export function quoteC(path: string): string {
  let out = '"';
  for (const ch of path) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
