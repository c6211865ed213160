import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';

/**
 * Names for a conversation's branch and folder: readable (from the conversation's title), valid for
 * git (`check-ref-format`'s rules, kept simple by allowing only `a-z0-9-`), and free (a number is
 * added until neither the branch nor the folder exists).
 */

/** Every Tandem branch lives under this prefix, so they are easy to tell apart and to clean up. */
export const BRANCH_PREFIX = 'tandem/';
/**
 * The prefix when the repository has a branch named `tandem`: git keeps refs as files, so
 * `refs/heads/tandem` cannot also be the folder of `refs/heads/tandem/…`.
 */
export const FALLBACK_PREFIX = 'tandem-conversations/';
const MAX_SLUG = 40;

/** A title as a branch-name part: `Fix the login bug!` → `fix-the-login-bug`; '' when nothing is left. */
export function slugOf(title: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const slug = ascii
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug;
}

/** The name a worktree gets before its conversation has a title: from the conversation's id. */
export function provisionalSlug(conversationId: string): string {
  return `conversation-${slugOf(conversationId).replace(/-/g, '').slice(0, 8) || 'new'}`;
}

/** The branch for a slug, numbered from 2 on collisions: `tandem/fix-login`, `tandem/fix-login-2`… */
export function branchFor(slug: string, attempt: number, prefix = BRANCH_PREFIX): string {
  return `${prefix}${attempt <= 1 ? slug : `${slug}-${attempt}`}`;
}

/**
 * The first free name among `branchFor(slug, 1…)`; `taken` says whether a name is in use (its branch
 * or its folder). Gives up after 100 tries with the conversation id's hash appended.
 */
export async function freeName(slug: string, taken: (branch: string) => Promise<boolean>, prefix = BRANCH_PREFIX): Promise<string> {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const branch = branchFor(slug, attempt, prefix);
    if (!(await taken(branch))) return branch;
  }
  return branchFor(`${slug}-${shortHash(`${slug}${Date.now()}`)}`, 1, prefix);
}

/** The folder holding one repository's worktrees: `<root>/<repo name>-<hash of its path>`. */
export function repoFolder(worktreesRoot: string, repo: string): string {
  const name = slugOf(nodePath.basename(repo)) || 'repository';
  return nodePath.join(worktreesRoot, `${name}-${shortHash(repo)}`);
}

/** A branch's folder inside its repository's folder (`tandem/fix-login` → `fix-login`). */
export function worktreeFolder(worktreesRoot: string, repo: string, branch: string): string {
  const prefix = [BRANCH_PREFIX, FALLBACK_PREFIX].find((p) => branch.startsWith(p)) ?? '';
  return nodePath.join(repoFolder(worktreesRoot, repo), branch.slice(prefix.length).replace(/\//g, '-'));
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
