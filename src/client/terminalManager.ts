import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { Emitter } from '../util/disposable';
import type { IDisposable } from '../util/disposable';
import { OutputBuffer } from './outputBuffer';
import type { PathPolicy } from './pathPolicy';
import { errorMessage } from '../util/errors';

/** Cap when the agent sets no `outputByteLimit`: output is still bounded, for memory's sake. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;
/** Grace between SIGTERM and SIGKILL when stopping a process tree. */
export const KILL_GRACE_MS = 2000;
/** After the main process exits, how long to wait for its pipes to drain (a background child may hold them). */
const DRAIN_MS = 200;

export type TerminalEvent =
  | { kind: 'created'; terminalId: string; command: string }
  | { kind: 'output'; terminalId: string; text: string; truncated: boolean }
  | { kind: 'exit'; terminalId: string; exitCode: number | null; signal: string | null };

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** A read-only view of one terminal, for the session layer (headers, mirrors, snapshots). */
export interface TerminalInfo {
  terminalId: string;
  sessionId: string;
  /** The command line as shown to the user. */
  command: string;
  cwd: string;
  pid: number | undefined;
  /** Undefined while running. */
  exit: TerminalExit | undefined;
  output: string;
  truncated: boolean;
  /** Bytes of output held in memory right now. */
  bufferedBytes: number;
  /** Most bytes of output ever held at once (≤ about 2 × the byte limit). */
  peakBufferedBytes: number;
}

export interface TerminalManagerOptions {
  /** The session's cwd, used when `terminal/create` has none. */
  defaultCwd: string;
  /** Shell for command lines without `args`; defaults to `$SHELL`, then /bin/sh (cmd.exe on Windows). */
  shell?: string;
  /** The editor's environment; the request's `env` is merged over it. */
  baseEnv: NodeJS.ProcessEnv;
  /** When given, a requested `cwd` must pass it (as a write: commands change files). */
  policy?: PathPolicy;
}

const isWindows = process.platform === 'win32';
/** Anything a shell would interpret, or whitespace separating words. */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]#~=%!{}]/;

class Terminal {
  readonly buffer: OutputBuffer;
  readonly decoder = new StringDecoder('utf8');
  exit: TerminalExit | undefined;
  readonly exited: Promise<TerminalExit>;
  released = false;
  killTimer: NodeJS.Timeout | undefined;
  resolveExit!: (e: TerminalExit) => void;

  constructor(
    readonly id: string,
    readonly sessionId: string,
    readonly command: string,
    readonly cwd: string,
    readonly child: ChildProcess,
    limit: number,
  ) {
    this.buffer = new OutputBuffer(limit);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }
}

/**
 * Serves `terminal/*` with plain `child_process` (no node-pty: commands from agents are not
 * interactive, and a native module would tie the .vsix to one platform). stdout and stderr are
 * merged into one bounded buffer; stdin is closed so a command waiting for input ends instead of
 * hanging the turn. On POSIX each command leads its own process group, so `kill` reaches the tree.
 */
export class TerminalManager implements IDisposable {
  private readonly terminals = new Map<string, Terminal>();
  private readonly emitter = new Emitter<TerminalEvent>();
  private nextId = 1;

  constructor(private readonly opts: TerminalManagerOptions) {}

  onDidChange(listener: (e: TerminalEvent) => void): IDisposable {
    return this.emitter.event(listener);
  }

  async create(p: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    if (typeof p.command !== 'string' || p.command.trim() === '') {
      throw new RequestError(-32602, 'Invalid params: command must be a non-empty string');
    }
    const limit = p.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new RequestError(-32602, `Invalid params: outputByteLimit must be an integer ≥ 0, got ${limit}`);
    }
    const cwd = await this.resolveCwd(p.cwd ?? undefined);
    const env = mergeEnv(this.opts.baseEnv, p.env ?? []);
    const args = p.args ?? [];
    const viaShell = args.length === 0 && SHELL_SYNTAX.test(p.command);
    const [file, argv] = viaShell ? this.shellInvocation(p.command) : [p.command, args];
    const display = viaShell || args.length === 0 ? p.command : [p.command, ...args].map(quoteForDisplay).join(' ');

    let child: ChildProcess;
    try {
      child = spawn(file, argv, {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: !isWindows,
        windowsHide: true,
        windowsVerbatimArguments: viaShell && isWindows,
      });
    } catch (err) {
      // Synchronous throws are argument problems (NUL bytes, non-string args), not a missing command.
      throw new RequestError(-32602, `Cannot run ${p.command}: ${errorMessage(err)}`);
    }
    const id = `term-${this.nextId++}`;
    const term = new Terminal(id, p.sessionId, display, cwd, child, limit);
    this.terminals.set(id, term);
    this.emitter.fire({ kind: 'created', terminalId: id, command: display });

    const onData = (chunk: Buffer): void => this.onData(term, chunk);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);

    await new Promise<void>((resolve) => {
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        this.watchExit(term);
        resolve();
      });
      // Kept for the child's whole life: an 'error' event without a listener would crash the host.
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (spawned) return; // e.g. a failed kill of an already dead process: nothing to report
        // A missing or non-executable command is reported as a shell would (output + 127/126)
        // rather than as an RPC error: agents already know how to read a failed command.
        this.onData(term, Buffer.from(`tandem: cannot run ${p.command}: ${err.message}\n`));
        this.finish(term, { exitCode: err.code === 'ENOENT' ? 127 : 126, signal: null });
        resolve();
      });
    });
    return { terminalId: id };
  }

  async output(p: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    const term = this.lookup(p.sessionId, p.terminalId);
    const { text, truncated } = term.buffer.read(term.exit !== undefined);
    return term.exit ? { output: text, truncated, exitStatus: { ...term.exit } } : { output: text, truncated };
  }

  async waitForExit(p: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    const term = this.lookup(p.sessionId, p.terminalId);
    const exit = await term.exited;
    return { exitCode: exit.exitCode, signal: exit.signal };
  }

  /** Stops the process tree; the terminal stays valid (output and exit status remain readable). */
  async kill(p: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    this.killTree(this.lookup(p.sessionId, p.terminalId));
    return {};
  }

  /** Kills if still running and frees the output; the id is unknown afterwards. */
  async release(p: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    const term = this.lookup(p.sessionId, p.terminalId);
    this.releaseTerminal(term);
    return {};
  }

  get(terminalId: string): TerminalInfo | undefined {
    const term = this.terminals.get(terminalId);
    if (!term) return undefined;
    const { text, truncated } = term.buffer.read(term.exit !== undefined);
    return {
      terminalId: term.id,
      sessionId: term.sessionId,
      command: term.command,
      cwd: term.cwd,
      pid: term.child.pid,
      exit: term.exit ? { ...term.exit } : undefined,
      output: text,
      truncated,
      bufferedBytes: term.buffer.bufferedBytes,
      peakBufferedBytes: term.buffer.peakBufferedBytes,
    };
  }

  /** Kills every process tree (TERM, then KILL after the grace) and resolves once all have exited. */
  async disposeAll(): Promise<void> {
    const all = [...this.terminals.values()];
    for (const term of all) this.releaseTerminal(term);
    await Promise.all(all.map((t) => t.exited));
  }

  dispose(): void {
    void this.disposeAll();
    this.emitter.dispose();
  }

  private lookup(sessionId: string, terminalId: string): Terminal {
    const term = this.terminals.get(terminalId);
    if (!term || term.sessionId !== sessionId) {
      throw new RequestError(-32602, `Unknown terminal id: ${terminalId}`, { terminalId });
    }
    return term;
  }

  private async resolveCwd(requested: string | undefined): Promise<string> {
    if (requested === undefined || requested === '') return this.opts.defaultCwd;
    if (!nodePath.isAbsolute(requested)) {
      throw new RequestError(-32602, `cwd must be an absolute path, got ${requested}`, { cwd: requested });
    }
    const cwd = this.opts.policy ? await this.opts.policy.check(requested, 'write') : nodePath.normalize(requested);
    const stat = await fs.promises.stat(cwd).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw new RequestError(-32602, `cwd ${requested} does not exist or is not a directory`, { cwd: requested });
    }
    return cwd;
  }

  private shellInvocation(commandLine: string): [string, string[]] {
    if (isWindows) {
      const comspec = this.opts.shell ?? this.opts.baseEnv.ComSpec ?? 'cmd.exe';
      // Verbatim arguments with an extra pair of quotes is how cmd /s /c expects a whole line.
      return [comspec, ['/d', '/s', '/c', `"${commandLine}"`]];
    }
    return [this.opts.shell ?? this.opts.baseEnv.SHELL ?? '/bin/sh', ['-c', commandLine]];
  }

  private onData(term: Terminal, chunk: Buffer): void {
    if (term.released) return;
    term.buffer.append(chunk);
    const text = term.decoder.write(chunk);
    if (text.length > 0) {
      this.emitter.fire({ kind: 'output', terminalId: term.id, text, truncated: term.buffer.truncated });
    }
  }

  private watchExit(term: Terminal): void {
    let closed = false;
    term.child.once('close', () => (closed = true));
    term.child.once('exit', (code, signal) => {
      const exit: TerminalExit = { exitCode: code, signal: signal ?? null };
      if (closed) return this.finish(term, exit);
      // Output written just before exit may still be in the pipes; a background child that keeps
      // them open must not delay the exit status, so wait for 'close' only briefly.
      const timer = setTimeout(() => this.finish(term, exit), DRAIN_MS);
      term.child.once('close', () => {
        clearTimeout(timer);
        this.finish(term, exit);
      });
    });
  }

  private finish(term: Terminal, exit: TerminalExit): void {
    if (term.exit) return;
    term.exit = exit;
    const rest = term.decoder.end();
    if (rest.length > 0 && !term.released) {
      this.emitter.fire({ kind: 'output', terminalId: term.id, text: rest, truncated: term.buffer.truncated });
    }
    term.resolveExit(exit);
    // Also after release: the card keeps showing the command and should show how it ended.
    this.emitter.fire({ kind: 'exit', terminalId: term.id, ...exit });
  }

  private releaseTerminal(term: Terminal): void {
    if (term.released) return;
    this.killTree(term);
    term.released = true;
    term.buffer.clear();
    this.terminals.delete(term.id);
  }

  /**
   * SIGTERM to the whole process group, SIGKILL after the grace if anything in it is still alive.
   * Signals the group even when the leader already exited: background children may remain.
   */
  private killTree(term: Terminal): void {
    const pid = term.child.pid;
    if (pid === undefined) return;
    if (isWindows) {
      if (term.exit) return;
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
      return;
    }
    if (!signalGroup(pid, 'SIGTERM')) return;
    if (term.killTimer) return;
    term.killTimer = setTimeout(() => {
      if (signalGroup(pid, 0)) signalGroup(pid, 'SIGKILL');
    }, KILL_GRACE_MS);
    term.killTimer.unref();
  }
}

/** Sends `signal` to process group `pgid`; false when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Request env over the base env; on Windows names are case-insensitive, so replace in place. */
function mergeEnv(base: NodeJS.ProcessEnv, extra: acp.EnvVariable[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const { name, value } of extra) {
    if (isWindows) {
      const existing = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
      if (existing !== undefined) delete env[existing];
    }
    env[name] = value;
  }
  return env;
}

function quoteForDisplay(arg: string): string {
  return arg === '' || SHELL_SYNTAX.test(arg) ? `'${arg.replace(/'/g, `'\\''`)}'` : arg;
}
