/**
 * Permission rules: the user's standing answers to permission requests, narrowed to one kind of tool
 * call and one matcher (a path glob, a command prefix, a URL host or a tool name).
 *
 * Rules replace the old "Always Allow remembers the whole tool kind" behaviour, which turned an
 * "always allow `ls`" into "always allow every command". A rule only ever covers what its matcher
 * names, and every kind has exactly one matcher type, so a rule can never be silently broader than
 * the kind of thing it describes (there is no "any command" rule).
 *
 * Rules loaded from disk are untrusted JSON: `parseRule` validates every field and reports why a
 * value is rejected, and the same checks (`draftProblem`) serve the editor before a rule is saved.
 */
import * as l10n from '@vscode/l10n';
import type { ToolKind } from '../protocol/messages';
import { isToolKind } from '../protocol/toolKinds';
import { isRecord, describe } from '../protocol/guards';
import { commandPrefixProblem } from './commandLine';
import { globProblem } from './pathGlob';
import { hostPatternProblem } from './urlHost';

/**
 * Where a rule applies and lives: `conversation` (this conversation only, kept in memory),
 * `workspace` (this workspace, in the workspace's extension storage) or `global` (everywhere, in the
 * global extension storage). Never in settings files, which a cloned repository could bring along.
 */
export type RuleScope = 'conversation' | 'workspace' | 'global';

/** What a matching rule answers. A matching `reject` rule always wins over a matching `allow` rule. */
export type RuleDecision = 'allow' | 'reject';

/** What a rule covers within its tool kind. The type is fixed by the kind (see `matcherTypeFor`). */
export type RuleMatcher =
  /** read / edit / delete / move: every path the call touches matches this glob (workspace-relative, or absolute). */
  | { type: 'pathGlob'; glob: string }
  /** execute: one simple command whose first words are these words (`npm test` covers `npm test -- --watch`). */
  | { type: 'commandPrefix'; prefix: string }
  /** fetch: an http(s) URL on this host, or on a subdomain for `*.example.com`. */
  | { type: 'urlHost'; host: string }
  /** search / think / switch_mode / other: the tool with exactly this name (e.g. Claude Code's `Grep`). */
  | { type: 'toolName'; name: string };

export type RuleMatcherType = RuleMatcher['type'];

/** The one value a matcher holds (its glob, command prefix, host or tool name), whatever its type. */
export function matcherValue(matcher: RuleMatcher): string {
  switch (matcher.type) {
    case 'pathGlob':
      return matcher.glob;
    case 'commandPrefix':
      return matcher.prefix;
    case 'urlHost':
      return matcher.host;
    case 'toolName':
      return matcher.name;
  }
}

/** The `agent` of a rule that applies to every agent. */
export const ANY_AGENT = '*';

/** A saved rule. */
export interface PermissionRule {
  /** Unique id (a random UUID), stable across edits. */
  id: string;
  /** Agent name as configured in `tandem.agents` (or `Tandem Demo`), or `*` for any agent. */
  agent: string;
  /** The ACP tool kind the rule is about; other kinds are never matched. */
  toolKind: ToolKind;
  /** What the rule covers within that kind. */
  matcher: RuleMatcher;
  /** The answer given when the rule matches. */
  decision: RuleDecision;
  /** Where the rule applies (and is stored). */
  scope: RuleScope;
  /** When the rule was created (ISO 8601), for display; absent in hand-written files. */
  createdAt?: string;
}

/** A rule before it is saved: everything but the id and creation time, which the store assigns. */
export type RuleDraft = Omit<PermissionRule, 'id' | 'createdAt'>;

/** Fields of a saved rule that may be edited in place (moving scope is remove + add). */
export type RuleChanges = Partial<Pick<PermissionRule, 'agent' | 'toolKind' | 'matcher' | 'decision'>>;

const SCOPES: ReadonlySet<string> = new Set<RuleScope>(['conversation', 'workspace', 'global']);
const DECISIONS: ReadonlySet<string> = new Set<RuleDecision>(['allow', 'reject']);
const MAX_NAME_LENGTH = 200;

export function isRuleScope(value: unknown): value is RuleScope {
  return typeof value === 'string' && SCOPES.has(value);
}

export function isRuleDecision(value: unknown): value is RuleDecision {
  return typeof value === 'string' && DECISIONS.has(value);
}

/** The matcher type rules of `kind` use: what ACP tells us about such calls decides what can be matched. */
export function matcherTypeFor(kind: ToolKind): RuleMatcherType {
  switch (kind) {
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
      return 'pathGlob';
    case 'execute':
      return 'commandPrefix';
    case 'fetch':
      return 'urlHost';
    case 'search':
    case 'think':
    case 'switch_mode':
    case 'other':
      return 'toolName';
    default: {
      const unknownKind: never = kind;
      void unknownKind;
      return 'toolName';
    }
  }
}

/** A name (agent or tool): non-empty, no surrounding blanks or control characters, not huge. */
function nameProblem(value: unknown, what: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return l10n.t('{0} must be a non-empty string (got {1}).', what, describe(value));
  if (value.length > MAX_NAME_LENGTH) return l10n.t('{0} is too long.', what);
  if (value.trim() !== value) return l10n.t('{0} has leading or trailing blanks.', what);
  if (/[\u0000-\u001f\u007f]/.test(value)) return l10n.t('{0} contains a control character.', what);
  return undefined;
}

/** Why `matcher` is not a valid matcher for rules of `kind`, or undefined when it is. */
export function matcherProblem(kind: ToolKind, matcher: unknown): string | undefined {
  if (!isRecord(matcher)) return l10n.t('The matcher must be an object (got {0}).', describe(matcher));
  const expected = matcherTypeFor(kind);
  if (matcher.type !== expected) {
    return l10n.t('Rules for {0} use a {1} matcher (got {2}).', kind, expected, describe(matcher.type));
  }
  switch (expected) {
    case 'pathGlob':
      return typeof matcher.glob === 'string' ? globProblem(matcher.glob) : l10n.t('The path glob must be a string (got {0}).', describe(matcher.glob));
    case 'commandPrefix':
      return typeof matcher.prefix === 'string'
        ? commandPrefixProblem(matcher.prefix)
        : l10n.t('The command prefix must be a string (got {0}).', describe(matcher.prefix));
    case 'urlHost':
      return typeof matcher.host === 'string' ? hostPatternProblem(matcher.host) : l10n.t('The host must be a string (got {0}).', describe(matcher.host));
    case 'toolName':
      return nameProblem(matcher.name, l10n.t('The tool name'));
  }
}

/** Why `value` is not a valid rule draft, or undefined when it is (for the editor and for `parseRule`). */
export function draftProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return l10n.t('A rule must be an object (got {0}).', describe(value));
  const agent = nameProblem(value.agent, l10n.t('The agent'));
  if (agent !== undefined) return agent;
  if (!isToolKind(value.toolKind)) return l10n.t('Unknown tool kind {0}.', describe(value.toolKind));
  if (!isRuleDecision(value.decision)) return l10n.t('The decision must be allow or reject (got {0}).', describe(value.decision));
  if (!isRuleScope(value.scope)) return l10n.t('The scope must be conversation, workspace or global (got {0}).', describe(value.scope));
  return matcherProblem(value.toolKind, value.matcher);
}

/** Only the known fields of a matcher, so stray properties from a file are not carried along. */
function cleanMatcher(matcher: RuleMatcher): RuleMatcher {
  switch (matcher.type) {
    case 'pathGlob':
      return { type: 'pathGlob', glob: matcher.glob };
    case 'commandPrefix':
      return { type: 'commandPrefix', prefix: matcher.prefix };
    case 'urlHost':
      return { type: 'urlHost', host: matcher.host };
    case 'toolName':
      return { type: 'toolName', name: matcher.name };
  }
}

/** A validated copy of a draft (known fields only); throws nothing, call `draftProblem` first. */
export function cleanDraft(draft: RuleDraft): RuleDraft {
  return {
    agent: draft.agent,
    toolKind: draft.toolKind,
    matcher: cleanMatcher(draft.matcher),
    decision: draft.decision,
    scope: draft.scope,
  };
}

/**
 * A saved rule from untrusted JSON: the rule (known fields only) or why it was rejected.
 * `createdAt` is kept only when it is a string.
 */
export function parseRule(value: unknown): { rule: PermissionRule } | { error: string } {
  if (!isRecord(value)) return { error: l10n.t('A rule must be an object (got {0}).', describe(value)) };
  const id = nameProblem(value.id, l10n.t('The rule id'));
  if (id !== undefined) return { error: id };
  const problem = draftProblem(value);
  if (problem !== undefined) return { error: problem };
  const rule: PermissionRule = { id: value.id as string, ...cleanDraft(value as unknown as RuleDraft) };
  if (typeof value.createdAt === 'string') rule.createdAt = value.createdAt;
  return { rule };
}
