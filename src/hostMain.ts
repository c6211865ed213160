import * as path from 'node:path';
import type * as vscode from 'vscode';
import { installSupervisor, ProcessSupervisor } from './util/processSupervisor';
import { ChatViewProvider } from './views/chatViewProvider';
import { AgentDoctor } from './vscode/agents/agentDoctor';
import { AgentInstaller } from './vscode/agents/agentInstaller';
import { describeEntry } from './agents/agentEntry';
import { AgentSettings } from './vscode/agents/agentSettings';
import { MovedAdapterNotice } from './vscode/agents/movedAdapterNotice';
import { Inspector } from './vscode/inspector/inspector';
import { configureLocalization } from './vscode/core/localization';
import { OutputLog } from './vscode/core/outputLog';
import { EditorHost } from './vscode/host/editorHost';

/** Everything behind the chat view; loaded on first use so activation stays cheap. */
export interface Tandem {
  log: OutputLog;
  host: EditorHost;
  provider: ChatViewProvider;
  installer: AgentInstaller;
  doctor: AgentDoctor;
  inspector: Inspector;
}

export function createTandem(context: vscode.ExtensionContext): Tandem {
  configureLocalization();
  const log = new OutputLog();
  // First, so that every process started from here on is ended with this host, however it ends.
  const supervisor = new ProcessSupervisor({ script: path.join(context.extensionPath, 'dist', 'supervisor.js'), warn: (text) => log.warn(text) });
  context.subscriptions.push(installSupervisor(supervisor));
  const host = new EditorHost(context, log);
  const provider = new ChatViewProvider(context.extensionUri, host);
  const settings = new AgentSettings(context.extensionPath);
  // Created with the log, before any agent starts: the recording misses nothing.
  const inspector = new Inspector(context, log, {
    active: () => {
      const c = host.manager.active;
      return c ? { agentName: c.agentName, sessionId: c.meta.sessionId, title: c.meta.title } : undefined;
    },
    commandLine: (name) => {
      const agent = settings.find(name);
      return agent ? describeEntry(agent.entry) : undefined;
    },
    wrote: (file) => host.review.userWrote(file),
    converseWith: async (name) => {
      await host.init();
      await host.manager.selectAgent(name);
      provider.reveal();
    },
  });
  context.subscriptions.push(provider, host, inspector, log);
  // Entries still running a @zed-industries/* adapter: said once per entry, with an Update.
  const moved = new MovedAdapterNotice(context.globalState);
  context.subscriptions.push(moved);
  moved.check();
  const doctor = new AgentDoctor({ context, log, conformance: (name) => inspector.conformance(name), launchConfig: (name) => host.launchConfig(name) });
  return { log, host, provider, installer: new AgentInstaller(context, log), doctor, inspector };
}
