import * as l10n from '@vscode/l10n';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { resolveCommand, spawnTarget } from './commandResolver';
import { redactSecrets } from './protocolLog';
import { shownCommandLine } from '../util/secretMask';
import { launchSecrets } from './launchSecrets';
import type { AgentLaunchConfig } from './agentLaunchConfig';
import type { ProtocolLog } from './protocolLog';
import { errorMessage } from '../util/errors';
import { ProcessTree, spawnTree } from '../util/processTree';
import { shownProxy } from '../util/agentProxy';
import type { AgentProxy } from '../util/agentProxy';

// The launch's shape lives on its own side (agentLaunchConfig.ts) so launchSecrets.ts need not import this file; re-exported for its many users.
export type { AgentLaunchConfig, RemoteAgentTarget } from './agentLaunchConfig';

/** Why an agent could not be started at all. */
export type AgentStartErrorCode = 'not_found' | 'spawn_failed';

export class AgentStartError extends Error {
  constructor(
    readonly code: AgentStartErrorCode,
    message: string,
    /** The OS error code (ENOENT, EACCES, …) when spawning failed. */
    readonly osCode?: string,
  ) {
    super(message);
    this.name = 'AgentStartError';
  }
}

/** How the agent process ended. `error` is set when it never really started (spawn error). */
export interface AgentExit {
  code: number | null;
  signal: string | null;
  error?: AgentStartError;
}

/** After 'exit', how long to wait for stdio to drain before reporting the exit anyway. */
const CLOSE_GRACE_MS = 1000;
const STDERR_KEEP_LINES = 200;
const STDERR_MAX_LINE = 4000;

/**
 * One running agent process. Spawned without a shell; on POSIX in its own process group so that
 * kill() takes its whole tree (agents launched through npx start grandchildren).
 */
export class AgentProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves once, when the process has exited (or failed to spawn). Never rejects. */
  readonly exited: Promise<AgentExit>;
  /** Values that must never appear in logs (the configured env values). */
  readonly secrets: string[];

  private exitInfo: AgentExit | undefined;
  private resolveExited!: (exit: AgentExit) => void;
  private readonly exitListeners = new Set<(exit: AgentExit) => void>();
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private killing: Promise<void> | undefined;
  private disposed = false;
  private readonly tree: ProcessTree;

  private constructor(
    readonly config: AgentLaunchConfig,
    private readonly child: ChildProcess,
    private readonly log: ProtocolLog,
  ) {
    this.secrets = launchSecrets(config);
    this.tree = new ProcessTree(child);
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    // Both pipes exist because stdio is 'pipe' for all three.
    this.stdin = child.stdin as Writable;
    this.stdout = child.stdout as Readable;
    this.wire();
  }

  /**
   * Spawns the agent. Throws {@link AgentStartError} `not_found` synchronously when the command
   * cannot be resolved; later spawn failures (EACCES, …) resolve {@link exited} with `error` set.
   */
  static start(cfg: AgentLaunchConfig, log: ProtocolLog): AgentProcess {
    const env = agentEnvironment({ ...cfg.proxy?.env, ...cfg.env });
    const resolved = resolveCommand(cfg.command, env);
    if (!resolved) {
      throw new AgentStartError(
        'not_found',
        l10n.t("Command '{0}' was not found on PATH. Install the agent or set an absolute path in tandem.agents.", cfg.command),
      );
    }
    log.info(
      redactSecrets(`Starting agent '${cfg.name}': ${shownCommandLine(resolved, cfg.args)} (cwd ${cfg.cwd}${proxyNote(cfg.proxy)})`, launchSecrets(cfg)),
    );
    const { file, args, verbatim } = spawnTarget(resolved, cfg.args);
    const child = spawnTree(file, args, {
      cwd: cfg.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
      shell: false,
    });
    return new AgentProcess(cfg, child, log);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get name(): string {
    return this.config.name;
  }

  /** Set once the process has exited. */
  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }

  /** Calls `cb` once when the process exits (immediately-after if it already has). */
  onExit(cb: (exit: AgentExit) => void): { dispose(): void } {
    if (this.exitInfo) {
      const info = this.exitInfo;
      queueMicrotask(() => cb(info));
      return { dispose: () => undefined };
    }
    this.exitListeners.add(cb);
    return { dispose: () => this.exitListeners.delete(cb) };
  }

  /** The last lines the agent wrote to stderr (redacted), for error messages. */
  stderrTail(maxLines = 40): string {
    const lines = this.stderrPartial ? [...this.stderrLines, redactSecrets(this.stderrPartial, this.secrets)] : this.stderrLines;
    return lines.slice(-maxLines).join('\n');
  }

  /** "exited with code 3" / "was killed by SIGTERM" / "could not be started: …" */
  describeExit(exit: AgentExit | undefined = this.exitInfo): string {
    if (!exit) return l10n.t('is running');
    if (exit.error) return l10n.t('could not be started: {0}', exit.error.message);
    if (this.lostConnection(exit)) return l10n.t('ended: the SSH connection failed or was lost (ssh exited with code 255)');
    if (exit.signal) return l10n.t('was killed by {0}', exit.signal);
    return l10n.t('exited with code {0}', exit.code ?? l10n.t('unknown'));
  }

  /**
   * The agent runs on another machine through `ssh` (a stdio tunnel) and ssh itself ended with 255,
   * its code for a connection that failed or dropped: the agent there may still have the session.
   */
  lostConnection(exit: AgentExit | undefined = this.exitInfo): boolean {
    return exit?.code === 255 && isSsh(this.config.command);
  }

  /**
   * SIGTERM to the process group, SIGKILL after 2 s; resolves when the process has exited.
   * Safe to call any number of times.
   */
  kill(): Promise<void> {
    if (this.exitInfo) return Promise.resolve();
    this.killing ??= this.tree.kill(this.exited);
    return this.killing;
  }

  /** Kills the process (without waiting) and drops listeners. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.kill();
    this.exitListeners.clear();
  }

  private wire(): void {
    const { child } = this;
    // EPIPE when writing to an agent that died must not become an uncaught 'error' event.
    child.stdin?.on('error', (err) => this.log.info(`Agent '${this.name}' stdin closed: ${err.message}`));
    child.stdout?.on('error', (err) => this.log.warn(`Agent '${this.name}' stdout error: ${err.message}`));
    child.stderr?.on('error', (err) => this.log.warn(`Agent '${this.name}' stderr error: ${err.message}`));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.onStderr(chunk));

    child.on('error', (err: NodeJS.ErrnoException) => {
      // A spawn failure (ENOENT, EACCES): there will be no 'exit'. Other errors (kill failures)
      // happen on a live process and are only logged.
      if (child.pid === undefined || err.syscall?.startsWith('spawn')) {
        const error = new AgentStartError(
          'spawn_failed',
          l10n.t("Could not start agent '{0}' ({1}): {2}", this.name, this.config.command, err.message),
          err.code,
        );
        this.log.error(redactSecrets(error.message, this.secrets));
        this.finish({ code: null, signal: null, error });
      } else {
        this.log.warn(`Agent '${this.name}': ${err.message}`);
      }
    });

    let exitedWith: AgentExit | undefined;
    child.on('exit', (code, signal) => {
      exitedWith = { code, signal };
      // Grandchildren still in the group (a command the agent started) would keep our pipes open
      // and live on as orphans: the agent is gone, so they go too.
      if (process.platform !== 'win32') this.tree.signal('SIGKILL');
      setTimeout(() => this.finish(exitedWith ?? { code, signal }), CLOSE_GRACE_MS).unref();
    });
    // 'close' comes after stdio has drained, so the stderr tail is complete when we report.
    child.on('close', (code, signal) => this.finish(exitedWith ?? { code, signal }));
  }

  private finish(exit: AgentExit): void {
    if (this.exitInfo) return;
    if (this.stderrPartial) {
      // The last line had no newline: it still belongs in the log and the tail.
      this.onStderr('\n');
    }
    this.exitInfo = exit;
    // Whatever was left in the group got SIGKILL on 'exit': no escalation is needed any more.
    this.tree.dispose();
    if (!exit.error) this.log.info(`Agent '${this.name}' ${this.describeExit(exit)}.`);
    this.resolveExited(exit);
    for (const cb of [...this.exitListeners]) {
      try {
        cb(exit);
      } catch (err) {
        this.log.error(`Exit listener failed: ${errorMessage(err)}`);
      }
    }
    this.exitListeners.clear();
  }

  private onStderr(chunk: string): void {
    const parts = (this.stderrPartial + chunk).split(/\r?\n/);
    this.stderrPartial = parts.pop() ?? '';
    // A stderr that never prints a newline must not grow without bound.
    if (this.stderrPartial.length > STDERR_MAX_LINE) {
      parts.push(this.stderrPartial);
      this.stderrPartial = '';
    }
    for (const raw of parts) {
      // Redact before cutting, or a secret straddling the cut would leak its first half.
      const clean = redactSecrets(raw, this.secrets);
      const line = clean.length > STDERR_MAX_LINE ? clean.slice(0, STDERR_MAX_LINE) + '…' : clean;
      this.stderrLines.push(line);
      this.log.stderr(this.name, line);
    }
    if (this.stderrLines.length > STDERR_KEEP_LINES) this.stderrLines.splice(0, this.stderrLines.length - STDERR_KEEP_LINES);
  }
}

/** `, proxy http://***@proxy:3128 (http.proxy)` for the launch line: which proxy the agent got, never its credentials. */
function proxyNote(proxy: AgentProxy | undefined): string {
  if (!proxy?.url) return '';
  const from = proxy.origin === 'setting' ? 'http.proxy' : proxy.origin === 'entry' ? "the entry's env" : 'the environment';
  return `, proxy ${shownProxy(proxy.url)} (${from})${proxy.noProxy ? `, NO_PROXY ${proxy.noProxy}` : ''}`;
}

/** `ssh`, `/usr/bin/ssh`, `ssh.exe`: the command is an SSH tunnel to an agent elsewhere. */
export function isSsh(command: string): boolean {
  return /^ssh(\.exe)?$/i.test(path.win32.basename(command));
}

/** process.env + the configured env, minus variables that break agents when inherited. */
export function agentEnvironment(configured: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...configured };
  // IS_SANDBOX=yes (set on some machines) makes Claude Code's ACP adapter ask its CLI to skip
  // permissions, which the CLI refuses as root: session/new then fails with "Internal error".
  // ELECTRON_RUN_AS_NODE is set by VS Code's extension host and would turn an Electron-based agent
  // binary into plain node. Both only go through when the user configured them explicitly.
  for (const name of ['IS_SANDBOX', 'ELECTRON_RUN_AS_NODE']) {
    if (!Object.hasOwn(configured, name)) delete env[name];
  }
  return env;
}
