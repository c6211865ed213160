import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { isWithin } from '../util/realPath';
import type { MentionSpec } from '../protocol/messages';
import type { ConversationMeta, WorktreeBinding } from '../store/conversationMeta';
import type { EditorPorts } from './ports';

function real(path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    return nodePath.resolve(path);
  }
}

/** `path` in the worktree when it lies in the repository's main working tree; undefined otherwise. */
export function inWorktree(binding: WorktreeBinding, path: string): string | undefined {
  const resolved = isWithin(binding.repo, path) ? path : real(path);
  if (!isWithin(binding.repo, resolved)) return undefined;
  const rel = nodePath.relative(binding.repo, resolved);
  return rel === '' ? binding.path : nodePath.join(binding.path, rel);
}

/**
 * The roots a conversation in a worktree works in: its folder in the worktree first, then the
 * workspace's other folders — each one inside the repository taken from the worktree, so nothing
 * the agent reads or writes is the main working tree's.
 */
export function sessionRoots(binding: WorktreeBinding, cwd: string, workspaceRoots: readonly string[]): string[] {
  const mapped = workspaceRoots.map((root) => inWorktree(binding, root) ?? root);
  return [...new Set([cwd, ...mapped])];
}

/** A mention of a workspace file, pointed at the same file in the worktree (what the agent works on). */
export function rebaseSpec(binding: WorktreeBinding, spec: MentionSpec): MentionSpec {
  switch (spec.kind) {
    case 'file':
    case 'folder':
    case 'selection':
    case 'symbol': {
      const moved = inWorktree(binding, spec.path);
      return moved === undefined ? spec : { ...spec, path: moved };
    }
    case 'problems':
      return spec.file === undefined ? spec : { ...spec, file: inWorktree(binding, spec.file) ?? spec.file };
    default:
      return spec;
  }
}

/**
 * The editor's ports as a conversation in a worktree sees them: file access, terminals, permission
 * rules, follow-along and the changed-files review all rooted at the worktree; `@` mentions of
 * workspace files read the worktree's copies, and Git changes are the worktree's. Other
 * conversations keep the editor's ports as they are.
 */
export function conversationEditor(editor: EditorPorts, meta: ConversationMeta): { editor: EditorPorts; rebase?: (spec: MentionSpec) => MentionSpec } {
  const binding = meta.worktree;
  const host = editor.worktrees;
  if (!binding || !host) return { editor };
  const policy = editor.policy.withRoots(() => sessionRoots(binding, meta.cwd, editor.policy.roots()));
  const scoped: EditorPorts = {
    ...editor,
    policy,
    review: host.reviewFor(meta.id, meta.cwd),
    rules: editor.rules && { ...editor.rules, workspaceRoot: meta.cwd },
    contextSources: { ...editor.contextSources, gitDiff: async () => ({ diff: await host.service.diff(binding), root: binding.path }) },
  };
  return { editor: scoped, rebase: (spec) => rebaseSpec(binding, spec) };
}
