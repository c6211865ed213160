import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { resolveCommand } from '../acp/commandResolver';
import { Emitter } from '../util/disposable';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { spawnTree } from '../util/processTree';
import { openOutputPipe } from './outputPipe';
import type { PathPolicy } from './pathPolicy';
import { mergeEnv, shellInvocation } from './shellInvocation';
import { Terminal } from './terminal';
import type { TerminalEvent, TerminalExit } from './terminalEvents';

/** Cap when the agent sets no `outputByteLimit`: output is still bounded, for memory's sake. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;

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
  /** Most bytes of output ever held at once (under max(limit, 512 KiB) + 128 KiB). */
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

/**
 * What serves `terminal/*` for a runtime: processes (TerminalManager), or in a replay the recorded
 * output and nothing run (RecordedTerminals).
 */
export type TerminalService = Pick<TerminalManager, 'create' | 'output' | 'waitForExit' | 'kill' | 'release' | 'get' | 'onDidChange' | 'disposeAll'>;

/**
 * Serves `terminal/*` with plain `child_process` (no node-pty: commands from agents are not
 * interactive, and a native module would tie the .vsix to one platform). stdout and stderr are
 * merged into one bounded buffer; stdin is closed so a command waiting for input ends instead of
 * hanging the turn. On POSIX each command leads its own process group, so `kill` reaches the tree.
 * How a request becomes a process is {@link shellInvocation}; one running command is a {@link Terminal}.
 */
export class TerminalManager implements IDisposable {
  private readonly terminals = new Map<string, Terminal>();
  private readonly emitter = new Emitter<TerminalEvent>();
  private nextId = 1;

  constructor(private readonly opts: TerminalManagerOptions) {}

  onDidChange(listener: (e: TerminalEvent) => void): IDisposable {
    return this.emitter.event(listener);
  }

  /** `scope`: the session's own folder and roots (a conversation in its own worktree); default: the manager's. */
  async create(p: acp.CreateTerminalRequest, scope?: { cwd: string; policy: PathPolicy }): Promise<acp.CreateTerminalResponse> {
    if (typeof p.command !== 'string' || p.command.trim() === '') {
      throw new RequestError(-32602, 'Invalid params: command must be a non-empty string');
    }
    const limit = p.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new RequestError(-32602, `Invalid params: outputByteLimit must be an integer ≥ 0, got ${limit}`);
    }
    const cwd = await this.resolveCwd(p.cwd ?? undefined, scope);
    const platform = process.platform;
    const env = mergeEnv(this.opts.baseEnv, p.env ?? [], platform);
    const run = shellInvocation({
      command: p.command,
      args: p.args ?? [],
      platform,
      env: this.opts.baseEnv,
      shell: this.opts.shell,
      resolve: (command) => resolveCommand(command, env, platform),
    });

    const pipe = await openOutputPipe(platform);
    let child: ChildProcess;
    try {
      child = spawnTree(
        run.file,
        run.args,
        {
          cwd,
          env,
          stdio: pipe.stdio,
          windowsHide: true,
          windowsVerbatimArguments: run.verbatim,
        },
        platform,
      );
    } catch (err) {
      pipe.dispose();
      // Synchronous throws are argument problems (NUL bytes, non-string args), not a missing command.
      throw new RequestError(-32602, `Cannot run ${p.command}: ${errorMessage(err)}`);
    }
    const id = `term-${this.nextId++}`;
    const term = new Terminal(id, p.sessionId, run.display, cwd, child, limit, pipe, (e) => this.emitter.fire(e));
    this.terminals.set(id, term);
    this.emitter.fire({ kind: 'created', terminalId: id, command: run.display });
    await term.started(p.command);
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
    this.lookup(p.sessionId, p.terminalId).kill();
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

  private async resolveCwd(requested: string | undefined, scope: { cwd: string; policy: PathPolicy } | undefined): Promise<string> {
    if (requested === undefined || requested === '') return scope?.cwd ?? this.opts.defaultCwd;
    if (!nodePath.isAbsolute(requested)) {
      throw new RequestError(-32602, `cwd must be an absolute path, got ${requested}`, { cwd: requested });
    }
    const policy = scope?.policy ?? this.opts.policy;
    const cwd = policy ? await policy.check(requested, 'write') : nodePath.normalize(requested);
    const stat = await fs.promises.stat(cwd).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw new RequestError(-32602, `cwd ${requested} does not exist or is not a directory`, { cwd: requested });
    }
    return cwd;
  }

  private releaseTerminal(term: Terminal): void {
    term.release();
    this.terminals.delete(term.id);
  }
}
