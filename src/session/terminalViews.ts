import type { HostMessage, TerminalView } from '../protocol/messages';
import { Emitter, type IDisposable } from '../util/disposable';

/** Events from the terminal manager, as far as the view cares. */
export type TerminalViewEvent =
  | { kind: 'created'; terminalId: string; command: string }
  | { kind: 'output'; terminalId: string; text: string; truncated: boolean }
  | { kind: 'exit'; terminalId: string; exitCode: number | null; signal: string | null };

/** Output kept per terminal for the panel; the agent's own byte limit applies separately. */
const VIEW_LIMIT_CHARS = 512 * 1024;

/**
 * The panel's copy of every terminal's output. Kept apart from the terminal manager because the
 * output must stay visible after the agent releases the terminal (spec: "continues to display it").
 */
export class TerminalViews {
  private readonly views = new Map<string, TerminalView>();
  private readonly appended = new Emitter<{ terminalId: string; text: string }>();

  apply(event: TerminalViewEvent): HostMessage | undefined {
    switch (event.kind) {
      case 'created': {
        const view: TerminalView = { terminalId: event.terminalId, command: event.command, output: '', truncated: false };
        this.views.set(event.terminalId, view);
        return { type: 'terminalChanged', terminal: { ...view } };
      }
      case 'output': {
        const view = this.views.get(event.terminalId);
        if (!view) return undefined;
        let output = view.output + event.text;
        let truncated = view.truncated || event.truncated;
        if (output.length > VIEW_LIMIT_CHARS) {
          output = output.slice(output.length - VIEW_LIMIT_CHARS);
          truncated = true;
        }
        view.output = output;
        view.truncated = truncated;
        this.appended.fire({ terminalId: event.terminalId, text: event.text });
        return { type: 'terminalAppended', terminalId: event.terminalId, text: event.text, truncated };
      }
      case 'exit': {
        const view = this.views.get(event.terminalId);
        if (!view) return undefined;
        view.exit = { exitCode: event.exitCode, signal: event.signal };
        return { type: 'terminalChanged', terminal: { ...view } };
      }
    }
  }

  get(terminalId: string): TerminalView | undefined {
    return this.views.get(terminalId);
  }

  all(): Record<string, TerminalView> {
    const out: Record<string, TerminalView> = {};
    for (const [id, view] of this.views) out[id] = { ...view };
    return out;
  }

  clear(): void {
    this.views.clear();
  }

  onAppend(listener: (terminalId: string, text: string) => void): IDisposable {
    return this.appended.event((e) => listener(e.terminalId, e.text));
  }
}
