// Conversation worktrees with a real git in temp repositories: creating one on a free branch,
// what is unapplied, applying into the main working tree (clean, merged with the user's uncommitted
// edits, conflicting), commit, discard, a worktree deleted by hand, and removal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPlanOnDisk } from '../../src/review/restorePlan';
import type { WorktreeBinding } from '../../src/store/conversationMeta';
import { applySteps, type ApplyPlan } from '../../src/worktree/applyPlan';
import { slugOf } from '../../src/worktree/branchNames';
import { WorktreeError } from '../../src/worktree/worktreeGit';
import { WorktreeService } from '../../src/worktree/worktreeService';
import { git, GIT_IDENTITY, tempDir } from '../support/gitRepo';

type T = { after: (fn: () => void) => void };

// The service commits with the user's identity; a test machine may have none.
Object.assign(process.env, GIT_IDENTITY);

function write(root: string, rel: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** A repository with one commit (f.txt, keep.txt), a worktrees folder, and the service. */
function setup(t: T): { repo: string; root: string; service: WorktreeService } {
  const repo = tempDir(t, 'tandem-wt-repo-');
  const root = tempDir(t, 'tandem-wt-root-');
  git(repo, 'init', '-q');
  write(repo, 'f.txt', LINES);
  write(repo, 'keep.txt', 'kept\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  return { repo, root, service: new WorktreeService(() => root) };
}

const fromDisk = async (file: string): Promise<Uint8Array | undefined> => fs.promises.readFile(file).catch(() => undefined);

function outcomes(plan: ApplyPlan): Record<string, string> {
  return Object.fromEntries(plan.steps.map((s) => [s.relPath, s.outcome]));
}

async function apply(service: WorktreeService, binding: WorktreeBinding): Promise<ApplyPlan> {
  const plan = await service.planApply(binding, fromDisk);
  await applyPlanOnDisk(applySteps(plan));
  binding.applied = plan.tree;
  return plan;
}

test('names: titles become branch-safe slugs', () => {
  assert.equal(slugOf('Fix the login bug!'), 'fix-the-login-bug');
  assert.equal(slugOf('Crème brûlée — über'), 'creme-brulee-uber');
  assert.equal(slugOf('修复'), '');
  assert.ok(slugOf('x'.repeat(200)).length <= 40);
});

test('probe: a folder outside git, and a repository without a commit, say why', async (t) => {
  const plain = tempDir(t, 'tandem-wt-plain-');
  const service = new WorktreeService(() => plain);
  const outside = await service.probe(plain);
  assert.equal(outside.ok, false);
  assert.equal(!outside.ok && outside.error.kind, 'notRepository');
  git(plain, 'init', '-q');
  const empty = await service.probe(plain);
  assert.equal(!empty.ok && empty.error.kind, 'noCommit');
  const noGit = await new WorktreeService(() => plain, new (await import('../../src/worktree/worktreeGit')).WorktreeGit('/nonexistent/git')).probe(plain);
  assert.equal(!noGit.ok && noGit.error.kind, 'noGit');
});

test('create: a new branch from HEAD outside the workspace; a taken name gets a number; a subfolder maps into it', async (t) => {
  const { repo, root, service } = setup(t);
  git(repo, 'branch', 'tandem/fix-login');
  const binding = await service.create(repo, 'abc', 'Fix login');
  assert.equal(binding.branch, 'tandem/fix-login-2', 'the existing branch is not reused');
  assert.ok(binding.path.startsWith(root) && !binding.path.startsWith(repo));
  assert.equal(binding.base, git(repo, 'rev-parse', 'HEAD').trim());
  assert.equal(read(binding.path, 'f.txt'), LINES);
  assert.equal(git(binding.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'tandem/fix-login-2');
  const again = await service.create(repo, 'abd', 'Fix login');
  assert.equal(again.branch, 'tandem/fix-login-3');

  fs.mkdirSync(path.join(repo, 'pkg'));
  const sub = await service.create(path.join(repo, 'pkg'), 'c0ffee12-3456', undefined);
  assert.equal(sub.folder, 'pkg');
  assert.equal(sub.provisional, true);
  assert.match(sub.branch, /^tandem\/conversation-c0ffee12$/);
  assert.equal(service.cwdOf(sub), path.join(sub.path, 'pkg'));
  assert.equal(await service.rename(sub, 'Tidy the package'), 'tandem/tidy-the-package');
  assert.equal(git(sub.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'tandem/tidy-the-package');
  assert.equal(await service.rename(sub, 'Another title'), undefined, 'renamed once');
});

test('create: a repository with a branch named `tandem` gets its worktree branches under tandem-conversations/', async (t) => {
  const { repo, root, service } = setup(t);
  git(repo, 'branch', 'tandem');
  const binding = await service.create(repo, 'abc', 'Fix login');
  assert.equal(binding.branch, 'tandem-conversations/fix-login');
  assert.equal(git(binding.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'tandem-conversations/fix-login');
  assert.equal(path.basename(binding.path), 'fix-login', 'the folder is named without the prefix');
  assert.ok(binding.path.startsWith(root));
  const provisional = await service.create(repo, 'c0ffee12', undefined);
  assert.equal(await service.rename(provisional, 'Tidy up'), 'tandem-conversations/tidy-up');
});

test('a workspace opened through a symlink: Apply writes the files under the linked path the editor has open', async (t) => {
  const { repo, service } = setup(t);
  fs.mkdirSync(path.join(repo, 'pkg'));
  write(repo, 'pkg/p.txt', 'p\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'pkg');
  const links = tempDir(t, 'tandem-wt-link-');
  const linked = path.join(links, 'proj');
  fs.symlinkSync(repo, linked);
  const probe = await service.probe(path.join(linked, 'pkg'));
  assert.ok(probe.ok);
  assert.equal(probe.ok && probe.repo, linked);
  assert.equal(probe.ok && probe.folder, 'pkg');
  const binding = await service.create(linked, 'abc', 'Via link');
  assert.equal(binding.repo, linked);
  write(binding.path, 'f.txt', 'changed\n');
  const plan = await service.planApply(binding, fromDisk);
  assert.deepEqual(
    plan.steps.map((s) => s.path),
    [path.join(linked, 'f.txt')],
  );
});

test('apply: a clean apply brings edits, new and deleted files over; then nothing is unapplied', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id1', 'clean');
  write(binding.path, 'f.txt', LINES.replace('line 3', 'LINE THREE'));
  write(binding.path, 'new/added.txt', 'added\n');
  fs.rmSync(path.join(binding.path, 'keep.txt'));
  const before = await service.status(binding);
  assert.deepEqual(
    before.unapplied.map((c) => `${c.status} ${c.relPath}`),
    ['modified f.txt', 'deleted keep.txt', 'added new/added.txt'],
  );
  const plan = await apply(service, binding);
  assert.deepEqual(outcomes(plan), { 'f.txt': 'update', 'keep.txt': 'delete', 'new/added.txt': 'create' });
  assert.equal(read(repo, 'f.txt'), LINES.replace('line 3', 'LINE THREE'));
  assert.equal(read(repo, 'new/added.txt'), 'added\n');
  assert.equal(fs.existsSync(path.join(repo, 'keep.txt')), false);
  assert.equal((await service.status(binding)).unapplied.length, 0);
  assert.equal(git(binding.path, 'status', '--porcelain').trim().split('\n').length, 3, "the worktree's own index is untouched");
});

test('apply: uncommitted edits in the workspace are merged, never overwritten; overlapping ones conflict', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id2', 'dirty');
  write(binding.path, 'f.txt', LINES.replace('line 2', 'agent two').replace('line 11', 'agent eleven'));
  // The user's uncommitted edit, far from the agent's: merged.
  write(repo, 'f.txt', LINES.replace('line 6', 'user six'));
  const merged = await apply(service, binding);
  assert.deepEqual(outcomes(merged), { 'f.txt': 'merged' });
  assert.equal(read(repo, 'f.txt'), LINES.replace('line 2', 'agent two').replace('line 6', 'user six').replace('line 11', 'agent eleven'));

  // Now both change line 4: a conflict, with both versions kept in the markers and the three texts for the merge editor.
  write(binding.path, 'f.txt', read(binding.path, 'f.txt').replace('line 4', 'agent four'));
  write(repo, 'f.txt', read(repo, 'f.txt').replace('line 4', 'user four'));
  const conflicted = await apply(service, binding);
  assert.deepEqual(outcomes(conflicted), { 'f.txt': 'conflict' });
  const text = read(repo, 'f.txt');
  assert.match(text, /<<<<<<< workspace\nuser four\n=======\nagent four\n>>>>>>> tandem\/dirty\n/);
  assert.match(text, /user six/, 'the user edit elsewhere stays');
  const step = conflicted.steps[0];
  assert.match(step.merge!.yours, /user four/);
  assert.match(step.merge!.agent, /agent four/);
  assert.match(step.merge!.base, /line 4/);
});

test('apply with core.autocrlf: the stored LF and the CRLF on disk are one text; edits apply and merge, not conflict', async (t) => {
  const { repo, service } = setup(t);
  git(repo, 'config', 'core.autocrlf', 'true');
  // The workspace's files as a Windows checkout has them.
  fs.rmSync(path.join(repo, 'f.txt'));
  git(repo, 'checkout', '--', 'f.txt');
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  assert.equal(read(repo, 'f.txt'), crlf(LINES));
  const binding = await service.create(repo, 'idcr', 'crlf');
  assert.equal(read(binding.path, 'f.txt'), crlf(LINES), 'the worktree is checked out the same way');
  write(binding.path, 'f.txt', crlf(LINES.replace('line 3', 'LINE THREE')));
  let plan = await apply(service, binding);
  assert.deepEqual(outcomes(plan), { 'f.txt': 'update' });
  assert.equal(read(repo, 'f.txt'), crlf(LINES.replace('line 3', 'LINE THREE')));
  // Both sides change other lines: merged in CRLF, no conflict.
  write(binding.path, 'f.txt', crlf(LINES.replace('line 3', 'LINE THREE').replace('line 10', 'agent ten')));
  write(repo, 'f.txt', crlf(LINES.replace('line 3', 'LINE THREE').replace('line 1\n', 'user one\n')));
  plan = await apply(service, binding);
  assert.deepEqual(outcomes(plan), { 'f.txt': 'merged' });
  assert.equal(read(repo, 'f.txt'), crlf(LINES.replace('line 1\n', 'user one\n').replace('line 3', 'LINE THREE').replace('line 10', 'agent ten')));
});

test('apply: two worktrees editing the same lines: the first applies cleanly, the second conflicts', async (t) => {
  const { repo, service } = setup(t);
  const a = await service.create(repo, 'ida', 'first');
  const b = await service.create(repo, 'idb', 'second');
  write(a.path, 'f.txt', LINES.replace('line 5', 'from A'));
  write(b.path, 'f.txt', LINES.replace('line 5', 'from B'));
  assert.deepEqual(outcomes(await apply(service, a)), { 'f.txt': 'update' });
  assert.equal(read(b.path, 'f.txt'), LINES.replace('line 5', 'from B'), "B's worktree never saw A's edit");
  assert.deepEqual(outcomes(await apply(service, b)), { 'f.txt': 'conflict' });
  assert.match(read(repo, 'f.txt'), /<<<<<<< workspace\nfrom A\n=======\nfrom B\n>>>>>>>/);
});

test('apply: what cannot be merged is skipped with the reason, and the workspace keeps its version', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id3', 'skip');
  fs.rmSync(path.join(binding.path, 'keep.txt'));
  write(repo, 'keep.txt', 'the user changed it\n');
  write(binding.path, 'f.txt', 'agent\n');
  write(repo, 'f.txt', LINES);
  const plan = await apply(service, binding);
  assert.equal(outcomes(plan)['keep.txt'], 'skipped');
  assert.match(plan.steps.find((s) => s.relPath === 'keep.txt')!.reason!, /yours is kept/);
  assert.equal(read(repo, 'keep.txt'), 'the user changed it\n');
  assert.equal(outcomes(plan)['f.txt'], 'update');
  // Applying again changes nothing: the workspace already has everything.
  assert.deepEqual((await service.planApply(binding, fromDisk)).steps, []);
});

test('commit on the branch, then discard back to the start; a branch with commits survives removal', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id4', 'commits');
  assert.equal(await service.commit(binding, 'nothing'), undefined, 'nothing to commit');
  write(binding.path, 'f.txt', 'changed\n');
  write(binding.path, 'untracked.txt', 'new\n');
  const id = await service.commit(binding, 'Agent work');
  assert.match(id!, /^[0-9a-f]{7,}$/);
  assert.equal((await service.status(binding)).commits, 1);
  assert.equal(git(repo, 'log', '-1', '--format=%s', binding.branch).trim(), 'Agent work');
  assert.equal(git(repo, 'rev-parse', 'HEAD').trim(), binding.base, "the workspace's branch did not move");

  write(binding.path, 'later.txt', 'x\n');
  await service.discard(binding);
  assert.equal(read(binding.path, 'f.txt'), LINES);
  assert.equal(fs.existsSync(path.join(binding.path, 'later.txt')), false);
  const status = await service.status(binding);
  assert.deepEqual([status.unapplied.length, status.commits], [0, 0]);

  write(binding.path, 'f.txt', 'again\n');
  await service.commit(binding, 'kept work');
  assert.deepEqual(await service.remove(binding, true), { branchKept: true });
  assert.equal(fs.existsSync(binding.path), false);
  assert.match(git(repo, 'branch', '--list', binding.branch), /tandem\/commits/);

  const plain = await service.create(repo, 'id5', 'plain');
  assert.deepEqual(await service.remove(plain, false), { branchKept: false });
  assert.equal(git(repo, 'branch', '--list', plain.branch).trim(), '', 'an unused branch goes with its worktree');
});

test('a worktree deleted by hand is detected, refuses to apply with a clear error, and can be recreated from its branch', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id6', 'gone');
  write(binding.path, 'f.txt', 'committed\n');
  await service.commit(binding, 'work');
  fs.rmSync(binding.path, { recursive: true, force: true });
  assert.equal((await service.status(binding)).state, 'missing');
  await assert.rejects(
    service.planApply(binding, fromDisk),
    (err: unknown) => err instanceof WorktreeError && err.kind === 'missing' && /deleted outside Tandem/.test(err.message),
  );
  await service.recreate(binding);
  assert.equal(read(binding.path, 'f.txt'), 'committed\n', 'back from its branch, commits included');
  assert.equal((await service.status(binding)).state, 'ready');
});

test('errors: a branch that appears meanwhile, and a locked index, are said clearly', async (t) => {
  const { repo, service } = setup(t);
  const binding = await service.create(repo, 'id7', 'racing');
  // Someone else took the name the rename would pick, between the check and the rename: git refuses and says so.
  const git7 = service.git;
  await assert.rejects(git7.run(['branch', binding.branch], repo), (err: unknown) => err instanceof WorktreeError && err.kind === 'branchExists');
  // Another git holds the worktree's index: Commit says what to do instead of a bare "fatal".
  const lock = `${git(binding.path, 'rev-parse', '--path-format=absolute', '--git-path', 'index').trim()}.lock`;
  fs.writeFileSync(lock, '');
  write(binding.path, 'f.txt', 'x\n');
  await assert.rejects(
    service.commit(binding, 'blocked'),
    (err: unknown) => err instanceof WorktreeError && err.kind === 'lockedIndex' && /Another git process/.test(err.message),
  );
  fs.rmSync(lock);
  assert.match((await service.commit(binding, 'unblocked'))!, /^[0-9a-f]+$/);
});
