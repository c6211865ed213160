import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { TerminalSignIn } from '../conversation/ports';

/**
 * Runs an agent's own sign-in command (a terminal auth method) in a VS Code terminal, where the
 * user can read it and answer its questions, and resolves with its exit code once it closes.
 * The terminal runs the program directly (no shell), with the method's environment over VS Code's.
 */
export function runSignInTerminal(spec: TerminalSignIn): Promise<number | undefined> {
  return new Promise((resolve) => {
    const terminal = vscode.window.createTerminal({
      name: spec.name,
      shellPath: spec.command,
      shellArgs: spec.args,
      cwd: spec.cwd,
      env: spec.env,
      isTransient: true,
      message: l10n.t("Tandem: the agent's sign-in. When it is done, this terminal closes and Tandem goes on."),
    });
    const subscription = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      subscription.dispose();
      resolve(closed.exitStatus?.code);
    });
    // Shown so the user can answer, but the keyboard stays where it is until they click into it.
    terminal.show(true);
  });
}
