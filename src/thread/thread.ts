import type {
  ChildSessionView,
  ConversationChange,
  Entry,
  ErrorEntry,
  HostMessage,
  NoticeEntry,
  PermissionView,
  TerminalView,
  ToolCallEntry,
  WebviewMessage,
} from '../protocol/messages';
import { Emitter, type IDisposable } from '../util/disposable';
import type { DiffRecord, DiffSource } from './diffContent';
import { SessionInfo, type SessionInfoReader } from './sessionInfo';
import { quotaFromPromptMeta } from './quota';
import { activityOf, type AgentActivity } from './agentActivity';
import { diffLines, findDiff } from './threadDiffs';
import { AgentTerminals } from './agentTerminals';
import type { TerminalViewEvent } from './terminalViews';
import { ThreadReplay } from './threadReplay';
import { ThreadView } from './threadView';
import { promptSuggestionOf } from './promptSuggestion';
import { changedPaths, fileBirthMs, ObservedDiffs, readDiskText, readDiskTextNow, type DiskText } from './observedDiffs';
import { toolCallIdOf } from './toolCallMerge';
import { childCardId } from './childSessions';

export interface ThreadPorts {
  isInWorkspace(path: string): boolean;
  warn(text: string): void;
  /** Delivers the keyed changes for the panel, in order. */
  emit(changes: ConversationChange[]): void;
  /** Follow-along: a live update points at a file (the conversation decides whether to move the editor). */
  follow(path: string, line: number | undefined): void;
  /** The agent named the session (`session_info_update`). */
  titled(title: string): void;
  /** The folders paths are shown relative to (the session's working folder first); none: as sent. */
  roots?(): string[];
  /** Reads a file for a diff observed on disk (default: the disk itself, small files' first text at once). */
  readDisk?(path: string): Promise<DiskText>;
  /** A live tool call says it changes these files (changedPaths): the review counts them as the agent's. */
  changes?(paths: string[]): void;
  /** The agent said what it is doing (`session_info_update`, agentActivity.ts): working, waiting for the user, idle. */
  activity?(activity: AgentActivity): void;
  /** A turn ends so: may its end offer Retry (the conversation still has its prompt as sent)? */
  offersRetry?(stopReason: string): boolean;
}

/**
 * What the panel shows of a conversation, and the one owner of it (as Zed's AcpThread): every
 * `session/update` goes through {@link dispatch}, and every other change through an intent method
 * that applies it and emits the keyed changes itself — nobody can change the thread and forget to
 * tell the panel. It outlives agent processes and sessions, so a crash, a restart or a restore
 * keeps the thread. A `session/load` replay is gathered out of sight and swapped in when it has
 * something to show (see ThreadReplay).
 */
export class Thread {
  private shown: ThreadView;
  private readonly replay: ThreadReplay;
  private readonly sessionInfo: SessionInfo;
  private readonly terminalOutput = new Emitter<{ terminalId: string; text: string; replaced: boolean }>();
  private readonly observedDiffs: ObservedDiffs;
  private readonly agentTerminals: AgentTerminals;
  /** The turn end showing Retry (only the last failed turn's does). */
  private retryOffer: string | undefined;

  constructor(private readonly ports: ThreadPorts) {
    this.shown = this.newView();
    const deliver = (id: string, diffs: DiffSource[]): void => this.ports.emit(this.shown.reducer.addObservedDiffs(id, diffs));
    this.observedDiffs = new ObservedDiffs(
      ports.readDisk ?? readDiskText,
      deliver,
      ports.readDisk ? undefined : readDiskTextNow,
      ports.readDisk ? undefined : fileBirthMs,
    );
    this.sessionInfo = new SessionInfo((t) => ports.warn(t));
    this.agentTerminals = new AgentTerminals((t) => ports.warn(t));
    this.replay = new ThreadReplay({
      create: () => this.newView(),
      swap: (view) => {
        this.shown = view;
        this.ports.emit(view.restate());
      },
      settle: () => this.markCancelling(),
    });
  }

  /** The session's commands, modes, settings and usage, to read. */
  get session(): SessionInfoReader {
    return this.sessionInfo;
  }

  // --- what the agent sends -------------------------------------------------------------------

  /** One `session/update`, whatever its kind, in arrival order. Never throws. */
  dispatch(update: Record<string, unknown>): void {
    if (update.sessionUpdate === 'session_info_update') {
      if (typeof update.title === 'string') this.ports.titled(update.title);
      const suggestion = promptSuggestionOf(update);
      if (suggestion !== undefined) this.ports.emit(this.sessionInfo.setPromptSuggestion(suggestion ?? undefined));
      // A replay's statuses are history: only a live one says what the agent does now.
      const activity = this.replay.target() === undefined ? activityOf(update) : undefined;
      if (activity !== undefined) this.ports.activity?.(activity);
      return;
    }
    const info = this.sessionInfo.applyUpdate(update);
    if (info !== undefined) return this.ports.emit(info);
    const staged = this.replay.target();
    const view = staged ?? this.shown;
    // v2's agent-owned terminals are session updates of their own, not thread entries.
    const changes = AgentTerminals.isTerminalUpdate(update) ? [] : view.reducer.applyUpdate(update);
    changes.push(
      ...this.agentTerminals.apply(
        update,
        view.terminals,
        (id) => view.reducer.findToolCall(id),
        (toolCallId, terminalId) => view.reducer.addStreamedTerminal(toolCallId, terminalId),
      ),
    );
    this.applied(view, changes, update);
  }

  /** What one update changed in `view`: staged during a replay, else emitted and its tool call followed. */
  private applied(view: ThreadView, changes: ConversationChange[], update: Record<string, unknown>): void {
    if (view !== this.shown) return this.replay.applied();
    this.ports.emit(changes);
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') this.toolCallChanged(update);
  }

  /** True when `sessionId` is a child session (subagent) announced in this thread. */
  hasChild(sessionId: string): boolean {
    return (this.replay.target() ?? this.shown).reducer.hasChild(sessionId);
  }

  /**
   * One `session/update` of a child session of this thread's session (subagents RFD): nested under
   * its card. Its tool calls are followed and reviewed like the parent's. Never throws.
   */
  dispatchChild(sessionId: string, update: Record<string, unknown>): void {
    const staged = this.replay.target();
    const view = staged ?? this.shown;
    const changes = view.reducer.applyChildUpdate(sessionId, update);
    this.applied(view, changes, update);
  }

  /** A terminal the agent created through Tandem changed. */
  terminalEvent(event: TerminalViewEvent): void {
    const change = this.shown.terminals.apply(event);
    if (change) this.ports.emit([change]);
  }

  /** A `session/load` is about to be sent: its replay is gathered out of sight (see ThreadReplay). */
  beginReplay(): void {
    this.replay.begin();
  }

  /** The agent answered the load; more of the replay may follow. */
  replayAnswered(): void {
    this.replay.answered();
  }

  /** A turn starts (or the replay went quiet): the replay is shown and settled. */
  finishReplay(): void {
    this.replay.finish();
  }

  /** The load failed or the session went away: the transcript on screen stays. */
  abandonReplay(): void {
    this.replay.abandon();
  }

  // --- what the conversation says --------------------------------------------------------------

  addUserMessage(text: string, extras?: Parameters<ThreadView['reducer']['addUserMessage']>[1]): void {
    // A turn starts: the prediction for it is spent (the agent predicts again when it ends); so is an older turn's Retry.
    this.withdrawRetry();
    this.ports.emit([...this.sessionInfo.setPromptSuggestion(undefined), ...this.shown.reducer.addUserMessage(text, extras)]);
  }

  addNotice(level: NoticeEntry['level'], message: string): void {
    this.ports.emit(this.shown.reducer.addNotice(level, message));
  }

  addError(message: string, detail?: string, action?: ErrorEntry['action'], offerCheck = false): void {
    this.ports.emit(this.shown.reducer.addError(message, detail, action, offerCheck));
  }

  /** Adds an entry another part owns (a sign-in card, a question) and returns it with its id. */
  addEntry<E extends Entry>(build: (id: string) => E): E {
    const { entry, changes } = this.shown.reducer.addEntry(build);
    this.ports.emit(changes);
    return entry;
  }

  /** Replaces such an entry in place; false when it is no longer in the thread. */
  replaceEntry(entry: Entry): boolean {
    const changes = this.shown.reducer.replaceEntry(entry);
    this.ports.emit(changes);
    return changes.length > 0;
  }

  endTurn(stopReason: string, usage?: string): void {
    this.withdrawRetry();
    const retry = this.ports.offersRetry?.(stopReason) === true;
    const changes = this.shown.reducer.endTurn(stopReason, usage, retry);
    const added = changes.at(-1);
    if (retry && added?.type === 'entryUpserted') this.retryOffer = added.entry.id;
    this.ports.emit(changes);
  }

  /** True when this entry is the turn end that offers Retry now. */
  offersRetry(entryId: string): boolean {
    return entryId === this.retryOffer && this.offersRetryOn(entryId);
  }

  /** The turn end offering Retry stops offering it (a new turn began, or the prompt is no longer kept). */
  withdrawRetry(): void {
    const id = this.retryOffer;
    this.retryOffer = undefined;
    if (id === undefined || !this.offersRetryOn(id)) return;
    const entry = this.shown.reducer.find(id);
    if (entry?.kind !== 'turn_end') return;
    const { retry: _withdrawn, ...rest } = entry;
    this.ports.emit(this.shown.reducer.replaceEntry(rest));
  }

  private offersRetryOn(id: string): boolean {
    const entry = this.shown.reducer.find(id);
    return entry?.kind === 'turn_end' && entry.retry === true;
  }

  /** Stop, or the agent went away: no open tool call or prompt keeps its spinner. */
  markCancelling(): void {
    this.observedDiffs.clear();
    this.ports.emit(this.shown.reducer.markCancelling());
  }

  attachPermission(toolCall: unknown, requestId: string, options: unknown): void {
    this.ports.emit(this.shown.reducer.attachPermission(toolCall, requestId, options));
    this.toolCallChanged(toolCall, false);
  }

  resolvePermission(requestId: string, state: PermissionView['state']): void {
    this.ports.emit(this.shown.reducer.resolvePermission(requestId, state));
  }

  annotatePermission(requestId: string, patch: Pick<PermissionView, 'rule' | 'proposal'>): void {
    this.ports.emit(this.shown.reducer.annotatePermission(requestId, patch));
  }

  /** Shows a stored transcript (after a restart): nothing in it is live any more. */
  restore(entries: readonly Entry[], terminals: Record<string, TerminalView>): void {
    this.replay.abandon();
    this.retryOffer = undefined;
    this.agentTerminals.clear();
    this.ports.emit(this.shown.terminals.restore(terminals));
    this.ports.emit(this.shown.reducer.restore(entries));
  }

  // --- the session's settings ------------------------------------------------------------------

  /** What a session/new, load or resume answered: modes, config options, the older models. */
  sessionOpened(result: Parameters<SessionInfo['setSessionResult']>[0]): void {
    this.ports.emit(this.sessionInfo.setSessionResult(result));
  }

  /** A new session is being opened, or the agent stopped: its commands, modes and settings are gone. */
  sessionClosed(): void {
    this.ports.emit(this.sessionInfo.clear());
  }

  /** A prompt result's `_meta`: the account's limits, when it carries a quota snapshot. */
  promptMetaReceived(meta: unknown): void {
    const quota = quotaFromPromptMeta(meta, (t) => this.ports.warn(t));
    if (quota) this.ports.emit(this.sessionInfo.setQuota(quota));
  }

  /** The agent agreed to a mode (`session/set_mode`). */
  modeSet(modeId: string): void {
    this.ports.emit(this.sessionInfo.setCurrentMode(modeId));
  }

  /** The full list `session/set_config_option` answered with. */
  configOptionsSet(options: unknown): void {
    this.ports.emit(this.sessionInfo.setConfigOptions(options));
  }

  /** The older `session/set_model` succeeded. */
  modelSet(modelId: string): void {
    this.ports.emit(this.sessionInfo.setCurrentModel(modelId));
  }

  /** A change was refused: the pickers are told the settings again, so they snap back. */
  restateSettings(): void {
    this.ports.emit(this.sessionInfo.restate());
  }

  // --- reads -----------------------------------------------------------------------------------

  entries(): Entry[] {
    return this.shown.reducer.entries();
  }

  get size(): number {
    return this.shown.reducer.size;
  }

  /** The entries for a stored transcript: diffs keep their texts there (never sent to the panel). */
  storedEntries(): Entry[] {
    return this.shown.reducer.storedEntries();
  }

  get hasPendingPermission(): boolean {
    return this.shown.reducer.hasPendingPermission;
  }

  toolCallFacts(toolCallId: string): Record<string, unknown> | undefined {
    return this.shown.reducer.toolCallFacts(toolCallId);
  }

  findToolCall(toolCallId: string): ToolCallEntry | undefined {
    return this.shown.reducer.findToolCall(toolCallId);
  }

  /** What the thread shows of a child session (subagent), or undefined for an unknown one. */
  childSession(sessionId: string): ChildSessionView | undefined {
    return this.shown.reducer.findToolCall(childCardId(sessionId))?.childSession;
  }

  terminals(): Record<string, TerminalView> {
    return this.shown.terminals.all();
  }

  terminalView(terminalId: string): TerminalView | undefined {
    return this.shown.terminals.get(terminalId);
  }

  /**
   * Output appended to any terminal of the shown thread, or (`replaced`) its whole output when an
   * agent's snapshot replaced it (the editor's terminal mirror follows both).
   */
  onTerminalOutput(listener: (terminalId: string, text: string, replaced: boolean) => void): IDisposable {
    return this.terminalOutput.event((e) => listener(e.terminalId, e.text, e.replaced));
  }

  diffRecord(entryId: string, index: number): DiffRecord | undefined {
    return this.shown.reducer.diffRecord(entryId, index);
  }

  /** The whole texts of a diff the panel shows, for "Open diff". */
  findDiff(entryId: string, index: number): ReturnType<typeof findDiff> {
    return findDiff(this, entryId, index);
  }

  /** Answers the panel's request for lines of a diff that were not sent with it. */
  diffLines(request: Extract<WebviewMessage, { type: 'fetchDiffLines' }>): Extract<HostMessage, { type: 'diffLines' }> {
    return diffLines(this.diffRecord(request.entryId, request.index), request, (t) => this.ports.warn(t));
  }

  /** Everything the panel needs to show the thread from scratch. */
  restate(): ConversationChange[] {
    return this.shown.restate();
  }

  // --- internals -------------------------------------------------------------------------------

  private newView(): ThreadView {
    const { ports } = this;
    const view = new ThreadView({ isInWorkspace: (p) => ports.isInWorkspace(p), warn: (t) => ports.warn(t), roots: () => ports.roots?.() ?? [] });
    view.terminals.onAppend((terminalId, text, replaced) => {
      if (view === this.shown) this.terminalOutput.fire({ terminalId, text, replaced });
    });
    return view;
  }

  /** A live call changed: its files are observed (ObservedDiffs); follow-along goes to its last location (sent or from input). */
  private toolCallChanged(update: unknown, follow = true): void {
    const { toolCallId, locations, rawInput } = (update ?? {}) as Record<string, unknown>;
    const id = toolCallIdOf(toolCallId); // as the reducer reads it (a numeric id included)
    if (id === undefined) return;
    const observation = this.shown.reducer.observation(id);
    this.observedDiffs.update(id, observation);
    this.ports.changes?.(changedPaths(observation));
    if (!follow || (locations === undefined && rawInput === undefined)) return;
    const shown = this.shown.reducer.findToolCall(id)?.locations ?? [];
    const last = shown[shown.length - 1];
    if (last === undefined || !last.inWorkspace) return;
    this.ports.follow(last.path, last.line);
  }
}
