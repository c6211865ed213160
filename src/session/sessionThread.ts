import type { Entry, HostMessage, TerminalView } from '../protocol/messages';
import type { IDisposable } from '../util/disposable';
import { SessionInfo } from './sessionInfo';
import { SessionReducer } from './sessionReducer';
import { terminalMetaEvents, TerminalViews, type TerminalViewEvent } from './terminalViews';

export interface SessionThreadOptions {
  isInWorkspace(path: string): boolean;
  warn(text: string): void;
  /** Delivers the keyed changes, in order. */
  emit(messages: HostMessage[]): void;
  /** Follow-along: reveal a file an update points at. */
  follow(path: string, line: number | undefined): void;
}

/**
 * What the panel shows of a session: the entries (one reducer), the terminals' output, and the
 * session's commands and modes. It outlives agent processes, so a crash or restart keeps the thread.
 * The agent lifecycle (AgentSession) feeds it updates and events; it answers with keyed changes.
 */
export class SessionThread {
  readonly reducer: SessionReducer;
  readonly terminals = new TerminalViews();
  /** Slash commands and modes: they belong to the ACP session and are cleared with it. */
  readonly info: SessionInfo;

  constructor(private readonly opts: SessionThreadOptions) {
    this.reducer = new SessionReducer({ isInWorkspace: (p) => opts.isInWorkspace(p), warn: (t) => opts.warn(t) });
    this.info = new SessionInfo((t) => opts.warn(t));
  }

  /** One `session/update`, already checked to belong to the current session. */
  applyUpdate(update: Record<string, unknown>): void {
    const info = this.info.applyUpdate(update);
    if (info !== undefined) {
      this.opts.emit(info);
      return;
    }
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
