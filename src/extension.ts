import * as vscode from 'vscode';
import { ChatViewProvider } from './views/chatViewProvider';
import { OutputLog } from './vscode/outputLog';
import { SessionHost } from './vscode/sessionHost';

/** Wires the pieces together; nothing starts until the chat view is shown. */
export function activate(context: vscode.ExtensionContext): void {
  const log = new OutputLog();
  const host = new SessionHost(context, log);
  const provider = new ChatViewProvider(context.extensionUri, host);
  context.subscriptions.push(
    log,
    host,
    provider,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, provider, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.commands.registerCommand('tandem.newSession', () => host.newSession()),
    vscode.commands.registerCommand('tandem.stop', () => host.stop()),
    vscode.commands.registerCommand('tandem.showLog', () => log.showProtocol()),
    vscode.commands.registerCommand('tandem.restart', () => host.restart()),
    vscode.commands.registerCommand('tandem.selectAgent', () => host.pickAgent()),
    vscode.commands.registerCommand('tandem.toggleFollow', () => host.toggleFollow()),
    vscode.commands.registerCommand('tandem.followOn', () => host.toggleFollow()),
    vscode.commands.registerCommand('tandem.followOff', () => host.toggleFollow()),
  );
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
