import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { TerminalSignIn } from '../../conversation/ports';

/**
 * Asks before an agent's sign-in command runs for the first time: a modal naming the agent and the
 * exact command line (an agent chooses the arguments, so the user should see what it asks to run).
 */
export async function confirmSignInCommand(agentName: string, commandLine: string): Promise<boolean> {
  const run = l10n.t('Run in Terminal');
  const answer = await vscode.window.showWarningMessage(
    l10n.t('Run the sign-in command of {0}?', agentName),
    {
      modal: true,
      detail: l10n.t(
        '{0} signs in by running this command in a terminal:\n\n{1}\n\nRun it only if you expected this agent to ask you to sign in.',
        agentName,
        commandLine,
      ),
    },
    run,
  );
  return answer === run;
}

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
