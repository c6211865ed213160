/**
 * What a session may touch is decided in one place, SessionRouter (finding 4 of the security
 * review): file and terminal requests are served only for a session attached and live, with that
 * session's scope. A made-up id, a detached session or an endpoint of a connect attempt that is
 * over gets -32602 naming the session — never the runtime's workspace policy and no review. Real
 * files, real terminals (a command that would create a marker file), the live services the
 * runtime builds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../../src/acp/agentPort';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import type { TerminalService } from '../../src/client/terminalManager';
import { clientServices } from '../../src/runtime/clientServices';
import type { SessionEndpoint } from '../../src/runtime/sessionPort';
import { SessionRouter } from '../../src/runtime/sessionRouter';

const policyOver = (root: string): PathPolicy => new PathPolicy({ roots: () => [root], allowOutside: () => false, askOutside: async () => false });

function endpoint(scope: { policy: PathPolicy; cwd: string } | undefined, writes: string[], live = () => true): SessionEndpoint {
  return {
    scope,
    live,
    update: () => undefined,
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
    terminal: () => undefined,
    touched: () => undefined,
    beforeWrite: async (path) => void writes.push(path),
    proposeWrite: async () => {
      throw new Error('not a sandbox');
    },
    elicit: async () => ({ action: 'decline' }),
    elicitationComplete: () => undefined,
  };
}

function world() {
  const base = mkdtempSync(join(tmpdir(), 'tandem-router-'));
  const main = join(base, 'main');
  const worktree = join(base, 'worktree');
  mkdirSync(main);
  mkdirSync(worktree);
  const log = new MemoryProtocolLog();
  const services = clientServices({ name: 'A', command: 'a', args: [], env: {}, cwd: main }, { files: new NodeFileAccess(), policy: policyOver(main) });
  const terminals: TerminalService = services.terminals();
  const router = new SessionRouter({ log, files: (e) => services.files(e) }, () => terminals);
  return { base, main, worktree, log, router, handlers: router.handlers() as Required<ClientHandlers>, terminals };
}

async function refused(work: Promise<unknown>, session: string): Promise<void> {
  await assert.rejects(work, (err: unknown) => {
    assert.ok(err instanceof RequestError, String(err));
    assert.equal(err.code, -32602);
    assert.match(err.message, new RegExp(`Unknown session "${session}"`));
    return true;
  });
}

test('file writes naming a session the router does not know are refused, not served with the workspace policy', async () => {
  const w = world();
  try {
    const writes: string[] = [];
    w.router.attach('wt', endpoint({ policy: policyOver(w.worktree), cwd: w.worktree }, writes));
    // The worktree session is confined to its worktree…
    await assert.rejects(w.handlers.writeTextFile({ sessionId: 'wt', path: join(w.main, 'a.txt'), content: 'x' }));
    await w.handlers.writeTextFile({ sessionId: 'wt', path: join(w.worktree, 'b.txt'), content: 'ok' });
    assert.deepEqual(writes, [join(w.worktree, 'b.txt')]);
    // …and any other id is not a way out of it.
    await refused(w.handlers.writeTextFile({ sessionId: 'anything', path: join(w.main, 'escaped.txt'), content: 'x' }), 'anything');
    await refused(w.handlers.readTextFile({ sessionId: 'anything', path: join(w.main, 'escaped.txt') }), 'anything');
    assert.equal(existsSync(join(w.main, 'escaped.txt')), false);
    assert.deepEqual(writes, [join(w.worktree, 'b.txt')], 'no unreviewed write happened');
    assert.ok(w.log.of('warn').some((l) => l.includes('session anything refused')));
  } finally {
    rmSync(w.base, { recursive: true, force: true });
  }
});

test('a detached session and an endpoint of a connect attempt that is over are refused too', async () => {
  const w = world();
  try {
    let live = true;
    w.router.attach(
      'old',
      endpoint(undefined, [], () => live),
    );
    await w.handlers.writeTextFile({ sessionId: 'old', path: join(w.main, 'first.txt'), content: 'x' });
    live = false;
    await refused(w.handlers.writeTextFile({ sessionId: 'old', path: join(w.main, 'late.txt'), content: 'x' }), 'old');
    w.router.attach('gone', endpoint(undefined, []));
    w.router.detach('gone');
    await refused(w.handlers.writeTextFile({ sessionId: 'gone', path: join(w.main, 'late.txt'), content: 'x' }), 'gone');
    assert.equal(existsSync(join(w.main, 'late.txt')), false);
    assert.equal(existsSync(join(w.main, 'first.txt')), true);
  } finally {
    rmSync(w.base, { recursive: true, force: true });
  }
});

test('terminals for an unknown session are refused before anything runs; a known one runs in its scope', async () => {
  const w = world();
  try {
    const marker = join(w.main, 'MARKER');
    await refused(w.handlers.createTerminal({ sessionId: 'nobody', command: 'sh', args: ['-c', `touch ${marker}`] }), 'nobody');
    w.router.attach('wt', endpoint({ policy: policyOver(w.worktree), cwd: w.worktree }, []));
    const { terminalId } = await w.handlers.createTerminal({ sessionId: 'wt', command: 'sh', args: ['-c', 'touch HERE'] });
    await w.handlers.waitForTerminalExit({ sessionId: 'wt', terminalId });
    assert.equal(existsSync(join(w.worktree, 'HERE')), true, 'the session runs in its own folder');
    await refused(w.handlers.terminalOutput({ sessionId: 'nobody', terminalId }), 'nobody');
    await w.handlers.releaseTerminal({ sessionId: 'wt', terminalId });
    // The refused command never ran: its marker is not there once the known one has finished.
    assert.equal(existsSync(marker), false);
  } finally {
    await w.terminals.disposeAll();
    rmSync(w.base, { recursive: true, force: true });
  }
});
