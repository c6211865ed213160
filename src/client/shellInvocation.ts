import type * as acp from '@agentclientprotocol/sdk';

/**
 * How a `terminal/create` request becomes a process: which file runs with which arguments, and how
 * the command reads to the user. Pure — the platform and the environment are parameters — so the
 * Windows rules are tested on every OS.
 */
export interface InvocationRequest {
  command: string;
  args: readonly string[];
  platform: NodeJS.Platform;
  /** The environment the command runs in: `$SHELL` / `ComSpec` are read from it. */
  env: NodeJS.ProcessEnv;
  /** Overrides the shell for whole command lines. */
  shell?: string;
  /**
   * Resolves a bare command the way Windows would (PATH × PATHEXT); only used on win32, where
   * `npm` with arguments is really `npm.cmd`, which cannot be spawned without cmd.exe.
   */
  resolve?: (command: string) => string | undefined;
}

export interface Invocation {
  file: string;
  args: string[];
  /** Windows: pass `args` to CreateProcess as written (they are already quoted for cmd.exe). */
  verbatim: boolean;
  /** True when a shell interprets the command (a whole command line, or a Windows batch file). */
  viaShell: boolean;
  /** The command line as shown to the user. */
  display: string;
}

/** Anything a shell would interpret, or whitespace separating words. */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]#~=%!{}]/;
/** What cmd.exe interprets outside quotes; `^` escapes each of them. */
const CMD_META = /[()[\]%!^"`<>&|;, *?]/g;

/**
 * A command without `args` that contains shell syntax is a command line (agents send
 * `npm test | tail` as one string) and runs through the user's shell; anything else is spawned
 * directly with its arguments passed verbatim, so nothing in them is ever interpreted.
 */
export function shellInvocation(req: InvocationRequest): Invocation {
  const { command, args, platform } = req;
  const windows = platform === 'win32';
  if (args.length === 0 && SHELL_SYNTAX.test(command)) {
    if (windows) {
      // /d: no AutoRun commands; /s /c "…": cmd strips exactly the outer quotes and runs the rest,
      // so the line reaches cmd as the agent wrote it (hence verbatim: Node must not re-quote it).
      return { file: comSpec(req), args: ['/d', '/s', '/c', `"${command}"`], verbatim: true, viaShell: true, display: command };
    }
    return { file: req.shell ?? req.env.SHELL ?? '/bin/sh', args: ['-c', command], verbatim: false, viaShell: true, display: command };
  }
  const display = args.length === 0 ? command : [command, ...args].map((a) => quoteForDisplay(a, platform)).join(' ');
  if (windows) {
    const target = req.resolve?.(command) ?? command;
    if (/\.(cmd|bat)$/i.test(target)) {
      // Node refuses to spawn batch files without a shell (CVE-2024-27980), and npm installs tools
      // as .cmd shims: run them through cmd.exe with every argument quoted and escaped.
      const line = [`"${target}"`, ...args.map(cmdArgument)].join(' ');
      return { file: comSpec(req), args: ['/d', '/s', '/c', `"${line}"`], verbatim: true, viaShell: true, display };
    }
  }
  return { file: command, args: [...args], verbatim: false, viaShell: false, display };
}

/**
 * The request's env over the base env. Variables the base leaves undefined are not passed on.
 * Windows names are case-insensitive: `Path` from the request replaces `PATH`, not a second copy.
 */
export function mergeEnv(base: NodeJS.ProcessEnv, extra: readonly acp.EnvVariable[], platform: NodeJS.Platform): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  for (const { name, value } of extra) {
    if (platform === 'win32') {
      const existing = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
      if (existing !== undefined) delete env[existing];
    }
    env[name] = value;
  }
  return env;
}

/** One argument as the user would type it in their shell (display only: never executed). */
export function quoteForDisplay(arg: string, platform: NodeJS.Platform): string {
  if (arg !== '' && !SHELL_SYNTAX.test(arg)) return arg;
  if (platform === 'win32') return `"${arg.replace(/"/g, '\\"')}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function comSpec(req: InvocationRequest): string {
  if (req.shell) return req.shell;
  // A copy of process.env is a plain object on Windows too: look the name up case-insensitively.
  const key = Object.keys(req.env).find((k) => k.toLowerCase() === 'comspec');
  return (key !== undefined ? req.env[key] : undefined) ?? 'cmd.exe';
}

/**
 * One argument of a batch file run by `cmd /d /s /c`: quoted for CommandLineToArgvW (backslashes
 * before a quote doubled, quotes escaped), then every cmd metacharacter — the quotes included, so cmd
 * never sees a quoted region where `^` would not work — escaped twice: once for cmd.exe, once more
 * because the batch file's `%*` is parsed again. Without this, `a&calc` in an argument runs calc.
 */
export function cmdArgument(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
  return quoted.replace(CMD_META, '^$&').replace(CMD_META, '^$&');
}
