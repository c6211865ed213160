import * as path from 'node:path';
import type * as vscode from 'vscode';
import { installSupervisor, ProcessSupervisor } from './util/processSupervisor';
import { ChatViewProvider } from './views/chatViewProvider';
import { AgentDoctor } from './vscode/agentDoctor';
import { AgentInstaller } from './vscode/agentInstaller';
import { configureLocalization } from './vscode/localization';
import { OutputLog } from './vscode/outputLog';
import { EditorHost } from './vscode/editorHost';

/** Everything behind the chat view; loaded on first use so activation stays cheap. */
export interface Tandem {
  log: OutputLog;
  host: EditorHost;
  provider: ChatViewProvider;
  installer: AgentInstaller;
  doctor: AgentDoctor;
}

export function createTandem(context: vscode.ExtensionContext): Tandem {
  configureLocalization();
  const log = new OutputLog();
  // First, so that every process started from here on is ended with this host, however it ends.
  const supervisor = new ProcessSupervisor({ script: path.join(context.extensionPath, 'dist', 'supervisor.js'), warn: (text) => log.warn(text) });
  context.subscriptions.push(installSupervisor(supervisor));
  const host = new EditorHost(context, log);
  const provider = new ChatViewProvider(context.extensionUri, host);
  context.subscriptions.push(provider, host, log);
  return { log, host, provider, installer: new AgentInstaller(context, log), doctor: new AgentDoctor({ context, log }) };
}
