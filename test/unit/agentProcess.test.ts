import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentStartError, agentEnvironment } from '../../src/acp/agentProcess';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { resolveCommand } from '../../src/acp/commandResolver';
import { MemoryProtocolLog, redactSecrets } from '../../src/acp/protocolLog';
import { cleanup, isAlive, startTracked, trackUnhandledRejections, waitFor } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
const tmp = mkdtempSync(path.join(tmpdir(), 'tandem-proc-'));
after(async () => {
  await cleanup();
  rmSync(tmp, { recursive: true, force: true });
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

function shell(name: string, script: string, env: Record<string, string> = {}): AgentLaunchConfig {
  return { name, command: 'sh', args: ['-c', script], env, cwd: tmp };
}

describe('resolveCommand', () => {
  const bin = path.join(tmp, 'bin');
  const other = path.join(tmp, 'other');
  mkdirSync(bin, { recursive: true });
  mkdirSync(other, { recursive: true });
  writeFileSync(path.join(bin, 'my-agent'), '#!/bin/sh\n');
  chmodSync(path.join(bin, 'my-agent'), 0o755);
  writeFileSync(path.join(other, 'my-agent'), 'not executable');
  writeFileSync(path.join(other, 'winagent.cmd'), '@echo off');

  test('finds a bare name on PATH and skips non-executable files', () => {
    assert.equal(resolveCommand('my-agent', { PATH: `${other}:${bin}` }, 'linux'), path.join(bin, 'my-agent'));
  });
  test('returns undefined when nothing matches', () => {
    assert.equal(resolveCommand('no-such-agent-xyz', { PATH: `${other}:${bin}` }, 'linux'), undefined);
    assert.equal(resolveCommand('my-agent', {}, 'linux'), undefined);
  });
  test('checks paths with a separator for existence, relative to the cwd', () => {
    assert.equal(resolveCommand(path.join(bin, 'my-agent'), {}, 'linux'), path.join(bin, 'my-agent'));
    assert.equal(resolveCommand(path.join(bin, 'missing'), { PATH: bin }, 'linux'), undefined);
    const rel = path.relative(process.cwd(), path.join(bin, 'my-agent'));
    assert.equal(resolveCommand(rel.includes('/') ? rel : `./${rel}`, {}, 'linux'), path.join(bin, 'my-agent'));
  });
  test('on win32 tries PATHEXT (npm .cmd shims) and reads Path case-insensitively', () => {
    assert.equal(resolveCommand('winagent', { Path: `${bin};${other}`, PATHEXT: '.EXE;.CMD' }, 'win32'), path.join(other, 'winagent.cmd'));
    assert.equal(resolveCommand('winagent.cmd', { PATH: other }, 'win32'), path.join(other, 'winagent.cmd'));
    // Without an extension Windows cannot run a file, so the extension-less one does not count.
    assert.equal(resolveCommand('my-agent', { PATH: bin, PATHEXT: '.EXE;.CMD' }, 'win32'), undefined);
  });
});

describe('redactSecrets', () => {
  test('masks every occurrence of secrets of 4+ characters, longest first', () => {
    assert.equal(redactSecrets('key=sk-abcdef and sk-abcdef again, id=42', ['sk-abcdef', '42', 'sk-abc']), 'key=*** and *** again, id=42');
  });
});

describe('agentEnvironment', () => {
  test('drops IS_SANDBOX and ELECTRON_RUN_AS_NODE unless configured, merges the rest', () => {
    process.env.IS_SANDBOX = 'yes';
    process.env.ELECTRON_RUN_AS_NODE = '1';
    try {
      const env = agentEnvironment({ FOO: 'bar' });
      assert.equal(env.IS_SANDBOX, undefined);
      assert.equal(env.ELECTRON_RUN_AS_NODE, undefined);
      assert.equal(env.FOO, 'bar');
      assert.equal(env.PATH, process.env.PATH);
      assert.equal(agentEnvironment({ IS_SANDBOX: '1' }).IS_SANDBOX, '1');
    } finally {
      delete process.env.IS_SANDBOX;
      delete process.env.ELECTRON_RUN_AS_NODE;
    }
  });
  test('the spawned agent really does not see IS_SANDBOX', async () => {
    process.env.IS_SANDBOX = 'yes';
    try {
      const proc = startTracked(shell('env', 'echo "sandbox=${IS_SANDBOX:-unset} foo=$FOO" >&2', { FOO: 'x' }));
      await proc.exited;
      assert.equal(proc.stderrTail(), 'sandbox=unset foo=x');
    } finally {
      delete process.env.IS_SANDBOX;
    }
  });
});

describe('AgentProcess', () => {
  test('a command that is not on PATH throws not_found with what to do', () => {
    const log = new MemoryProtocolLog();
    assert.throws(
      () => startTracked({ name: 'ghost', command: 'tandem-no-such-agent', args: [], env: {}, cwd: tmp }, log),
      (err: unknown) =>
        err instanceof AgentStartError &&
        err.code === 'not_found' &&
        err.message === "Command 'tandem-no-such-agent' was not found on PATH. Install the agent or set an absolute path in tandem.agents.",
    );
  });

  test('a spawn error (missing cwd) resolves exited with the error, never throws', async () => {
    const log = new MemoryProtocolLog();
    const proc = startTracked({ name: 'nocwd', command: 'sh', args: ['-c', 'true'], env: {}, cwd: path.join(tmp, 'deleted-folder') }, log);
    const exit = await proc.exited;
    assert.ok(exit.error instanceof AgentStartError);
    assert.equal(exit.error.code, 'spawn_failed');
    assert.equal(exit.error.osCode, 'ENOENT');
    assert.match(proc.describeExit(), /could not be started/);
    assert.equal(log.of('error').length, 1);
    await proc.kill(); // nothing to kill: must still resolve
  });

  test('reports exit code, keeps the stderr tail and sends stderr to the log with secrets redacted', async () => {
    const log = new MemoryProtocolLog();
    const proc = startTracked(
      shell('tail', 'for i in 1 2 3 4 5; do echo "line $i" >&2; done; printf "token=$TOKEN" >&2; exit 3', { TOKEN: 'sekrit-123' }),
      log,
    );
    const exit = await proc.exited;
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 3, signal: null });
    assert.equal(proc.stderrTail(2), 'line 5\ntoken=***');
    assert.equal(proc.stderrTail().split('\n').length, 6);
    assert.deepEqual(log.of('stderr'), ['[tail] line 1', '[tail] line 2', '[tail] line 3', '[tail] line 4', '[tail] line 5', '[tail] token=***']);
    assert.ok(!log.toString().includes('sekrit-123'));
    let seen: unknown;
    proc.onExit((e) => (seen = e));
    await new Promise((r) => setImmediate(r));
    assert.equal(seen, exit, 'onExit after the fact still reports');
  });

  test('kill() takes the whole process group, grandchildren included, and is safe twice', async () => {
    const proc = startTracked(shell('group', 'sleep 30 & echo $! >&2; wait'));
    await waitFor(() => /^\d+$/.test(proc.stderrTail(1)), 5000, 'grandchild pid');
    const grandchild = Number(proc.stderrTail(1));
    assert.ok(isAlive(grandchild));
    await Promise.all([proc.kill(), proc.kill()]);
    const exit = await proc.exited;
    assert.equal(exit.signal, 'SIGTERM');
    await waitFor(() => !isAlive(grandchild), 3000, 'grandchild gone');
    await proc.kill();
  });

  test('kill() escalates to SIGKILL when SIGTERM is ignored', async () => {
    const proc = startTracked(shell('stubborn', 'trap "" TERM; echo ready >&2; while true; do sleep 1; done'));
    await waitFor(() => proc.stderrTail(1) === 'ready', 5000, 'ready');
    const t0 = Date.now();
    await proc.kill();
    const elapsed = Date.now() - t0;
    assert.equal((await proc.exited).signal, 'SIGKILL');
    assert.ok(elapsed >= 1900, `waited the grace period (${elapsed} ms)`);
  });

  test('an agent that exits leaves no orphans in its group', async () => {
    const proc = startTracked(shell('leaver', 'sleep 30 & echo $! >&2; exit 0'));
    const exit = await proc.exited;
    assert.equal(exit.code, 0);
    const grandchild = Number(proc.stderrTail(1));
    await waitFor(() => !isAlive(grandchild), 3000, 'orphan reaped');
  });

  test('writing to an agent that died does not throw', async () => {
    const proc = startTracked(shell('dead', 'exit 0'));
    await proc.exited;
    await new Promise<void>((resolve) => {
      proc.stdin.write('{"x":1}\n', () => resolve());
    });
  });
});
