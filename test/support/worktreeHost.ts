/**
 * A WorktreeHost on plain disk for tests: the real WorktreeService (git), checkpoints rooted at each
 * worktree, writes applied with applyPlanOnDisk, and the questions answered as the test says (every
 * question asked is recorded).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReviewHost } from '../../src/conversation/conversationReview';
import type { WorktreeDecision, WorktreeHost } from '../../src/conversation/worktreeHost';
import { CheckpointStore } from '../../src/review/checkpointStore';
import { applyPlanOnDisk } from '../../src/review/restorePlan';
import type { ApplyPlan, ApplyStep } from '../../src/worktree/applyPlan';
import { assertTargets } from '../../src/worktree/applyTargets';
import { WorktreeService } from '../../src/worktree/worktreeService';

export interface DiskWorktreeHost extends WorktreeHost {
  /** What the test answers. */
  answers: { apply: boolean; close: WorktreeDecision; discard: boolean; commitMessage: string | undefined };
  asked: string[];
  plans: ApplyPlan[];
  conflicts: ApplyStep[];
  told: string[];
}

export function diskWorktreeHost(root: string, storage: string): DiskWorktreeHost {
  const stores = new Map<string, Promise<CheckpointStore>>();
  const readCurrent = (file: string) => fs.promises.readFile(file, 'utf8').catch(() => undefined);
  const host: DiskWorktreeHost = {
    answers: { apply: true, close: 'keep', discard: true, commitMessage: undefined },
    asked: [],
    plans: [],
    conflicts: [],
    told: [],
    service: new WorktreeService(() => root),
    blocked: () => undefined,
    readMain: (file) => fs.promises.readFile(file).catch(() => undefined),
    reviewFor: (id: string, cwd: string): ReviewHost => ({
      checkpoints: () => {
        if (!stores.has(id)) stores.set(id, CheckpointStore.open({ root: cwd, storageDir: path.join(storage, id) }));
        return stores.get(id)!;
      },
      readCurrent,
      apply: (plan) => applyPlanOnDisk(plan),
      confirmRewind: async () => true,
    }),
    confirmApply: async (plan) => {
      host.asked.push('apply');
      host.plans.push(plan);
      return host.answers.apply;
    },
    // As the editor does: the targets checked again on the final paths, then written.
    apply: async (steps, _label, repo) => {
      await assertTargets(repo, steps);
      await applyPlanOnDisk(steps);
    },
    resolveConflicts: async (conflicts) => {
      host.conflicts.push(...conflicts);
    },
    commitMessage: async (suggested) => {
      host.asked.push('commit');
      return host.answers.commitMessage ?? suggested;
    },
    confirmDiscard: async () => {
      host.asked.push('discard');
      return host.answers.discard;
    },
    askOnClose: async () => {
      host.asked.push('close');
      return host.answers.close;
    },
    confirmForce: async () => false,
    inform: (message) => host.told.push(message),
    watch: () => ({ dispose: () => undefined }),
  };
  return host;
}
