// The supervisor ends what a host started when the host is gone — SIGKILLed (no code of the host
// runs again), or disposed as on deactivate — even an agent that ignores SIGTERM and the end of its
// stdin, its child in its group, and a daemon it started outside its group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markedProcesses, SUPERVISOR_ENV, sweep } from '../../src/supervisor/sweep';

const linux = process.platform === 'linux';
const host = join(__dirname, '../fixtures/supervised/host.ts');

interface Pids {
  agent: number;
  terminal: number;
  supervisor: number;
  child: number;
  daemon: number;
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Every process whose environment carries `TEST_MARKER=<marker>` (the test's own, not Tandem's). */
function withTestMarker(marker: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)) {
    if (pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(`TEST_MARKER=${marker}`) && alive(pid)) out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<number> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - t0;
}

async function startHost(
  marker: string,
): Promise<{ pids: Pids; kill: (signal: NodeJS.Signals) => void; send: (text: string) => void; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', host], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TEST_MARKER: marker } });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pids = await new Promise<Pids>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0] ?? '') as Pids);
    });
    child.once('exit', (code) => reject(new Error(`the host exited early (${code})`)));
  });
  return { pids, kill: (signal) => child.kill(signal), send: (text) => child.stdin.write(text), exited };
}

test(
  'a SIGKILLed host: the supervisor ends the stubborn agent, its child, its setsid daemon and the terminal within 5 s',
  { skip: !linux, timeout: 30_000 },
  async () => {
    const marker = randomUUID();
    const { pids, kill, exited } = await startHost(marker);
    for (const name of ['agent', 'terminal', 'supervisor', 'child', 'daemon'] as const) assert.ok(alive(pids[name]), `${name} runs`);
    // The daemon left the agent's group: only the marker finds it.
    assert.notEqual(readFileSync(`/proc/${pids.daemon}/stat`, 'utf8').split(') ')[1]?.split(' ')[2], String(pids.agent));
    kill('SIGKILL');
    await exited;
    await waitFor(() => withTestMarker(marker).length === 0, 5000, 'every process of the run ended');
    assert.ok(!alive(pids.supervisor), 'the supervisor exits after its sweep');
  },
);

test('a host that disposes the supervisor (deactivate) also leaves nothing behind', { skip: !linux, timeout: 30_000 }, async () => {
  const marker = randomUUID();
  const { pids, send, kill, exited } = await startHost(marker);
  send('dispose\n');
  await waitFor(() => !alive(pids.agent) && !alive(pids.child) && !alive(pids.daemon) && !alive(pids.terminal), 5000, 'the host’s processes ended');
  await waitFor(() => !alive(pids.supervisor), 5000, 'the supervisor exited');
  kill('SIGKILL');
  await exited;
  assert.deepEqual(
    withTestMarker(marker).filter((p) => p !== pids.supervisor),
    [],
  );
});

test('markedProcesses finds exactly the processes carrying the marker, and sweep ends them', { skip: !linux, timeout: 20_000 }, async () => {
  const marker = randomUUID();
  const mine = spawn('sh', ['-c', "trap '' TERM; sleep 300"], { stdio: 'ignore', env: { ...process.env, [SUPERVISOR_ENV]: marker } });
  const other = spawn('sleep', ['300'], { stdio: 'ignore', env: { ...process.env, [SUPERVISOR_ENV]: `${marker}-not` } });
  await waitFor(() => markedProcesses(marker).length >= 1, 2000, 'the marked process seen');
  assert.ok(markedProcesses(marker).includes(mine.pid as number));
  assert.ok(!markedProcesses(marker).includes(other.pid as number), 'a similar value is not a match');
  const left = await sweep({ groups: [], marker }, { graceMs: 200 });
  assert.deepEqual(left, []);
  assert.ok(!alive(mine.pid as number), 'ended, SIGTERM ignored or not');
  assert.ok(alive(other.pid as number), 'another host’s process is left alone');
  other.kill('SIGKILL');
});
