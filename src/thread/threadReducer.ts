/**
 * The single owner of one session's thread. It applies ACP `session/update` payloads (untrusted
 * JSON) in the order the caller passes them and returns the host → webview messages that describe
 * each change, so a mirror that replays those messages always equals `entries()`.
 *
 * Invariants: entry ids are unique and never reused (not even after `clear`); an entry keeps its
 * position once added; nested arrays/objects of an entry are replaced, never mutated, so the shallow
 * copies handed out stay true snapshots; no tool call is pending/in_progress right after `endTurn`.
 */
import type { ConversationChange, Entry, PermissionView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';
import type { CompactionEntry, MentionView, PlanEntry, ToolCallEntry, TurnEndEntry, UserEntry } from '../protocol/messages';
import { toolCallIdOf, type ToolCallRecord } from './toolCallMerge';
import { ToolCallBook, type CallObservation } from './toolCallBook';
import type { DiffSource } from './diffContent';
import { displayPathsOf } from './presentation/displayPaths';
import { metaParentId } from './presentation/subagentLinks';
import { EntryList } from './entryList';
import { TextStream, type TextEntry } from './textStream';
import { appendChunk } from './textChunks';
import type { DiffRecord } from './diffContent';
import type * as acp from '@agentclientprotocol/sdk';
import { compactionFor, parseNotice } from './agentNotices';
import { isRecord, describe } from '../protocol/guards';
import { parsePermissionOptions, parsePlanItems } from './updateParsing';
import { ChildSessions, childCardId, type ChildCard } from './childSessions';

export interface ReducerOptions {
  /** True when the path lies inside a workspace folder (decides whether follow-along may open it). */
  isInWorkspace(path: string): boolean;
  /** Where dropped or malformed parts of updates are reported (the protocol log). */
  warn(text: string): void;
  /** The workspace folders paths are shown relative to (none: paths stay as sent). */
  roots?(): string[];
}

/** The `session/update` kinds of the ACP SDK Tandem is built against. */
type SessionUpdateKind = acp.SessionUpdate['sessionUpdate'];

export class ThreadReducer extends EntryList {
  private readonly toolCalls: ToolCallBook;
  /** The entry streamed text may append to: always the last entry, or none. */
  private readonly stream = new TextStream();
  /** This turn's plan: every plan update replaces its items in place. */
  private plan: PlanEntry | undefined;
  private readonly compactions = new Map<string, CompactionEntry>();
  /** Subagents run as child sessions (subagents RFD): their cards, and where their updates nest. */
  private readonly children: ChildSessions;

  constructor(private readonly opts: ReducerOptions) {
    super((text) => opts.warn(text));
    const display = displayPathsOf(() => opts.roots?.() ?? []);
    this.toolCalls = new ToolCallBook({ isInWorkspace: (path) => opts.isInWorkspace(path), warn: this.warn, display });
    this.children = new ChildSessions(this.warn);
  }

  /** True for a child session announced in this thread (its updates go to applyChildUpdate). */
  hasChild(sessionId: string): boolean {
    return this.children.has(sessionId);
  }

  /**
   * One `session/update` of child session `sessionId`: its messages and tool calls nest under its
   * card. Its settings, commands and usage are its own, never the parent's: not shown. Never throws.
   */
  applyChildUpdate(sessionId: string, update: unknown): ConversationChange[] {
    return this.guarded(() => {
      if (!isRecord(update) || !this.children.has(sessionId)) return [];
      const card = this.toolCalls.get(childCardId(sessionId));
      if (card === undefined) return [];
      switch (update.sessionUpdate) {
        case 'agent_message_chunk':
        case 'agent_thought_chunk':
          return appendChunk(update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'thought', update, {
            stream: this.stream,
            warn: this.warn,
            parentOf: () => card.entry.id,
            add: (entry) => this.push(entry),
            newId: () => this.newId(),
            upserted: (entry) => this.upserted(entry),
          });
        case 'tool_call':
        case 'tool_call_update': {
          const toolCallId = toolCallIdOf(update.toolCallId);
          if (toolCallId === undefined) {
            this.warn(`Ignored a subagent's ${describe(update.sessionUpdate)} without a toolCallId.`);
            return [];
          }
          return [this.upserted(this.upsertRecord(toolCallId, update, card.entry.toolCallId).entry)];
        }
        case 'subagent_update':
          // A subagent's own subagent: its card nests under its parent's.
          return this.applyChildCard(this.children.announce(update), card.entry.toolCallId);
        default:
          // The launch prompt (session_message) is on the card already; config, commands, usage and
          // plans of a child are not the conversation's.
          return [];
      }
    });
  }

  /** What ObservedDiffs needs of a call after an update (undefined: unknown id). */
  observation(toolCallId: string): CallObservation | undefined {
    return this.toolCalls.observation(toolCallId);
  }

  /** Shows the diffs seen on disk while a call ran (when the agent sent none). */
  addObservedDiffs(toolCallId: string, diffs: DiffSource[]): ConversationChange[] {
    return this.guarded(() => {
      const record = this.toolCalls.observed(toolCallId, diffs);
      return record ? [this.upserted(record.entry)] : [];
    });
  }

  /** The card of `toolCallId` shows the terminal `terminalId`, which the agent streamed to without naming it. */
  addStreamedTerminal(toolCallId: string, terminalId: string): ConversationChange[] {
    return this.guarded(() => {
      const record = this.toolCalls.streamedTerminal(toolCallId, terminalId);
      return record ? [this.upserted(record.entry)] : [];
    });
  }

  /** True while a permission prompt on a card waits for an answer. */
  get hasPendingPermission(): boolean {
    return this.toolCalls.hasPendingPermission;
  }

  /** What the client knows of a tool call in ACP shape, for permission rules (see ToolCallBook.facts). */
  toolCallFacts(toolCallId: string): Record<string, unknown> | undefined {
    return this.toolCalls.facts(toolCallId);
  }

  /**
   * The entries as a stored transcript keeps them: like `entries()`, but diff items carry both
   * texts (StoredDiffContent), which the panel never gets.
   */
  storedEntries(): Entry[] {
    return this.list.map((entry) => this.toolCalls.storedForm(entry));
  }

  /** The texts behind item `index` of a tool call entry, when it is a diff. */
  diffRecord(entryId: string, index: number): DiffRecord | undefined {
    const entry = this.list.find((e) => e.id === entryId);
    return this.toolCalls.diffRecord(entry, index);
  }

  findToolCall(toolCallId: string): ToolCallEntry | undefined {
    const record = this.toolCalls.get(toolCallId);
    return record === undefined ? undefined : { ...record.entry };
  }

  /** The user's prompt from the composer: starts a turn (new plan), unless steered into the running one; agent echoes never extend it. */
  addUserMessage(
    text: string,
    extras: { checkpoint?: string; note?: string; mentions?: MentionView[]; contextNotes?: string[]; steered?: boolean } = {},
  ): ConversationChange[] {
    // A steered message joins the running turn: its plan goes on.
    if (!extras.steered) this.plan = undefined;
    const entry: UserEntry = { kind: 'user', id: this.newId(), text };
    if (extras.steered) entry.steered = true;
    if (extras.mentions && extras.mentions.length > 0) entry.mentions = extras.mentions;
    if (extras.contextNotes && extras.contextNotes.length > 0) entry.contextNotes = extras.contextNotes;
    if (extras.checkpoint !== undefined) entry.checkpoint = extras.checkpoint;
    if (extras.note !== undefined) entry.note = extras.note;
    return [this.push(entry)];
  }

  /** Applies the `params.update` of one `session/update`. Never throws. */
  applyUpdate(update: unknown): ConversationChange[] {
    return this.guarded(() => this.dispatch(update));
  }

  /**
   * Shows a `session/request_permission` on its tool call's card, merging the request's ToolCallUpdate
   * first (the request may be the first mention of the call). A request without a usable toolCallId still
   * gets a card of its own, because the user must be able to answer it.
   */
  attachPermission(toolCall: unknown, requestId: string, options: unknown): ConversationChange[] {
    return this.guarded(() => {
      const fields = isRecord(toolCall) ? toolCall : {};
      let toolCallId = toolCallIdOf(fields.toolCallId);
      if (toolCallId === undefined) {
        this.warn(`Permission request ${describe(requestId)} names no toolCallId; shown on a card of its own.`);
        toolCallId = `permission:${requestId}`;
      }
      const record = this.upsertRecord(toolCallId, fields);
      const superseded = this.toolCalls.attachPermission(record, requestId, parsePermissionOptions(options, this.warn));
      const messages = superseded ? [this.upserted(superseded.entry)] : [];
      messages.push(this.upserted(record.entry));
      return messages;
    });
  }

  /** Records the answer given to a permission request (selected option or cancelled). */
  resolvePermission(requestId: string, state: PermissionView['state']): ConversationChange[] {
    // Unknown, cleared, or superseded by a newer request on the same card: nothing shown changes.
    const record = this.toolCalls.resolvePermission(requestId, state);
    return record ? [this.upserted(record.entry)] : [];
  }

  /** Adds what the card says about a request besides its answer (the rule that answered, a proposal). */
  annotatePermission(requestId: string, patch: Pick<PermissionView, 'rule' | 'proposal'>): ConversationChange[] {
    const record = this.toolCalls.annotatePermission(requestId, patch);
    return record ? [this.upserted(record.entry)] : [];
  }

  /**
   * The prompt turn finished: unfinished tool calls become `cancelled` (no spinner outlives its turn),
   * pending prompts are cancelled, and a turn_end entry shows the stop reason. Later updates still apply.
   */
  endTurn(stopReason: string, usage?: string, retry = false): ConversationChange[] {
    const messages = this.settleOpenCalls();
    const entry: Draft<TurnEndEntry> = { kind: 'turn_end', id: this.newId(), stopReason: typeof stopReason === 'string' ? stopReason : describe(stopReason) };
    if (usage !== undefined) entry.usage = usage;
    if (retry) entry.retry = true;
    messages.push(this.push(entry));
    this.plan = undefined;
    return messages;
  }

  /**
   * The user pressed Stop. The spec says the client SHOULD mark unfinished tool calls cancelled right
   * away (and answer pending prompts `cancelled`); updates the agent still sends are applied on top.
   */
  markCancelling(): ConversationChange[] {
    return this.settleOpenCalls();
  }

  /**
   * Shows a stored transcript again (after a restart). Nothing of it is live any more: tool calls
   * still open and prompts still pending when it was saved are settled, so no spinner or button
   * outlives the process that owned it. Numbering continues after the highest restored id.
   */
  restore(entries: readonly Entry[]): ConversationChange[] {
    const messages = this.clear();
    for (const raw of entries) {
      if (!isRecord(raw) || typeof raw.id !== 'string' || typeof raw.kind !== 'string') continue;
      const entry = { ...raw } as Entry;
      this.adopt(entry);
      if (entry.kind === 'tool_call') this.toolCalls.restore(entry);
      // Retry needs the prompt as it was sent, which only the host that sent it kept.
      if (entry.kind === 'turn_end' && 'retry' in entry) delete (entry as Draft<TurnEndEntry>).retry;
      if (entry.kind === 'tool_call' && entry.childSession !== undefined) {
        // A restored child is no longer live: nothing runs, nothing to stop. A stored file is
        // untrusted too: a malformed view is dropped (the card stays, without Stop).
        const stored: unknown = entry.childSession;
        if (isRecord(stored) && typeof stored.sessionId === 'string') {
          this.children.restore(stored);
          const stopReason = typeof stored.stopReason === 'string' ? { stopReason: stored.stopReason } : {};
          entry.childSession = { sessionId: stored.sessionId, state: stored.state === 'idle' ? 'idle' : 'unknown', cancel: false, ...stopReason };
        } else delete entry.childSession;
      }
    }
    this.settleOpenCalls();
    for (const entry of this.list) messages.push(this.upserted(entry));
    return messages;
  }

  /** A new session: the thread empties. Entry numbering continues so no id is ever reused. */
  clear(): ConversationChange[] {
    this.truncate();
    this.toolCalls.clear();
    this.children.clear();
    this.compactions.clear();
    this.stream.end();
    this.plan = undefined;
    return [{ type: 'entriesCleared' }];
  }

  private dispatch(update: unknown): ConversationChange[] {
    if (!isRecord(update)) {
      this.warn(`Ignored a session update that is not an object (got ${describe(update)}).`);
      return [];
    }
    // Typed as the SDK's union so a kind added to the SDK fails to compile below until it is handled;
    // the value is still untrusted, and a kind only a newer agent knows reaches the default branch.
    // The subagents RFD's kinds are not in the SDK's stable union (they are unstable there).
    if (update.sessionUpdate === 'subagent_update') return this.applyChildCard(this.children.announce(update));
    if (update.sessionUpdate === 'session_message') return this.applyChildCard(this.children.message(update));
    const kind = update.sessionUpdate as SessionUpdateKind;
    switch (kind) {
      case 'agent_message_chunk':
        return this.appendChunk('agent', update);
      case 'agent_thought_chunk':
        return this.appendChunk('thought', update);
      case 'user_message_chunk':
        return this.appendChunk('user', update);
      case 'plan':
        return this.applyPlan(update.entries);
      case 'tool_call':
      case 'tool_call_update':
        return this.applyToolCall(update);
      case 'notice':
        return this.applyNotice(update);
      case 'compaction_update':
      case 'compaction_summary_chunk':
        return this.applyCompaction(update);
      // Not rendered in the thread: commands, modes, settings and usage reach the panel through
      // SessionInfo, the title through the conversation; SessionLink hands them there first.
      case 'available_commands_update':
      case 'current_mode_update':
      case 'config_option_update':
      case 'session_info_update':
      case 'usage_update':
        return [];
      default: {
        const unknownKind: never = kind;
        this.warn(`Ignored a session update of unknown kind ${describe(unknownKind)}.`);
        return [];
      }
    }
  }

  /** A child session's card, created or changed (see childSessions.ts). */
  private applyChildCard(card: ChildCard | undefined, parentToolCallId?: string): ConversationChange[] {
    if (card === undefined) return [];
    const record = this.upsertRecord(card.toolCallId, card.fields, parentToolCallId);
    record.entry.subagent = true;
    record.entry.title = card.title;
    delete record.entry.agentTitle;
    record.entry.childSession = card.view;
    if (card.status !== undefined) record.entry.status = card.status;
    this.toolCalls.statusChanged(record);
    return [this.upserted(record.entry)];
  }

  /** An agent's `notice`: a banner in the thread (severity info / warning / error). */
  private applyNotice(update: Record<string, unknown>): ConversationChange[] {
    const notice = parseNotice(update, this.warn);
    return notice ? [this.push({ kind: 'notice', id: this.newId(), ...notice, fromAgent: true })] : [];
  }

  /** Compaction: one divider per compactionId (see agentNotices.ts). */
  private applyCompaction(update: Record<string, unknown>): ConversationChange[] {
    const found = compactionFor(this.compactions, update, () => this.newId(), this.warn);
    return found ? [found.created ? this.push(found.entry) : this.upserted(found.entry)] : [];
  }

  /** A text chunk: streamed into the last entry or a new one (see textChunks.ts). */
  private appendChunk(kind: TextEntry['kind'], update: Record<string, unknown>): ConversationChange[] {
    return appendChunk(kind, update, {
      stream: this.stream,
      warn: this.warn,
      parentOf: (meta) => this.toolCalls.get(metaParentId(meta) ?? '')?.entry.id,
      add: (entry) => {
        // A replayed user message starts a turn, like one from the composer: a new plan follows.
        if (entry.kind === 'user') this.plan = undefined;
        return this.push(entry);
      },
      newId: () => this.newId(),
      upserted: (entry) => this.upserted(entry),
    });
  }

  private applyPlan(value: unknown): ConversationChange[] {
    const items = parsePlanItems(value, this.warn);
    if (items === undefined) return [];
    if (this.plan !== undefined) {
      this.plan.items = items;
      return [this.upserted(this.plan)];
    }
    const plan: PlanEntry = { kind: 'plan', id: this.newId(), items };
    const message = this.push(plan);
    this.plan = plan;
    return [message];
  }

  private applyToolCall(update: Record<string, unknown>): ConversationChange[] {
    const toolCallId = toolCallIdOf(update.toolCallId);
    if (toolCallId === undefined) {
      this.warn(`Ignored a ${describe(update.sessionUpdate)} without a toolCallId (got ${describe(update.toolCallId)}).`);
      return [];
    }
    // New or known, the card is sent whole: a new id is appended by the webview, a known one replaced.
    return [this.upserted(this.upsertRecord(toolCallId, update).entry)];
  }

  /** Finds or creates the card for the id (appended to the thread) and merges the fields. */
  private upsertRecord(toolCallId: string, fields: Record<string, unknown>, parentToolCallId?: string): ToolCallRecord {
    const append = (entry: ToolCallEntry) => void this.push(entry);
    return this.toolCalls.upsert(toolCallId, fields, () => this.newId(), append, parentToolCallId);
  }

  /** Every open tool call → cancelled, every pending prompt → cancelled; one upsert per changed card. */
  private settleOpenCalls(): ConversationChange[] {
    return this.toolCalls.settle().map((record) => this.upserted(record.entry));
  }

  /** Streaming restarts after any entry appended. */
  protected override appended(): void {
    this.stream.end();
  }
}
