import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ProcessTree, processTreeSpawnOptions } from '../../src/util/processTree';

const posix = process.platform !== 'win32';

/** Alive and not a zombie (a zombie is dead but still answers kill(pid, 0)). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The background child prints its pid only once it ignores TERM (printing `$!` from the parent raced
 * the child's `trap`: a TERM sent before it landed killed the child early).
 */
const STUBBORN = `sh -c 'trap "" TERM; echo $$; exec sleep 100' & wait`;

/** A shell leading its own group, with a background child that ignores SIGTERM; its pid is printed. */
async function stubbornTree(script: string): Promise<{ tree: ProcessTree; exited: Promise<unknown>; background: number; leader: number }> {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], ...processTreeSpawnOptions() });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const background = await new Promise<number>((resolve) => child.stdout.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))));
  return { tree: new ProcessTree(child), exited, background, leader: child.pid as number };
}

test('spawn options: a new process group on POSIX, no detached console on Windows', () => {
  assert.deepEqual(processTreeSpawnOptions('linux'), { detached: true });
  assert.deepEqual(processTreeSpawnOptions('darwin'), { detached: true });
  assert.deepEqual(processTreeSpawnOptions('win32'), { detached: false });
});

test('kill: TERM to the group, KILL after the grace for what ignores it, even once the leader is gone', { skip: !posix }, async () => {
  const { tree, exited, background, leader } = await stubbornTree(STUBBORN);
  assert.ok(alive(background));
  const t0 = Date.now();
  await tree.kill(exited, 300);
  // The leader died of TERM at once; the background child only goes with the KILL.
  assert.ok(Date.now() - t0 < 300, 'kill resolves when the leader has exited');
  assert.ok(!alive(leader));
  assert.ok(alive(background), 'TERM was ignored');
  await waitFor(() => !alive(background));
  assert.ok(Date.now() - t0 >= 250, 'only after the grace');
});

test('dispose cancels a pending escalation', { skip: !posix }, async (t) => {
  const { tree, exited, background } = await stubbornTree(STUBBORN);
  // A fake clock carries the test past the grace; the signals sent are recorded, not guessed from timing.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const kill = t.mock.method(process, 'kill');
  assert.equal(tree.terminate(200), true);
  tree.dispose();
  await exited;
  t.mock.timers.tick(10_000);
  assert.deepEqual(
    kill.mock.calls.map((c) => c.arguments[1]).filter((s) => s !== 0),
    ['SIGTERM'],
    'no KILL was sent',
  );
  assert.ok(alive(background));
  t.mock.timers.reset();
  assert.equal(tree.signal('SIGKILL'), true, 'the group still exists after its leader exited');
  await waitFor(() => !alive(background));
});
