import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentLaunchConfig } from '../../acp/agentProcess';
import type { ProtocolLog } from '../../acp/protocolLog';
import type { ConformanceSummary } from '../../inspector/conformance';
import { diagnoseAgent } from '../../agents/agentDiagnosis';
import type { DoctorReport } from '../../agents/agentDiagnosis';
import { renderDoctorReport } from '../../agents/doctorReport';
import { diagnoseRemote } from '../../agents/remoteDiagnosis';
import { editorToolsOff } from '../../agents/editorToolsCheck';
import { setting } from '../settings/settings';
import { McpSettings } from './mcpSettings';
import { errorMessage } from '../../util/errors';
import { AgentSettings, choiceDescription } from './agentSettings';
import { movedAdapterOf, offerUpdate } from './movedAdapterNotice';

/** What the doctor needs from the extension. */
export interface AgentDoctorDeps {
  context: vscode.ExtensionContext;
  /** The output channel: the check's protocol traffic and stderr go there like any agent's. */
  log: ProtocolLog;
  /** The conformance of the agent's conversations in this window (the protocol inspector's count). */
  conformance?(agentName: string): ConformanceSummary;
  /** What starting the agent runs, with what the user stored for it (the editor host's launch). */
  launchConfig?(agentName: string): AgentLaunchConfig | undefined;
}

/**
 * `Tandem: Check Agent`: starts an agent of `tandem.agents` the way a conversation would, runs
 * `initialize` with a timeout, and opens the findings as a markdown document (command and where it
 * was found, runtimes, protocol version, capabilities, sign-in methods, the `tandem` MCP server's
 * transport and whether the agent listed its tools, stderr, what to do next).
 *
 * Other parts of Tandem call {@link checkAgent} directly, e.g. to offer it when an agent fails to
 * start; `vscode.commands.executeCommand('tandem.checkAgent', name)` does the same.
 */
export async function checkAgent(deps: AgentDoctorDeps, agentName?: string): Promise<DoctorReport | undefined> {
  const settings = new AgentSettings(deps.context.extensionPath);
  const name = agentName ?? (await pickAgent(settings));
  if (!name) return undefined;
  const agent = settings.find(name);
  const launch = agent && deps.launchConfig?.(name);
  if (!agent) {
    void vscode.window.showErrorMessage(l10n.t('There is no agent named "{0}" in tandem.agents.', name));
    return undefined;
  }
  // Agents never start inside an untrusted workspace (they may run its code); the check then runs
  // in the home folder, which is what starting the command in a terminal would do.
  // Counted before the check: its own handshake is reported on its own.
  const live = deps.conformance?.(name);
  const folder = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: l10n.t('Checking {0}…', name), cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      const cwd = folder ?? os.homedir();
      const clientInfo = { name: 'tandem', version: String(deps.context.extension.packageJSON.version ?? '0.0.0') };
      // An agent on another machine: connect and initialize over its transport.
      if (launch?.remote) return diagnoseRemote({ ...launch, remote: launch.remote, cwd }, { clientInfo, signal: controller.signal, log: deps.log });
      const target =
        launch ?? (agent.entry.kind === 'command' ? { name, command: agent.entry.command, args: agent.entry.args, env: agent.entry.env } : undefined);
      if (!target) throw new Error(l10n.t('{0} is not started by a command; it cannot be checked here.', name));
      return diagnoseAgent(
        { name: agent.name, command: target.command, args: target.args, env: target.env, cwd, secrets: launch?.secrets, proxy: launch?.proxy },
        { clientInfo, signal: controller.signal, log: deps.log, editorTools: { off: currentEditorToolsOff() } },
      );
    },
  );
  if (report.conformance && live) report.conformance.live = live;
  // Read from the entry as written (each scope's own part), where Update will rewrite it.
  const moved = movedAdapterOf(name);
  if (moved) report.moved = moved;
  await showReport(renderDoctorReport(report));
  // Every check says it (the one-time notice may have been dismissed): the report and the Update offer.
  if (moved) void offerUpdate(name, moved);
  return report;
}

/** Why a conversation started now would get no `tandem` MCP server (undefined: it would get one). */
function currentEditorToolsOff(): ReturnType<typeof editorToolsOff> {
  // A reading of its own (the host's copy is not lent out): read once, then let go of its watchers.
  const mcp = new McpSettings();
  try {
    return editorToolsOff({ enabled: setting('editorTools') !== false, trusted: vscode.workspace.isTrusted, servers: mcp.servers() });
  } finally {
    mcp.dispose();
  }
}

/** The command's handler: an agent name may be passed as the argument. */
export class AgentDoctor {
  constructor(private readonly deps: AgentDoctorDeps) {}

  async run(agentName?: unknown): Promise<void> {
    try {
      await checkAgent(this.deps, typeof agentName === 'string' && agentName ? agentName : undefined);
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('The agent check failed: {0}', errorMessage(err)));
    }
  }
}

async function pickAgent(settings: AgentSettings): Promise<string | undefined> {
  const items = settings.choices().map((c) => ({ label: c.name, description: choiceDescription(c) }));
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Check Agent'),
    placeHolder: l10n.t('Which agent? It is started once to see whether it answers.'),
  });
  return picked?.label;
}

/** An untitled markdown document (easy to copy into an issue), shown rendered when possible. */
async function showReport(markdown: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
  await vscode.window.showTextDocument(doc, { preview: false });
  try {
    await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
  } catch {
    // The built-in markdown extension is disabled: the source is readable as it is.
  }
}
