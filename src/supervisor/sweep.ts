import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable every process Tandem starts carries (agents, the commands it runs for
 * them, and — by inheritance — whatever those start). Its value names one extension host's
 * supervisor, so a sweep ends exactly that host's processes and nobody else's.
 */
export const SUPERVISOR_ENV = 'TANDEM_SUPERVISOR_ID';

/** What a sweep ends: the process groups the host registered and every process carrying the marker. */
export interface SweepTargets {
  /** Leaders of the registered process groups (on Windows: roots of process trees). */
  groups: Iterable<number>;
  /** The marker's value; processes whose environment has `SUPERVISOR_ENV=<marker>` are ended too. */
  marker: string | undefined;
}

export interface SweepOptions {
  /** How long after SIGTERM what is left gets SIGKILL; default 1500 ms (the host's promise is 5 s). */
  graceMs?: number;
  /** When the sweep gives up even if something survived SIGKILL (a process in uninterruptible sleep). */
  deadlineMs?: number;
  platform?: NodeJS.Platform;
  /** Where the process table is read on Linux (tests point it elsewhere only to make it fail). */
  procDir?: string;
  /** This process and its ancestors must never be signalled. */
  exclude?: ReadonlySet<number>;
}

/**
 * Linux: every process whose initial environment carries the marker. That finds descendants that
 * left their group (setsid daemons) or were started after the last registration reached the
 * supervisor. Processes of other users cannot be read and are skipped (they are not ours).
 */
export function markedProcesses(marker: string, procDir = '/proc', exclude: ReadonlySet<number> = new Set([process.pid])): number[] {
  const needle = Buffer.from(`\0${SUPERVISOR_ENV}=${marker}\0`);
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync(procDir);
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (exclude.has(pid)) continue;
    try {
      // environ is NUL-separated without a leading NUL: add one so the first variable matches too.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`${procDir}/${name}/environ`), Buffer.from([0])]);
      if (environ.includes(needle) && !isZombie(procDir, name)) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function isZombie(procDir: string, name: string): boolean {
  try {
    const stat = readFileSync(`${procDir}/${name}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
  } catch {
    return true;
  }
}

/** True while process group `pgid` has a member (POSIX). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: already gone; EPERM: not ours.
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Ends every target: SIGTERM, then SIGKILL to whatever is left after the grace (an agent that
 * ignores SIGTERM and stdin EOF does not survive), looking again for marked processes each round
 * so children started while their parents died are caught too. Resolves with what could not be
 * ended by the deadline (normally nothing).
 */
export async function sweep(targets: SweepTargets, opts: SweepOptions = {}): Promise<number[]> {
  const platform = opts.platform ?? process.platform;
  const graceMs = opts.graceMs ?? 1500;
  const deadline = Date.now() + (opts.deadlineMs ?? 4000);
  const groups = [...targets.groups];
  const exclude = opts.exclude ?? new Set([process.pid]);
  if (platform === 'win32') {
    // No process groups: taskkill walks each registered tree. Forceful at once (there is no gentle
    // way to stop a tree of console programs on Windows).
    for (const pid of groups) spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return [];
  }
  const marked = () => (targets.marker && platform === 'linux' ? markedProcesses(targets.marker, opts.procDir, exclude) : []);
  const alive = () => [...groups.filter(groupAlive).map((g) => -g), ...marked()];
  const signalAll = (sig: NodeJS.Signals) => {
    for (const target of alive()) signal(target, sig);
  };
  const termAt = Date.now();
  signalAll('SIGTERM');
  while (alive().length > 0 && Date.now() - termAt < graceMs) await sleep(50);
  let left = alive();
  while (left.length > 0 && Date.now() < deadline) {
    signalAll('SIGKILL');
    await sleep(50);
    left = alive();
  }
  return left;
}
