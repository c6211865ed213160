import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tandem } from './hostMain';
import type { CommandId } from './vscode/settings/contributions';

/** Registers a command package.json contributes (the id is checked against it at compile time). */
function registerCommand(id: CommandId, run: (...args: unknown[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, run);
}

/**
 * Wires the view and commands. The session machinery (ACP SDK, reducer, handlers) lives in a
 * separate bundle, dist/host.js, required on first use: loading the SDK builds its schemas, which
 * would otherwise be paid by every window at activation.
 */
export function activate(context: vscode.ExtensionContext): void {
  let tandem: Tandem | undefined;
  const load = (): Tandem => {
    // A computed path keeps esbuild from inlining the host bundle into this one.
    tandem ??= (require(path.join(__dirname, 'host.js')) as typeof import('./hostMain')).createTandem(context);
    return tandem;
  };
  const command = (id: CommandId, run: (t: Tandem) => unknown) => registerCommand(id, () => run(load()));
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      'tandem.chat',
      { resolveWebviewView: (view) => load().provider.resolveWebviewView(view) },
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
    command('tandem.newConversation', (t) => t.host.commands.newConversation()),
    command('tandem.newConversationInWorktree', (t) => t.host.commands.newConversationInWorktree()),
    // The comment box's button and a note thread's delete button (VS Code passes the reply or the thread).
    registerCommand('tandem.reviewNote.add', (reply?: unknown) => load().host.comments.add(reply as vscode.CommentReply)),
    registerCommand('tandem.reviewNote.remove', (thread?: unknown) => load().host.comments.remove(thread as vscode.CommentThread)),
    command('tandem.closeConversation', (t) => t.host.commands.closeConversation()),
    command('tandem.nextConversation', (t) => t.host.commands.cycleConversation(1)),
    command('tandem.previousConversation', (t) => t.host.commands.cycleConversation(-1)),
    command('tandem.showHistory', (t) => t.host.commands.showHistory()),
    command('tandem.searchConversations', (t) => t.host.commands.searchConversations()),
    command('tandem.manageRules', (t) => t.host.commands.manageRules()),
    command('tandem.signOut', (t) => t.host.commands.signOut()),
    command('tandem.stop', (t) => t.host.commands.stop()),
    command('tandem.showLog', (t) => t.log.showProtocol()),
    command('tandem.openInspector', (t) => t.inspector.open()),
    command('tandem.exportMarkdown', (t) => t.host.markdown.exportConversation()),
    // A subagent tab's title bar passes the tab's URI; the Command Palette, nothing (the active tab's).
    registerCommand('tandem.stopSubagent', (uri?: unknown) => load().host.subagents.stop(uri)),
    command('tandem.exportTranscript', (t) => t.inspector.exportTranscript()),
    command('tandem.reportProblem', (t) => t.inspector.reportProblem()),
    command('tandem.replayTranscript', (t) => t.inspector.replayTranscript()),
    command('tandem.restart', (t) => t.host.commands.restart()),
    command('tandem.selectAgent', (t) => t.host.commands.pickAgent()),
    command('tandem.continueWithAgent', (t) => t.host.commands.continueWithAgent()),
    command('tandem.tryDemo', (t) => t.host.commands.tryDemo()),
    command('tandem.installAgent', (t) => t.installer.run()),
    registerCommand('tandem.checkAgent', (agentName?: unknown) => load().doctor.run(agentName)),
    // Explorer and tab menus pass the clicked resource and, with several selected, all of them.
    registerCommand('tandem.addSelection', () => load().host.commands.addToChat(undefined)),
    registerCommand('tandem.addFile', (clicked?: unknown, selected?: unknown) => load().host.commands.addToChat(resourcesOf(clicked, selected) ?? [])),
    command('tandem.toggleFollow', (t) => t.host.commands.toggleFollow()),
    command('tandem.followOn', (t) => t.host.commands.toggleFollow()),
    command('tandem.followOff', (t) => t.host.commands.toggleFollow()),
  );
}

function resourcesOf(clicked: unknown, selected: unknown): vscode.Uri[] | undefined {
  if (Array.isArray(selected) && selected.every((u) => u instanceof vscode.Uri) && selected.length > 0) return selected;
  if (clicked instanceof vscode.Uri) return [clicked];
  return undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
