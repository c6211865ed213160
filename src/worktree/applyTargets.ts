import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { isWithin, realRoot, resolveReal } from '../util/realPath';
import { WorktreeError } from './worktreeGit';

/**
 * Where Apply may write. A worktree's paths are always below the repository's top (git refuses `..`
 * and `.git` in trees), but the main working tree may hold links — tracked ones from a clone, or
 * the user's own — that lead elsewhere: the target is resolved with the same real-path walk as the
 * agent's own writes (PathPolicy), so a write through a link never lands outside the workspace,
 * and a link at the target itself is never written through (that would change the file it names).
 */

/** Why a target cannot be written. */
export type TargetProblem =
  /** A link on the way (a folder of the workspace, or an ancestor) leads outside the repository. */
  | { kind: 'outside'; real: string }
  /** The target itself is a symbolic link. */
  | { kind: 'link' }
  /** The target cannot be resolved (a link loop, no permission). */
  | { kind: 'unresolved'; message: string };

/** What is wrong with writing (or deleting) `path` in the repository whose real top is `root`; undefined: nothing. */
export async function targetProblem(root: string, path: string): Promise<TargetProblem | undefined> {
  let real: string;
  try {
    real = await resolveReal(path);
  } catch (err) {
    return { kind: 'unresolved', message: String((err as Error).message ?? err) };
  }
  if (!isWithin(root, real)) return { kind: 'outside', real };
  const stat = await fs.promises.lstat(path).catch(() => undefined);
  if (stat?.isSymbolicLink()) return { kind: 'link' };
  return undefined;
}

/** The problem as the preview and the summary say it. */
export function problemReason(problem: TargetProblem): string {
  switch (problem.kind) {
    case 'outside':
      return l10n.t('a link in the workspace leads outside it: {0}', problem.real);
    case 'link':
      return l10n.t('it is a symbolic link in the workspace: Tandem does not write through links');
    case 'unresolved':
      return l10n.t('its place in the workspace cannot be resolved: {0}', problem.message);
    default: {
      const never: never = problem;
      return String(never);
    }
  }
}

/**
 * The check again at write time, on the final paths: the plan was checked when it was made, but a
 * link can appear between the preview and the write. Throws (nothing is written) on the first target
 * that would leave the repository or write through a link.
 */
export async function assertTargets(repo: string, targets: ReadonlyArray<{ path: string; relPath: string; kind?: string }>): Promise<void> {
  const root = await realRoot(repo);
  for (const target of targets) {
    const problem = target.kind === 'delete' ? await deleteProblem(root, target.path) : await targetProblem(root, target.path);
    if (problem) throw new WorktreeError('unsafeTarget', l10n.t('Nothing was applied: {0} — {1}', target.relPath, problemReason(problem)));
  }
}

/** Deleting removes the entry itself, a link too (never what it names): only its folder must stay inside. */
async function deleteProblem(root: string, path: string): Promise<TargetProblem | undefined> {
  const problem = await targetProblem(root, nodePath.dirname(path));
  return problem?.kind === 'link' ? undefined : problem;
}
