// Tandem's git in a worktree runs pinned (security review, finding 6), with a real git in temp
// repositories: an agent that writes only text files inside its worktree — a git dir of its own
// (HEAD, alternates to the real objects, a config with a filter that runs a command), a
// `.gitattributes` naming that filter and a `.git` file pointing there — never makes Tandem's
// status, Apply plan, diff, Commit, Discard or Remove run it, and Commit and Discard act on the real
// worktree; bindings from older versions find their git dir from the repository's side; the
// repository's hooks do not run for Tandem's git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorktreeBinding } from '../../src/store/conversationMeta';
import { WorktreeError } from '../../src/worktree/worktreeGit';
import { WorktreeService } from '../../src/worktree/worktreeService';
import { git, GIT_IDENTITY, tempDir } from '../support/gitRepo';

type T = { after: (fn: () => void) => void };

Object.assign(process.env, GIT_IDENTITY);

function write(root: string, rel: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

const LINES = Array.from({ length: 6 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const fromDisk = async (file: string): Promise<Uint8Array | undefined> => fs.promises.readFile(file).catch(() => undefined);

function setup(t: T): { repo: string; scratch: string; service: WorktreeService } {
  const scratch = tempDir(t, 'tandem-wt-pinned-');
  const repo = path.join(scratch, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q');
  write(repo, 'f.txt', LINES);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  return { repo, scratch, service: new WorktreeService(() => path.join(scratch, 'worktrees')) };
}

/** What the agent writes (text files only, as fs/write_text_file could): its own git dir, with a filter that leaves a marker. */
function repoint(binding: WorktreeBinding, repo: string, marker: string): void {
  const wt = binding.path;
  write(wt, 'g/HEAD', `${binding.base}\n`);
  write(wt, 'g/objects/info/alternates', `${path.join(repo, '.git', 'objects')}\n`);
  write(wt, 'g/refs/heads/.keep', '');
  write(wt, 'g/run.sh', `touch '${marker}'\ncat\n`);
  write(wt, 'g/config', `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[filter "x"]\n\tclean = sh '${wt}/g/run.sh'\n\tsmudge = sh '${wt}/g/run.sh'\n`);
  write(wt, '.gitattributes', '* filter=x\n');
  write(wt, '.git', `gitdir: ${wt}/g\n`);
}

test('a worktree’s .git file repointed at a git dir the agent wrote: no Tandem git call runs its filter; Commit and Discard act on the real worktree', async (t) => {
  const { repo, scratch, service } = setup(t);
  const marker = path.join(scratch, 'MARKER');
  const binding = await service.create(repo, 'id1', 'pinned');
  const gitDir = fs.realpathSync(git(binding.path, 'rev-parse', '--absolute-git-dir').trim());

  write(binding.path, 'f.txt', LINES.replace('line 2', 'agent two'));
  repoint(binding, repo, marker);
  const status = await service.status(binding);
  assert.equal(fs.existsSync(marker), false, 'status ran no command');
  assert.ok(status.unapplied.some((c) => c.relPath === 'f.txt'));
  const plan = await service.planApply(binding, fromDisk);
  assert.equal(plan.steps.find((s) => s.relPath === 'f.txt')?.outcome, 'update');
  assert.match(await service.diff(binding), /agent two/);
  assert.equal(fs.existsSync(marker), false, 'neither did the Apply plan nor the diff');

  assert.ok(await service.commit(binding, 'agent work'));
  assert.equal(fs.existsSync(marker), false, 'nor Commit');
  assert.equal(git(repo, 'log', '-1', '--format=%s', binding.branch).trim(), 'agent work', 'committed on the real branch');
  assert.equal((await service.status(binding)).commits, 1);

  await service.discard(binding);
  assert.equal(fs.existsSync(marker), false, 'nor Discard');
  assert.equal(git(repo, 'rev-parse', binding.branch).trim(), binding.base, 'the real branch is back at the start');
  assert.equal(fs.readFileSync(path.join(binding.path, 'f.txt'), 'utf8'), LINES);
  assert.equal(fs.existsSync(path.join(binding.path, 'g')), false);
  assert.equal(fs.readFileSync(path.join(binding.path, '.git'), 'utf8'), `gitdir: ${binding.gitDir}\n`, 'the .git file is git’s again');
  assert.equal(git(binding.path, 'rev-parse', '--absolute-git-dir').trim(), gitDir);
  assert.equal(binding.gitDir, gitDir, 'the git dir git made, kept in the binding');
  assert.equal(path.dirname(gitDir), path.join(repo, '.git', 'worktrees'));
});

test('a binding from an older version (no git dir) finds it from the repository, not from the repointed .git file', async (t) => {
  const { repo, scratch, service } = setup(t);
  const marker = path.join(scratch, 'MARKER');
  const binding = await service.create(repo, 'id2', 'old binding');
  await service.create(repo, 'id3', 'another worktree');
  const gitDir = binding.gitDir;
  delete binding.gitDir;
  write(binding.path, 'f.txt', 'agent\n');
  repoint(binding, repo, marker);
  assert.ok((await service.status(binding)).unapplied.some((c) => c.relPath === 'f.txt'));
  assert.equal(fs.existsSync(marker), false);
  assert.equal(binding.gitDir, gitDir, 'found again and kept');
  // A git dir that no longer names this worktree (re-added by hand) is found again too.
  binding.gitDir = path.join(repo, '.git', 'worktrees', 'another-worktree');
  await service.status(binding);
  assert.equal(binding.gitDir, gitDir);
});

test('remove: a repointed .git file is put back first, so git’s own check of the folder runs nothing and removing works', async (t) => {
  const { repo, scratch, service } = setup(t);
  const marker = path.join(scratch, 'MARKER');
  const binding = await service.create(repo, 'id4', 'remove me');
  write(binding.path, 'f.txt', 'agent\n');
  repoint(binding, repo, marker);
  await assert.rejects(service.remove(binding, false), (err: unknown) => err instanceof WorktreeError, 'it has changes: git refuses without force');
  assert.equal(fs.existsSync(marker), false);
  repoint(binding, repo, marker);
  assert.deepEqual(await service.remove(binding, true), { branchKept: false });
  assert.equal(fs.existsSync(binding.path), false);
  assert.equal(fs.existsSync(marker), false);
  assert.equal(git(repo, 'worktree', 'list', '--porcelain').includes(binding.path), false);
});

test('the repository’s hooks do not run for Tandem’s git (create, commit, rename, discard, recreate)', async (t) => {
  const { repo, scratch, service } = setup(t);
  const ran = path.join(scratch, 'hooks-ran');
  for (const hook of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit', 'reference-transaction']) {
    fs.writeFileSync(path.join(repo, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> '${ran}'\n`, { mode: 0o755 });
  }
  const binding = await service.create(repo, 'c0ffee12', undefined);
  write(binding.path, 'f.txt', 'agent\n');
  assert.ok(await service.commit(binding, 'work'));
  assert.ok(await service.rename(binding, 'Named now'));
  await service.discard(binding);
  fs.rmSync(binding.path, { recursive: true, force: true });
  await service.recreate(binding);
  assert.equal(fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '', '', 'no hook ran');
  assert.equal(git(binding.path, 'rev-parse', '--absolute-git-dir').trim(), binding.gitDir, 'the recreated worktree’s git dir is kept');
});
