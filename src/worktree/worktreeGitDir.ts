import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { realRoot } from '../util/realPath';
import type { PinnedWorktree, WorktreeGit } from './worktreeGit';

/**
 * The git dir of a conversation's worktree, found where git keeps it: `<repository's .git>/worktrees/<id>`,
 * whose `gitdir` file names the worktree's `.git`. Found from the repository's side, never from the
 * worktree's own `.git` file: that is a text file inside the agent's folder, and a git that follows
 * it runs whatever config (filters, hooks) the folder it names holds.
 */

/** The git dir under the repository `repo` that belongs to the worktree at `worktree`; undefined: git has none for it. */
export async function findGitDir(git: WorktreeGit, repo: string, worktree: string): Promise<string | undefined> {
  const common = nodePath.resolve(repo, await git.text(['rev-parse', '--git-common-dir'], repo));
  const admin = nodePath.join(common, 'worktrees');
  const entries = await fs.promises.readdir(admin).catch((): string[] => []);
  const want = await realRoot(worktree);
  for (const id of entries.sort()) {
    const gitDir = nodePath.join(admin, id);
    if (await leadsTo(gitDir, want)) return gitDir;
  }
  return undefined;
}

/** True when the git dir's `gitdir` file (in the repository, written by git) names the worktree whose real path is `realWorktree`. */
export async function leadsTo(gitDir: string, realWorktree: string): Promise<boolean> {
  const named = await fs.promises.readFile(nodePath.join(gitDir, 'gitdir'), 'utf8').catch(() => undefined);
  if (named === undefined || named.trim() === '') return false;
  // The file holds `<worktree>/.git`: its folder is compared, not the `.git` the agent could have made a link.
  const folder = nodePath.dirname(nodePath.resolve(gitDir, named.trim()));
  return (await realRoot(folder)) === realWorktree;
}

/**
 * The worktree's `.git` file as git wrote it, pointing at Tandem's git dir. Written (never read)
 * before the commands whose git reads it itself — `git worktree remove` checks the folder with a
 * `git status` through it — and after Discard, so the folder is a working worktree again for VS Code's
 * git and the user's, whatever was written there.
 */
export async function restoreGitFile(at: PinnedWorktree): Promise<void> {
  const file = nodePath.join(at.workTree, '.git');
  await fs.promises.rm(file, { recursive: true, force: true });
  await fs.promises.writeFile(file, `gitdir: ${at.gitDir}\n`);
}
