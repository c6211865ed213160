import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Thread } from '../../thread/thread';
import type { IDisposable } from '../../util/disposable';
import { feedTerminalMirror } from './terminalMirrorFeed';

/**
 * "Open in terminal": mirrors an agent terminal's output into a read-only VS Code terminal
 * (a Pseudoterminal), replaying what was printed so far and following new output live, redrawn
 * when an agent's snapshot replaces it (terminalMirrorFeed.ts).
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
    const pty: vscode.Pseudoterminal = {
      onDidWrite: writeEmitter.event,
      open: () => {
        // The output as it is when the terminal opens (a snapshot may have replaced it since show).
        const now = thread.terminalView(terminalId) ?? view;
        subscription = feedTerminalMirror(
          now,
          (l) => thread.onTerminalOutput(l),
          (data) => writeEmitter.fire(data),
        );
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
