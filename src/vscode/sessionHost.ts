import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PathPolicy } from '../client/pathPolicy';
import type { HostMessage, SessionSnapshot, SessionStatus, WebviewMessage } from '../protocol/messages';
import { assertNever, PROTOCOL_VERSION } from '../protocol/messages';
import { AgentSession } from '../session/agentSession';
import { Disposable, Emitter } from '../util/disposable';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { AGENT_PRESETS, AgentSettings, type ResolvedAgent } from './agentSettings';
import { DiffEditor } from './diffEditor';
import { EditorFileAccess } from './editorFileAccess';
import { FollowAlong } from './followAlong';
import type { OutputLog } from './outputLog';
import { askOutsideWorkspace } from './outsideAccess';
import { TerminalMirror } from './terminalMirror';
import { errorMessage } from '../util/errors';

/** What the host asks of the chat view (kept as an interface so the host does not own the view). */
export interface ChatSurface {
  /** True when the panel is visible and has focus, so a permission prompt needs no notification. */
  isVisible(): boolean;
  reveal(): void;
}

/**
 * The editor side of a Tandem session: picks the agent from settings, respects workspace trust,
 * creates the AgentSession with editor-aware file access and follow-along, and routes webview commands.
 */
export class SessionHost extends Disposable {
  private readonly settings: AgentSettings;
  private readonly follow: FollowAlong;
  private readonly diffs = this.register(new DiffEditor());
  private readonly mirror = this.register(new TerminalMirror());
  private readonly policy: PathPolicy;
  private readonly changes = this.register(new Emitter<HostMessage>());
  readonly onMessage = this.changes.event;
  private session: AgentSession | undefined;
  private selectedAgent: string | undefined;
  private surface: ChatSurface | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: OutputLog,
  ) {
    super();
    this.settings = new AgentSettings(context.extensionPath);
    this.follow = this.register(new FollowAlong(() => this.followEnabled()));
    this.policy = new PathPolicy({
      roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      allowOutside: () => vscode.workspace.getConfiguration('tandem').get<boolean>('allowFileAccessOutsideWorkspace') === true,
      askOutside: (path, op) => askOutsideWorkspace(path, op),
    });
    this.selectedAgent = this.settings.defaultAgentName();
    this.register(vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.ensureStarted()));
  }

  attach(surface: ChatSurface): void {
    this.surface = surface;
  }

  snapshot(): SessionSnapshot {
    const parts = this.session?.snapshotParts();
    return {
      protocolVersion: PROTOCOL_VERSION,
      status: parts?.status ?? this.idleStatus(),
      entries: parts?.entries ?? [],
      terminals: parts?.terminals ?? {},
      agents: this.settings.choices(),
      selectedAgent: this.selectedAgent,
      presets: this.settings.presets(),
      followAgent: this.followEnabled(),
      commands: parts?.commands ?? [],
      modes: parts?.modes,
    };
  }

  /** Starts the selected agent once the panel is shown, unless trust or configuration prevent it. */
  ensureStarted(): void {
    if (this.session || !vscode.workspace.isTrusted) {
      if (!vscode.workspace.isTrusted) this.changes.fire({ type: 'statusChanged', status: { kind: 'untrusted' } });
      return;
    }
    const agent = this.settings.find(this.selectedAgent);
    if (!agent) {
      this.changes.fire({ type: 'statusChanged', status: { kind: 'no_agent' } });
      return;
    }
    this.log.info(`Starting ${agent.name}: ${[agent.command, ...agent.args].join(' ')}`);
    const session = new AgentSession({
      agent: this.launchConfig(agent),
      log: this.log,
      clientInfo: { name: 'tandem', version: String(this.context.extension.packageJSON.version ?? '0.0.0') },
      files: new EditorFileAccess(),
      policy: this.policy,
      follow: (path, line) => this.follow.reveal(path, line),
      onPermissionRequested: (info) => this.notifyPermission(info.requestId, info.title, info.options),
    });
    this.session = session;
    session.onMessage((m) => this.changes.fire(m));
    void session.start();
  }

  async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== PROTOCOL_VERSION) this.log.warn('The panel and the extension disagree on the protocol version; reload the window.');
        this.ensureStarted();
        return;
      case 'prompt':
        if (!this.session) this.ensureStarted();
        // Sending after a crash restarts the agent first, so the message is not lost.
        if (this.session?.status.kind === 'stopped') await this.restart();
        await this.session?.prompt(message.text);
        return;
      case 'cancel':
        this.session?.cancel();
        return;
      case 'respondPermission':
        this.session?.respondPermission(message.requestId, message.optionId);
        return;
      case 'newSession':
        if (this.session) await this.session.newSession();
        else this.ensureStarted();
        return;
      case 'restart':
        await this.restart();
        return;
      case 'selectAgent':
        await this.selectAgent(message.name);
        return;
      case 'addPreset': {
        // Select first: writing the settings fires the configuration listener, which starts the
        // selected agent. Selecting afterwards started the first configured agent and then
        // replaced it, racing with whatever the user picked meanwhile.
        const name = AGENT_PRESETS.find((p) => p.id === message.presetId)?.name;
        if (!name) return;
        this.disposeSession();
        this.changes.fire({ type: 'entriesCleared' });
        this.selectedAgent = name;
        await this.settings.addPreset(message.presetId);
        if (this.selectedAgent === name && this.session?.agentName !== name) await this.selectAgent(name);
        return;
      }
      case 'openLocation':
        await this.openLocation(message.path, message.line);
        return;
      case 'openDiff': {
        const diff = this.session?.view.findDiff(message.entryId, message.index);
        if (diff) await this.diffs.open(diff);
        return;
      }
      case 'openTerminal':
        if (this.session) this.mirror.show(this.session, message.terminalId);
        return;
      case 'openLink':
        await this.openLink(message.href);
        return;
      case 'showLog':
        this.log.showProtocol();
        return;
      case 'signIn':
        await this.session?.signIn();
        return;
      case 'setMode':
        await this.session?.setMode(message.modeId);
        return;
      case 'focusChanged':
        // Tracked by the view itself (ChatSurface.isVisible).
        return;
      default:
        assertNever(message);
    }
  }

  stop(): void {
    this.session?.cancel();
  }

  async restart(): Promise<void> {
    if (!this.session) return this.ensureStarted();
    // Settings may have changed since the start (the usual fix for "command not found").
    const agent = this.settings.find(this.session.agentName);
    if (agent) this.session.updateAgent(this.launchConfig(agent));
    await this.session.restart();
  }

  private launchConfig(agent: ResolvedAgent): AgentLaunchConfig {
    this.log.setSecrets(Object.values(agent.env));
    return { ...agent, cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir() };
  }

  async newSession(): Promise<void> {
    await this.handle({ type: 'newSession' });
  }

  /** Switches agents: the old process is stopped and the thread starts fresh. */
  async selectAgent(name: string): Promise<void> {
    if (!this.settings.find(name)) return;
    this.selectedAgent = name;
    this.disposeSession();
    this.changes.fire({ type: 'entriesCleared' });
    this.fireAgents();
    this.ensureStarted();
  }

  async pickAgent(): Promise<void> {
    const picked = await vscode.window.showQuickPick(
      this.settings.choices().map((c) => ({ label: c.name, description: c.commandLine, picked: c.name === this.selectedAgent })),
      { placeHolder: 'Select the ACP agent to chat with' },
    );
    if (picked) await this.selectAgent(picked.label);
  }

  async toggleFollow(): Promise<void> {
    await vscode.workspace.getConfiguration('tandem').update('followAgent', !this.followEnabled(), vscode.ConfigurationTarget.Global);
  }

  private followEnabled(): boolean {
    return vscode.workspace.getConfiguration('tandem').get<boolean>('followAgent') !== false;
  }

  private idleStatus(): SessionStatus {
    if (!vscode.workspace.isTrusted) return { kind: 'untrusted' };
    const name = this.selectedAgent;
    return name && this.settings.find(name) ? { kind: 'starting', agentName: name } : { kind: 'no_agent' };
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (e.affectsConfiguration('tandem.followAgent')) this.changes.fire({ type: 'followChanged', followAgent: this.followEnabled() });
    if (e.affectsConfiguration('tandem.agents') || e.affectsConfiguration('tandem.defaultAgent')) {
      if (!this.selectedAgent || !this.settings.find(this.selectedAgent)) this.selectedAgent = this.settings.defaultAgentName();
      this.fireAgents();
      if (!this.session) this.ensureStarted();
    }
  }

  private fireAgents(): void {
    this.changes.fire({ type: 'agentsChanged', agents: this.settings.choices(), selectedAgent: this.selectedAgent, presets: this.settings.presets() });
  }

  private async openLocation(path: string, line: number | undefined): Promise<void> {
    if (!this.policy.isInWorkspace(path)) {
      const choice = await vscode.window.showWarningMessage(`${path} is outside the workspace. Open it anyway?`, { modal: true }, 'Open');
      if (choice !== 'Open') return;
    }
    try {
      await this.follow.open(path, line, true);
    } catch (err) {
      void vscode.window.showErrorMessage(`Tandem could not open ${path}: ${errorMessage(err)}`);
    }
  }

  private async openLink(href: string): Promise<void> {
    // Agents link files by relative or absolute path ("src/app.ts#L10"): resolve those against the
    // session's folder rather than treating them as URLs.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#')) {
      const [pathPart, fragment = ''] = href.split('#', 2);
      const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
      return this.openLocation(path.resolve(base, safeDecode(pathPart)), lineFromFragment(fragment));
    }
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (uri.scheme === 'file') return this.openLocation(uri.fsPath, lineFromFragment(uri.fragment));
    if (uri.scheme === 'http' || uri.scheme === 'https' || uri.scheme === 'mailto') {
      await vscode.env.openExternal(uri);
      return;
    }
    this.log.warn(`Link with scheme "${uri.scheme}" not opened: ${href}`);
  }

  private notifyPermission(requestId: string, title: string, options: { optionId: string; name: string }[]): void {
    if (this.surface?.isVisible()) return;
    const labels = options.slice(0, 3).map((o) => o.name);
    void vscode.window.showInformationMessage(`${this.selectedAgent ?? 'The agent'} asks permission: ${title}`, ...labels, 'Show Panel').then((choice) => {
      if (choice === 'Show Panel') this.surface?.reveal();
      const option = options.find((o) => o.name === choice);
      if (option) this.session?.respondPermission(requestId, option.optionId);
    });
  }

  private disposeSession(): void {
    this.session?.dispose();
    this.session = undefined;
  }

  override dispose(): void {
    this.disposeSession();
    super.dispose();
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function lineFromFragment(fragment: string): number | undefined {
  const match = /^L?(\d+)/.exec(fragment);
  return match ? Number(match[1]) : undefined;
}
