import type { Entry, ConversationChange, TerminalView } from '../protocol/messages';
import type { IDisposable } from '../util/disposable';
import { SessionReducer } from './sessionReducer';
import { terminalMetaEvents, TerminalViews, type TerminalViewEvent } from './terminalViews';

export interface SessionThreadOptions {
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
export class SessionThread {
  readonly reducer: SessionReducer;
  readonly terminals = new TerminalViews();

  constructor(private readonly opts: SessionThreadOptions) {
    this.reducer = new SessionReducer({ isInWorkspace: (p) => opts.isInWorkspace(p), warn: (t) => opts.warn(t) });
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

  /** The host keeps terminal output for the webview and for "Open in terminal". */
  terminalView(terminalId: string): TerminalView | undefined {
    return this.terminals.get(terminalId);
  }

  onTerminalOutput(listener: (terminalId: string, text: string) => void): IDisposable {
    return this.terminals.onAppend(listener);
  }

  findDiff(entryId: string, index: number): { path: string; oldText: string | null; newText: string; title: string } | undefined {
    const entry = this.reducer.entries().find((e) => e.id === entryId);
    if (!entry || entry.kind !== 'tool_call') return undefined;
    const item = entry.content[index];
    if (!item || item.type !== 'diff') return undefined;
    return { path: item.path, oldText: item.oldText, newText: item.newText, title: entry.title };
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
