import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../src/review/checkpointStore';
import type { CheckpointStoreOptions } from '../../src/review/checkpointTypes';
import { CheckpointError } from '../../src/review/checkpointTypes';
import type { FileChange } from '../../src/review/checkpointTypes';
import { computeHunks, revertHunks } from '../../src/review/hunks';
import { applyPlanOnDisk } from '../../src/review/restorePlan';
import { git, tempDir } from '../support/gitRepo';

type T = { after: (fn: () => void) => void };
type Kind = 'git' | 'folder';

// ---- helpers ------------------------------------------------------------------------------------

function write(root: string, rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel));
const binary = (seed: number, size = 3000) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256));

/** Every byte under `.git`, plus what git itself says about the user's state. */
function repoState(repo: string) {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(repo, p)] = crypto.createHash('sha1').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(path.join(repo, '.git'));
  return {
    files,
    status: git(repo, 'status', '--porcelain', '-z', '--untracked-files=all'),
    stash: git(repo, 'stash', 'list'),
    refs: git(repo, 'for-each-ref'),
  };
}

async function open(t: T, kind: Kind, root: string, opts: Partial<CheckpointStoreOptions> = {}) {
  const storageDir = tempDir(t, 'tandem-cp-store-');
  const warnings: string[] = [];
  const store = await CheckpointStore.open({ root, storageDir, gitPath: kind === 'git' ? 'git' : false, warn: (m) => warnings.push(m), ...opts });
  assert.equal(store.kind, kind);
  return { store, storageDir, warnings };
}

const summary = (changes: FileChange[]) =>
  changes.map((c) => `${c.status} ${c.relPath} +${c.added} -${c.removed}${c.binary ? ' bin' : ''}${c.restorable ? '' : ' !restorable'}`);

/** A workspace with the file kinds every scenario needs; in git mode committed, staged and untracked. */
function seedWorkspace(root: string, kind: Kind) {
  write(root, 'src/app.ts', 'one\ntwo\nthree\n');
  write(root, 'crlf.txt', 'a\r\nb\r\nc\r\n');
  write(root, 'bom.txt', '\uFEFFwith bom\n');
  write(root, 'latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1: not UTF-8
  write(root, 'dir with space/ünïcode ✓.md', '# title\nbody\n');
  write(root, 'image.bin', binary(1));
  write(root, 'old-name.txt', 'moved content\n');
  write(root, 'gone.txt', 'to be deleted\nsecond\n');
  write(root, 'node_modules/pkg/index.js', 'module.exports = 1;\n');
  if (kind === 'git') {
    write(root, '.gitignore', 'ignored/\n*.log\nnode_modules/\n');
    write(root, '.gitattributes', '* text=auto\n');
    write(root, 'ignored/cache.txt', 'cached\n');
    write(root, 'debug.log', 'log line\n');
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    // The user's own work in progress: a staged change, a staged new file, an untracked file, a stash.
    write(root, 'stashed.txt', 'x\n');
    git(root, 'add', 'stashed.txt');
    git(root, 'stash', 'push', '-q', '-m', 'user stash');
    write(root, 'src/app.ts', 'one\ntwo (staged)\nthree\n');
    write(root, 'staged-new.txt', 'staged\n');
    git(root, 'add', 'src/app.ts', 'staged-new.txt');
    write(root, 'untracked.txt', 'untracked\n');
  } else {
    write(root, 'untracked.txt', 'untracked\n');
  }
}

/** What an agent does during a turn, straight on disk. */
function agentTurn(root: string) {
  write(root, 'src/app.ts', 'one\nTWO\nthree\nfour\n');
  write(root, 'crlf.txt', 'a\r\nB\r\nc\r\n');
  write(root, 'bom.txt', '\uFEFFchanged\n');
  write(root, 'latin1.txt', 'cafe\n');
  write(root, 'dir with space/ünïcode ✓.md', '# title\n');
  write(root, 'image.bin', binary(2));
  fs.renameSync(path.join(root, 'old-name.txt'), path.join(root, 'new name.txt'));
  fs.rmSync(path.join(root, 'gone.txt'));
  write(root, 'brand/new ✨.txt', 'hello\nworld\n');
  write(root, 'untracked.txt', 'untracked, edited\n');
  write(root, 'node_modules/pkg/index.js', 'module.exports = 2;\n');
}

const EXPECTED_TURN = [
  'modified bom.txt +1 -1',
  'added brand/new ✨.txt +2 -0',
  'modified crlf.txt +1 -1',
  'modified dir with space/ünïcode ✓.md +0 -1',
  'deleted gone.txt +0 -2',
  'modified image.bin +0 -0 bin',
  'modified latin1.txt +1 -1',
  'added new name.txt +1 -0',
  'deleted old-name.txt +0 -1',
  'modified src/app.ts +2 -1',
  'modified untracked.txt +1 -1',
];

function snapshotFiles(root: string, rels: string[]): Record<string, string | null> {
  return Object.fromEntries(rels.map((r) => [r, fs.existsSync(path.join(root, r)) ? read(root, r).toString('base64') : null]));
}
const ALL_FILES = [
  'src/app.ts',
  'crlf.txt',
  'bom.txt',
  'latin1.txt',
  'dir with space/ünïcode ✓.md',
  'image.bin',
  'old-name.txt',
  'new name.txt',
  'gone.txt',
  'brand/new ✨.txt',
  'untracked.txt',
];

// ---- both backends ------------------------------------------------------------------------------

for (const kind of ['git', 'folder'] as const) {
  test(`${kind}: a turn's changes on disk are found, with line counts; excluded folders are not`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    seedWorkspace(root, kind);
    const { store } = await open(t, kind, root);
    const cp = await store.create('turn 1');
    assert.deepEqual(await store.changes(cp), [], 'nothing changed yet');
    agentTurn(root);
    const changes = await store.changes(cp);
    assert.deepEqual(summary(changes), EXPECTED_TURN);
    const app = changes.find((c) => c.relPath === 'src/app.ts')!;
    assert.equal(app.path, path.join(root, 'src', 'app.ts'));
    assert.equal(await store.readAt(cp, app.path), kind === 'git' ? 'one\ntwo (staged)\nthree\n' : 'one\ntwo\nthree\n');
    assert.equal(await store.readAt(cp, path.join(root, 'brand/new ✨.txt')), undefined, 'did not exist');
    await assert.rejects(store.readAt(cp, path.join(root, 'image.bin')), (e: unknown) => e instanceof CheckpointError && e.kind === 'binary');
    assert.deepEqual(Buffer.from((await store.readBytesAt(cp, path.join(root, 'image.bin')))!), binary(1));
    // Only these paths.
    assert.deepEqual(summary(await store.changes(cp, { paths: [app.path, path.join(root, 'crlf.txt')] })), [
      'modified crlf.txt +1 -1',
      'modified src/app.ts +2 -1',
    ]);
  });

  test(`${kind}: restore plan round trip puts every byte back (CRLF, BOM, Latin-1, binary, renames)`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    seedWorkspace(root, kind);
    const before = snapshotFiles(root, ALL_FILES);
    const { store } = await open(t, kind, root);
    const cp = await store.create();
    agentTurn(root);
    const plan = await store.restorePlan(cp);
    assert.deepEqual(
      plan.map((s) => `${s.kind} ${s.relPath}`),
      EXPECTED_TURN.map((line) => {
        const [status, rel] = [line.split(' ')[0], line.slice(line.indexOf(' ') + 1).replace(/ \+\d+ -\d+( bin)?$/, '')];
        const bytes = rel === 'image.bin' || rel === 'latin1.txt';
        return `${status === 'added' ? 'delete' : bytes ? 'writeBytes' : 'write'} ${rel}`;
      }),
    );
    const bom = plan.find((s) => s.relPath === 'bom.txt');
    assert.ok(bom?.kind === 'write' && bom.text.startsWith('\uFEFF'), 'the BOM is in the text');
    await applyPlanOnDisk(plan);
    assert.deepEqual(await store.changes(cp), []);
    assert.deepEqual(snapshotFiles(root, ALL_FILES), before);
  });

  test(`${kind}: Undo of one file, Keep of another, then restore to the start of the turn`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    seedWorkspace(root, kind);
    const start = snapshotFiles(root, ALL_FILES);
    const { store } = await open(t, kind, root);
    const cp = await store.create();
    agentTurn(root);
    const crlf = path.join(root, 'crlf.txt');
    const app = path.join(root, 'src/app.ts');
    const added = path.join(root, 'brand/new ✨.txt');
    await applyPlanOnDisk(await store.restorePlan(cp, { paths: [crlf] }));
    assert.equal(read(root, 'crlf.txt').toString(), 'a\r\nb\r\nc\r\n');
    await store.accept(cp, [app, added]);
    const remaining = summary(await store.changes(cp)).map((s) => s.split(' ')[1]);
    assert.ok(!remaining.includes('src/app.ts') && !remaining.includes('brand/new') && !remaining.includes('crlf.txt'), remaining.join());
    assert.equal(remaining.length, EXPECTED_TURN.length - 3);
    // The baseline moved: Undo now keeps the accepted content; `start` still knows the turn's start.
    assert.equal(await store.readAt(cp, app), 'one\nTWO\nthree\nfour\n');
    assert.equal(await store.readAt(cp, app, { state: 'start' }), kind === 'git' ? 'one\ntwo (staged)\nthree\n' : 'one\ntwo\nthree\n');
    assert.deepEqual(
      summary(await store.changes(cp, { against: 'start' })),
      EXPECTED_TURN.filter((l) => !l.includes('crlf.txt')),
    );
    // A later edit of a kept file shows again, against the kept content.
    write(root, 'src/app.ts', 'one\nTWO\nthree\nfour\nfive\n');
    assert.deepEqual(summary(await store.changes(cp, { paths: [app] })), ['modified src/app.ts +1 -0']);
    // Rewind: everything back to the start of the turn, Keep or not.
    await applyPlanOnDisk(await store.restorePlan(cp, { to: 'start' }));
    assert.deepEqual(await store.changes(cp, { against: 'start' }), []);
    assert.deepEqual(snapshotFiles(root, ALL_FILES), start);
    // Keep all: nothing left to review.
    agentTurn(root);
    await store.accept(cp);
    assert.deepEqual(await store.changes(cp), []);
  });

  test(`${kind}: per-hunk accept and reject`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const file = write(root, 'f.txt', text);
    if (kind === 'git') {
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'c');
    }
    const { store } = await open(t, kind, root);
    const cp = await store.create();
    const edited = text.replace('line 2\n', 'LINE 2\n').replace('line 15\n', 'line 15\ninserted\n').replace('line 28\n', '');
    fs.writeFileSync(file, edited);
    const baseline = (await store.readAt(cp, file))!;
    const hunks = computeHunks(baseline, edited);
    assert.equal(hunks.length, 3);
    // Reject the middle hunk (what the editor adapter does: write the reverted text).
    fs.writeFileSync(file, revertHunks(baseline, edited, [1]));
    assert.deepEqual(summary(await store.changes(cp)), ['modified f.txt +1 -2']);
    // Accept the first remaining hunk: only the last one is left to review.
    const now = fs.readFileSync(file, 'utf8');
    await store.acceptHunks(cp, file, [0]);
    assert.deepEqual(summary(await store.changes(cp)), ['modified f.txt +0 -1']);
    const left = computeHunks((await store.readAt(cp, file))!, now);
    assert.deepEqual(
      left.map((h) => h.lines),
      [['-line 28']],
    );
    // Undo restores the remaining hunk only; the accepted one stays.
    await applyPlanOnDisk(await store.restorePlan(cp));
    assert.equal(fs.readFileSync(file, 'utf8'), text.replace('line 2\n', 'LINE 2\n'));
    assert.deepEqual(await store.changes(cp), []);
  });

  test(`${kind}: files over maxFileBytes are skipped, noticed when they change, and recorded before a client write`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    const big = 'x'.repeat(120) + '\n';
    write(root, 'big.txt', big.repeat(20));
    write(root, 'big2.txt', big.repeat(20));
    write(root, 'small.txt', 'small\n');
    if (kind === 'git') {
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'c');
    }
    const { store, warnings } = await open(t, kind, root, { maxFileBytes: 1000 });
    const cp = await store.create();
    assert.deepEqual(cp.skipped, ['big.txt', 'big2.txt']);
    assert.match(warnings.join('\n'), /2 file\(s\) over 1000 bytes not recorded: big\.txt, big2\.txt/);
    // Changed on disk by the agent: reported, but not restorable.
    write(root, 'big2.txt', big.repeat(21));
    assert.deepEqual(summary(await store.changes(cp)), ['modified big2.txt +0 -0 bin !restorable']);
    await assert.rejects(store.readAt(cp, path.join(root, 'big2.txt')), (e: unknown) => e instanceof CheckpointError && e.kind === 'notRecorded');
    // A client write is announced first: the content is recorded and the change becomes undoable.
    assert.equal(await store.recordBeforeWrite(cp, path.join(root, 'big.txt')), 'recorded');
    assert.equal(await store.recordBeforeWrite(cp, path.join(root, 'big.txt')), 'covered', 'the first recording wins');
    assert.equal(await store.recordBeforeWrite(cp, path.join(root, 'small.txt')), 'covered');
    assert.equal(await store.recordBeforeWrite(cp, path.join(root, 'created-later.txt')), 'covered', 'known absent');
    assert.equal(await store.recordBeforeWrite(cp, path.join(os.tmpdir(), 'elsewhere.txt')), 'outside');
    write(root, 'big.txt', 'now small\n');
    write(root, 'created-later.txt', 'new\n');
    assert.deepEqual(summary(await store.changes(cp)), ['modified big.txt +1 -20', 'modified big2.txt +0 -0 bin !restorable', 'added created-later.txt +1 -0']);
    await applyPlanOnDisk(await store.restorePlan(cp));
    assert.equal(read(root, 'big.txt').toString(), big.repeat(20));
    assert.equal(fs.existsSync(path.join(root, 'created-later.txt')), false);
    assert.deepEqual(summary(await store.changes(cp)), ['modified big2.txt +0 -0 bin !restorable']);
  });

  test(`${kind}: caps — oldest checkpoints are dropped past maxCheckpoints and maxBytes, storage shrinks`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    write(root, 'a.txt', 'a\n');
    if (kind === 'git') git(root, 'init', '-q');
    const { store, warnings } = await open(t, kind, root, { maxCheckpoints: 3, maxBytes: 60_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      write(root, `f${i}.txt`, `${crypto.randomBytes(8000).toString('hex')}\n`); // incompressible 16 KB
      ids.push((await store.create(`turn ${i}`)).id);
    }
    const kept = store.list().map((c) => c.id);
    assert.ok(kept.length <= 3 && kept.length >= 1, `kept ${kept.length}`);
    assert.equal(kept[kept.length - 1], ids[4], 'the newest survives');
    assert.deepEqual(kept, ids.slice(5 - kept.length), 'oldest dropped first');
    assert.ok((await store.bytesOnDisk()) <= 60_000, `${await store.bytesOnDisk()} bytes`);
    await assert.rejects(store.changes(ids[0]), (e: unknown) => e instanceof CheckpointError && e.kind === 'unknownCheckpoint');
    // Dropping the rest frees their content.
    const before = await store.bytesOnDisk();
    for (const id of kept.slice(0, -1)) await store.drop(id);
    assert.ok((await store.bytesOnDisk()) < before);
    assert.deepEqual(await store.changes(ids[4]), []);
    assert.deepEqual(warnings, []);
  });

  test(`${kind}: checkpoints survive reopening the store`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    write(root, 'a.txt', 'a\n');
    if (kind === 'git') git(root, 'init', '-q');
    const storageDir = tempDir(t, 'tandem-cp-store-');
    const opts = { root, storageDir, gitPath: kind === 'git' ? 'git' : (false as const) };
    const first = await CheckpointStore.open(opts);
    const cp = await first.create('persisted');
    write(root, 'a.txt', 'b\n');
    await first.accept(cp, [path.join(root, 'a.txt')]);
    write(root, 'a.txt', 'c\n');
    const second = await CheckpointStore.open(opts);
    assert.deepEqual(
      second.list().map((c) => [c.id, c.label]),
      [[cp.id, 'persisted']],
    );
    assert.deepEqual(summary(await second.changes(cp.id)), ['modified a.txt +1 -1']);
    assert.equal(await second.readAt(cp.id, path.join(root, 'a.txt')), 'b\n');
    assert.equal(await second.readAt(cp.id, path.join(root, 'a.txt'), { state: 'start' }), 'a\n');
  });
  test(`${kind}: odd file names (quotes, backslashes, tabs, newlines, __proto__) round-trip`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    const names = ['"quoted" name.txt', 'back\\slash.txt', 'tab\there.txt', 'new\nline.txt', '__proto__', 'trailing space ', 'sub/constructor'];
    for (const n of names) write(root, n, `${n}\n`);
    if (kind === 'git') git(root, 'init', '-q');
    const { store } = await open(t, kind, root);
    const cp = await store.create();
    for (const n of names) write(root, n, 'changed\n');
    assert.deepEqual(
      (await store.changes(cp)).map((c) => c.relPath),
      [...names].sort(),
    );
    await store.accept(cp, [path.join(root, '__proto__')]);
    assert.equal((await store.changes(cp)).length, names.length - 1);
    assert.equal(await store.readAt(cp, path.join(root, '__proto__'), { state: 'start' }), '__proto__\n');
    await applyPlanOnDisk(await store.restorePlan(cp, { to: 'start' }));
    for (const n of names) assert.equal(read(root, n).toString(), `${n}\n`);
  });

  test(`${kind}: a same-size rewrite that keeps the mtime is still seen (racy stat cache)`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    const file = write(root, 'a.txt', 'aaaa\n');
    if (kind === 'git') git(root, 'init', '-q');
    const { store } = await open(t, kind, root);
    const cp = await store.create();
    const { mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'bbbb\n');
    fs.utimesSync(file, mtime, mtime);
    assert.deepEqual(summary(await store.changes(cp)), ['modified a.txt +1 -1']);
  });

  test(`${kind}: concurrent calls are serialised`, async (t) => {
    const root = tempDir(t, `tandem-cp-${kind}-`);
    write(root, 'a.txt', 'a\n');
    if (kind === 'git') git(root, 'init', '-q');
    const { store } = await open(t, kind, root);
    const first = await store.create();
    write(root, 'a.txt', 'b\n');
    const [changes, second, plan] = await Promise.all([store.changes(first), store.create(), store.restorePlan(first)]);
    assert.deepEqual(summary(changes), ['modified a.txt +1 -1']);
    assert.deepEqual(await store.changes(second), []);
    assert.deepEqual(
      plan.map((s) => s.kind),
      ['write'],
    );
  });
}

// ---- git only ----------------------------------------------------------------------------------

test("git: the user's index, stash, refs, HEAD and every byte under .git are untouched", async (t) => {
  const root = tempDir(t, 'tandem-cp-git-');
  seedWorkspace(root, 'git');
  const before = repoState(root);
  assert.match(before.stash, /user stash/);
  assert.match(before.status, /M {2}src\/app\.ts/);
  const { store, storageDir } = await open(t, 'git', root);
  const cp = await store.create();
  agentTurn(root);
  const afterTurn = repoState(root);
  await store.changes(cp);
  await store.recordBeforeWrite(cp, path.join(root, 'ignored/cache.txt'));
  await store.accept(cp, [path.join(root, 'src/app.ts')]);
  await store.acceptHunks(cp, path.join(root, 'crlf.txt'), [0]);
  await store.readAt(cp, path.join(root, 'untracked.txt'));
  await store.create();
  const plan = await store.restorePlan(cp, { to: 'start' });
  assert.deepEqual(repoState(root), afterTurn, 'nothing but the agent’s own edits changed');
  await applyPlanOnDisk(plan);
  assert.deepEqual(repoState(root), before, 'after the rewind the repository is exactly as the user left it');
  // Our objects live in the store's own object directory, not in the user's.
  assert.ok(fs.existsSync(path.join(storageDir, 'git', 'objects', 'info', 'alternates')));
});

test('git: ignored files are outside the capture until a client write records them', async (t) => {
  const root = tempDir(t, 'tandem-cp-git-');
  seedWorkspace(root, 'git');
  const { store } = await open(t, 'git', root);
  const cp = await store.create();
  write(root, 'debug.log', 'agent wrote this\n');
  write(root, 'ignored/new.txt', 'new\n');
  assert.deepEqual(await store.changes(cp), [], 'ignored files are not part of the checkpoint');
  const cache = path.join(root, 'ignored/cache.txt');
  const fresh = path.join(root, 'ignored/fresh.txt');
  assert.equal(await store.recordBeforeWrite(cp, cache), 'recorded');
  assert.equal(await store.recordBeforeWrite(cp, fresh), 'recorded', 'an ignored path that does not exist yet');
  fs.writeFileSync(cache, 'changed by the client\n');
  fs.writeFileSync(fresh, 'created by the client\n');
  assert.deepEqual(summary(await store.changes(cp)), ['modified ignored/cache.txt +1 -1', 'added ignored/fresh.txt +1 -0']);
  await applyPlanOnDisk(await store.restorePlan(cp));
  assert.equal(fs.readFileSync(cache, 'utf8'), 'cached\n');
  assert.equal(fs.existsSync(fresh), false);
});

test('git: a repository with no commits, and a root that is a subfolder of the repository', async (t) => {
  const repo = tempDir(t, 'tandem-cp-git-');
  git(repo, 'init', '-q');
  write(repo, 'outside.txt', 'not ours\n');
  const root = path.join(repo, 'pkg');
  write(root, 'a.txt', 'a\n');
  write(root, 'sub/b.txt', 'b\n');
  const { store } = await open(t, 'git', root);
  const cp = await store.create();
  write(root, 'a.txt', 'A\n');
  fs.rmSync(path.join(root, 'sub/b.txt'));
  write(repo, 'outside.txt', 'changed outside the root\n');
  assert.deepEqual(summary(await store.changes(cp)), ['modified a.txt +1 -1', 'deleted sub/b.txt +0 -1']);
  await applyPlanOnDisk(await store.restorePlan(cp));
  assert.equal(read(root, 'sub/b.txt').toString(), 'b\n');
  assert.deepEqual(await store.changes(cp), []);
  assert.equal(git(repo, 'for-each-ref').trim(), '', 'still no commits or refs');
});

test('git: falls back to the folder backend without git, or when the root itself is ignored', async (t) => {
  const noGit = tempDir(t, 'tandem-cp-nogit-');
  write(noGit, 'a.txt', 'a\n');
  const { store } = await open(t, 'folder', noGit, { gitPath: path.join(noGit, 'no-such-git') });
  const cp = await store.create();
  write(noGit, 'a.txt', 'b\n');
  assert.deepEqual(summary(await store.changes(cp)), ['modified a.txt +1 -1']);

  const repo = tempDir(t, 'tandem-cp-git-');
  git(repo, 'init', '-q');
  write(repo, '.gitignore', 'build/\n');
  const ignoredRoot = path.join(repo, 'build');
  write(ignoredRoot, 'out.txt', 'x\n');
  const opened = await CheckpointStore.open({ root: ignoredRoot, storageDir: tempDir(t, 'tandem-cp-store-') });
  assert.equal(opened.kind, 'folder');
});

test('time a capture of a 2,000-file repository (git, then the folder backend)', async (t) => {
  const root = tempDir(t, 'tandem-cp-git-');
  for (let i = 0; i < 2000; i++) write(root, `pkg${i % 40}/dir${i % 7}/file${i}.ts`, `export const value${i} = ${i};\n// ${'x'.repeat(i % 200)}\n`);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'big');
  for (let i = 0; i < 100; i++) write(root, `untracked/u${i}.txt`, `untracked ${i}\n`);
  // Files written a second ago are hashed again on every look (the racy-stat rule); real files are older.
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const rel of git(root, 'ls-files', '-z', '-c', '-o', '--exclude-standard').split('\0').filter(Boolean))
    fs.utimesSync(path.join(root, rel), hourAgo, hourAgo);
  const { store } = await open(t, 'git', root);
  const timings: string[] = [];
  const time = async <R>(label: string, fn: () => Promise<R>): Promise<R> => {
    const t0 = performance.now();
    const r = await fn();
    timings.push(`${label} ${(performance.now() - t0).toFixed(0)} ms`);
    return r;
  };
  const cp = await time('first capture', () => store.create());
  await time('second capture (stat cache)', () => store.create());
  for (let i = 0; i < 20; i++) write(root, `pkg${i}/dir${i % 7}/file${i}.ts`, `changed ${i}\n`);
  const changes = await time('changes() with 20 edits', () => store.changes(cp));
  assert.equal(changes.length, 20);
  console.log(`checkpoint timing (2,100 files, git): ${timings.join(', ')}`);
  // The same tree without git (its .git folder is skipped by the folder backend).
  timings.length = 0;
  const { store: folder } = await open(t, 'folder', root);
  const fcp = await time('first capture', () => folder.create());
  await time('second capture (stat cache)', () => folder.create());
  for (let i = 20; i < 40; i++) write(root, `pkg${i}/dir${i % 7}/file${i}.ts`, `changed ${i}\n`);
  assert.equal((await time('changes() with 20 edits', () => folder.changes(fcp))).length, 20);
  console.log(`checkpoint timing (2,100 files, folder): ${timings.join(', ')}`);
});

// ---- folder only -------------------------------------------------------------------------------

test('folder: .git and node_modules are skipped, a storage folder inside the root too; maxFiles marks a capture incomplete', async (t) => {
  const root = tempDir(t, 'tandem-cp-folder-');
  write(root, 'a.txt', 'a\n');
  write(root, '.git/config', 'not a repo we use\n');
  write(root, 'deep/node_modules/x.js', 'x\n');
  const storageDir = path.join(root, '.tandem-storage');
  const store = await CheckpointStore.open({ root, storageDir, gitPath: false });
  const cp = await store.create();
  write(root, '.git/config', 'changed\n');
  write(root, 'deep/node_modules/x.js', 'y\n');
  write(root, 'b.txt', 'b\n');
  assert.deepEqual(summary(await store.changes(cp)), ['added b.txt +1 -0'], 'our own storage writes are not changes either');
  // A file in an excluded folder written through the client is recorded on demand.
  assert.equal(await store.recordBeforeWrite(cp, path.join(root, 'deep/node_modules/x.js')), 'recorded');

  const many = tempDir(t, 'tandem-cp-folder-');
  for (let i = 0; i < 10; i++) write(many, `f${i}.txt`, `${i}\n`);
  const { store: capped, warnings } = await open(t, 'folder', many, { maxFiles: 5 });
  const partial = await capped.create();
  assert.equal(partial.complete, false);
  assert.match(warnings.join('\n'), /scan limit/);
  write(many, 'f0.txt', 'changed\n');
  write(many, 'zz-new.txt', 'new\n');
  assert.deepEqual(summary(await capped.changes(partial)), ['modified f0.txt +1 -1'], 'unknown files are not called added');
});

test('folder: identical content is stored once, and unchanged turns add almost nothing', async (t) => {
  const root = tempDir(t, 'tandem-cp-folder-');
  for (let i = 0; i < 50; i++) write(root, `same${i}.txt`, 'identical content\n'.repeat(100));
  const { store } = await open(t, 'folder', root);
  await store.create();
  const one = await store.bytesOnDisk();
  await store.create();
  await store.create();
  assert.equal(await store.bytesOnDisk(), one, 'same files, same manifest: nothing new stored');
  assert.ok(one < 2000, `${one} bytes for 50 identical 1.8 KB files`);
});

test('folder: content that vanished from the store is reported, not invented', async (t) => {
  const root = tempDir(t, 'tandem-cp-folder-');
  const file = write(root, 'a.txt', 'a\n');
  const { store, storageDir } = await open(t, 'folder', root);
  const cp = await store.create();
  write(root, 'a.txt', 'b\n');
  const id = crypto.createHash('sha256').update('a\n').digest('hex');
  fs.rmSync(path.join(storageDir, 'files', 'objects', id.slice(0, 2), id.slice(2)));
  assert.deepEqual(summary(await store.changes(cp)), ['modified a.txt +0 -0 bin !restorable']);
  await assert.rejects(store.readAt(cp, file), (e: unknown) => e instanceof CheckpointError && e.kind === 'missing');
  assert.deepEqual(await store.restorePlan(cp), []);
});

test('a folder that becomes a repository switches backend and drops the old checkpoints', async (t) => {
  const root = tempDir(t, 'tandem-cp-switch-');
  write(root, 'a.txt', 'a\n');
  const storageDir = tempDir(t, 'tandem-cp-store-');
  const folder = await CheckpointStore.open({ root, storageDir });
  assert.equal(folder.kind, 'folder');
  await folder.create();
  git(root, 'init', '-q');
  const repo = await CheckpointStore.open({ root, storageDir });
  assert.equal(repo.kind, 'git');
  assert.deepEqual(repo.list(), []);
  assert.equal(fs.existsSync(path.join(storageDir, 'files')), false);
});

test('git: files inside a nested repository belong to it, and are recorded only before a client write', async (t) => {
  const root = tempDir(t, 'tandem-cp-git-');
  git(root, 'init', '-q');
  write(root, 'top.txt', 'top\n');
  const nested = path.join(root, 'vendor/lib');
  fs.mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q');
  const inner = write(nested, 'inner.txt', 'inner\n');
  const { store } = await open(t, 'git', root);
  const cp = await store.create();
  write(nested, 'inner.txt', 'changed\n');
  assert.deepEqual(await store.changes(cp), []);
  assert.equal(await store.recordBeforeWrite(cp, inner), 'recorded');
  write(nested, 'inner.txt', 'changed again\n');
  assert.deepEqual(summary(await store.changes(cp)), ['modified vendor/lib/inner.txt +1 -1']);
});

test('a root reached through a symlink: paths come out under it, real paths are accepted too', async (t) => {
  const real = tempDir(t, 'tandem-cp-real-');
  const linkParent = tempDir(t, 'tandem-cp-link-');
  const link = path.join(linkParent, 'ws');
  fs.symlinkSync(real, link, 'dir');
  write(real, 'a.txt', 'a\n');
  const storageDir = path.join(real, '.storage'); // inside the root, reached through the real path
  const store = await CheckpointStore.open({ root: link, storageDir, gitPath: false });
  const cp = await store.create();
  write(real, 'a.txt', 'b\n');
  const [change] = await store.changes(cp);
  assert.equal(change.path, path.join(link, 'a.txt'));
  assert.equal(await store.readAt(cp, path.join(real, 'a.txt')), 'a\n');
  assert.equal((await store.changes(cp)).length, 1, 'the storage folder is not a change');
});
