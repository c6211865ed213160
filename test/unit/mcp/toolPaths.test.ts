// A tool's `path` argument through the session's real PathPolicy: relative paths are the
// workspace's, `..` and symlinks out of the root are outside, and outside needs the user's consent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PathPolicy } from '../../../src/client/pathPolicy';
import { EditorToolRegistry } from '../../../src/mcp/toolRegistry';
import { displayPath, resolveToolPath, ToolPathError } from '../../../src/mcp/toolPaths';
import { ToolArgumentError } from '../../../src/mcp/toolSchema';
import { fakePort, fakeWorkspace, methods } from '../../support/fakeToolPort';

const signal = new AbortController().signal;

function policy(roots: string[], answer = false): { policy: PathPolicy; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    policy: new PathPolicy({
      roots: () => roots,
      allowOutside: () => false,
      askOutside: async (p) => {
        asked.push(p);
        return answer;
      },
    }),
  };
}

test('relative paths resolve against the workspace root; absolute ones inside pass as they are', async (t) => {
  const w = fakeWorkspace(t);
  const file = w.file('src/a.ts', 'a');
  const { policy: p, asked } = policy([w.ws]);
  assert.equal(await resolveToolPath(p, 'src/a.ts', 'read'), file);
  assert.equal(await resolveToolPath(p, './src/../src/a.ts', 'read'), file);
  assert.equal(await resolveToolPath(p, file, 'read'), file);
  assert.equal(await resolveToolPath(p, 'src/new/b.ts', 'write'), path.join(w.ws, 'src/new/b.ts'), 'a file to create');
  assert.deepEqual(asked, []);
});

test('a path outside the workspace is refused unless the user consents, and asked about each time', async (t) => {
  const w = fakeWorkspace(t);
  const secret = path.join(w.outside, 'secret.txt');
  fs.writeFileSync(secret, 's');
  const no = policy([w.ws]);
  await assert.rejects(resolveToolPath(no.policy, secret, 'read'), (err: unknown) => {
    assert.ok(err instanceof ToolPathError);
    assert.match(err.message, /secret\.txt is outside the workspace folders; the user did not allow read access/);
    return true;
  });
  assert.deepEqual(no.asked, [secret]);
  const yes = policy([w.ws], true);
  assert.equal(await resolveToolPath(yes.policy, secret, 'read'), secret);
  assert.equal(await resolveToolPath(yes.policy, secret, 'read'), secret);
  assert.deepEqual(yes.asked, [secret, secret]);
});

test('`..` escapes from the root are outside', async (t) => {
  const w = fakeWorkspace(t);
  fs.writeFileSync(path.join(w.outside, 'secret.txt'), 's');
  const { policy: p, asked } = policy([w.ws]);
  for (const escape of ['../outside/secret.txt', 'src/../../outside/secret.txt', path.join(w.ws, '..', 'outside', 'secret.txt')]) {
    await assert.rejects(resolveToolPath(p, escape, 'read'), /is outside the workspace folders/, escape);
  }
  assert.deepEqual(asked, Array(3).fill(path.join(w.outside, 'secret.txt')));
});

test('a symlink inside the workspace that points out of it is outside (file, folder, dangling)', async (t) => {
  const w = fakeWorkspace(t);
  fs.writeFileSync(path.join(w.outside, 'secret.txt'), 's');
  fs.symlinkSync(path.join(w.outside, 'secret.txt'), path.join(w.ws, 'link.txt'));
  fs.symlinkSync(w.outside, path.join(w.ws, 'linkdir'));
  fs.symlinkSync(path.join(w.outside, 'not-yet.txt'), path.join(w.ws, 'dangling.txt'));
  const { policy: p } = policy([w.ws]);
  await assert.rejects(resolveToolPath(p, 'link.txt', 'read'), /link\.txt \(resolves to .*outside\/secret\.txt\) is outside/);
  await assert.rejects(resolveToolPath(p, 'linkdir/secret.txt', 'write'), /is outside the workspace folders/);
  await assert.rejects(resolveToolPath(p, 'dangling.txt', 'write'), /resolves to .*outside\/not-yet\.txt/);
});

test('through the tools: an outside read or write never reaches the editor without consent', async (t) => {
  const w = fakeWorkspace(t);
  fs.writeFileSync(path.join(w.outside, 'secret.txt'), 'the secret');
  fs.symlinkSync(w.outside, path.join(w.ws, 'linkdir'));
  const port = fakePort(w);
  const registry = new EditorToolRegistry(port);
  const read = await registry.call('read_file', { path: '../outside/secret.txt' }, signal);
  assert.equal(read.isError, true);
  assert.doesNotMatch(read.text, /the secret/);
  const write = await registry.call('write_file', { path: 'linkdir/secret.txt', content: 'x' }, signal);
  assert.match(write.text, /^write_file failed: .*is outside the workspace folders; the user did not allow write access/);
  assert.deepEqual(methods(port), []);

  const consenting = fakePort(w, { consent: true });
  const allowed = await new EditorToolRegistry(consenting).call('read_file', { path: '../outside/secret.txt' }, signal);
  assert.deepEqual(allowed, { text: 'the secret', isError: false, truncated: false });
  assert.deepEqual(consenting.calls, [{ method: 'readText', args: [path.join(w.outside, 'secret.txt')] }]);
});

test('a relative path with no workspace folder open asks for an absolute one', async () => {
  const { policy: p } = policy([]);
  await assert.rejects(resolveToolPath(p, 'a.ts', 'read'), (err: unknown) => {
    assert.ok(err instanceof ToolArgumentError);
    assert.equal(err.message, '`path` "a.ts" is relative, but no workspace folder is open; pass an absolute path');
    return true;
  });
});

test('multi-root: a relative path led by a folder name is that folder’s; otherwise the first root’s', async (t) => {
  const w = fakeWorkspace(t);
  const front = path.join(w.base, 'front');
  const back = path.join(w.base, 'back');
  fs.mkdirSync(front);
  fs.mkdirSync(back);
  const { policy: p } = policy([front, back]);
  assert.equal(await resolveToolPath(p, 'back/src/x.ts', 'read'), path.join(back, 'src/x.ts'));
  assert.equal(await resolveToolPath(p, 'src/x.ts', 'read'), path.join(front, 'src/x.ts'));
  assert.equal(displayPath([front, back], path.join(back, 'src/x.ts')), 'back/src/x.ts');
  assert.equal(displayPath([front, back], back), 'back');
});

test('displayPath: relative inside the root, "." for the root, absolute outside', () => {
  assert.equal(displayPath(['/w/proj'], '/w/proj/src/a.ts'), 'src/a.ts');
  assert.equal(displayPath(['/w/proj'], '/w/proj'), '.');
  assert.equal(displayPath(['/w/proj'], '/w/project2/a.ts'), '/w/project2/a.ts');
  assert.equal(displayPath(['relative'], '/w/proj/a.ts'), '/w/proj/a.ts');
});

test('displayPath: a workspace opened through a symlink still shows the real paths the policy returns as relative', async (t) => {
  const w = fakeWorkspace(t);
  const linked = path.join(w.base, 'linked-ws');
  fs.symlinkSync(w.ws, linked);
  const file = w.file('src/a.ts', 'a');
  const { policy: p } = policy([linked]);
  const real = await resolveToolPath(p, 'src/a.ts', 'read');
  assert.equal(real, file, 'the policy answers the real path');
  assert.equal(displayPath([linked], real), 'src/a.ts');
});
