/**
 * Deciding a permission request from the rules: which rules match a subject, which one wins, and
 * which of the agent's options carries that answer.
 *
 * Precedence, in this order:
 * 1. A matching reject rule wins over any matching allow rule, whatever their scopes: a "no" the
 *    user once gave is never overridden by a broader "yes".
 * 2. In an untrusted workspace allow rules are ignored (reject rules still reject): a workspace the
 *    user does not trust must not inherit standing permissions.
 * 3. Otherwise a matching allow rule allows; with no match the user is asked.
 * Among several matching rules of the same decision, the narrowest scope is reported
 * (conversation, then workspace, then global), then the earliest in the list.
 */
import type { PermissionOptionKind } from '../protocol/messages';
import { matchesCommandPrefix } from './commandLine';
import { pathsMatchGlob } from './pathGlob';
import type { PermissionRule, RuleScope } from './permissionRule';
import { ANY_AGENT, parseRule } from './permissionRule';
import type { PermissionSubject } from './permissionSubject';
import { urlMatchesHost } from './urlHost';

/** What the client knows about where a request comes from. */
export interface MatchContext {
  /** The agent's configured name (compared exactly with a rule's `agent`, unless the rule says `*`). */
  agent: string;
  /** Absolute root of the workspace folder the conversation runs in; undefined when none is open. */
  workspaceRoot: string | undefined;
  /** VS Code's workspace trust. When false no rule allows anything. */
  workspaceTrusted: boolean;
  /** Resolver of real paths (symlinks); see `PathGlobOptions.realPath`. Optional. */
  realPath?: (absolutePath: string) => string;
  /** Compare paths case-insensitively; defaults to true on Windows and macOS. */
  caseInsensitivePaths?: boolean;
}

/** The outcome of the rules for one request. */
export type RuleVerdict =
  /** Answer with a reject option; `rule` is the reject rule that matched. */
  | { decision: 'reject'; rule: PermissionRule }
  /** Answer with an allow option; `rule` is the allow rule that matched. */
  | { decision: 'allow'; rule: PermissionRule }
  /** No rule decides: ask the user. */
  | { decision: 'ask' };

function defaultCaseInsensitive(): boolean {
  return process.platform === 'win32' || process.platform === 'darwin';
}

/**
 * True when `rule` describes this request: same agent (or `*`), same tool kind, and its matcher
 * covers the subject. Workspace trust is not considered here (see `evaluateRules`). A rule that
 * fails validation never matches, so a hand-edited or stale rule cannot match more than it says.
 */
export function ruleMatches(rule: PermissionRule, subject: PermissionSubject, ctx: MatchContext): boolean {
  if (!('rule' in parseRule(rule))) return false;
  if (rule.agent !== ANY_AGENT && rule.agent !== ctx.agent) return false;
  if (rule.toolKind !== subject.toolKind) return false;
  const matcher = rule.matcher;
  switch (matcher.type) {
    case 'pathGlob':
      return pathsMatchGlob(matcher.glob, subject.paths, {
        decision: rule.decision,
        workspaceRoot: ctx.workspaceRoot,
        caseInsensitive: ctx.caseInsensitivePaths ?? defaultCaseInsensitive(),
        realPath: ctx.realPath,
      });
    case 'commandPrefix':
      return subject.command !== undefined && matchesCommandPrefix(matcher.prefix, subject.command);
    case 'urlHost':
      return subject.url !== undefined && urlMatchesHost(matcher.host, subject.url);
    case 'toolName':
      return subject.toolName !== undefined && subject.toolName === matcher.name;
  }
}

const SCOPE_ORDER: Record<RuleScope, number> = { conversation: 0, workspace: 1, global: 2 };

function narrowest(rules: PermissionRule[]): PermissionRule | undefined {
  let best: PermissionRule | undefined;
  for (const rule of rules) {
    if (best === undefined || SCOPE_ORDER[rule.scope] < SCOPE_ORDER[best.scope]) best = rule;
  }
  return best;
}

/**
 * The verdict of `rules` (all scopes that apply to this conversation, in any order) on `subject`.
 * Never throws: a rule whose matching throws is skipped as not matching.
 */
export function evaluateRules(rules: readonly PermissionRule[], subject: PermissionSubject, ctx: MatchContext): RuleVerdict {
  const matching = rules.filter((rule) => {
    try {
      return ruleMatches(rule, subject, ctx);
    } catch {
      return false;
    }
  });
  const reject = narrowest(matching.filter((r) => r.decision === 'reject'));
  if (reject !== undefined) return { decision: 'reject', rule: reject };
  if (!ctx.workspaceTrusted) return { decision: 'ask' };
  const allow = narrowest(matching.filter((r) => r.decision === 'allow'));
  return allow !== undefined ? { decision: 'allow', rule: allow } : { decision: 'ask' };
}

/**
 * The option of a permission request that carries `verdict`, or undefined when the user must be asked.
 *
 * Allow answers with `allow_once` only. An agent's `allow_always` makes the agent remember on its own
 * terms (Claude Code writes a rule of its own choosing to its settings), which could be broader than
 * the rule that matched; when no `allow_once` is offered the user decides. Reject prefers
 * `reject_once` and falls back to `reject_always`, since a remembered refusal only ever narrows.
 */
export function optionForVerdict(options: ReadonlyArray<{ optionId: string; kind: PermissionOptionKind | string }>, verdict: RuleVerdict): string | undefined {
  const byKind = (kind: PermissionOptionKind): string | undefined => options.find((o) => o.kind === kind)?.optionId;
  switch (verdict.decision) {
    case 'allow':
      return byKind('allow_once');
    case 'reject':
      return byKind('reject_once') ?? byKind('reject_always');
    case 'ask':
      return undefined;
  }
}
