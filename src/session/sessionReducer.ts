/**
 * The single owner of one session's thread. It applies ACP `session/update` payloads (untrusted
 * JSON) in the order the caller passes them and returns the host → webview messages that describe
 * each change, so a mirror that replays those messages always equals `entries()`.
 *
 * Invariants: entry ids are unique and never reused (not even after `clear`); an entry keeps its
 * position once added; nested arrays/objects of an entry are replaced, never mutated, so the shallow
 * copies handed out stay true snapshots; no tool call is pending/in_progress right after `endTurn`.
 */
import type { AgentMessageEntry, ConversationChange, Entry, ErrorEntry, NoticeEntry, PermissionView } from '../protocol/messages';
import type { CompactionEntry, MentionView, PlanEntry, ThoughtEntry, ToolCallEntry, TurnEndEntry, UserEntry } from '../protocol/messages';
import { isOpenStatus, mergeToolCallFields, newToolCallRecord, restoredRecord, toolCallIdOf, type ToolCallRecord } from './toolCallMerge';
import { withoutInternalMarkup } from './replayText';
import type * as acp from '@agentclientprotocol/sdk';
import { mentionViewFromBlock } from '../context/promptBlocks';
import { contentBlockToMarkdown, describe, isRecord, isUnrenderedUpdate } from './updateParsing';
import { parsePermissionOptions, parsePlanItems } from './updateParsing';

export interface ReducerOptions {
  /** True when the path lies inside a workspace folder (decides whether follow-along may open it). */
  isInWorkspace(path: string): boolean;
  /** Where dropped or malformed parts of updates are reported (the protocol log). */
  warn(text: string): void;
}

type TextEntry = UserEntry | AgentMessageEntry | ThoughtEntry;

/** Prefix of the warning logged when the reducer itself fails; tests assert it never appears. */
export const INTERNAL_ERROR_PREFIX = 'Session reducer internal error';

export class SessionReducer {
  private readonly list: Entry[] = [];
  private readonly toolCalls = new Map<string, ToolCallRecord>();
  /** toolCallIds whose status is pending/in_progress: what a turn end or Stop must settle. */
  private readonly openCalls = new Set<string>();
  /** requestId → toolCallId of every permission request, to find its card when it is answered. */
  private readonly permissionOwners = new Map<string, string>();
  /** toolCallIds whose card shows a prompt that is still pending. */
  private readonly pendingPermissionCards = new Set<string>();
  /** The entry streamed text may append to: always the last entry, or undefined. */
  private streamTarget: { entry: TextEntry; messageId?: string } | undefined;
  /** This turn's plan: every plan update replaces its items in place. */
  private plan: PlanEntry | undefined;
  private readonly compactions = new Map<string, CompactionEntry>();
  private nextEntryNumber = 1;

  constructor(private readonly opts: ReducerOptions) {}

  /** Copies of the thread's entries, in order. */
  entries(): Entry[] {
    return this.list.map((entry) => ({ ...entry }));
  }

  /** True while a permission prompt on a card waits for an answer. */
  get hasPendingPermission(): boolean {
    return this.pendingPermissionCards.size > 0;
  }

  /** Number of entries, without copying them. */
  get size(): number {
    return this.list.length;
  }

  /**
   * What the client knows of a tool call in ACP shape (title, kind, rawInput, locations, diff paths,
   * _meta), for permission rules: a request often names only the toolCallId.
   */
  toolCallFacts(toolCallId: string): Record<string, unknown> | undefined {
    const record = this.toolCalls.get(toolCallId);
    if (record === undefined) return undefined;
    const { entry } = record;
    const facts: Record<string, unknown> = {
      title: entry.title,
      kind: record.agentKind,
      locations: entry.locations.map((l) => (l.line === undefined ? { path: l.path } : { path: l.path, line: l.line })),
      content: entry.content.filter((c) => c.type === 'diff').map((c) => ({ type: 'diff', path: (c as { path: string }).path })),
    };
    if (record.rawInputValue !== undefined) facts.rawInput = record.rawInputValue;
    if (record.metaValue !== undefined) facts._meta = record.metaValue;
    return facts;
  }

  findToolCall(toolCallId: string): ToolCallEntry | undefined {
    const record = this.toolCalls.get(toolCallId);
    return record === undefined ? undefined : { ...record.entry };
  }

  /** The user's prompt from the composer: starts a turn (new plan); agent echoes never extend it. */
  addUserMessage(text: string, extras: { checkpoint?: string; note?: string; mentions?: MentionView[]; contextNotes?: string[] } = {}): ConversationChange[] {
    this.plan = undefined;
    const entry: UserEntry = { kind: 'user', id: this.newId(), text };
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
      const messages: ConversationChange[] = [];
      // A requestId reused for another card: the old prompt can no longer be answered, so it is cancelled.
      const formerOwner = this.toolCalls.get(this.permissionOwners.get(requestId) ?? '');
      if (formerOwner !== undefined && formerOwner.entry.toolCallId !== toolCallId) {
        if (this.cancelPendingPermission(formerOwner)) messages.push(this.upserted(formerOwner.entry));
      }
      const record = this.upsertRecord(toolCallId, fields);
      record.entry.permission = {
        requestId,
        options: parsePermissionOptions(options, this.warn),
        state: { kind: 'pending' },
      };
      this.permissionOwners.set(requestId, toolCallId);
      this.pendingPermissionCards.add(toolCallId);
      messages.push(this.upserted(record.entry));
      return messages;
    });
  }

  /** Records the answer given to a permission request (selected option or cancelled). */
  resolvePermission(requestId: string, state: PermissionView['state']): ConversationChange[] {
    const record = this.toolCalls.get(this.permissionOwners.get(requestId) ?? '');
    const permission = record?.entry.permission;
    if (record === undefined || permission === undefined || permission.requestId !== requestId) {
      // Unknown, cleared, or superseded by a newer request on the same card: nothing shown changes.
      return [];
    }
    const copy: PermissionView['state'] =
      state.kind === 'selected' ? { kind: 'selected', optionId: state.optionId } : { kind: state.kind };
    record.entry.permission = { ...permission, state: copy };
    if (copy.kind === 'pending') this.pendingPermissionCards.add(record.entry.toolCallId);
    else this.pendingPermissionCards.delete(record.entry.toolCallId);
    return [this.upserted(record.entry)];
  }

  /** Adds what the card says about a request besides its answer (the rule that answered, a proposal). */
  annotatePermission(requestId: string, patch: Pick<PermissionView, 'rule' | 'proposal'>): ConversationChange[] {
    const record = this.toolCalls.get(this.permissionOwners.get(requestId) ?? '');
    const permission = record?.entry.permission;
    if (record === undefined || permission === undefined || permission.requestId !== requestId) return [];
    record.entry.permission = { ...permission, ...structuredClone(patch) };
    return [this.upserted(record.entry)];
  }

  /**
   * The prompt turn finished: unfinished tool calls become `cancelled` (no spinner outlives its turn),
   * pending prompts are cancelled, and a turn_end entry shows the stop reason. Later updates still apply.
   */
  endTurn(stopReason: string, usage?: string): ConversationChange[] {
    const messages = this.settleOpenCalls();
    const entry: TurnEndEntry = { kind: 'turn_end', id: this.newId(), stopReason: typeof stopReason === 'string' ? stopReason : describe(stopReason) };
    if (usage !== undefined) entry.usage = usage;
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

  /** Adds an entry another part of the conversation owns (sign-in card, question); returns it with its id. */
  addEntry<E extends Entry>(build: (id: string) => E): { entry: E; changes: ConversationChange[] } {
    const entry = build(this.newId());
    return { entry, changes: [this.push(entry)] };
  }

  /** Replaces such an entry in place (same id, same position). */
  replaceEntry(entry: Entry): ConversationChange[] {
    const index = this.list.findIndex((e) => e.id === entry.id);
    if (index < 0) return [];
    this.list[index] = entry;
    return [this.upserted(entry)];
  }

  addNotice(level: NoticeEntry['level'], message: string): ConversationChange[] {
    return [this.push({ kind: 'notice', id: this.newId(), level, message })];
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
      const number = /^e(\d+)$/.exec(entry.id);
      if (number) this.nextEntryNumber = Math.max(this.nextEntryNumber, Number(number[1]) + 1);
      this.list.push(entry);
      if (entry.kind === 'tool_call') {
        const record = restoredRecord(entry);
        this.toolCalls.set(entry.toolCallId, record);
        if (isOpenStatus(entry.status)) this.openCalls.add(entry.toolCallId);
        if (entry.permission?.state.kind === 'pending') this.pendingPermissionCards.add(entry.toolCallId);
      }
    }
    this.settleOpenCalls();
    for (const entry of this.list) messages.push(this.upserted(entry));
    return messages;
  }

  addError(message: string, detail?: string, action?: ErrorEntry['action'], offerCheck = false): ConversationChange[] {
    const entry: ErrorEntry = { kind: 'error', id: this.newId(), message };
    if (detail !== undefined) entry.detail = detail;
    if (action !== undefined) entry.action = action;
    if (offerCheck) entry.offerCheck = true;
    return [this.push(entry)];
  }

  /** A new session: the thread empties. Entry numbering continues so no id is ever reused. */
  clear(): ConversationChange[] {
    this.list.length = 0;
    this.toolCalls.clear();
    this.openCalls.clear();
    this.permissionOwners.clear();
    this.pendingPermissionCards.clear();
    this.compactions.clear();
    this.streamTarget = undefined;
    this.plan = undefined;
    return [{ type: 'entriesCleared' }];
  }

  private dispatch(update: unknown): ConversationChange[] {
    if (!isRecord(update)) {
      this.warn(`Ignored a session update that is not an object (got ${describe(update)}).`);
      return [];
    }
    const kind = update.sessionUpdate;
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
      default:
        if (isUnrenderedUpdate(kind)) return [];
        this.warn(`Ignored a session update of unknown kind ${describe(kind)}.`);
        return [];
    }
  }

  /** An agent's `notice`: a banner in the thread (severity info / warning / error). */
  private applyNotice(update: Record<string, unknown>): ConversationChange[] {
    const title = typeof update.title === 'string' ? update.title.trim() : '';
    const description = typeof update.description === 'string' ? update.description.trim() : '';
    if (title === '' && description === '') {
      this.warn('Ignored a notice without a title or description.');
      return [];
    }
    const level = update.severity === 'error' ? 'error' : update.severity === 'warning' ? 'warning' : 'info';
    const message = [title, description].filter((t) => t !== '').join(' — ').slice(0, 4000);
    return [this.push({ kind: 'notice', id: this.newId(), level, message, fromAgent: true })];
  }

  /**
   * Compaction: one divider per compactionId, its status from `compaction_update` and its summary
   * from the update's `summary` blocks or streamed `compaction_summary_chunk`s.
   */
  private applyCompaction(update: Record<string, unknown>): ConversationChange[] {
    const compactionId = typeof update.compactionId === 'string' ? update.compactionId : undefined;
    if (compactionId === undefined) {
      this.warn(`Ignored a ${describe(update.sessionUpdate)} without a compactionId.`);
      return [];
    }
    let entry = this.compactions.get(compactionId);
    const created = entry === undefined;
    entry ??= { kind: 'compaction', id: this.newId(), compactionId, status: 'in_progress', summary: '' };
    if (update.sessionUpdate === 'compaction_summary_chunk') {
      entry.summary += contentBlockToMarkdown(update.content, this.warn) ?? '';
    } else {
      if (typeof update.status === 'string') entry.status = update.status;
      if (Array.isArray(update.summary)) entry.summary = update.summary.map((b) => contentBlockToMarkdown(b, this.warn) ?? '').join('');
      if (typeof update.error === 'string') entry.error = update.error;
    }
    this.compactions.set(compactionId, entry);
    return [created ? this.push(entry) : this.upserted(entry)];
  }

  /**
   * Streams a chunk into the last entry when it is the same kind of text (and, when the agent sends
   * messageIds, the same message); otherwise starts a new entry. O(chunk): only the chunk is sent.
   */
  private appendChunk(kind: TextEntry['kind'], update: Record<string, unknown>): ConversationChange[] {
    if (kind === 'user') {
      // A replayed mention (a file, a selection, problems…) is a chip again, not its whole text.
      const view = replayedMention(update.content);
      if (view) return this.appendUserMention(view, update);
    }
    const raw = contentBlockToMarkdown(update.content, this.warn);
    // A user chunk comes from a replayed history (session/load): agents leave internal markup in it.
    const text = kind === 'user' && raw !== undefined ? withoutInternalMarkup(raw) : raw;
    if (text === undefined || text.length === 0) return [];
    const messageId = typeof update.messageId === 'string' ? update.messageId : undefined;
    const target = this.streamTarget;
    if (
      target !== undefined &&
      target.entry.kind === kind &&
      (messageId === undefined || target.messageId === undefined || messageId === target.messageId)
    ) {
      target.entry.text += text;
      if (messageId !== undefined) target.messageId = messageId;
      return [{ type: 'textAppended', id: target.entry.id, text }];
    }
    const entry: TextEntry = { kind, id: this.newId(), text };
    // A replayed user message starts a turn, like one from the composer: a new plan follows.
    if (kind === 'user') this.plan = undefined;
    const message = this.push(entry);
    this.streamTarget = messageId === undefined ? { entry } : { entry, messageId };
    return [message];
  }

  private appendUserMention(view: MentionView, update: Record<string, unknown>): ConversationChange[] {
    const messageId = typeof update.messageId === 'string' ? update.messageId : undefined;
    const target = this.streamTarget;
    if (target !== undefined && target.entry.kind === 'user' && (messageId === undefined || target.messageId === undefined || messageId === target.messageId)) {
      const entry = target.entry as UserEntry;
      entry.mentions = [...(entry.mentions ?? []), view];
      return [this.upserted(entry)];
    }
    const entry: UserEntry = { kind: 'user', id: this.newId(), text: '', mentions: [view] };
    this.plan = undefined;
    const message = this.push(entry);
    this.streamTarget = messageId === undefined ? { entry } : { entry, messageId };
    return [message];
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

  /** Finds or creates the card for the id, merges the fields, and keeps the open-call set in step. */
  private upsertRecord(toolCallId: string, fields: Record<string, unknown>): ToolCallRecord {
    let record = this.toolCalls.get(toolCallId);
    if (record === undefined) {
      record = newToolCallRecord(this.newId(), toolCallId);
      this.toolCalls.set(toolCallId, record);
      this.list.push(record.entry);
      this.streamTarget = undefined;
    }
    mergeToolCallFields(record, fields, { isInWorkspace: (path) => this.opts.isInWorkspace(path), warn: this.warn });
    if (isOpenStatus(record.entry.status)) this.openCalls.add(toolCallId);
    else this.openCalls.delete(toolCallId);
    return record;
  }

  /** Every open tool call → cancelled, every pending prompt → cancelled; one upsert per changed card. */
  private settleOpenCalls(): ConversationChange[] {
    const changed = new Set<string>(this.openCalls);
    for (const toolCallId of this.openCalls) {
      const record = this.toolCalls.get(toolCallId);
      if (record !== undefined) record.entry.status = 'cancelled';
    }
    this.openCalls.clear();
    for (const toolCallId of [...this.pendingPermissionCards]) {
      const record = this.toolCalls.get(toolCallId);
      if (record !== undefined && this.cancelPendingPermission(record)) changed.add(toolCallId);
    }
    this.pendingPermissionCards.clear();
    const messages: ConversationChange[] = [];
    for (const toolCallId of changed) {
      const record = this.toolCalls.get(toolCallId);
      if (record !== undefined) messages.push(this.upserted(record.entry));
    }
    return messages;
  }

  /** Marks the card's prompt cancelled when it is pending; true when something changed. */
  private cancelPendingPermission(record: ToolCallRecord): boolean {
    const permission = record.entry.permission;
    this.pendingPermissionCards.delete(record.entry.toolCallId);
    if (permission === undefined || permission.state.kind !== 'pending') return false;
    record.entry.permission = { ...permission, state: { kind: 'cancelled' } };
    return true;
  }

  /** Appends a new entry at the end of the thread; text streaming restarts after it. */
  private push(entry: Entry): ConversationChange {
    this.list.push(entry);
    this.streamTarget = undefined;
    return this.upserted(entry);
  }

  private upserted(entry: Entry): ConversationChange {
    return { type: 'entryUpserted', entry: { ...entry } };
  }

  /** Untrusted input must never throw into the connection's handlers; a bug is logged instead. */
  private guarded(run: () => ConversationChange[]): ConversationChange[] {
    try {
      return run();
    } catch (error) {
      this.warn(`${INTERNAL_ERROR_PREFIX}: ${error instanceof Error ? error.message : describe(error)}`);
      return [];
    }
  }

  private newId(): string {
    return `e${this.nextEntryNumber++}`;
  }

  /** Bound once so parsing helpers can take it as a plain function. */
  private readonly warn = (text: string): void => {
    try {
      this.opts.warn(text);
    } catch {
      // A failing logger must not break the thread.
    }
  };
}

/** The chip of a replayed user block that points at something (a well-formed link or resource). */
function replayedMention(content: unknown): MentionView | undefined {
  if (!isRecord(content)) return undefined;
  const uri = content.type === 'resource_link' ? content.uri : content.type === 'resource' && isRecord(content.resource) ? content.resource.uri : undefined;
  return typeof uri === 'string' ? mentionViewFromBlock(content as unknown as acp.ContentBlock) : undefined;
}
