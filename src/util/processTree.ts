import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { activeSupervisor } from './processSupervisor';

/** Grace between SIGTERM and SIGKILL when stopping a process tree. */
export const KILL_GRACE_MS = 2000;

/**
 * Spawn options that make the child the root of a tree we can stop as a whole. On POSIX it leads a
 * new process group (its children inherit it, so `kill(-pid)` reaches them). Windows has no process
 * groups, and `detached` there would open a console window: taskkill /T walks the tree instead.
 */
export function processTreeSpawnOptions(platform: NodeJS.Platform = process.platform): { detached: boolean } {
  return { detached: platform !== 'win32' };
}

/**
 * Spawns `file` as the root of a process tree ({@link processTreeSpawnOptions}) that this host's
 * supervisor ends should the host die: the child carries the supervisor's marker in its
 * environment (so do its descendants, by inheritance) and its group is registered. Every process
 * Tandem starts for an agent goes through here.
 */
export function spawnTree(file: string, args: readonly string[], options: SpawnOptions, platform: NodeJS.Platform = process.platform): ChildProcess {
  const supervisor = activeSupervisor();
  const env = supervisor ? { ...(options.env ?? process.env), ...supervisor.env() } : options.env;
  const child = spawn(file, args, { ...options, env, ...processTreeSpawnOptions(platform) });
  if (supervisor && child.pid !== undefined) {
    const pid = child.pid;
    supervisor.watch(pid);
    // Forgotten once the leader has exited and nothing of its group is left; a group that lives on
    // stays registered (the supervisor drops it when it ends).
    child.once('exit', () =>
      setTimeout(() => {
        if (!groupExists(pid, platform)) supervisor.forget(pid);
      }, 100).unref(),
    );
  }
  return child;
}

function groupExists(pid: number, platform: NodeJS.Platform): boolean {
  return platform !== 'win32' && signalGroup(pid, 0);
}

/**
 * A spawned child and everything it starts (agents launched through npx start grandchildren,
 * commands leave background jobs). Stopping it means stopping all of them, and on POSIX the group
 * outlives its leader: background children may keep running after the leader has exited.
 */
export class ProcessTree {
  private escalation: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly child: ChildProcess,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** True while the leader has neither exited nor been reported killed. */
  private get leaderRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Sends `signal` to the whole tree; false when nothing was left to signal. On Windows every
   * signal is taskkill /T /F (there is no gentle way to stop a tree of console programs).
   */
  signal(signal: NodeJS.Signals): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    if (this.platform === 'win32') {
      // The tree is found through the leader: once it is gone (and its pid may be reused), leave it.
      if (!this.leaderRunning) return false;
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      killer.on('error', () => this.killLeader(signal));
      return true;
    }
    if (signalGroup(pid, signal)) return true;
    // ESRCH: the group is gone. The leader may have left it (setsid) and still be running.
    return this.leaderRunning && this.killLeader(signal);
  }

  /** True while any process of the tree may still be running (on POSIX: the group exists). */
  get alive(): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    return this.platform === 'win32' ? this.leaderRunning : signalGroup(pid, 0) || this.leaderRunning;
  }

  /**
   * SIGTERM now and SIGKILL after the grace to whatever is still alive, even if the leader exited in
   * between (a background child that ignores TERM must not survive). Returns at once; calling it
   * again re-sends TERM but schedules no second KILL. False when there was nothing to stop.
   */
  terminate(graceMs = KILL_GRACE_MS): boolean {
    if (!this.signal('SIGTERM')) return false;
    // taskkill /F is already forceful; a timer would only risk hitting a reused pid.
    if (this.platform === 'win32' || this.escalation) return true;
    this.escalation = setTimeout(() => {
      if (this.alive) this.signal('SIGKILL');
    }, graceMs);
    // Stopping a tree must never keep the host alive by itself.
    this.escalation.unref();
    return true;
  }

  /** {@link terminate}, then waits until `exited` (the leader's exit as its owner reports it). */
  async kill(exited: Promise<unknown>, graceMs = KILL_GRACE_MS): Promise<void> {
    this.terminate(graceMs);
    await exited;
  }

  /** Cancels a pending escalation (the owner is sure nothing is left, or gives the tree up). */
  dispose(): void {
    if (this.escalation) clearTimeout(this.escalation);
  }

  private killLeader(signal: NodeJS.Signals): boolean {
    try {
      return this.child.kill(signal);
    } catch {
      return false; // already gone
    }
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
