import * as l10n from '@vscode/l10n';
import { GitFailure, runGit, type GitResult, type GitRunOptions } from '../review/gitProcess';

/** Why a worktree operation failed, so the editor can say what to do about it. */
export type WorktreeErrorKind =
  /** No git executable. */
  | 'noGit'
  /** The folder is not inside a git work tree. */
  | 'notRepository'
  /** The repository has no commit yet: there is nothing to branch from. */
  | 'noCommit'
  /** Another git process holds the repository's index (or a ref) locked. */
  | 'lockedIndex'
  /** The branch name is taken. */
  | 'branchExists'
  /** Submodules with changes (or any submodule) stop git from removing or moving the worktree. */
  | 'submodules'
  /** The worktree's folder is gone (deleted outside Tandem). */
  | 'missing'
  /** git does not know who is committing (`user.name` / `user.email`). */
  | 'identity'
  /** An Apply target would leave the repository through a link, or is a link itself. */
  | 'unsafeTarget'
  /** Anything else git refused; the message quotes it. */
  | 'failed';

export class WorktreeError extends Error {
  constructor(
    readonly kind: WorktreeErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'WorktreeError';
  }
}

/** The last lines git wrote to stderr, for a message. */
function gitSaid(result: GitResult): string {
  return result.stderr.trim().split('\n').slice(-3).join(' ').trim();
}

/** The command's words ("worktree add"), without options and the values of `-c`. */
function commandWords(args: readonly string[]): string[] {
  return args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-c');
}

/** A git failure as a WorktreeError with a message that says what to do. */
export function describeGitFailure(failure: GitFailure, repo: string): WorktreeError {
  const said = gitSaid(failure.result);
  const all = failure.result.stderr;
  const lock = /Unable to create '([^']+\.lock)'/.exec(all);
  if (lock)
    return new WorktreeError(
      'lockedIndex',
      l10n.t(
        'Another git process is using the repository at {0} ({1} exists). Wait for it to finish and try again; if no git is running, delete that file.',
        repo,
        lock[1],
      ),
    );
  if (/a branch named .* already exists/i.test(all)) return new WorktreeError('branchExists', l10n.t('The branch already exists: {0}', said));
  if (/submodule/i.test(all))
    return new WorktreeError(
      'submodules',
      l10n.t('git refuses because of submodules in the worktree: {0}. Commit or discard the changes inside them first, or remove the folder yourself.', said),
    );
  if (/please tell me who you are|empty ident|user\.email/i.test(all))
    return new WorktreeError(
      'identity',
      l10n.t('git does not know who is committing. Set user.name and user.email (git config --global user.name "…"), then try again.'),
    );
  if (/not a git repository/i.test(all)) return new WorktreeError('notRepository', l10n.t('{0} is not in a git repository.', repo));
  return new WorktreeError('failed', l10n.t('git {0} failed: {1}', commandWords(failure.args).slice(0, 2).join(' '), said || String(failure.result.code)));
}

/**
 * A worktree as Tandem's git reaches it: the git dir git made for it in the repository
 * (`<repository's .git>/worktrees/<id>`) and its folder, both given to git, so git never looks for
 * the worktree's `.git` file — a text file the agent can write, which could name a git dir with its
 * own config (filters, hooks) and decide which repository Commit and Discard act on.
 */
export interface PinnedWorktree {
  gitDir: string;
  workTree: string;
}

/**
 * On every command: no hooks. The repository's hooks would run on files the agent wrote (a
 * pre-commit that runs the project's scripts), and for commands the user never typed.
 */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];

/** Runs git for the worktree commands: every failure comes out as a WorktreeError. */
export class WorktreeGit {
  constructor(readonly gitPath = 'git') {}

  async run(args: string[], cwd: string, opts: Omit<GitRunOptions, 'cwd'> = {}): Promise<GitResult> {
    try {
      return await runGit(this.gitPath, [...NO_HOOKS, ...args], { ...opts, cwd });
    } catch (err) {
      if (err instanceof GitFailure) throw describeGitFailure(err, cwd);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new WorktreeError('noGit', l10n.t('git is not installed (or not on the PATH), so conversations cannot have their own worktree.'));
      throw err;
    }
  }

  /** `git <args>` in a worktree, with its git dir and work tree pinned (see PinnedWorktree). */
  runIn(at: PinnedWorktree, args: string[], opts: Omit<GitRunOptions, 'cwd'> = {}): Promise<GitResult> {
    return this.run([`--git-dir=${at.gitDir}`, `--work-tree=${at.workTree}`, ...args], at.workTree, opts);
  }

  /** stdout of `git <args>` in a pinned worktree, trimmed. */
  async textIn(at: PinnedWorktree, args: string[], opts: Omit<GitRunOptions, 'cwd'> = {}): Promise<string> {
    return (await this.runIn(at, args, opts)).stdout.toString('utf8').trim();
  }

  /** stdout of `git <args>`, trimmed. */
  async text(args: string[], cwd: string, opts: Omit<GitRunOptions, 'cwd'> = {}): Promise<string> {
    return (await this.run(args, cwd, opts)).stdout.toString('utf8').trim();
  }

  /** True when `ref` names an object (a branch, a commit). */
  async has(ref: string, cwd: string): Promise<boolean> {
    const out = await this.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd, { okCodes: [0, 1, 128] });
    return out.code === 0;
  }
}
