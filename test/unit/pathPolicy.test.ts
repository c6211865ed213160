import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { PathPolicy } from '../../src/client/pathPolicy';
import type { AccessOp } from '../../src/client/pathPolicy';

interface Fixture {
  base: string;
  ws: string;
  outside: string;
  asked: Array<{ path: string; op: AccessOp }>;
  policy(opts?: { allow?: boolean; answer?: boolean }): PathPolicy;
}

function fixture(t: { after: (fn: () => void) => void }): Fixture {
  // realpath: the temp dir itself may sit behind a symlink (macOS /var → /private/var).
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-path-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(ws, 'src', 'a.txt'), 'a');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 's');
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const asked: Fixture['asked'] = [];
  return {
    base,
    ws,
    outside,
    asked,
    policy: ({ allow = false, answer = false } = {}) =>
      new PathPolicy({
        roots: () => [ws],
        allowOutside: () => allow,
        askOutside: async (p, op) => {
          asked.push({ path: p, op });
          return answer;
        },
      }),
  };
}

async function refused(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RequestError, `expected RequestError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the access to be refused');
}

test('a file inside the workspace is allowed without asking and resolved', async (t) => {
  const f = fixture(t);
  const p = f.policy();
  assert.equal(await p.check(path.join(f.ws, 'src', 'a.txt'), 'read'), path.join(f.ws, 'src', 'a.txt'));
  assert.equal(await p.check(path.join(f.ws, 'src', 'new', 'deep', 'b.txt'), 'write'), path.join(f.ws, 'src', 'new', 'deep', 'b.txt'));
  assert.equal(await p.check(f.ws, 'read'), f.ws);
  assert.deepEqual(f.asked, []);
});

test('relative paths are rejected as invalid params', async (t) => {
  const f = fixture(t);
  const err = await refused(f.policy({ allow: true }).check('src/a.txt', 'read'));
  assert.equal(err.code, -32602);
  assert.match(err.message, /absolute/);
});

test('.. escaping the workspace counts as outside and is refused with the setting named', async (t) => {
  const f = fixture(t);
  const err = await refused(f.policy().check(`${f.ws}/src/../../outside/secret.txt`, 'read'));
  assert.match(err.message, /outside the workspace folders; the user did not allow read access/);
  assert.match(err.message, /tandem\.allowFileAccessOutsideWorkspace/);
  assert.deepEqual(f.asked, [{ path: path.join(f.outside, 'secret.txt'), op: 'read' }]);
});

test('.. that stays inside the workspace is fine', async (t) => {
  const f = fixture(t);
  assert.equal(await f.policy().check(`${f.ws}/src/../src/a.txt`, 'read'), path.join(f.ws, 'src', 'a.txt'));
});

test('a sibling folder sharing the prefix is not inside (ws vs ws-evil)', async (t) => {
  const f = fixture(t);
  fs.mkdirSync(`${f.ws}-evil`);
  await refused(f.policy().check(`${f.ws}-evil/x.txt`, 'write'));
  assert.equal(f.policy().isInWorkspace(`${f.ws}-evil/x.txt`), false);
});

test('a symlink inside the workspace pointing outside counts as outside', async (t) => {
  const f = fixture(t);
  fs.symlinkSync(f.outside, path.join(f.ws, 'link'));
  const p = f.policy();
  const err = await refused(p.check(path.join(f.ws, 'link', 'secret.txt'), 'read'));
  assert.match(err.message, /resolves to/);
  // A new file below the link would land outside too.
  await refused(p.check(path.join(f.ws, 'link', 'new', 'file.txt'), 'write'));
  assert.equal(p.isInWorkspace(path.join(f.ws, 'link', 'secret.txt')), false);
  assert.equal(p.isInWorkspace(path.join(f.ws, 'src', 'a.txt')), true);
});

test('a dangling symlink whose target is outside is refused for writes', async (t) => {
  const f = fixture(t);
  fs.symlinkSync(path.join(f.outside, 'not-yet.txt'), path.join(f.ws, 'dangling.txt'));
  const err = await refused(f.policy().check(path.join(f.ws, 'dangling.txt'), 'write'));
  assert.equal((err.data as { resolvedPath: string }).resolvedPath, path.join(f.outside, 'not-yet.txt'));
});

test('a symlink inside pointing inside is allowed and resolved to its target', async (t) => {
  const f = fixture(t);
  fs.symlinkSync(path.join(f.ws, 'src'), path.join(f.ws, 'alias'));
  assert.equal(await f.policy().check(path.join(f.ws, 'alias', 'a.txt'), 'read'), path.join(f.ws, 'src', 'a.txt'));
});

test('a workspace root reached through a symlink still contains its files', async (t) => {
  const f = fixture(t);
  const linkRoot = path.join(f.base, 'ws-link');
  fs.symlinkSync(f.ws, linkRoot);
  const p = new PathPolicy({ roots: () => [linkRoot], allowOutside: () => false, askOutside: async () => false });
  assert.equal(await p.check(path.join(linkRoot, 'src', 'a.txt'), 'read'), path.join(f.ws, 'src', 'a.txt'));
});

test('outside access: the user is asked each time, and a yes allows it', async (t) => {
  const f = fixture(t);
  const p = f.policy({ answer: true });
  const target = path.join(f.outside, 'secret.txt');
  assert.equal(await p.check(target, 'read'), target);
  assert.equal(await p.check(target, 'write'), target);
  assert.deepEqual(f.asked, [
    { path: target, op: 'read' },
    { path: target, op: 'write' },
  ]);
});

test('outside access: the setting allows it without asking', async (t) => {
  const f = fixture(t);
  const target = path.join(f.outside, 'secret.txt');
  assert.equal(await f.policy({ allow: true }).check(target, 'write'), target);
  assert.deepEqual(f.asked, []);
});

test('a prompt that throws counts as a refusal', async (t) => {
  const f = fixture(t);
  const p = new PathPolicy({
    roots: () => [f.ws],
    allowOutside: () => false,
    askOutside: async () => {
      throw new Error('window closed');
    },
  });
  await refused(p.check(path.join(f.outside, 'secret.txt'), 'read'));
});

test('roots are read on every check (a folder added later counts)', async (t) => {
  const f = fixture(t);
  const roots = [f.ws];
  const p = new PathPolicy({ roots: () => roots, allowOutside: () => false, askOutside: async () => false });
  const target = path.join(f.outside, 'secret.txt');
  await refused(p.check(target, 'read'));
  roots.push(f.outside);
  assert.equal(await p.check(target, 'read'), target);
  assert.equal(p.isInWorkspace(target), true);
});

test('no workspace folder: everything is outside', async (t) => {
  const f = fixture(t);
  const p = new PathPolicy({ roots: () => [], allowOutside: () => false, askOutside: async () => false });
  await refused(p.check(path.join(f.ws, 'src', 'a.txt'), 'read'));
  assert.equal(p.isInWorkspace(path.join(f.ws, 'src', 'a.txt')), false);
});

test('no agent writes inside .git — the folder, a worktree’s .git file, a nested one, through a link — reads stay allowed', async (t) => {
  const f = fixture(t);
  fs.mkdirSync(path.join(f.ws, '.git'));
  fs.writeFileSync(path.join(f.ws, '.git', 'config'), '[core]\n');
  fs.symlinkSync(path.join(f.ws, '.git'), path.join(f.ws, 'g'));
  const p = f.policy({ allow: true, answer: true });
  for (const target of [
    path.join(f.ws, '.git', 'config'),
    path.join(f.ws, '.git', 'hooks', 'pre-commit'),
    path.join(f.ws, '.git'),
    path.join(f.ws, 'src', '.git'),
    path.join(f.ws, 'src', '..', '.git', 'HEAD'),
    path.join(f.ws, 'g', 'config'),
    path.join(f.outside, 'repo', '.git', 'config'),
  ]) {
    const err = await refused(p.check(target, 'write'));
    assert.match(err.message, /^Tandem does not let agents write inside \.git: /, target);
  }
  assert.deepEqual(f.asked, [], 'refused without asking, whatever the outside-access setting says');
  assert.equal(await p.check(path.join(f.ws, '.git', 'config'), 'read'), path.join(f.ws, '.git', 'config'));
  for (const name of ['.gitignore', '.gitattributes', path.join('.github', 'workflows', 'ci.yml'), path.join('src', 'x.git')])
    assert.equal(await p.check(path.join(f.ws, name), 'write'), path.join(f.ws, name));
});
