import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { FileAccessError, FsHandler, dominantEol, sliceLines } from '../../src/client/fsHandler';
import type { FileAccess } from '../../src/client/fsHandler';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import { bareClient, rejection } from '../support/bareClient';

type Touch = { path: string; line: number | undefined; op: 'read' | 'write' };

function setup(t: { after: (fn: () => void) => void }, files: FileAccess = new NodeFileAccess(), allowOutside = false) {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-fs-')));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const touched: Touch[] = [];
  const policy = new PathPolicy({ roots: () => [ws], allowOutside: () => allowOutside, askOutside: async () => false });
  const handler = new FsHandler({ files, policy, onTouched: (p, line, op) => touched.push({ path: p, line, op }) });
  const read = (p: string, line?: number | null, limit?: number | null) =>
    handler.readTextFile({ sessionId: 's', path: p, line, limit }).then((r) => r.content);
  const write = (p: string, content: string) => handler.writeTextFile({ sessionId: 's', path: p, content });
  return { ws, touched, handler, read, write };
}

test('read: whole file, 1-based line and limit in lines, terminators kept', async (t) => {
  const { ws, read, touched } = setup(t);
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, 'one\ntwo\r\nthree\nfour');
  assert.equal(await read(file), 'one\ntwo\r\nthree\nfour');
  assert.equal(await read(file, 1, 1), 'one\n');
  assert.equal(await read(file, 2, 2), 'two\r\nthree\n');
  assert.equal(await read(file, 3), 'three\nfour');
  assert.equal(await read(file, 4, 10), 'four');
  assert.equal(await read(file, null, 2), 'one\ntwo\r\n');
  assert.equal(await read(file, 2, 0), '');
  assert.deepEqual(touched.at(-1), { path: file, line: 2, op: 'read' });
  assert.equal(touched.length, 7);
});

test('read: a line beyond the end gives an empty string', async (t) => {
  const { ws, read } = setup(t);
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, 'one\ntwo\n');
  assert.equal(await read(file, 3), '');
  assert.equal(await read(file, 99, 5), '');
});

test('read: line < 1, fractional line, negative limit → invalid params', async (t) => {
  const { ws, read, touched } = setup(t);
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, 'x');
  for (const [line, limit] of [
    [0, undefined],
    [-3, undefined],
    [1.5, undefined],
    [1, -1],
  ] as const) {
    const err = await rejection(read(file, line, limit));
    assert.equal(err.code, -32602);
  }
  assert.equal(touched.length, 0);
});

test('read: a whole-file read of a missing file in the workspace is "" (a new, empty document)', async (t) => {
  const { ws, read, touched } = setup(t);
  const file = path.join(ws, 'nope', 'missing.ts');
  assert.equal(await read(file), '');
  assert.equal(await read(file, null, null), '', 'explicit nulls are a whole-file read too');
  assert.equal(fs.existsSync(path.join(ws, 'nope')), false, 'reading creates nothing');
  assert.equal(touched.length, 0, 'nothing to follow yet');
});

// Agents that view files with a line window (Claude Code's Read sends line and limit every time)
// relay this error to the model, which then knows the file is not there.
test('read: a line window on a missing file is -32002 "Resource not found: <path> …" with data.path', async (t) => {
  const { ws, read, touched } = setup(t);
  const file = path.join(ws, 'nope', 'missing.ts');
  for (const [line, limit] of [
    [1, 2000],
    [1, undefined],
    [undefined, 10],
  ] as const) {
    const err = await rejection(read(file, line, limit));
    assert.equal(err.code, -32002, `line ${line}, limit ${limit}`);
    assert.equal(err.message, `Resource not found: ${file} (the file does not exist)`);
    assert.deepEqual(err.data, { path: file });
  }
  assert.equal(touched.length, 0);
});

test('read: a missing file outside the workspace (access allowed) stays -32002 even for a whole-file read', async (t) => {
  const { ws, read } = setup(t, new NodeFileAccess(), true);
  const outside = path.join(path.dirname(ws), `tandem-missing-${process.pid}`, 'x.txt');
  const err = await rejection(read(outside));
  assert.equal(err.code, -32002);
  assert.match(err.message, /^Resource not found: .*x\.txt \(the file does not exist\)$/);
});

test('read then write of a new file (how Gemini CLI creates files) creates it as sent', async (t) => {
  const { ws, read, write, touched } = setup(t);
  const file = path.join(ws, 'notes', 'new.txt');
  assert.equal(await read(file), '');
  await write(file, 'first line\r\nsecond\n');
  assert.equal(fs.readFileSync(file, 'utf8'), 'first line\r\nsecond\n');
  assert.deepEqual(touched, [{ path: file, line: undefined, op: 'write' }]);
  assert.equal(await read(file), 'first line\r\nsecond\n');
});

test('read: a directory and a binary file get distinct, clear errors', async (t) => {
  const { ws, read } = setup(t);
  const dirErr = await rejection(read(ws));
  assert.equal(dirErr.code, -32602);
  assert.match(dirErr.message, /is a directory/);
  const bin = path.join(ws, 'img.png');
  fs.writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  const binErr = await rejection(read(bin));
  assert.equal(binErr.code, -32602);
  assert.match(binErr.message, /is a binary file/);
});

test('read: a NUL byte after the first 8 KB does not make a file binary', async (t) => {
  const { ws, read } = setup(t);
  const file = path.join(ws, 'late.txt');
  const text = `${'a'.repeat(9000)}\u0000tail`;
  fs.writeFileSync(file, text);
  assert.equal(await read(file), text);
});

test('read: multi-byte UTF-8 text round-trips', async (t) => {
  const { ws, read } = setup(t);
  const file = path.join(ws, 'u.txt');
  fs.writeFileSync(file, 'héllo\n世界 🎉\n');
  assert.equal(await read(file, 2), '世界 🎉\n');
});

test('read: outside the workspace is refused before any I/O', async (t) => {
  const calls: string[] = [];
  const recording: FileAccess = {
    readText: async (p) => {
      calls.push(p);
      return 'secret';
    },
    writeText: async (p) => void calls.push(p),
  };
  const { ws, read, write } = setup(t, recording);
  const err = await rejection(read(path.join(ws, '..', 'etc-passwd-like')));
  assert.match(err.message, /outside the workspace/);
  await rejection(write(path.join(ws, '..', 'etc-passwd-like'), 'x'));
  assert.deepEqual(calls, []);
  await read(path.join(ws, 'inside.txt'));
  assert.deepEqual(calls, [path.join(ws, 'inside.txt')]);
});

test('read: the FileAccess content is served (unsaved editor text), and adapter errors are mapped', async (t) => {
  const editorText = 'unsaved\r\nbuffer\r\n';
  const fake: FileAccess = {
    readText: async (p) => {
      if (p.endsWith('open.ts')) return editorText;
      if (p.endsWith('dir')) throw Object.assign(new Error('is dir'), { code: 'FileIsADirectory' });
      if (p.endsWith('bin')) return 'PK\u0003\u0004\u0000\u0000';
      throw Object.assign(new Error('nope'), { code: 'FileNotFound' });
    },
    writeText: async () => undefined,
  };
  const { ws, read } = setup(t, fake);
  assert.equal(await read(path.join(ws, 'open.ts'), 2), 'buffer\r\n');
  assert.match((await rejection(read(path.join(ws, 'dir')))).message, /is a directory/);
  assert.match((await rejection(read(path.join(ws, 'bin')))).message, /is a binary file/);
  assert.equal((await rejection(read(path.join(ws, 'gone.ts'), 1, 5))).code, -32002);
  assert.equal(await read(path.join(ws, 'gone.ts')), '', "the editor adapter's FileNotFound is a missing file too");
});

test('write: creates the file and missing parent folders, then reports the touch', async (t) => {
  const { ws, write, touched } = setup(t);
  const file = path.join(ws, 'new', 'deeper', 'file.ts');
  assert.deepEqual(await write(file, 'export {};\n'), {});
  assert.equal(fs.readFileSync(file, 'utf8'), 'export {};\n');
  assert.deepEqual(touched, [{ path: file, line: undefined, op: 'write' }]);
});

test('write: keeps CRLF of an existing CRLF file when the agent sends LF', async (t) => {
  const { ws, write } = setup(t);
  const file = path.join(ws, 'win.txt');
  fs.writeFileSync(file, 'a\r\nb\r\n');
  await write(file, 'a\nb\nc\n');
  assert.equal(fs.readFileSync(file, 'utf8'), 'a\r\nb\r\nc\r\n');
});

test('write: keeps LF of an LF file when the agent sends CRLF; new files are written as sent', async (t) => {
  const { ws, write } = setup(t);
  const lf = path.join(ws, 'unix.txt');
  fs.writeFileSync(lf, 'a\nb\n');
  await write(lf, 'x\r\ny\r\n');
  assert.equal(fs.readFileSync(lf, 'utf8'), 'x\ny\n');
  const fresh = path.join(ws, 'fresh.txt');
  await write(fresh, 'p\r\nq\n');
  assert.equal(fs.readFileSync(fresh, 'utf8'), 'p\r\nq\n');
});

test('write: through the FileAccess, with the converted text', async (t) => {
  const writes: Array<[string, string]> = [];
  const fake: FileAccess = {
    readText: async () => 'old\r\n',
    writeText: async (p, text) => void writes.push([p, text]),
  };
  const { ws, write } = setup(t, fake);
  await write(path.join(ws, 'doc.ts'), 'new\nlines\n');
  assert.deepEqual(writes, [[path.join(ws, 'doc.ts'), 'new\r\nlines\r\n']]);
});

test('write: a directory is refused; outside the workspace is refused and nothing is written', async (t) => {
  const { ws, write, touched } = setup(t);
  fs.mkdirSync(path.join(ws, 'sub'));
  assert.match((await rejection(write(path.join(ws, 'sub'), 'x'))).message, /is a directory/);
  const outsideFile = path.join(path.dirname(ws), `tandem-outside-${process.pid}.txt`);
  await rejection(write(outsideFile, 'x'));
  assert.equal(fs.existsSync(outsideFile), false);
  assert.equal(touched.length, 0);
});

test('write: a symlink to outside is refused and the target is untouched', async (t) => {
  const { ws, write } = setup(t);
  const outsideDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-out-')));
  t.after(() => fs.rmSync(outsideDir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(outsideDir, 't.txt'), 'keep');
  fs.symlinkSync(path.join(outsideDir, 't.txt'), path.join(ws, 'link.txt'));
  await rejection(write(path.join(ws, 'link.txt'), 'overwritten'));
  assert.equal(fs.readFileSync(path.join(outsideDir, 't.txt'), 'utf8'), 'keep');
});

test('write: inside .git is refused with a clear error and nothing is written (a worktree’s .git file too)', async (t) => {
  const { ws, write, touched } = setup(t);
  fs.writeFileSync(path.join(ws, '.git'), 'gitdir: /somewhere/.git/worktrees/x\n');
  for (const target of [path.join(ws, '.git'), path.join(ws, 'sub', '.git', 'config')])
    assert.match((await rejection(write(target, 'gitdir: elsewhere\n'))).message, /Tandem does not let agents write inside \.git/);
  assert.equal(fs.readFileSync(path.join(ws, '.git'), 'utf8'), 'gitdir: /somewhere/.git/worktrees/x\n');
  assert.equal(fs.existsSync(path.join(ws, 'sub')), false);
  assert.equal(touched.length, 0);
});

test('NodeFileAccess throws typed errors', async (t) => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-nfa-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const files = new NodeFileAccess();
  const kindOf = async (p: string) => {
    try {
      await files.readText(p);
      return 'ok';
    } catch (err) {
      return err instanceof FileAccessError ? err.kind : 'other';
    }
  };
  fs.writeFileSync(path.join(ws, 'b'), Buffer.from([1, 0, 2]));
  assert.equal(await kindOf(path.join(ws, 'missing')), 'notFound');
  assert.equal(await kindOf(ws), 'isDirectory');
  assert.equal(await kindOf(path.join(ws, 'b')), 'binary');
});

test('sliceLines and dominantEol edge cases', () => {
  assert.equal(sliceLines('', 1, undefined), '');
  assert.equal(sliceLines('', 2, 1), '');
  assert.equal(sliceLines('a', 1, 1), 'a');
  assert.equal(sliceLines('a\n', 2, 1), '');
  assert.equal(dominantEol('no breaks'), undefined);
  assert.equal(dominantEol('a\r\nb\r\nc\n'), '\r\n');
  assert.equal(dominantEol('a\nb\nc\r\n'), '\n');
});

/**
 * Over the wire: a real scripted agent process asks for the files; the errors must reach it with
 * their codes and messages intact (the SDK only forwards `RequestError`s as they are).
 */
test('over stdio: a real agent reads, writes and gets the documented errors', async (t) => {
  const { ws, handler } = setup(t);
  fs.writeFileSync(path.join(ws, 'crlf.txt'), 'l1\r\nl2\r\nl3\r\n');
  fs.mkdirSync(path.join(ws, 'dir'));
  const steps = [
    { readFile: { path: path.join(ws, 'crlf.txt'), line: 2, limit: 1 } },
    { readFile: { path: path.join(ws, 'missing.txt') } },
    { readFile: { path: path.join(ws, 'missing.txt'), line: 1, limit: 50 } },
    { readFile: { path: path.join(ws, 'dir') } },
    { readFile: { path: path.join(ws, 'crlf.txt'), line: 0 } },
    { readFile: { path: path.join(ws, '..', 'x.txt') } },
    { writeFile: { path: path.join(ws, 'crlf.txt'), content: 'new\nbody\n' } },
    { writeFile: { path: path.join(ws, 'a', 'b', 'c.txt'), content: 'created' } },
  ];
  const client = await bareClient(
    t,
    steps,
    (app) =>
      app
        .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => handler.readTextFile(params))
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => handler.writeTextFile(params)),
    { capabilities: { fs: { readTextFile: true, writeTextFile: true } }, cwd: ws },
  );
  const done = await client.prompt();
  // The SDK may hand the last notification to its handler just after the prompt's response.
  const said = await client.saidAtLeast(steps.length);
  assert.equal(done.stopReason, 'end_turn');
  assert.equal(said.length, steps.length, said.join('\n'));
  assert.equal(said[0], 'READ: l2\r\n');
  assert.equal(said[1], 'READ: ', 'a whole-file read of a missing file is an empty new document');
  assert.equal(said[2], `READ_ERROR: -32002 Resource not found: ${path.join(ws, 'missing.txt')} (the file does not exist)`);
  assert.match(said[3], /^READ_ERROR: -32602 .* is a directory/);
  assert.match(said[4], /^READ_ERROR: -32602 .*line must be an integer ≥ 1/);
  assert.match(said[5], /^READ_ERROR: -32602 .*outside the workspace folders.*tandem\.allowFileAccessOutsideWorkspace/);
  assert.deepEqual(said.slice(6), ['WRITE: ok', 'WRITE: ok']);
  assert.equal(fs.readFileSync(path.join(ws, 'crlf.txt'), 'utf8'), 'new\r\nbody\r\n');
  assert.equal(fs.readFileSync(path.join(ws, 'a', 'b', 'c.txt'), 'utf8'), 'created');
});
