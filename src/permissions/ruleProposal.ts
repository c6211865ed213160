/**
 * Proposing a rule from a permission request ("Always …" on a prompt), and the one-line label rules
 * are shown with.
 *
 * A proposal is the narrowest rule that still makes sense to keep: the exact paths the request
 * touches, the command's program and subcommand, the URL's host, the tool's name, for this agent.
 * The user sees its label and may edit it before it is saved; nothing broader is ever remembered
 * without them seeing it. When no narrow rule exists (a compound command, a request without paths)
 * there is no proposal, and the prompt should not offer to remember.
 */
import * as l10n from '@vscode/l10n';
import type { ToolKind } from '../protocol/messages';
import { quoteShellWord, simpleCommandWords } from './commandLine';
import { globForPaths } from './pathGlob';
import type { RuleDecision, RuleDraft, RuleMatcher, RuleScope } from './permissionRule';
import { ANY_AGENT, draftProblem, matcherTypeFor, matcherValue } from './permissionRule';
import type { PermissionSubject } from './permissionSubject';
import { hostOfUrl } from './urlHost';

/** What the proposal is for: who asked, what the user is about to answer, where it should apply. */
export interface ProposalOptions {
  /** The agent's configured name; proposals are for this agent only (the user can widen to `*`). */
  agent: string;
  /** The decision of the "Always …" option the user picked. */
  decision: RuleDecision;
  /** The scope to offer first (the user can change it). */
  scope: RuleScope;
  /** Absolute workspace root; paths inside it are proposed relative to it. */
  workspaceRoot: string | undefined;
}

/** A rule to show the user for confirmation, with its label. */
export interface RuleProposal {
  draft: RuleDraft;
  /** E.g. "Allow `npm test` for Claude Code in this workspace". */
  label: string;
}

/**
 * Programs whose arguments are themselves code or another command (shells, interpreters, wrappers,
 * package runners). For these the whole command line is proposed, not the program: "always allow
 * `python`" after seeing `python build.py` would allow any Python at all.
 */
const CODE_RUNNERS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'pwsh',
  'powershell',
  'cmd',
  'env',
  'sudo',
  'doas',
  'su',
  'xargs',
  'eval',
  'exec',
  'nohup',
  'nice',
  'timeout',
  'time',
  'watch',
  'command',
  'builtin',
  'source',
  '.',
  'python',
  'python2',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'osascript',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'pipx',
]);

/** Second words that name a script or package to run, so the word after them is kept too (`npm run build`). */
const RUNNER_VERBS: ReadonlySet<string> = new Set(['run', 'run-script', 'exec', 'x', 'dlx']);

/** A subcommand-looking word: letters first, then letters, digits, `_`, `-`, `:` (`test:unit`); not a flag or a path. */
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;

/**
 * The command prefix to propose for `command`: the program plus a subcommand-looking second word
 * (`npm test -- --watch` → `npm test`, `git status -s` → `git status`, `ls -la` → `ls`), and the
 * script name after `run`/`exec` (`npm run build`). For shells, interpreters and wrappers, the whole
 * command. Undefined when the command is compound, untokenisable or starts with an env assignment.
 */
export function proposeCommandPrefix(command: string): string | undefined {
  const words = simpleCommandWords(command);
  if (words === undefined || words[0].length === 0) return undefined;
  const program = words[0];
  if (CODE_RUNNERS.has(program.slice(program.lastIndexOf('/') + 1))) return words.map(quoteShellWord).join(' ');
  const prefix = [program];
  const sub = words[1];
  if (sub !== undefined && SUBCOMMAND.test(sub)) {
    prefix.push(sub);
    const target = words[2];
    if (RUNNER_VERBS.has(sub) && target !== undefined && SUBCOMMAND.test(target)) prefix.push(target);
  }
  return prefix.map(quoteShellWord).join(' ');
}

/** The narrowest matcher for `subject`, or undefined when the request gives nothing narrow to match. */
function proposeMatcher(subject: PermissionSubject, workspaceRoot: string | undefined): RuleMatcher | undefined {
  switch (matcherTypeFor(subject.toolKind)) {
    case 'pathGlob': {
      const glob = globForPaths(subject.paths, workspaceRoot);
      return glob === undefined ? undefined : { type: 'pathGlob', glob };
    }
    case 'commandPrefix': {
      const prefix = subject.command === undefined ? undefined : proposeCommandPrefix(subject.command);
      return prefix === undefined ? undefined : { type: 'commandPrefix', prefix };
    }
    case 'urlHost': {
      const host = subject.url === undefined ? undefined : hostOfUrl(subject.url);
      return host === undefined ? undefined : { type: 'urlHost', host };
    }
    case 'toolName':
      return subject.toolName === undefined ? undefined : { type: 'toolName', name: subject.toolName };
  }
}

/** The rule to offer when the user picks an "Always …" option on `subject`, or undefined when there is none. */
export function proposeRule(subject: PermissionSubject, opts: ProposalOptions): RuleProposal | undefined {
  const matcher = proposeMatcher(subject, opts.workspaceRoot);
  if (matcher === undefined) return undefined;
  const draft: RuleDraft = { agent: opts.agent, toolKind: subject.toolKind, matcher, decision: opts.decision, scope: opts.scope };
  if (draftProblem(draft) !== undefined) return undefined;
  return { draft, label: ruleLabel(draft) };
}

/** `text` as a markdown code span, with a fence longer than any backtick run inside it. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** "edits to `x`", "`npm test`", "fetching from `x`": what the rule covers, phrased for its kind. */
function coverage(kind: ToolKind, matcher: RuleMatcher): string {
  const span = codeSpan(matcherValue(matcher));
  switch (kind) {
    case 'read':
      return l10n.t('reading {0}', span);
    case 'edit':
      return l10n.t('edits to {0}', span);
    case 'delete':
      return l10n.t('deleting {0}', span);
    case 'move':
      return l10n.t('moving {0}', span);
    case 'execute':
      return span;
    case 'fetch':
      return l10n.t('fetching from {0}', span);
    default:
      return l10n.t('the {0} tool', span);
  }
}

function scopePhrase(scope: RuleScope): string {
  switch (scope) {
    case 'conversation':
      return l10n.t('in this conversation');
    case 'workspace':
      return l10n.t('in this workspace');
    case 'global':
      return l10n.t('everywhere');
  }
}

/**
 * One line describing a rule: "Allow `npm test` for Claude Code in this workspace",
 * "Reject edits to `src/**\/*.ts` everywhere". The agent is named unless the rule is for any agent.
 */
export function ruleLabel(rule: RuleDraft): string {
  const what = coverage(rule.toolKind, rule.matcher);
  const scope = scopePhrase(rule.scope);
  if (rule.agent === ANY_AGENT) return rule.decision === 'allow' ? l10n.t('Allow {0} {1}', what, scope) : l10n.t('Reject {0} {1}', what, scope);
  return rule.decision === 'allow' ? l10n.t('Allow {0} for {1} {2}', what, rule.agent, scope) : l10n.t('Reject {0} for {1} {2}', what, rule.agent, scope);
}
