import { TERMINAL_VIEW_LIMIT_CHARS, type ConversationChange, type TerminalView } from '../protocol/messages';
import { Emitter, type IDisposable } from '../util/disposable';

/** Events from the terminal manager, as far as the view cares. */
export type TerminalViewEvent =
  | { kind: 'created'; terminalId: string; command: string }
  | { kind: 'output'; terminalId: string; text: string; truncated: boolean }
  | { kind: 'exit'; terminalId: string; exitCode: number | null; signal: string | null };

/** Output kept per terminal for the panel; the agent's own byte limit applies separately. */
const VIEW_LIMIT_CHARS = TERMINAL_VIEW_LIMIT_CHARS;

/** One terminal's panel copy: chunks with a running length, trimmed from the front. */
interface TerminalState {
  terminalId: string;
  command: string;
  chunks: string[];
  length: number;
  truncated: boolean;
  exit?: TerminalView['exit'];
}

/**
 * The panel's copy of every terminal's output. Kept apart from the terminal manager because the
 * output must stay visible after the agent releases the terminal (spec: "continues to display it").
 * Appends cost O(chunk): a command printing 50 MB must not copy the kept tail on every chunk.
 */
export class TerminalViews {
  private readonly states = new Map<string, TerminalState>();
  private readonly appended = new Emitter<{ terminalId: string; text: string }>();

  apply(event: TerminalViewEvent): ConversationChange | undefined {
    switch (event.kind) {
      case 'created': {
        const state: TerminalState = { terminalId: event.terminalId, command: event.command, chunks: [], length: 0, truncated: false };
        this.states.set(event.terminalId, state);
        return { type: 'terminalChanged', terminal: toView(state) };
      }
      case 'output': {
        const state = this.states.get(event.terminalId);
        if (!state) return undefined;
        const text = event.text.length > VIEW_LIMIT_CHARS ? event.text.slice(-VIEW_LIMIT_CHARS) : event.text;
        state.chunks.push(text);
        state.length += text.length;
        state.truncated ||= event.truncated || text.length < event.text.length;
        trim(state);
        this.appended.fire({ terminalId: event.terminalId, text: event.text });
        return { type: 'terminalAppended', terminalId: event.terminalId, text, truncated: state.truncated };
      }
      case 'exit': {
        const state = this.states.get(event.terminalId);
        if (!state) return undefined;
        state.exit = { exitCode: event.exitCode, signal: event.signal };
        return { type: 'terminalChanged', terminal: toView(state) };
      }
    }
  }

  has(terminalId: string): boolean {
    return this.states.has(terminalId);
  }

  get(terminalId: string): TerminalView | undefined {
    const state = this.states.get(terminalId);
    return state ? toView(state) : undefined;
  }

  all(): Record<string, TerminalView> {
    const out: Record<string, TerminalView> = {};
    for (const [id, state] of this.states) out[id] = toView(state);
    return out;
  }

  clear(): void {
    this.states.clear();
  }

  /** Terminals of a stored transcript: their output as it was saved, nothing running any more. */
  restore(views: Record<string, TerminalView>): ConversationChange[] {
    this.states.clear();
    const messages: ConversationChange[] = [];
    for (const [terminalId, view] of Object.entries(views)) {
      if (typeof view !== 'object' || view === null || typeof view.output !== 'string') continue;
      const state: TerminalState = {
        terminalId,
        command: typeof view.command === 'string' ? view.command : '',
        chunks: [view.output.slice(-VIEW_LIMIT_CHARS)],
        length: Math.min(view.output.length, VIEW_LIMIT_CHARS),
        truncated: view.truncated === true || view.output.length > VIEW_LIMIT_CHARS,
        // Nothing of an earlier editor run is running any more (the supervisor ended it): a card
        // restored without an exit must not keep saying "Running…".
        exit: view.exit ?? { exitCode: null, signal: null, lost: true },
      };
      this.states.set(terminalId, state);
      messages.push({ type: 'terminalChanged', terminal: toView(state) });
    }
    return messages;
  }

  onAppend(listener: (terminalId: string, text: string) => void): IDisposable {
    return this.appended.event((e) => listener(e.terminalId, e.text));
  }
}

function trim(state: TerminalState): void {
  while (state.length > VIEW_LIMIT_CHARS && state.chunks.length > 1) {
    const first = state.chunks[0];
    const excess = state.length - VIEW_LIMIT_CHARS;
    if (first.length <= excess) {
      state.chunks.shift();
      state.length -= first.length;
    } else {
      state.chunks[0] = first.slice(excess);
      state.length -= excess;
    }
    state.truncated = true;
  }
}

function toView(state: TerminalState): TerminalView {
  const output = state.chunks.length > 1 ? state.chunks.join('') : (state.chunks[0] ?? '');
  // Joining once keeps later reads cheap.
  if (state.chunks.length > 1) state.chunks = [output];
  return { terminalId: state.terminalId, command: state.command, output, truncated: state.truncated, exit: state.exit };
}

/**
 * Agents that run commands themselves may embed a `terminal` item with an id the client never
 * created and stream its output in `_meta` (terminal_info / terminal_output / terminal_exit, as
 * Claude Code's ACP adapter does). Turns that into view events, creating the terminal when unknown.
 */
export function terminalMetaEvents(
  update: Record<string, unknown>,
  fallbackCommand: () => string,
  known: (terminalId: string) => boolean,
): TerminalViewEvent[] {
  const meta = update._meta;
  if (typeof meta !== 'object' || meta === null) return [];
  const { terminal_info: info, terminal_output: output, terminal_exit: exit } = meta as Record<string, Record<string, unknown> | undefined>;
  const events: TerminalViewEvent[] = [];
  const created = new Set<string>();
  const idOf = (v: Record<string, unknown> | undefined) => (typeof v?.terminal_id === 'string' ? v.terminal_id : undefined);
  const ensure = (terminalId: string) => {
    if (known(terminalId) || created.has(terminalId)) return;
    created.add(terminalId);
    events.push({ kind: 'created', terminalId, command: typeof info?.command === 'string' ? info.command : fallbackCommand() });
  };
  const infoId = idOf(info);
  if (infoId) ensure(infoId);
  const outputId = idOf(output);
  if (outputId && typeof output?.data === 'string') {
    ensure(outputId);
    events.push({ kind: 'output', terminalId: outputId, text: output.data, truncated: false });
  }
  const exitId = idOf(exit);
  if (exitId) {
    ensure(exitId);
    events.push({
      kind: 'exit',
      terminalId: exitId,
      exitCode: typeof exit?.exit_code === 'number' ? exit.exit_code : null,
      signal: typeof exit?.signal === 'string' ? exit.signal : null,
    });
  }
  return events;
}
