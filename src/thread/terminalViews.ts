import { TERMINAL_VIEW_LIMIT_CHARS, type ConversationChange, type TerminalView } from '../protocol/messages';
import { Emitter, type IDisposable } from '../util/disposable';

/** Events from the terminal manager, as far as the view cares. */
export type TerminalViewEvent =
  | { kind: 'created'; terminalId: string; command: string }
  | { kind: 'output'; terminalId: string; text: string; truncated: boolean }
  /** The whole output so far, replacing what was kept (an agent's authoritative snapshot). */
  | { kind: 'snapshot'; terminalId: string; text: string }
  /** The command became known after the terminal was shown (an agent's own terminal). */
  | { kind: 'renamed'; terminalId: string; command: string }
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
  private readonly appended = new Emitter<{ terminalId: string; text: string; replaced: boolean }>();

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
        this.appended.fire({ terminalId: event.terminalId, text: event.text, replaced: false });
        return { type: 'terminalAppended', terminalId: event.terminalId, text, truncated: state.truncated };
      }
      case 'snapshot': {
        const state = this.states.get(event.terminalId);
        if (!state) return undefined;
        state.chunks = [event.text.slice(-VIEW_LIMIT_CHARS)];
        state.length = state.chunks[0].length;
        state.truncated = event.text.length > VIEW_LIMIT_CHARS;
        // A follower (the editor's terminal mirror) redraws from the snapshot instead of appending it.
        this.appended.fire({ terminalId: event.terminalId, text: state.chunks[0], replaced: true });
        return { type: 'terminalChanged', terminal: toView(state) };
      }
      case 'renamed': {
        const state = this.states.get(event.terminalId);
        if (!state || state.command === event.command) return undefined;
        state.command = event.command;
        return { type: 'terminalChanged', terminal: toView(state) };
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

  /** Output appended to a terminal, or (`replaced`) the whole output that replaced what it had. */
  onAppend(listener: (terminalId: string, text: string, replaced: boolean) => void): IDisposable {
    return this.appended.event((e) => listener(e.terminalId, e.text, e.replaced));
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
