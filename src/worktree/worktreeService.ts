import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { WorktreeBinding } from '../store/conversationMeta';
import { realRoot } from '../util/realPath';
import { appliedTree, planApply, same, type ApplyPlan, type MainReader } from './applyPlan';
import { BRANCH_PREFIX, FALLBACK_PREFIX, freeName, provisionalSlug, slugOf, worktreeFolder } from './branchNames';
import { WorktreeError, WorktreeGit, type PinnedWorktree } from './worktreeGit';
import { findGitDir, leadsTo, restoreGitFile } from './worktreeGitDir';
import { snapshotTree, treeChanges, type TreeChange } from './worktreeSnapshot';

/** Whether a folder can have conversation worktrees, and where its repository is. */
export type WorktreeProbe = { ok: true; repo: string; folder: string } | { ok: false; error: WorktreeError };

/** A worktree as it is now. */
export interface WorktreeStatus {
  state: 'ready' | 'missing';
  /** Paths that differ from what was last applied to the workspace (the start commit before any apply). */
  unapplied: TreeChange[];
  /** Commits on the branch since the start commit. */
  commits: number;
}

/**
 * Conversation worktrees through the git executable (`git worktree`, `merge-file`, `diff-tree`; no
 * hand-written git internals): create one on a new branch from the workspace's HEAD, in a folder
 * Tandem owns outside the workspace; tell what is not applied yet; plan an apply; commit on the
 * branch; discard; remove (keeping a branch that has commits); recreate one deleted by hand.
 * vscode-free; the editor asks the questions and shows the previews.
 */
export class WorktreeService {
  constructor(
    /** The folder holding the worktrees (`tandem.worktreesFolder`, or Tandem's own storage). */
    private readonly root: () => string,
    readonly git = new WorktreeGit(),
  ) {}

  /** Whether `folder` is in a repository with a commit to branch from. */
  async probe(folder: string): Promise<WorktreeProbe> {
    try {
      const top = await this.git.text(['rev-parse', '--show-toplevel'], folder).catch((err: unknown) => {
        if (err instanceof WorktreeError && err.kind === 'noGit') throw err;
        throw new WorktreeError('notRepository', l10n.t('{0} is not in a git repository.', folder));
      });
      if (!(await this.git.has('HEAD', top)))
        throw new WorktreeError('noCommit', l10n.t('The repository {0} has no commit yet, so there is nothing to start a branch from.', top));
      const real = await fs.promises.realpath(top);
      const rel = nodePath.relative(real, await fs.promises.realpath(folder));
      return { ok: true, repo: await asReached(folder, rel, real), folder: rel.split(nodePath.sep).join('/') };
    } catch (err) {
      if (err instanceof WorktreeError) return { ok: false, error: err };
      return { ok: false, error: new WorktreeError('failed', String(err)) };
    }
  }

  /**
   * A new worktree for a conversation: branch `tandem/<title or id>` (a free name) from HEAD, in
   * `<root>/<repository>-<hash>/<name>`. `provisional` when named from the id (renamed once titled).
   */
  async create(folder: string, conversationId: string, title?: string): Promise<WorktreeBinding> {
    const probe = await this.probe(folder);
    if (!probe.ok) throw probe.error;
    const { repo } = probe;
    const base = await this.git.text(['rev-parse', 'HEAD^{commit}'], repo);
    const titled = title !== undefined && slugOf(title) !== '';
    const branch = await freeName(titled ? slugOf(title) : provisionalSlug(conversationId), (name) => this.taken(repo, name), await this.prefix(repo));
    const path = worktreeFolder(this.root(), repo, branch);
    await fs.promises.mkdir(nodePath.dirname(path), { recursive: true });
    await this.git.run(['worktree', 'add', '-q', '-b', branch, path, base], repo);
    const binding: WorktreeBinding = { path, branch, base, repo, folder: probe.folder, gitDir: await this.gitDirOf(repo, path) };
    if (!titled) binding.provisional = true;
    return binding;
  }

  /** The session's folder in the worktree: the workspace folder's place in it. */
  cwdOf(binding: WorktreeBinding): string {
    return binding.folder === '' ? binding.path : nodePath.join(binding.path, ...binding.folder.split('/'));
  }

  /** True while the worktree's folder is there (a `.git` file links it to the repository). */
  exists(binding: WorktreeBinding): boolean {
    return fs.existsSync(nodePath.join(binding.path, '.git'));
  }

  async status(binding: WorktreeBinding): Promise<WorktreeStatus> {
    return this.changedSince(binding, appliedTree(binding));
  }

  /** The status with `unapplied` counted from the tree `from`. */
  private async changedSince(binding: WorktreeBinding, from: string): Promise<WorktreeStatus> {
    if (!this.exists(binding)) return { state: 'missing', unapplied: [], commits: 0 };
    const at = await this.at(binding);
    const tree = await snapshotTree(this.git, at);
    const unapplied = await treeChanges(this.git, at, from, tree);
    const commits = Number(await this.git.textIn(at, ['rev-list', '--count', `${binding.base}..HEAD`])) || 0;
    return { state: 'ready', unapplied, commits };
  }

  /**
   * What removing the worktree would lose: every file changed since it started whose worktree
   * version the workspace does not have (as the editor has it) — applied or not, since an Apply can
   * be undone in the editor without Tandem knowing. Commits on the branch are kept by removing.
   */
  async lostOnRemove(binding: WorktreeBinding, readMain: MainReader): Promise<WorktreeStatus> {
    const status = await this.changedSince(binding, `${binding.base}^{tree}`);
    if (status.state === 'missing') return status;
    const lost: TreeChange[] = [];
    for (const change of status.unapplied) {
      const parts = change.relPath.split('/');
      const agent = change.submodule ? undefined : await fs.promises.readFile(nodePath.join(binding.path, ...parts)).catch(() => undefined);
      if (change.submodule || !same(agent, await readMain(nodePath.join(binding.repo, ...parts)))) lost.push(change);
    }
    return { ...status, unapplied: lost };
  }

  /** What Apply would do; `readMain` reads the workspace's files as the editor has them. */
  async planApply(binding: WorktreeBinding, readMain: MainReader): Promise<ApplyPlan> {
    this.mustExist(binding);
    return planApply(this.git, await this.at(binding), binding, readMain);
  }

  /** Every change in the worktree committed on its branch; undefined when there was nothing to commit. */
  async commit(binding: WorktreeBinding, message: string): Promise<string | undefined> {
    this.mustExist(binding);
    const at = await this.at(binding);
    await this.git.runIn(at, ['add', '-A', '--', '.']);
    const staged = await this.git.runIn(at, ['diff', '--cached', '--quiet'], { okCodes: [0, 1] });
    if (staged.code === 0) return undefined;
    await this.git.runIn(at, ['commit', '-q', '-m', message]);
    return this.git.textIn(at, ['rev-parse', '--short', 'HEAD']);
  }

  /** Back to the start commit: uncommitted changes, untracked files and commits on the branch go (and the `.git` file is git's again). */
  async discard(binding: WorktreeBinding): Promise<void> {
    this.mustExist(binding);
    const at = await this.at(binding);
    await this.git.runIn(at, ['reset', '-q', '--hard', binding.base]);
    await this.git.runIn(at, ['clean', '-fdq']);
    await restoreGitFile(at);
    delete binding.applied;
  }

  /**
   * Removes the worktree (`force` also when it has changes or submodules) and its branch when
   * nothing was committed on it; a branch with commits is kept (`branchKept`).
   */
  async remove(binding: WorktreeBinding, force: boolean): Promise<{ branchKept: boolean }> {
    if (this.exists(binding)) {
      // git checks the folder with a status through its `.git` file: the file first points where git made it.
      const at = await this.at(binding).catch(() => undefined);
      if (at) await restoreGitFile(at);
      await this.git.run(['worktree', 'remove', ...(force ? ['--force', '--force'] : []), binding.path], binding.repo);
    } else await this.git.run(['worktree', 'prune'], binding.repo);
    const tip = await this.git.text(['rev-parse', '--verify', '--quiet', `refs/heads/${binding.branch}`], binding.repo).catch(() => '');
    if (tip === '') return { branchKept: false };
    if (tip !== binding.base) return { branchKept: true };
    await this.git.run(['branch', '-q', '-D', binding.branch], binding.repo);
    return { branchKept: false };
  }

  /** A worktree deleted by hand, checked out again: from its branch when it still exists, else from the start commit. */
  async recreate(binding: WorktreeBinding): Promise<void> {
    await this.git.run(['worktree', 'prune'], binding.repo);
    await fs.promises.mkdir(nodePath.dirname(binding.path), { recursive: true });
    if (await this.git.has(`refs/heads/${binding.branch}`, binding.repo))
      await this.git.run(['worktree', 'add', '-q', binding.path, binding.branch], binding.repo);
    else await this.git.run(['worktree', 'add', '-q', '-b', binding.branch, binding.path, binding.base], binding.repo);
    binding.gitDir = await this.gitDirOf(binding.repo, binding.path);
    delete binding.applied;
  }

  /** A provisional branch takes its conversation's title (once); returns the new name, or undefined. */
  async rename(binding: WorktreeBinding, title: string): Promise<string | undefined> {
    const slug = slugOf(title);
    if (!binding.provisional || slug === '') return undefined;
    const branch = await freeName(slug, (name) => this.git.has(`refs/heads/${name}`, binding.repo), await this.prefix(binding.repo));
    await this.git.run(['branch', '-m', binding.branch, branch], binding.repo);
    binding.branch = branch;
    delete binding.provisional;
    return branch;
  }

  /** The worktree's changes since its start commit, as a unified diff (for the `@` Git changes chip). */
  async diff(binding: WorktreeBinding): Promise<string> {
    this.mustExist(binding);
    const at = await this.at(binding);
    const tree = await snapshotTree(this.git, at);
    return (await this.git.runIn(at, ['diff', '--no-color', '--no-ext-diff', binding.base, tree])).stdout.toString('utf8');
  }

  /** Where new branches go: `tandem/`, unless a branch named `tandem` is in the way. */
  private async prefix(repo: string): Promise<string> {
    return (await this.git.has(`refs/heads/${BRANCH_PREFIX.slice(0, -1)}`, repo)) ? FALLBACK_PREFIX : BRANCH_PREFIX;
  }

  private async taken(repo: string, branch: string): Promise<boolean> {
    return fs.existsSync(worktreeFolder(this.root(), repo, branch)) || (await this.git.has(`refs/heads/${branch}`, repo));
  }

  /**
   * Where git runs for the worktree: the git dir kept in the binding while it still names this
   * folder; else (a binding from an older version, a worktree re-added by hand) found again from the
   * repository's side and kept.
   */
  private async at(binding: WorktreeBinding): Promise<PinnedWorktree> {
    if (binding.gitDir === undefined || !(await leadsTo(binding.gitDir, await realRoot(binding.path))))
      binding.gitDir = await this.gitDirOf(binding.repo, binding.path);
    return { gitDir: binding.gitDir, workTree: binding.path };
  }

  private async gitDirOf(repo: string, path: string): Promise<string> {
    const found = await findGitDir(this.git, repo, path);
    if (found === undefined)
      throw new WorktreeError('missing', l10n.t('The repository {0} does not list the worktree {1} any more (git worktree prune?).', repo, path));
    return found;
  }

  private mustExist(binding: WorktreeBinding): void {
    if (!this.exists(binding))
      throw new WorktreeError('missing', l10n.t('The worktree {0} (branch {1}) was deleted outside Tandem.', binding.path, binding.branch));
  }
}

/**
 * The repository's folder as the workspace reaches it: a workspace opened through a symlink keeps its
 * linked path, so what Apply writes is the file the editor has open (not the same file under its real
 * path, beside an unsaved buffer). The real path when going up from the folder does not lead there.
 */
async function asReached(folder: string, rel: string, real: string): Promise<string> {
  const up = rel === '' ? folder : nodePath.resolve(folder, ...rel.split(nodePath.sep).map(() => '..'));
  const upReal = await fs.promises.realpath(up).catch(() => undefined);
  return upReal === real ? nodePath.resolve(up) : real;
}
