import type { PermissionView } from '../protocol/messages';
import type { PermissionOptionView } from '../protocol/messages';
import {
  addObservedDiffs,
  addStreamedTerminal,
  isOpenStatus,
  mergeToolCallFields,
  newToolCallRecord,
  restoredRecord,
  storedToolCall,
  type MergeContext,
  type ToolCallRecord,
} from './toolCallMerge';
import type { DiffRecord, DiffSource } from './diffContent';
import type { Entry, ToolCallEntry, ToolKind, ToolStatus } from '../protocol/messages';
import { SubagentLinks, type LinkCard } from './presentation/subagentLinks';
import { editShape } from './presentation/toolInput';

/** What ObservedDiffs needs to know of a call after an update. */
export interface CallObservation {
  kind: ToolKind;
  status: ToolStatus;
  /** Absolute paths the call touches, inside the workspace (its locations and its input's paths). */
  paths: string[];
  /** The agent sent a diff itself: nothing to observe. */
  sentDiff: boolean;
  /** The files of the diffs the agent sent (absolute, as sent). */
  diffPaths: string[];
  /**
   * The edit the input asks for, when it names one file: if the agent wrote before Tandem read the
   * file, the text before is the text after with this edit undone (`create`: there was none).
   */
  inputEdit?: { path: string; oldText?: string; newText: string; create: boolean };
}

/**
 * The thread's tool calls by id, and the state around them a turn must settle: which calls are
 * still open (pending / in progress) and which cards show a permission prompt still waiting, with
 * the request id that owns each prompt. The reducer turns what changes here into panel changes.
 */
export class ToolCallBook {
  private readonly records = new Map<string, ToolCallRecord>();
  /** toolCallIds whose status is pending/in_progress: what a turn end or Stop must settle. */
  private readonly openCalls = new Set<string>();
  /** requestId → toolCallId of every permission request, to find its card when it is answered. */
  private readonly permissionOwners = new Map<string, string>();
  /** toolCallIds whose card shows a prompt that is still pending. */
  private readonly pendingCards = new Set<string>();
  private readonly links = new SubagentLinks();
  /** Restored cards' toolCallIds by entry id, to find a restored child's parent. */
  private readonly restoredIds = new Map<string, string>();

  constructor(private readonly merge: MergeContext) {}

  get(toolCallId: string): ToolCallRecord | undefined {
    return this.records.get(toolCallId);
  }

  /**
   * What the client knows of a tool call in ACP shape (title, kind, rawInput, locations, diff paths,
   * _meta), for permission rules: a request often names only the toolCallId.
   */
  facts(toolCallId: string): Record<string, unknown> | undefined {
    const record = this.records.get(toolCallId);
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

  /** An entry as a stored transcript keeps it: a card's diff items with both texts. */
  storedForm(entry: Entry): Entry {
    const record = entry.kind === 'tool_call' ? this.records.get(entry.toolCallId) : undefined;
    return record?.entry === entry ? storedToolCall(record) : { ...entry };
  }

  /** The texts behind item `index` of a card, when it is a diff. */
  diffRecord(entry: Entry | undefined, index: number): DiffRecord | undefined {
    if (entry?.kind !== 'tool_call') return undefined;
    const record = this.records.get(entry.toolCallId);
    return record?.entry === entry ? record.diffs[index] : undefined;
  }

  /** True while a permission prompt on a card waits for an answer. */
  get hasPendingPermission(): boolean {
    return this.pendingCards.size > 0;
  }

  /**
   * Finds or creates the record for the id (a new one gets `entryId()` and is announced through
   * `created`), merges the fields, and keeps the open-call set in step.
   */
  upsert(
    toolCallId: string,
    fields: Record<string, unknown>,
    entryId: () => string,
    created: (entry: ToolCallEntry) => void,
    /** The parent card's toolCallId when the caller knows it (a child session's call under its card). */
    parentToolCallId?: string,
  ): ToolCallRecord {
    let record = this.records.get(toolCallId);
    if (record === undefined) {
      record = newToolCallRecord(entryId(), toolCallId);
      const parent = parentToolCallId === undefined ? undefined : this.records.get(parentToolCallId);
      if (parent !== undefined) {
        record.parentToolCallId = parentToolCallId;
        record.entry.parentId = parent.entry.id;
      } else this.link(record, fields._meta);
      this.records.set(toolCallId, record);
      created(record.entry);
    }
    mergeToolCallFields(record, fields, this.merge);
    if (isOpenStatus(record.entry.status)) this.openCalls.add(toolCallId);
    else this.openCalls.delete(toolCallId);
    return record;
  }

  /** The record's status was set from outside a merge (a child session's card): the open set follows. */
  statusChanged(record: ToolCallRecord): void {
    if (isOpenStatus(record.entry.status)) this.openCalls.add(record.entry.toolCallId);
    else this.openCalls.delete(record.entry.toolCallId);
  }

  /**
   * Puts a pending prompt on the record's card. Returns the card that lost the request id, when an
   * agent reused it for another card (that older prompt can no longer be answered: cancelled).
   */
  attachPermission(record: ToolCallRecord, requestId: string, options: PermissionOptionView[]): ToolCallRecord | undefined {
    const former = this.records.get(this.permissionOwners.get(requestId) ?? '');
    const superseded = former !== undefined && former !== record && this.cancelPending(former) ? former : undefined;
    record.entry.permission = { requestId, options, state: { kind: 'pending' } };
    this.permissionOwners.set(requestId, record.entry.toolCallId);
    this.pendingCards.add(record.entry.toolCallId);
    return superseded;
  }

  /** Records an answer; the changed record, or undefined when the request is unknown or superseded. */
  resolvePermission(requestId: string, state: PermissionView['state']): ToolCallRecord | undefined {
    const record = this.owner(requestId);
    if (!record?.entry.permission) return undefined;
    const copy: PermissionView['state'] = state.kind === 'selected' ? { kind: 'selected', optionId: state.optionId } : { kind: state.kind };
    record.entry.permission = { ...record.entry.permission, state: copy };
    if (copy.kind === 'pending') this.pendingCards.add(record.entry.toolCallId);
    else this.pendingCards.delete(record.entry.toolCallId);
    return record;
  }

  /** Adds the rule that answered or a proposal to a request's card; the changed record. */
  annotatePermission(requestId: string, patch: Pick<PermissionView, 'rule' | 'proposal'>): ToolCallRecord | undefined {
    const record = this.owner(requestId);
    if (!record?.entry.permission) return undefined;
    record.entry.permission = { ...record.entry.permission, ...structuredClone(patch) };
    return record;
  }

  /** Every open call → cancelled, every pending prompt → cancelled; the records that changed. */
  settle(): ToolCallRecord[] {
    const changed = new Set<string>(this.openCalls);
    for (const toolCallId of this.openCalls) {
      const record = this.records.get(toolCallId);
      if (record !== undefined) record.entry.status = 'cancelled';
    }
    this.openCalls.clear();
    for (const toolCallId of [...this.pendingCards]) {
      const record = this.records.get(toolCallId);
      if (record !== undefined && this.cancelPending(record)) changed.add(toolCallId);
    }
    this.pendingCards.clear();
    return [...changed].map((id) => this.records.get(id)).filter((r): r is ToolCallRecord => r !== undefined);
  }

  /** What ObservedDiffs needs of a call, or undefined when unknown. */
  observation(toolCallId: string): CallObservation | undefined {
    const record = this.records.get(toolCallId);
    if (record === undefined) return undefined;
    const { entry, sent, reading } = record;
    // Nothing on this disk changes for a tool that ran on a hosted agent's server.
    if (entry.ranOn === 'server') return undefined;
    const paths = new Set<string>();
    for (const l of entry.locations) if (l.inWorkspace) paths.add(l.path);
    for (const l of reading?.locations ?? []) paths.add(l.path);
    const diffPaths = (sent.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : []));
    const observation: CallObservation = { kind: entry.toolKind, status: entry.status, paths: [...paths], sentDiff: diffPaths.length > 0, diffPaths };
    const edit = reading?.facts.edit;
    const shape = reading ? editShape(reading.facts) : undefined;
    if (edit && shape !== undefined && reading.paths.length === 1) {
      observation.inputEdit = { path: reading.paths[0], newText: edit.newText, create: shape === 'whole' };
      if (edit.oldText !== undefined) observation.inputEdit.oldText = edit.oldText;
    }
    return observation;
  }

  /** Diffs seen on disk while the call ran; the changed record (undefined when unknown). */
  observed(toolCallId: string, diffs: DiffSource[]): ToolCallRecord | undefined {
    const record = this.records.get(toolCallId);
    if (record === undefined || diffs.length === 0) return undefined;
    addObservedDiffs(record, diffs, this.merge);
    return record;
  }

  /** A terminal streamed to under `toolCallId` that its card does not name yet (see addStreamedTerminal). */
  streamedTerminal(toolCallId: string, terminalId: string): ToolCallRecord | undefined {
    const record = this.records.get(toolCallId);
    if (record === undefined || record.entry.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) return undefined;
    addStreamedTerminal(record, terminalId, this.merge);
    return record;
  }

  /** The parent card of a new record, when it is a subagent's call (see SubagentLinks). */
  private link(record: ToolCallRecord, meta: unknown): void {
    const card = (r: ToolCallRecord): LinkCard => ({
      toolCallId: r.entry.toolCallId,
      parentToolCallId: r.parentToolCallId,
      // A child session's card nests by session id only: nothing is inferred to run under it.
      subagent: r.entry.subagent === true && r.entry.childSession === undefined,
      open: isOpenStatus(r.entry.status),
      inProgress: r.entry.status === 'in_progress',
    });
    const find = (id: string): LinkCard | undefined => {
      const found = this.records.get(id);
      return found === undefined ? undefined : card(found);
    };
    const open = (): LinkCard[] => [...this.openCalls].map(find).filter((c): c is LinkCard => c !== undefined);
    const parent = this.links.parentOf(record.entry.toolCallId, meta, find, open);
    const parentRecord = parent === undefined ? undefined : this.records.get(parent);
    if (parentRecord === undefined) return;
    record.parentToolCallId = parent;
    record.entry.parentId = parentRecord.entry.id;
  }

  /** A stored card shown again: known by id, open and pending as it was saved (settle next). */
  restore(entry: ToolCallEntry): void {
    const record = restoredRecord(entry);
    const parent = typeof entry.parentId === 'string' ? this.restoredIds.get(entry.parentId) : undefined;
    if (parent !== undefined) record.parentToolCallId = parent;
    else delete entry.parentId;
    this.restoredIds.set(entry.id, entry.toolCallId);
    this.records.set(entry.toolCallId, record);
    if (isOpenStatus(entry.status)) this.openCalls.add(entry.toolCallId);
    if (entry.permission?.state.kind === 'pending') this.pendingCards.add(entry.toolCallId);
  }

  clear(): void {
    this.links.clear();
    this.restoredIds.clear();
    this.records.clear();
    this.openCalls.clear();
    this.permissionOwners.clear();
    this.pendingCards.clear();
  }

  /** The card of a request, while the request is still the one its card shows. */
  private owner(requestId: string): ToolCallRecord | undefined {
    const record = this.records.get(this.permissionOwners.get(requestId) ?? '');
    return record?.entry.permission?.requestId === requestId ? record : undefined;
  }

  /** Marks the card's prompt cancelled when it is pending; true when something changed. */
  private cancelPending(record: ToolCallRecord): boolean {
    const permission = record.entry.permission;
    this.pendingCards.delete(record.entry.toolCallId);
    if (permission === undefined || permission.state.kind !== 'pending') return false;
    record.entry.permission = { ...permission, state: { kind: 'cancelled' } };
    return true;
  }
}
