import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { RestoreStep } from '../review/checkpointTypes';
import { decodeExact, isBinary } from '../review/restorePlan';
import type { WorktreeBinding } from '../store/conversationMeta';
import { realRoot } from '../util/realPath';
import { problemReason, targetProblem } from './applyTargets';
import type { PinnedWorktree, WorktreeGit } from './worktreeGit';
import { readCheckedOutBlobs, snapshotTree, treeChanges, type TreeChange } from './worktreeSnapshot';

/** What applying does to one file of the workspace. */
export type ApplyOutcome =
  /** The workspace's file is as the worktree started (or as last applied): the agent's version goes in. */
  | 'create'
  | 'update'
  | 'delete'
  /** Both sides changed it, in different places: merged. */
  | 'merged'
  /** Both sides changed the same lines: written with conflict markers, to resolve in the merge editor. */
  | 'conflict'
  /** The workspace already has the agent's version. */
  | 'same'
  /** Cannot be merged (binary, a submodule, deleted on one side and changed on the other): the workspace's version stays. */
  | 'skipped';

export interface ApplyStep {
  /** `/`-separated, relative to the repository's top. */
  relPath: string;
  /** The file in the main working tree (absolute). */
  path: string;
  outcome: ApplyOutcome;
  /** The file's new content (create, update, merged, conflict): text when it is valid UTF-8, else bytes. */
  text?: string;
  bytes?: Uint8Array;
  /** A conflict's three versions, for the merge editor: the start, the workspace's (before applying), the agent's. */
  merge?: { base: string; yours: string; agent: string };
  /** Why a file is skipped, and where the agent's version is. */
  reason?: string;
}

/** Everything one Apply would do, computed before anything is written (the preview shows it). */
export interface ApplyPlan {
  /** The worktree's state the plan brings over (recorded as applied once it is). */
  tree: string;
  steps: ApplyStep[];
}

/** The workspace's current content of a file (the editor's, unsaved changes included); undefined: it does not exist. */
export type MainReader = (path: string) => Promise<Uint8Array | undefined>;

export function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

/** The tree of what was last applied (the start commit's, before any apply). */
export function appliedTree(binding: WorktreeBinding): string {
  return binding.applied ?? `${binding.base}^{tree}`;
}

/**
 * The plan for bringing the worktree's changes since the last apply into the main working tree: a
 * three-way merge per file (the state last applied is the common ancestor, the workspace's current
 * content is "yours", the worktree's is the agent's), so uncommitted edits in the workspace are
 * never overwritten — they are merged, or the file conflicts, or it is skipped. Nothing is written.
 */
export async function planApply(git: WorktreeGit, at: PinnedWorktree, binding: WorktreeBinding, readMain: MainReader): Promise<ApplyPlan> {
  const tree = await snapshotTree(git, at);
  const changes = await treeChanges(git, at, appliedTree(binding), tree);
  // In their checked-out form: the workspace's files ("yours") are compared and merged with them.
  const blobs = await readCheckedOutBlobs(
    git,
    at,
    changes.flatMap((c) => (c.submodule ? [] : [c.before, c.after].flatMap((id) => (id === undefined ? [] : [{ id, path: c.relPath }])))),
  );
  const root = await realRoot(binding.repo);
  const steps: ApplyStep[] = [];
  for (const change of changes) steps.push(await planFile(git, binding, root, change, blobs, readMain));
  return { tree, steps };
}

async function planFile(
  git: WorktreeGit,
  binding: WorktreeBinding,
  root: string,
  change: TreeChange,
  blobs: Map<string, Buffer>,
  readMain: MainReader,
): Promise<ApplyStep> {
  const path = nodePath.join(binding.repo, ...change.relPath.split('/'));
  const step = (outcome: ApplyOutcome, content?: Uint8Array, reason?: string): ApplyStep => {
    const s: ApplyStep = { relPath: change.relPath, path, outcome };
    if (content !== undefined) {
      const text = decodeExact(content);
      if (text !== undefined) s.text = text;
      else s.bytes = content;
    }
    if (reason !== undefined) s.reason = reason;
    return s;
  };
  const agentCopy = nodePath.join(binding.path, ...change.relPath.split('/'));
  if (change.submodule) return step('skipped', undefined, l10n.t('a submodule: update it in the workspace yourself'));
  // A link's blob is where it points: written as text it would be a different file, and made a link
  // it could lead anywhere. The user makes (or removes) links.
  if (change.link)
    return step('skipped', undefined, l10n.t('a symbolic link on one side: change it in the workspace yourself; the agent’s is in {0}', agentCopy));
  const problem = await targetProblem(root, path);
  if (problem) return step('skipped', undefined, problemReason(problem));
  const base = change.before === undefined ? undefined : blobs.get(change.before);
  const agent = change.after === undefined ? undefined : blobs.get(change.after);
  if ((change.before !== undefined && !base) || (change.after !== undefined && !agent))
    return step('skipped', undefined, l10n.t('its content could not be read'));
  const yours = await readMain(path);
  if (same(yours, agent)) return step('same');
  if (same(yours, base)) {
    if (agent === undefined) return step('delete');
    return step(yours === undefined ? 'create' : 'update', agent);
  }
  // Both sides changed it.
  if (agent === undefined) return step('skipped', undefined, l10n.t('you changed it and the agent deleted it: yours is kept'));
  if (yours === undefined) return step('skipped', undefined, l10n.t('you deleted it and the agent changed it: its version is in {0}', agentCopy));
  if (isBinary(yours) || isBinary(agent) || (base !== undefined && isBinary(base)))
    return step('skipped', undefined, l10n.t('changed on both sides and binary, so it cannot be merged: yours is kept; the agent’s is in {0}', agentCopy));
  const merged = await mergeFile(git, yours, base ?? new Uint8Array(), agent, [
    l10n.t('workspace'),
    l10n.t('start ({0})', binding.base.slice(0, 7)),
    binding.branch,
  ]);
  const result = step(merged.conflicts > 0 ? 'conflict' : 'merged', merged.bytes);
  if (merged.conflicts > 0) {
    const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
    result.merge = { base: text(base ?? new Uint8Array()), yours: text(yours), agent: text(agent) };
  }
  return result;
}

/**
 * Whether two plans would write the same: a plan made again after the preview differs when the
 * workspace (or the worktree) changed while the user was looking at it.
 */
export function samePlan(a: ApplyPlan, b: ApplyPlan): boolean {
  const key = (plan: ApplyPlan) =>
    plan.steps.map((s) => [s.relPath, s.outcome, s.text ?? (s.bytes ? Buffer.from(s.bytes).toString('base64') : ''), s.merge?.yours ?? '']);
  return a.tree === b.tree && JSON.stringify(key(a)) === JSON.stringify(key(b));
}

/** The writes a plan makes in the workspace (what the editor applies as one undoable step). */
export function applySteps(plan: ApplyPlan): RestoreStep[] {
  return plan.steps.flatMap((step): RestoreStep[] => {
    const { path, relPath } = step;
    if (step.outcome === 'delete') return [{ kind: 'delete', path, relPath }];
    if (step.text !== undefined) return [{ kind: 'write', path, relPath, text: step.text }];
    if (step.bytes !== undefined) return [{ kind: 'writeBytes', path, relPath, bytes: step.bytes }];
    return [];
  });
}

/** `git merge-file` on three versions: the merged bytes and how many conflicts it left (marked in them). */
export async function mergeFile(
  git: WorktreeGit,
  yours: Uint8Array,
  base: Uint8Array,
  theirs: Uint8Array,
  labels: [string, string, string],
): Promise<{ bytes: Buffer; conflicts: number }> {
  const dir = await fs.promises.mkdtemp(nodePath.join(os.tmpdir(), 'tandem-merge-'));
  try {
    const files = ['yours', 'base', 'theirs'].map((name) => nodePath.join(dir, name));
    await Promise.all([yours, base, theirs].map((bytes, i) => fs.promises.writeFile(files[i], bytes)));
    // The exit code is the number of conflicts (capped at 127); negative codes are errors.
    const okCodes = Array.from({ length: 128 }, (_, i) => i);
    // Outside any repository (it needs none): no config found above the temp folder is read.
    const env = { GIT_CEILING_DIRECTORIES: nodePath.dirname(dir) };
    const out = await git.run(['merge-file', '-p', '-L', labels[0], '-L', labels[1], '-L', labels[2], ...files], dir, { okCodes, env });
    return { bytes: out.stdout, conflicts: out.code };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
