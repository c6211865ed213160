import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Thread } from '../thread/thread';
import type { IDisposable } from '../util/disposable';

/**
 * "Open in terminal": mirrors an agent terminal's output into a read-only VS Code terminal
 * (a Pseudoterminal), replaying what was printed so far and following new output live.
 */
export class TerminalMirror implements IDisposable {
  private readonly open = new Set<vscode.Terminal>();

  show(thread: Pick<Thread, 'terminalView' | 'onTerminalOutput'>, terminalId: string): void {
    const view = thread.terminalView(terminalId);
    if (!view) {
      void vscode.window.showWarningMessage(l10n.t('That terminal is not known to Tandem (the agent may have run the command itself).'));
      return;
    }
    const writeEmitter = new vscode.EventEmitter<string>();
    let subscription: IDisposable | undefined;
    const toTerminal = (text: string) => text.replace(/\r?\n/g, '\r\n');
    const pty: vscode.Pseudoterminal = {
      onDidWrite: writeEmitter.event,
      open: () => {
        writeEmitter.fire(`\x1b[2m$ ${view.command}\x1b[0m\r\n`);
        writeEmitter.fire(toTerminal(view.output));
        subscription = thread.onTerminalOutput((id, text) => {
          if (id === terminalId) writeEmitter.fire(toTerminal(text));
        });
      },
      close: () => {
        subscription?.dispose();
        writeEmitter.dispose();
      },
    };
    const terminal = vscode.window.createTerminal({ name: `Agent: ${view.command.slice(0, 40)}`, pty });
    this.open.add(terminal);
    terminal.show(true);
  }

  dispose(): void {
    for (const t of this.open) t.dispose();
    this.open.clear();
  }
}
