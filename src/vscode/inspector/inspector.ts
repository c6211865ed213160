import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ConformanceMonitor, type ConformanceSummary } from '../../inspector/conformance';
import { renderProblemReport } from '../../inspector/problemReport';
import { createRedactor } from '../../inspector/redaction';
import { exportTranscript, type ExportScope } from '../../inspector/transcriptExport';
import { ACP_PROTOCOL_VERSION, SDK_VERSION } from '../../inspector/versions';
import { parseRecord } from '../../inspector/wireRecord';
import { WireStore } from '../../inspector/wireStore';
import { errorMessage } from '../../util/errors';
import { InspectorPanel } from './inspectorPanel';
import { replayTranscript } from './inspectorReplay';
import type { OutputLog } from '../core/outputLog';

/** What the inspector needs of the session host (kept small: the host's core may change shape). */
export interface InspectorHost {
  /** The conversation the chat panel shows. */
  active(): { agentName: string; sessionId?: string; title: string } | undefined;
  /** The command line an agent is started with (for reports; env values never). */
  commandLine(agentName: string): string | undefined;
  /** Starts a conversation with `agentName` (or switches an untouched one to it), in the chat panel. */
  converseWith(agentName: string): Promise<void>;
  /** Tandem wrote this file for the user (an export): the review must never count it as the agent's. */
  wrote(file: vscode.Uri): void;
}

interface ScopeItem extends vscode.QuickPickItem {
  scope: ExportScope;
}

/**
 * The protocol inspector's editor side: the recording (teed off the output log from the start, so
 * nothing is missed before the inspector first opens), the conformance monitor, and the commands
 * `Open Protocol Inspector`, `Export Transcript…`, `Report a Problem…`, `Replay Transcript…`.
 */
export class Inspector implements vscode.Disposable {
  readonly store = new WireStore();
  readonly monitor = new ConformanceMonitor(this.store);
  private readonly panel: InspectorPanel;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: OutputLog,
    private readonly host: InspectorHost,
  ) {
    log.tee(this.store);
    this.panel = new InspectorPanel(context.extensionUri, this.store, this.monitor, () => this.exportTranscript());
  }

  /** Opens the inspector on the shown conversation's session (all messages stay a filter away). */
  open(): void {
    this.panel.show(this.host.active()?.sessionId);
  }

  /** The conformance of an agent's traffic in this window so far (for Check Agent). */
  conformance(agentName?: string): ConformanceSummary {
    this.monitor.drain();
    return this.monitor.summary(agentName);
  }

  async exportTranscript(): Promise<void> {
    const scope = await this.pickScope(l10n.t('Export Transcript'));
    if (!scope) return;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    // The workspace's (first) folder, where the user works and looks for it; the home folder without
    // one. Tandem's own exports are not the agent's changes, and the review must not count them (issue 29).
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const target = await vscode.window.showSaveDialog({
      title: l10n.t('Export Transcript'),
      defaultUri: vscode.Uri.joinPath(folder, `tandem-${slug(scope.agent ?? 'all')}-${stamp}.jsonl`),
      filters: { [l10n.t('Tandem transcripts')]: ['jsonl'] },
    });
    if (!target) return;
    try {
      const { text, header } = await this.transcript(scope);
      // Told before it is written: a strip refreshed in between must not show it as a change of a turn.
      this.host.wrote(target);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      const open = l10n.t('Open');
      const choice = await vscode.window.showInformationMessage(
        l10n.t('Tandem: transcript saved ({0} messages, {1} values masked).', header.messages, header.redactions),
        open,
      );
      if (choice === open) await vscode.window.showTextDocument(target);
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('Tandem: the transcript could not be saved: {0}', errorMessage(err)));
    }
  }

  /** A folder with report.md and transcript.jsonl for an issue; the report opens in an editor. */
  async reportProblem(): Promise<void> {
    const active = this.host.active();
    const scope: ExportScope | undefined = active?.sessionId
      ? { agent: active.agentName, session: active.sessionId }
      : await this.pickScope(l10n.t('Report a Problem'));
    if (!scope) return;
    try {
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const dir = vscode.Uri.joinPath(this.context.globalStorageUri, 'problem-reports', `tandem-report-${stamp}`);
      await vscode.workspace.fs.createDirectory(dir);
      const { text, header } = await this.transcript(scope);
      const redactor = createRedactor(this.log.secretValues());
      const agent = scope.agent;
      const info = (header.agent?.info ?? undefined) as { name?: string; version?: string; title?: string } | undefined;
      const markdown = renderProblemReport({
        tandemVersion: this.version(),
        editor: `${vscode.env.appName} ${vscode.version}`,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        protocolVersion: ACP_PROTOCOL_VERSION,
        sdkVersion: SDK_VERSION,
        agent: agent ? { name: agent, commandLine: mapDefined(this.host.commandLine(agent), (c) => redactor.text(c)), info } : undefined,
        conversation: active && active.sessionId === scope.session ? { title: active.title, session: active.sessionId } : undefined,
        transcriptFile: 'transcript.jsonl',
        messages: header.messages,
        dropped: header.dropped,
        redactions: header.redactions,
        conformance: this.conformance(agent),
        errors: this.recentErrors(scope).map((e) => redactor.text(e)),
        stderr: agent ? this.store.stderrTail(agent, 60).map((l) => redactor.text(l)) : [],
        createdAt: new Date().toISOString(),
      });
      const report = vscode.Uri.joinPath(dir, 'report.md');
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'transcript.jsonl'), new TextEncoder().encode(text));
      await vscode.workspace.fs.writeFile(report, new TextEncoder().encode(markdown));
      await vscode.window.showTextDocument(report, { preview: false });
      const copy = l10n.t('Copy Folder Path');
      const reveal = l10n.t('Reveal in File Explorer');
      const choice = await vscode.window.showInformationMessage(
        l10n.t('Tandem: the report and its transcript are in {0}. Fill in what happened, then attach both files to your issue.', dir.fsPath),
        copy,
        reveal,
      );
      if (choice === copy) await vscode.env.clipboard.writeText(dir.fsPath);
      if (choice === reveal) await vscode.commands.executeCommand('revealFileInOS', report);
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('Tandem: the problem report could not be written: {0}', errorMessage(err)));
    }
  }

  replayTranscript(): Promise<void> {
    return replayTranscript(this.context.extensionPath, (name) => this.host.converseWith(name));
  }

  dispose(): void {
    this.panel.dispose();
    this.monitor.dispose();
  }

  private version(): string {
    return String(this.context.extension.packageJSON.version ?? '0.0.0');
  }

  private transcript(scope: ExportScope) {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Tandem: exporting the transcript…') }, () =>
      exportTranscript(this.store, this.monitor, {
        scope,
        tandemVersion: this.version(),
        protocolVersion: ACP_PROTOCOL_VERSION,
        sdkVersion: SDK_VERSION,
        editor: `${vscode.env.appName} ${vscode.version}`,
        platform: `${os.platform()} ${os.arch()}`,
        secrets: this.log.secretValues(),
      }),
    );
  }

  /** The last errors agents answered with in this scope, as `method: code message`. */
  private recentErrors(scope: ExportScope): string[] {
    const out: string[] = [];
    for (const r of this.store.since()) {
      if (
        r.kind !== 'error' ||
        r.dir !== 'in' ||
        (scope.agent !== undefined && r.agent !== scope.agent) ||
        (scope.session !== undefined && r.session !== scope.session)
      )
        continue;
      const error = parseRecord(r)?.error as { code?: unknown; message?: unknown } | undefined;
      out.push(`${r.method ?? '?'}: ${String(error?.code)} ${String(error?.message)}`);
    }
    return out.slice(-10);
  }

  /** This conversation, one agent, or everything: asked only when there is a choice. */
  private async pickScope(title: string): Promise<ExportScope | undefined> {
    if (this.store.size === 0 && this.store.dropped === 0) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: nothing recorded yet. Start a conversation with an agent first.'));
      return undefined;
    }
    const items: ScopeItem[] = [];
    const active = this.host.active();
    const agents = new Set<string>();
    let activeSeen = false;
    for (const r of this.store.since()) {
      if (r.agent) agents.add(r.agent);
      if (active?.sessionId && r.session === active.sessionId) activeSeen = true;
    }
    if (active?.sessionId && activeSeen)
      items.push({
        label: l10n.t('This conversation'),
        description: `${active.agentName} — ${active.title}`,
        scope: { agent: active.agentName, session: active.sessionId },
      });
    for (const agent of agents)
      items.push({ label: l10n.t('Everything with {0}', agent), description: l10n.t('every conversation and connection in this window'), scope: { agent } });
    if (agents.size > 1) items.push({ label: l10n.t('Everything recorded'), description: l10n.t('all agents'), scope: {} });
    if (items.length === 1) return items[0].scope;
    return (await vscode.window.showQuickPick(items, { title, placeHolder: l10n.t('What should the transcript hold?') }))?.scope;
  }
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'agent'
  );
}

function mapDefined<T, U>(value: T | undefined, f: (v: T) => U): U | undefined {
  return value === undefined ? undefined : f(value);
}
