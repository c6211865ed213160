import type {
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
import { SessionInfo } from './sessionInfo';
import { diffLines, findDiff } from './threadDiffs';
import { terminalMetaEvents, type TerminalViewEvent } from './terminalViews';
import { ThreadReplay } from './threadReplay';
import { ThreadView } from './threadView';
import { ObservedDiffs, readDiskText, readDiskTextNow, type DiskText } from './observedDiffs';
import { toolCallIdOf } from './toolCallMerge';

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
}

/** What the rest of the conversation may read of the session's settings; changing them goes through the Thread. */
export type SessionInfoReader = Pick<SessionInfo, 'commands' | 'modes' | 'configOptions' | 'configOption' | 'usage' | 'hasMode'>;

/** The fields `session/new`, load and resume answer with that the panel shows. */
type SessionResult = Parameters<SessionInfo['setSessionResult']>[0];

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
  private readonly terminalOutput = new Emitter<{ terminalId: string; text: string }>();
  private readonly observedDiffs: ObservedDiffs;

  constructor(private readonly ports: ThreadPorts) {
    this.shown = this.newView();
    const deliver = (id: string, diffs: DiffSource[]): void => this.ports.emit(this.shown.reducer.addObservedDiffs(id, diffs));
    this.observedDiffs = new ObservedDiffs(ports.readDisk ?? readDiskText, deliver, ports.readDisk ? undefined : readDiskTextNow);
    this.sessionInfo = new SessionInfo((t) => ports.warn(t));
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
      return;
    }
    const info = this.sessionInfo.applyUpdate(update);
    if (info !== undefined) return this.ports.emit(info);
    const staged = this.replay.target();
    const view = staged ?? this.shown;
    const changes = view.reducer.applyUpdate(update);
    // Output of commands the agent ran itself, in `_meta` (terminalMetaEvents); the title is looked up only for a new terminal.
    const title = () => view.reducer.findToolCall(String(update.toolCallId))?.title ?? 'command';
    for (const event of terminalMetaEvents(update, title, (id) => view.terminals.has(id))) {
      const change = view.terminals.apply(event);
      if (change) changes.push(change);
    }
    if (view !== this.shown) return this.replay.applied();
    this.ports.emit(changes);
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') this.toolCallChanged(update);
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
    this.ports.emit(this.shown.reducer.addUserMessage(text, extras));
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
    this.ports.emit(this.shown.reducer.endTurn(stopReason, usage));
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
    this.ports.emit(this.shown.terminals.restore(terminals));
    this.ports.emit(this.shown.reducer.restore(entries));
  }

  // --- the session's settings ------------------------------------------------------------------

  /** What a session/new, load or resume answered: modes, config options, the older models. */
  sessionOpened(result: SessionResult): void {
    this.ports.emit(this.sessionInfo.setSessionResult(result));
  }

  /** A new session is being opened, or the agent stopped: its commands, modes and settings are gone. */
  sessionClosed(): void {
    this.ports.emit(this.sessionInfo.clear());
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

  terminals(): Record<string, TerminalView> {
    return this.shown.terminals.all();
  }

  terminalView(terminalId: string): TerminalView | undefined {
    return this.shown.terminals.get(terminalId);
  }

  /** Output appended to any terminal of the shown thread (the editor's terminal mirror follows it). */
  onTerminalOutput(listener: (terminalId: string, text: string) => void): IDisposable {
    return this.terminalOutput.event((e) => listener(e.terminalId, e.text));
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
    view.terminals.onAppend((terminalId, text) => {
      if (view === this.shown) this.terminalOutput.fire({ terminalId, text });
    });
    return view;
  }

  /** A live call changed: its files are observed (ObservedDiffs); follow-along goes to its last location (sent or from input). */
  private toolCallChanged(update: unknown, follow = true): void {
    const { toolCallId, locations, rawInput } = (update ?? {}) as Record<string, unknown>;
    const id = toolCallIdOf(toolCallId); // as the reducer reads it (a numeric id included)
    if (id === undefined) return;
    this.observedDiffs.update(id, this.shown.reducer.observation(id));
    if (!follow || (locations === undefined && rawInput === undefined)) return;
    const shown = this.shown.reducer.findToolCall(id)?.locations ?? [];
    const last = shown[shown.length - 1];
    if (last === undefined || !last.inWorkspace) return;
    this.ports.follow(last.path, last.line);
  }
}
