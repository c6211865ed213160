/**
 * Where the hosted bridge keeps conversations and who may read them. Without --state-dir (the
 * CLI, Zed) the folder is the user's own state folder ($XDG_STATE_HOME, ~/.local/state, …), never
 * the shared temp dir whose names any local user can compute and create first; the folders the
 * bridge creates are 0700 and the session files 0600 — also under Tandem's own --state-dir in
 * its global storage. The modes are read from disk after a real bridge process saved a turn.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultStateDir } from '../../src/hostedAgent/config';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { sseText } from '../fixtures/hostedServer/replies';
import { SEED_TOOL_EVENTS } from '../fixtures/hostedServer/seedPayloads';
import { buildHostedAgent, startBridge } from '../support/hostedBridge';

const URL_ = 'https://agents.example.com/api/v1/chat';
const posix = process.platform !== 'win32';

test('the default state folder is per user, one per URL, never under the temp dir', () => {
  const hash = defaultStateDir(URL_, {}, 'linux', '/home/ann').split('/').pop();
  assert.match(hash ?? '', /^[0-9a-f]{16}$/);
  assert.equal(defaultStateDir(URL_, { XDG_STATE_HOME: '/xdg/state' }, 'linux', '/home/ann'), `/xdg/state/tandem-hosted/${hash}`);
  assert.equal(defaultStateDir(URL_, {}, 'linux', '/home/ann'), `/home/ann/.local/state/tandem-hosted/${hash}`);
  assert.equal(
    defaultStateDir(URL_, { XDG_STATE_HOME: 'relative/state' }, 'linux', '/home/ann'),
    `/home/ann/.local/state/tandem-hosted/${hash}`,
    'a relative XDG value is ignored',
  );
  assert.equal(defaultStateDir(URL_, {}, 'darwin', '/Users/ann'), `/Users/ann/Library/Application Support/tandem-hosted/${hash}`);
  assert.notEqual(defaultStateDir(URL_, {}, 'linux', '/home/ann'), defaultStateDir('https://other.example/chat', {}, 'linux', '/home/ann'));
  assert.ok(!defaultStateDir(URL_).startsWith(tmpdir()), 'not in the shared temp dir');
});

let server: HostedServer;
let scratch: string;
before(async () => {
  server = await startHostedServer();
  scratch = mkdtempSync(join(tmpdir(), 'tandem-hosted-modes-'));
  await buildHostedAgent();
});
after(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);

/** One saved turn in a bridge started with `stateDir` and `env`; the session's id. */
async function savedTurn(t: Parameters<typeof startBridge>[0], stateDir: string, env: Record<string, string>): Promise<string> {
  const b = await startBridge(t, { args: ['--url', server.chatUrl, '--format', 'tool-events'], env, stateDir });
  const sid = await b.newSession(scratch);
  server.reply(sseText(SEED_TOOL_EVENTS));
  assert.equal((await b.prompt(sid, 'hi')).stopReason, 'end_turn');
  await b.stop();
  return sid;
}

test('without --state-dir: conversations go to $XDG_STATE_HOME/tandem-hosted, folders 0700, files 0600', { skip: !posix, timeout: 30_000 }, async (t) => {
  const state = join(scratch, 'xdg-state');
  const sid = await savedTurn(t, 'default', { XDG_STATE_HOME: state, HOME: join(scratch, 'home') });
  const root = join(state, 'tandem-hosted');
  const [folder] = readdirSync(root);
  assert.equal(join(root, folder), defaultStateDir(server.chatUrl, { XDG_STATE_HOME: state }));
  assert.deepEqual([mode(root), mode(join(root, folder))], ['700', '700']);
  assert.deepEqual(readdirSync(join(root, folder)), [`${sid}.json`]);
  assert.equal(mode(join(root, folder, `${sid}.json`)), '600');
});

test('Tandem’s --state-dir in its global storage is created 0700 with its files 0600', { skip: !posix, timeout: 30_000 }, async (t) => {
  const storage = join(scratch, 'globalStorage');
  const stateDir = join(storage, 'hosted', '0123456789abcdef');
  const sid = await savedTurn(t, stateDir, {});
  assert.deepEqual([mode(join(storage, 'hosted')), mode(stateDir)], ['700', '700']);
  assert.equal(mode(join(stateDir, `${sid}.json`)), '600');
});
