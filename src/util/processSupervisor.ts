import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import { SUPERVISOR_ENV } from '../supervisor/sweep';
import type { IDisposable } from './disposable';

export { SUPERVISOR_ENV } from '../supervisor/sweep';

export interface ProcessSupervisorOptions {
  /** The supervisor script (dist/supervisor.js), run with `execPath`. */
  script: string;
  /** Node to run it with; default process.execPath (Electron as Node on the desktop, see env). */
  execPath?: string;
  /** Extra arguments before the script (tests run the TypeScript source through tsx). */
  execArgv?: string[];
  /** Where problems are reported (the supervisor could not start). */
  warn?(text: string): void;
}

/**
 * The host's end of the supervisor (src/supervisor/main.ts): one small process per extension host
 * that ends what Tandem started once this host is gone, however it goes — including a SIGKILL,
 * after which no code of ours runs again. The host keeps a pipe to it open for its whole life;
 * registrations travel over that pipe, and its closing is the signal.
 *
 * Started on the first registration, restarted (with every live registration) if it ever dies.
 */
export class ProcessSupervisor implements IDisposable {
  /** The marker value: processes with `SUPERVISOR_ENV=<id>` in their environment are this host's. */
  readonly id = randomUUID();
  private child: ChildProcess | undefined;
  private readonly watched = new Set<number>();
  private disposed = false;
  private failed = false;

  constructor(private readonly opts: ProcessSupervisorOptions) {}

  /** The variable to put into the environment of every process this host starts. */
  env(): Record<string, string> {
    return { [SUPERVISOR_ENV]: this.id };
  }

  /** A process group (its leader's pid) to end when the host is gone. */
  watch(pid: number): void {
    if (this.disposed) return;
    this.watched.add(pid);
    this.send(`+${pid}`);
  }

  /** The group has ended: nothing to do for it any more. */
  forget(pid: number): void {
    if (!this.watched.delete(pid)) return;
    this.send(`-${pid}`);
  }

  /** Closes the pipe: the supervisor ends whatever is still running and exits. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.child?.stdin?.end();
    this.child = undefined;
  }

  /** The supervisor's pid, once started (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private send(line: string): void {
    const child = this.ensure();
    if (!child?.stdin?.writable) return;
    child.stdin.write(`${line}\n`);
  }

  private ensure(): ChildProcess | undefined {
    if (this.child || this.disposed || this.failed) return this.child;
    if (!existsSync(this.opts.script)) {
      this.failed = true;
      this.opts.warn?.(`The process supervisor ${this.opts.script} is missing: processes may outlive a crash of VS Code.`);
      return undefined;
    }
    const child = spawn(this.opts.execPath ?? process.execPath, [...(this.opts.execArgv ?? []), this.opts.script, this.id], {
      // Its own process group: a signal to the editor's group (a service stop) must not reach it
      // before it has done its work. Not in the workspace folder, which it must not keep busy.
      detached: process.platform !== 'win32',
      cwd: os.tmpdir(),
      stdio: ['pipe', 'ignore', 'ignore'],
      // On the desktop the editor's execPath is Electron: this makes it plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    this.child = child;
    // The host must be able to exit (and its pipe close) without waiting for the supervisor.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    child.stdin?.on('error', () => undefined);
    child.on('error', (err) => {
      this.opts.warn?.(`The process supervisor could not start: ${err.message}`);
      if (this.child === child) this.child = undefined;
      this.failed = true;
    });
    const startedAt = Date.now();
    child.on('exit', (code, signal) => {
      if (this.child !== child || this.disposed) return;
      this.child = undefined;
      if (Date.now() - startedAt < RESTART_AFTER_MS) {
        // It cannot run here (a broken install?): say so once rather than restart it in a loop.
        this.failed = true;
        this.opts.warn?.(`The process supervisor exited at once (${signal ?? code}): processes may outlive a crash of VS Code.`);
        return;
      }
      // It died on its own (killed by hand?): a new one takes over every live registration.
      this.ensure();
    });
    for (const pid of this.watched) child.stdin?.write(`+${pid}\n`);
    return child;
  }
}

/** A supervisor that dies sooner than this after its start is not started again. */
const RESTART_AFTER_MS = 1000;

let current: ProcessSupervisor | undefined;

/**
 * Makes `supervisor` the one every process tree of this host registers with. A process-wide
 * setting on purpose: what it guards against is the death of this process, which is not any one
 * object's business. Returns what undoes it (and closes the supervisor's pipe).
 */
export function installSupervisor(supervisor: ProcessSupervisor): IDisposable {
  current = supervisor;
  return {
    dispose() {
      if (current === supervisor) current = undefined;
      supervisor.dispose();
    },
  };
}

export function activeSupervisor(): ProcessSupervisor | undefined {
  return current;
}
