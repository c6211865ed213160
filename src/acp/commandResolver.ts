import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Resolves the command of an agent to an absolute executable path, the way a shell would, because
 * agents are spawned without a shell (no quoting bugs, no injection through settings).
 *
 * - A command containing a path separator is taken relative to the current directory and only
 *   checked for existence.
 * - A bare name is searched on PATH. On win32 the PATHEXT extensions (.COM, .EXE, .BAT, .CMD …)
 *   are tried too, because npm installs agents as `.cmd` shims there.
 *
 * Returns undefined when nothing executable is found, so the caller can say what to do.
 */
export function resolveCommand(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (!command) return undefined;
  const win = platform === 'win32';
  const hasSeparator = command.includes('/') || (win && command.includes('\\'));
  const extensions = win ? windowsExtensions(command, env) : [''];

  if (hasSeparator) {
    // `path` is the host's flavour: on a real Windows host it is win32 anyway; elsewhere this keeps
    // the win32 branch testable with POSIX paths.
    const base = isAbsoluteAny(command) ? command : path.resolve(command);
    return extensions.map((ext) => base + ext).find((candidate) => isExecutable(candidate, win));
  }

  const pathValue = lookupEnv(env, 'PATH', win) ?? '';
  const dirs = pathValue.split(win ? ';' : ':').filter((d) => d.length > 0);
  for (const rawDir of dirs) {
    // Windows PATH entries may be quoted.
    const dir = win ? rawDir.replace(/^"(.*)"$/, '$1') : rawDir;
    for (const ext of extensions) {
      const candidate = joinDir(dir, command + ext);
      if (isExecutable(candidate, win)) return isAbsoluteAny(candidate) ? candidate : path.resolve(candidate);
    }
  }
  return undefined;
}

function isAbsoluteAny(p: string): boolean {
  return path.posix.isAbsolute(p) || path.win32.isAbsolute(p);
}

/** Joins with the separator the PATH entry already uses (Windows accepts both). */
function joinDir(dir: string, name: string): string {
  if (dir.endsWith('/') || dir.endsWith('\\')) return dir + name;
  return dir + (dir.includes('\\') ? '\\' : '/') + name;
}

/** Environment lookup; Windows variable names are case-insensitive (`Path` is common). */
function lookupEnv(env: NodeJS.ProcessEnv, name: string, win: boolean): string | undefined {
  if (!win) return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/**
 * Extensions to try on Windows. A command that already ends in a known extension is tried as is
 * first; otherwise only with extensions, since Windows cannot run an extension-less file.
 */
function windowsExtensions(command: string, env: NodeJS.ProcessEnv): string[] {
  const pathext = lookupEnv(env, 'PATHEXT', true) ?? '.COM;.EXE;.BAT;.CMD';
  const exts = pathext
    .split(';')
    .filter((e) => e.length > 0)
    .map((e) => e.toLowerCase());
  const lower = command.toLowerCase();
  if (exts.some((e) => lower.endsWith(e))) return ['', ...exts];
  return exts;
}

function isExecutable(candidate: string, win: boolean): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    // Windows has no execute bit; existence of a file with a PATHEXT extension is what counts.
    if (!win) accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Windows refuses to spawn .cmd/.bat without a shell (since Node 20.12), and npm installs agents as
 * .cmd shims. Those go through cmd.exe with every argument quoted and cmd metacharacters escaped,
 * so settings can still not inject commands.
 */
export function spawnTarget(resolved: string, args: string[]): { file: string; args: string[]; verbatim: boolean } {
  if (process.platform !== 'win32' || !/\.(cmd|bat)$/i.test(resolved)) return { file: resolved, args, verbatim: false };
  const line = [resolved, ...args].map(quoteForCmd).join(' ');
  return {
    file: process.env.ComSpec ?? path.win32.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'cmd.exe'),
    args: ['/d', '/s', '/c', `"${line}"`],
    verbatim: true,
  };
}

function quoteForCmd(arg: string): string {
  // CommandLineToArgvW rules: double the backslashes before a quote, escape quotes, wrap in quotes;
  // then escape cmd's metacharacters with ^ (twice: .cmd shims re-parse their arguments).
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return quoted.replace(/[()%!^"<>&|]/g, '^^^$&');
}
