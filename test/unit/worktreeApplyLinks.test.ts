// Apply never writes through links (security review, finding 5), with a real git in temp
// repositories: a tracked link to a folder outside the workspace that the agent replaced by a real
// folder in its worktree, a tracked link to a file replaced by a regular file, the user's own link
// at a target, a link the agent made, and a link that appears between the plan and the write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPlanOnDisk } from '../../src/review/restorePlan';
import { applySteps, type ApplyPlan } from '../../src/worktree/applyPlan';
import { assertTargets } from '../../src/worktree/applyTargets';
import { WorktreeError } from '../../src/worktree/worktreeGit';
import { WorktreeService } from '../../src/worktree/worktreeService';
import { git, GIT_IDENTITY, tempDir } from '../support/gitRepo';

type T = { after: (fn: () => void) => void };

Object.assign(process.env, GIT_IDENTITY);

function write(root: string, rel: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

const fromDisk = async (file: string): Promise<Uint8Array | undefined> => fs.promises.readFile(file).catch(() => undefined);

/** A repository with `docs -> <outside>` and `conf.txt -> <outside>/target.txt` committed, and a folder outside it. */
function setup(t: T): { repo: string; outside: string; service: WorktreeService } {
  const scratch = tempDir(t, 'tandem-wt-links-');
  const repo = path.join(scratch, 'repo');
  const outside = path.join(scratch, 'outside-home');
  fs.mkdirSync(repo);
  fs.mkdirSync(outside);
  write(outside, 'target.txt', 'the target\n');
  git(repo, 'init', '-q');
  write(repo, 'f.txt', 'f\n');
  fs.symlinkSync(outside, path.join(repo, 'docs'));
  fs.symlinkSync(path.join(outside, 'target.txt'), path.join(repo, 'conf.txt'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  return { repo, outside, service: new WorktreeService(() => path.join(scratch, 'worktrees')) };
}

function stepOf(plan: ApplyPlan, relPath: string) {
  const step = plan.steps.find((s) => s.relPath === relPath);
  assert.ok(step, `a step for ${relPath} in ${plan.steps.map((s) => s.relPath).join(', ')}`);
  return step;
}

test('a tracked link to a folder outside, replaced by a real folder in the worktree: skipped, named, nothing written outside', async (t) => {
  const { repo, outside, service } = setup(t);
  const binding = await service.create(repo, 'id1', 'links');
  fs.rmSync(path.join(binding.path, 'docs'));
  write(binding.path, 'docs/pwned.sh', 'echo pwned\n');
  write(binding.path, 'f.txt', 'agent\n');
  const plan = await service.planApply(binding, fromDisk);
  const pwned = stepOf(plan, 'docs/pwned.sh');
  assert.equal(pwned.outcome, 'skipped');
  assert.equal(pwned.reason, `a link in the workspace leads outside it: ${path.join(outside, 'pwned.sh')}`);
  assert.equal(stepOf(plan, 'docs').outcome, 'skipped', 'the link itself is not treated as a text file');
  assert.equal(stepOf(plan, 'f.txt').outcome, 'update', 'the rest still applies');
  await applyPlanOnDisk(applySteps(plan));
  assert.deepEqual(fs.readdirSync(outside), ['target.txt'], 'nothing was written where the link points');
  assert.equal(fs.readlinkSync(path.join(repo, 'docs')), outside, 'the link stays');
  assert.equal(fs.readFileSync(path.join(repo, 'f.txt'), 'utf8'), 'agent\n');
});

test('a tracked link to a file, replaced by a regular file in the worktree: skipped, the file it points to is untouched', async (t) => {
  const { repo, outside, service } = setup(t);
  const binding = await service.create(repo, 'id2', 'file link');
  fs.rmSync(path.join(binding.path, 'conf.txt'));
  write(binding.path, 'conf.txt', 'overwritten by the agent\n');
  // The user's edit of the target too, so the old code's three-way merge wrote through the link.
  write(outside, 'target.txt', 'the target, edited\n');
  const plan = await service.planApply(binding, fromDisk);
  const conf = stepOf(plan, 'conf.txt');
  assert.equal(conf.outcome, 'skipped');
  assert.match(conf.reason!, /symbolic link/);
  assert.match(conf.reason!, new RegExp(binding.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'says where the agent’s version is');
  await applyPlanOnDisk(applySteps(plan));
  assert.equal(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'the target, edited\n');
  assert.ok(fs.lstatSync(path.join(repo, 'conf.txt')).isSymbolicLink());
});

test('a link the agent made, and the user’s own link at a target, are never written as or through', async (t) => {
  const { repo, outside, service } = setup(t);
  write(repo, 'real.txt', 'real\n');
  const binding = await service.create(repo, 'id3', 'made links');
  fs.symlinkSync('/etc/passwd', path.join(binding.path, 'evil'));
  write(binding.path, 'notes.txt', 'agent notes\n');
  // The user's untracked link where the agent creates a file: it points inside the repository.
  fs.symlinkSync(path.join(repo, 'real.txt'), path.join(repo, 'notes.txt'));
  const plan = await service.planApply(binding, fromDisk);
  assert.equal(stepOf(plan, 'evil').outcome, 'skipped');
  assert.equal(stepOf(plan, 'notes.txt').outcome, 'skipped');
  assert.match(stepOf(plan, 'notes.txt').reason!, /does not write through links/);
  await applyPlanOnDisk(applySteps(plan));
  assert.equal(fs.existsSync(path.join(repo, 'evil')), false, 'no file holding the link’s target');
  assert.equal(fs.readFileSync(path.join(repo, 'real.txt'), 'utf8'), 'real\n');
  assert.deepEqual(fs.readdirSync(outside), ['target.txt']);
});

test('a link to a folder inside the repository is followed, as the agent’s own writes are', async (t) => {
  const { repo, service } = setup(t);
  fs.mkdirSync(path.join(repo, 'src'));
  write(repo, 'src/a.txt', 'a\n');
  fs.symlinkSync(path.join(repo, 'src'), path.join(repo, 'lib'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'lib link');
  const binding = await service.create(repo, 'id4', 'inside link');
  fs.rmSync(path.join(binding.path, 'lib'));
  write(binding.path, 'lib/b.txt', 'b\n');
  const plan = await service.planApply(binding, fromDisk);
  assert.equal(stepOf(plan, 'lib/b.txt').outcome, 'create');
  await assertTargets(repo, applySteps(plan));
});

test('the write-time check: a folder replaced by a link to outside after the plan refuses the whole write', async (t) => {
  const { repo, outside, service } = setup(t);
  fs.mkdirSync(path.join(repo, 'out'));
  write(repo, 'out/keep.txt', 'k\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'out');
  const binding = await service.create(repo, 'id5', 'race');
  write(binding.path, 'out/new.txt', 'new\n');
  write(binding.path, 'f.txt', 'agent\n');
  const plan = await service.planApply(binding, fromDisk);
  assert.equal(stepOf(plan, 'out/new.txt').outcome, 'create');
  await assertTargets(repo, applySteps(plan));
  // Between the preview and the write, the folder becomes a link.
  fs.rmSync(path.join(repo, 'out'), { recursive: true });
  fs.symlinkSync(outside, path.join(repo, 'out'));
  await assert.rejects(
    assertTargets(repo, applySteps(plan)),
    (err: unknown) =>
      err instanceof WorktreeError && err.kind === 'unsafeTarget' && err.message.includes('out/new.txt') && err.message.includes(path.join(outside, 'new.txt')),
  );
  assert.deepEqual(fs.readdirSync(outside), ['target.txt']);
});

test('restores are checked the same way: writing back a file the agent swapped for a link is refused; deleting a link it made is not', async (t) => {
  const { repo, outside } = setup(t);
  // Undo would write f.txt's earlier text back, but the agent replaced f.txt by a link to outside.
  fs.rmSync(path.join(repo, 'f.txt'));
  fs.symlinkSync(path.join(outside, 'target.txt'), path.join(repo, 'f.txt'));
  const writeBack = [{ kind: 'write' as const, path: path.join(repo, 'f.txt'), relPath: 'f.txt', text: 'f\n' }];
  await assert.rejects(
    assertTargets(repo, writeBack),
    (err: unknown) => err instanceof WorktreeError && err.kind === 'unsafeTarget' && err.message.includes('f.txt'),
  );
  assert.equal(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'the target\n');
  // A link the agent created is undone by deleting it: that removes the link, never what it names.
  fs.symlinkSync(outside, path.join(repo, 'made-by-agent'));
  await assertTargets(repo, [{ kind: 'delete', path: path.join(repo, 'made-by-agent'), relPath: 'made-by-agent' }]);
  // But a delete whose folder a link leads outside is refused.
  await assert.rejects(assertTargets(repo, [{ kind: 'delete', path: path.join(repo, 'docs', 'x.txt'), relPath: 'docs/x.txt' }]), WorktreeError);
});
