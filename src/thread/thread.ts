import * as l10n from '@vscode/l10n';
import type { Entry, ConversationChange, HostMessage, TerminalView, WebviewMessage } from '../protocol/messages';
import type { IDisposable } from '../util/disposable';
import type { DiffLinesResult } from './diffContent';
import { ThreadReducer } from './threadReducer';
import { terminalMetaEvents, TerminalViews, type TerminalViewEvent } from './terminalViews';

export interface ThreadOptions {
  isInWorkspace(path: string): boolean;
  warn(text: string): void;
  /** Delivers the keyed changes, in order. */
  emit(messages: ConversationChange[]): void;
  /** Follow-along: reveal a file an update points at. */
  follow(path: string, line: number | undefined): void;
}

/**
 * What the panel shows of a conversation: the entries (one reducer) and the terminals' output. It
 * outlives agent processes and sessions, so a crash, a restart or a restore keeps the thread. The
 * conversation feeds it updates and terminal events; it answers with keyed changes.
 */
export class Thread {
  readonly reducer: ThreadReducer;
  readonly terminals = new TerminalViews();

  constructor(private readonly opts: ThreadOptions) {
    this.reducer = new ThreadReducer({ isInWorkspace: (p) => opts.isInWorkspace(p), warn: (t) => opts.warn(t) });
  }

  /** One `session/update` for the thread (commands and modes are the session's, not the thread's). */
  applyUpdate(update: Record<string, unknown>): void {
    this.opts.emit(this.reducer.applyUpdate(update));
    // Output of commands the agent ran itself, carried in `_meta` (see terminalMetaEvents). The
    // title is looked up only when a terminal has to be created: this runs for every streamed chunk.
    const title = () => this.reducer.findToolCall(String(update.toolCallId))?.title ?? 'command';
    for (const event of terminalMetaEvents(update, title, (id) => this.terminals.has(id))) this.applyTerminalEvent(event);
    this.followLocations(update);
  }

  applyTerminalEvent(event: TerminalViewEvent): void {
    const message = this.terminals.apply(event);
    if (message) this.opts.emit([message]);
  }

  /** New session: the thread starts empty. */
  clear(): void {
    this.opts.emit(this.reducer.clear());
    this.terminals.clear();
  }

  /** Shows a stored transcript (entries settled: nothing in it is live). */
  restore(entries: readonly Entry[], terminals: Record<string, TerminalView>): void {
    this.opts.emit(this.terminals.restore(terminals));
    this.opts.emit(this.reducer.restore(entries));
  }

  /** Everything the panel needs to show this thread from scratch (after it replaced another). */
  restate(): ConversationChange[] {
    const messages: ConversationChange[] = [{ type: 'entriesCleared' }];
    for (const terminal of Object.values(this.terminals.all())) messages.push({ type: 'terminalChanged', terminal });
    for (const entry of this.reducer.entries()) messages.push({ type: 'entryUpserted', entry });
    return messages;
  }

  entries(): Entry[] {
    return this.reducer.entries();
  }

  /** The entries for a stored transcript: diffs keep their texts there (never sent to the panel). */
  storedEntries(): Entry[] {
    return this.reducer.storedEntries();
  }

  /** The host keeps terminal output for the webview and for "Open in terminal". */
  terminalView(terminalId: string): TerminalView | undefined {
    return this.terminals.get(terminalId);
  }

  onTerminalOutput(listener: (terminalId: string, text: string) => void): IDisposable {
    return this.terminals.onAppend(listener);
  }

  /** The whole texts of a diff the panel shows, for "Open diff" (whatever their size). */
  findDiff(entryId: string, index: number): { path: string; oldText: string | null; newText: string; title: string } | undefined {
    const record = this.reducer.diffRecord(entryId, index);
    if (!record) return undefined;
    const { path, oldText, newText } = record.source;
    const entry = this.reducer.entries().find((e) => e.id === entryId);
    return { path, oldText, newText, title: entry?.kind === 'tool_call' ? entry.title : path };
  }

  /** Answers the panel's request for lines of a diff that were not sent with it. */
  diffLines(request: Extract<WebviewMessage, { type: 'fetchDiffLines' }>): Extract<HostMessage, { type: 'diffLines' }> {
    const record = this.reducer.diffRecord(request.entryId, request.index);
    let result: DiffLinesResult;
    try {
      result = record ? record.lines(request.diffId, request.row, request.count) : { error: l10n.t('The lines of this diff were not kept.') };
    } catch (error) {
      // The panel waits for an answer: a bug here must still give it one.
      this.opts.warn(`Reading lines of a diff failed: ${error instanceof Error ? error.message : String(error)}`);
      result = { error: l10n.t('The lines could not be read.') };
    }
    return 'error' in result
      ? { type: 'diffLines', requestId: request.requestId, lines: [], oldLine: 0, newLine: 0, error: result.error }
      : { type: 'diffLines', requestId: request.requestId, ...result };
  }

  /** Follow-along from tool call locations: agents that edit the disk themselves only report these. */
  private followLocations(update: Record<string, unknown>): void {
    const locations = update.locations;
    if (!Array.isArray(locations) || locations.length === 0) return;
    const last = locations[locations.length - 1] as { path?: unknown; line?: unknown };
    if (typeof last?.path !== 'string' || !this.opts.isInWorkspace(last.path)) return;
    this.opts.follow(last.path, typeof last.line === 'number' ? last.line : undefined);
  }
}
