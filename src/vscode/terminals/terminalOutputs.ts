import * as vscode from 'vscode';
import { Disposable } from '../../util/disposable';

/** Output kept per terminal: the tail that matters for "why did this fail". */
const KEEP_CHARS = 64 * 1024;

interface Captured {
  text: string;
}

/**
 * Recent output of the user's terminals, for `@terminal` mentions. VS Code gives an extension a
 * terminal's output only through shell integration (`onDidStartTerminalShellExecution` and the
 * execution's `read()` stream), so what is kept is each command line and what it printed, from
 * the commands run after Tandem started. A terminal without shell integration stays empty; the
 * mention then says so instead of sending nothing silently.
 */
export class TerminalOutputs extends Disposable {
  private readonly captured = new Map<vscode.Terminal, Captured>();

  constructor() {
    super();
    this.register(vscode.window.onDidStartTerminalShellExecution((e) => void this.capture(e)));
    this.register(vscode.window.onDidCloseTerminal((t) => this.captured.delete(t)));
  }

  /** The open terminals by name, the active one first (a picker lists them in that order). */
  terminals(): vscode.Terminal[] {
    const active = vscode.window.activeTerminal;
    const all = vscode.window.terminals;
    return active ? [active, ...all.filter((t) => t !== active)] : [...all];
  }

  /** The kept output of the terminal called `name` (the active one when several share it). */
  output(name: string): string | undefined {
    const terminal = this.terminals().find((t) => t.name === name);
    const text = terminal ? this.captured.get(terminal)?.text : undefined;
    return text === undefined || text === '' ? undefined : text;
  }

  private async capture(e: vscode.TerminalShellExecutionStartEvent): Promise<void> {
    const entry = this.captured.get(e.terminal) ?? { text: '' };
    this.captured.set(e.terminal, entry);
    const append = (chunk: string) => {
      entry.text += chunk;
      if (entry.text.length > KEEP_CHARS * 2) entry.text = entry.text.slice(-KEEP_CHARS);
    };
    const commandLine = e.execution.commandLine?.value;
    if (commandLine) append(`$ ${commandLine}\n`);
    try {
      for await (const chunk of e.execution.read()) append(chunk);
    } catch {
      // The terminal went away mid-command: what was read is kept.
    }
    if (entry.text.length > KEEP_CHARS) entry.text = entry.text.slice(-KEEP_CHARS);
  }
}
