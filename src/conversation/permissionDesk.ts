import { randomUUID } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { PermissionBroker } from '../client/permissionBroker';
import type { PermissionRule, RuleDraft, RuleScope } from '../permissions/permissionRule';
import { draftProblem, matcherValue } from '../permissions/permissionRule';
import { mergeToolCallFacts, subjectFromToolCall, type PermissionSubject, type ToolCallFacts } from '../permissions/permissionSubject';
import { evaluateRules, optionForVerdict } from '../permissions/ruleMatching';
import { proposeRule, ruleLabel } from '../permissions/ruleProposal';
import type { PermissionView, RuleProposalView } from '../protocol/messages';
import type { Thread } from '../thread/thread';
import type { ConversationState, PermissionNotice, PermissionRules } from './ports';
import { fallbackToolTitle } from '../thread/toolCallMerge';

/** What a request left behind for a later "save rule" from its card. */
interface Offered {
  draft: RuleDraft;
}

const ALWAYS: ReadonlySet<string> = new Set(['allow_always', 'reject_always']);

/** The start of the tool call id of a card that proposes a sandboxed agent's write (a replay's). */
export const PROPOSED_WRITE_PREFIX = 'tandem-proposed-write-';

function withValue(draft: RuleDraft, value: string, scope: RuleScope): RuleDraft {
  const m = draft.matcher;
  const matcher =
    m.type === 'pathGlob'
      ? { type: m.type, glob: value }
      : m.type === 'commandPrefix'
        ? { type: m.type, prefix: value }
        : m.type === 'urlHost'
          ? { type: m.type, host: value }
          : { type: m.type, name: value };
  return { ...draft, matcher, scope };
}

/**
 * A conversation's permission prompts. Each request is first judged by the saved rules (the
 * narrowest answer: `allow_once` / `reject_once`, and the card says which rule answered); otherwise
 * the user is asked, and the reply handle stays here. Tandem itself never remembers an answer: when
 * the user picks an "always" option the agent gets exactly that choice, and the card offers a rule
 * proposed from what the user saw, which is saved only if the user saves it (after editing it).
 */
export class PermissionDesk {
  private broker = new PermissionBroker();
  private readonly offered = new Map<string, Offered>();
  private ruleAnswers = 0;
  private writeReviews = 0;

  constructor(
    private readonly c: Pick<ConversationState, 'id' | 'agentName' | 'meta' | 'log'>,
    private readonly thread: Pick<Thread, 'toolCallFacts' | 'attachPermission' | 'resolvePermission' | 'annotatePermission' | 'findToolCall' | 'entries'>,
    private readonly rules: PermissionRules | undefined,
    /** A prompt now waits for the user (the editor notifies when the panel is out of sight). */
    private readonly notify: (notice: PermissionNotice) => void,
  ) {}

  /** `rules: 'rejectOnly'`: saved allow rules do not answer (a replay's proposed writes); reject rules still do. */
  async request(params: acp.RequestPermissionRequest, signal: AbortSignal, rules: 'all' | 'rejectOnly' = 'all'): Promise<acp.RequestPermissionResponse> {
    const c = this.c;
    if (!Array.isArray(params.options) || params.options.length === 0) {
      // Nothing the user could click: answering cancelled beats leaving the agent blocked forever.
      c.log.warn('A permission request came without options; answered cancelled.');
      return { outcome: { outcome: 'cancelled' } };
    }
    const { thread } = this;
    const toolCallId = String(params.toolCall?.toolCallId);
    const subject = this.subject(thread.toolCallFacts(toolCallId), params.toolCall as ToolCallFacts);
    const ruled = this.byRule(params, subject, rules === 'all');
    const broker = this.broker;
    const { requestId, response } = ruled ? { requestId: `rule-${++this.ruleAnswers}`, response: undefined } : broker.request(params, signal);
    thread.attachPermission(params.toolCall, requestId, params.options);
    if (ruled) {
      thread.resolvePermission(requestId, { kind: 'selected', optionId: ruled.optionId });
      thread.annotatePermission(requestId, { rule: { id: ruled.rule.id, label: ruleLabel(ruled.rule), decision: ruled.rule.decision } });
      return { outcome: { outcome: 'selected', optionId: ruled.optionId } };
    }
    const title = thread.findToolCall(toolCallId)?.title ?? fallbackToolTitle();
    this.notify({ requestId, title, options: params.options });
    const result = await response!;
    const state: PermissionView['state'] =
      result.outcome.outcome === 'selected' ? { kind: 'selected', optionId: result.outcome.optionId } : { kind: 'cancelled' };
    thread.resolvePermission(requestId, state);
    if (result.outcome.outcome === 'selected') this.offerRule(requestId, params, result.outcome.optionId, subject);
    return result;
  }

  /**
   * `tandem.reviewEdits: "before"`: a client write waits for the user, asked on the card of the tool
   * call that touches the file (or a card of its own) like any permission, so rules for edits apply
   * too. A rejected write fails with a message the agent can read; the file is not touched.
   * `proposal` (a replay's writes): always a card of its own showing the very text to be written
   * (the agent's card may show another diff), and only the user, or a reject rule, answers.
   */
  async reviewWrite(path: string, before: string | undefined, after: string, as: 'review' | 'proposal' = 'review'): Promise<void> {
    const card =
      as === 'review'
        ? this.thread
            .entries()
            .reverse()
            .find(
              (e) =>
                e.kind === 'tool_call' &&
                (e.status === 'pending' || e.status === 'in_progress') &&
                (e.locations.some((l) => l.path === path) || e.content.some((x) => x.type === 'diff' && x.path === path)),
            )
        : undefined;
    const shown = this.c.meta.cwd && path.startsWith(`${this.c.meta.cwd}/`) ? path.slice(this.c.meta.cwd.length + 1) : path;
    const toolCall = card
      ? { toolCallId: (card as { toolCallId: string }).toolCallId }
      : {
          // A proposal's card is never one the agent could name (and so fill with another diff).
          toolCallId: as === 'proposal' ? `${PROPOSED_WRITE_PREFIX}${randomUUID()}` : `write-${++this.writeReviews}`,
          title: l10n.t('Write {0}', shown),
          kind: 'edit' as const,
          status: 'pending' as const,
          locations: [{ path }],
          content: [{ type: 'diff' as const, path, oldText: before ?? null, newText: after }],
        };
    const params: acp.RequestPermissionRequest = {
      sessionId: '',
      toolCall,
      options: [
        { optionId: 'accept', name: l10n.t('Accept this write'), kind: 'allow_once' },
        { optionId: 'reject', name: l10n.t('Reject'), kind: 'reject_once' },
      ],
    };
    const result = await this.request(params, new AbortController().signal, as === 'proposal' ? 'rejectOnly' : 'all');
    if (result.outcome.outcome === 'selected' && result.outcome.optionId === 'accept') return;
    throw new RequestError(
      -32603,
      `The user rejected this write to ${path}; the file was not changed. Ask before trying again, or propose a different change.`,
      { path, reason: 'rejectedByUser' },
    );
  }

  /** The user's answer; false (and logged) when the prompt was already answered or is unknown. */
  respond(requestId: string, optionId: string): boolean {
    if (this.broker.respond(requestId, optionId)) return true;
    this.c.log.warn(`Permission ${requestId} was already answered or is unknown.`);
    return false;
  }

  /** Answers every pending prompt `cancelled` (spec MUST on session/cancel). */
  cancelAll(): void {
    this.broker.cancelAll();
  }

  /** One session's pending prompts answered `cancelled` (a subagent the user stopped). */
  cancelFor(sessionId: string): void {
    this.broker.cancelAll(sessionId);
  }

  /** The session ended: pending prompts are cancelled and later ones start afresh. */
  reset(): void {
    this.broker.dispose();
    this.broker = new PermissionBroker();
  }

  /** Saves the rule offered on a card, with the value and scope the user chose. */
  async saveRule(requestId: string, value: string, scope: RuleScope): Promise<void> {
    const offered = this.offered.get(requestId);
    if (!offered || !this.rules) return;
    const draft = withValue(offered.draft, value.trim(), scope);
    const problem = draftProblem(draft);
    const proposal = this.proposalView(draft);
    if (problem !== undefined) {
      this.thread.annotatePermission(requestId, { proposal: { ...proposal, error: problem } });
      return;
    }
    const result = await this.rules.store.add(draft, this.c.id);
    const saved: RuleProposalView = result.ok
      ? { ...proposal, state: 'saved', ruleId: result.rule.id, label: ruleLabel(result.rule) }
      : { ...proposal, error: result.error };
    if (result.ok) this.offered.delete(requestId);
    this.thread.annotatePermission(requestId, { proposal: saved });
  }

  dismissRule(requestId: string): void {
    const offered = this.offered.get(requestId);
    if (!offered) return;
    this.offered.delete(requestId);
    this.thread.annotatePermission(requestId, { proposal: { ...this.proposalView(offered.draft), state: 'dismissed' } });
  }

  dispose(): void {
    this.broker.dispose();
    this.offered.clear();
  }

  private subject(known: ToolCallFacts | undefined, request: ToolCallFacts): PermissionSubject {
    return subjectFromToolCall(mergeToolCallFacts(known, request ?? {}), this.rules?.workspaceRoot ?? this.c.meta.cwd);
  }

  /** The rule that answers this request, and the option it answers with; undefined: ask the user. */
  private byRule(params: acp.RequestPermissionRequest, subject: PermissionSubject, allow: boolean): { rule: PermissionRule; optionId: string } | undefined {
    if (!this.rules) return undefined;
    // Without trust, evaluateRules lets reject rules decide and ignores allow rules: what `allow` false asks for.
    const ctx = { agent: this.c.agentName, workspaceRoot: this.rules.workspaceRoot, workspaceTrusted: allow && this.rules.trusted() };
    const verdict = evaluateRules(this.rules.store.list(this.c.id), subject, ctx);
    if (verdict.decision === 'ask') return undefined;
    const optionId = optionForVerdict(params.options, verdict);
    return optionId === undefined ? undefined : { rule: verdict.rule, optionId };
  }

  /** After an "always" answer: propose the narrowest rule from what the user saw (never saved by itself). */
  private offerRule(requestId: string, params: acp.RequestPermissionRequest, optionId: string, subject: PermissionSubject): void {
    const option = params.options.find((o) => o.optionId === optionId);
    if (!this.rules || !option || !ALWAYS.has(option.kind)) return;
    const decision = option.kind === 'allow_always' ? 'allow' : 'reject';
    const proposal = proposeRule(subject, { agent: this.c.agentName, decision, scope: 'workspace', workspaceRoot: this.rules.workspaceRoot });
    if (!proposal) return;
    this.offered.set(requestId, { draft: proposal.draft });
    this.thread.annotatePermission(requestId, { proposal: this.proposalView(proposal.draft) });
  }

  private proposalView(draft: RuleDraft): RuleProposalView {
    return {
      decision: draft.decision,
      matcherType: draft.matcher.type,
      value: matcherValue(draft.matcher),
      scope: draft.scope,
      agent: draft.agent,
      label: ruleLabel(draft),
      state: 'offered',
    };
  }
}
