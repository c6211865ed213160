// Child processes started by the harness run in their own process group (detached = setsid), so
// one signal to the group also reaches what they spawned (code-server's extension host, file
// watcher, agents). Every group is killed when this process exits, even after a failure or Ctrl+C.
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const groups = new Set<number>();
let hooked = false;

function killAllSync(): void {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  groups.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAllSync();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** Sends `signal` to the whole process group led by `pid`; a group already gone is not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group has already exited.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Spawns `command` as the leader of a new process group that is killed on exit. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  hookExit();
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  const pid = child.pid;
  groups.add(pid);
  child.once('exit', () => {
    if (!groupAlive(pid)) groups.delete(pid);
  });
  return child;
}

/** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. */
export async function stopGroup(pid: number, graceMs = 3000): Promise<void> {
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

export interface ProcessInfo {
  pid: number;
  /** Process group id. */
  pgid: number;
  cmdline: string;
}

/** Live (non-zombie) processes, read from /proc (Linux), optionally only those with `NAME=value` in their environment. */
export function listProcesses(env?: { name: string; value: string }): ProcessInfo[] {
  const needle = env ? Buffer.from(`\0${env.name}=${env.value}\0`) : undefined;
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      if (needle && !Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${name}/environ`), Buffer.from([0])]).includes(needle)) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      out.push({ pid: Number(name), pgid: Number(fields[2]), cmdline });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return out;
}
