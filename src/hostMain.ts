import type * as vscode from 'vscode';
import { ChatViewProvider } from './views/chatViewProvider';
import { AgentDoctor } from './vscode/agentDoctor';
import { AgentInstaller } from './vscode/agentInstaller';
import { AgentSettings } from './vscode/agentSettings';
import { Inspector } from './vscode/inspector';
import { configureLocalization } from './vscode/localization';
import { OutputLog } from './vscode/outputLog';
import { SessionHost } from './vscode/sessionHost';

/** Everything behind the chat view; loaded on first use so activation stays cheap. */
export interface Tandem {
  log: OutputLog;
  host: SessionHost;
  provider: ChatViewProvider;
  installer: AgentInstaller;
  doctor: AgentDoctor;
  inspector: Inspector;
}

export function createTandem(context: vscode.ExtensionContext): Tandem {
  configureLocalization();
  const log = new OutputLog();
  const host = new SessionHost(context, log);
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
      return agent ? [agent.command, ...agent.args].join(' ') : undefined;
    },
    converseWith: async (name) => {
      await host.init();
      await host.manager.selectAgent(name);
      provider.reveal();
    },
  });
  context.subscriptions.push(provider, host, inspector, log);
  const doctor = new AgentDoctor({ context, log, conformance: (name) => inspector.conformance(name) });
  return { log, host, provider, installer: new AgentInstaller(context, log), doctor, inspector };
}
