import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { PathPolicy } from '../client/pathPolicy';
import type { HostMessage, SessionSnapshot, SessionStatus, WebviewMessage } from '../protocol/messages';
import { assertNever } from '../protocol/guards';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { ConversationManager } from '../session/conversationManager';
import { ConversationStore } from '../session/conversationStore';
import { RuleStore } from '../permissions/ruleStore';
import { describeRuleProblem } from '../permissions/ruleFile';
import { isConversationCommand, runConversationCommand } from '../session/panelCommands';
import { Disposable, Emitter } from '../util/disposable';
import { AGENT_PRESETS, AgentSettings, onTemporaryAgentsChanged } from './agentSettings';
import { HostCommands } from './hostCommands';
import { RememberedOptions } from './rememberedOptions';
import { DiffEditor } from './diffEditor';
import { EditorReview } from './editorReview';
import { runSignInTerminal } from './signInTerminal';
import { McpSettings } from './mcpSettings';
import { MentionSource } from './mentionSource';
import { EditorFileAccess } from './editorFileAccess';
import { FollowAlong } from './followAlong';
import { LinkOpener } from './linkOpener';
import type { OutputLog } from './outputLog';
import { askOutsideWorkspace } from './outsideAccess';
import { TerminalMirror } from './terminalMirror';

/** What the host asks of the chat view (kept as an interface so the host does not own the view). */
export interface ChatSurface {
  /** True when the panel is visible and has focus, so a permission prompt needs no notification. */
  isVisible(): boolean;
  reveal(): void;
}

/**
 * The editor side of Tandem: settings, workspace trust, storage and editor-aware file access around
 * the ConversationManager (the vscode-free core), and the routing of panel commands to it.
 */
export class SessionHost extends Disposable {
  private readonly settings: AgentSettings;
  private readonly follow: FollowAlong;
  private readonly diffs = this.register(new DiffEditor());
  private readonly mirror = this.register(new TerminalMirror());
  private readonly policy: PathPolicy;
  private readonly links: LinkOpener;
  private readonly changes = this.register(new Emitter<HostMessage>());
  readonly onMessage = this.changes.event;
  readonly manager: ConversationManager;
  private readonly rules: RuleStore;
  private readonly review: EditorReview;
  private readonly mcp: McpSettings;
  private surface: ChatSurface | undefined;
  private readonly mentions: MentionSource;
  /** What the command palette and menus run. */
  readonly commands: HostCommands;

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
      askOutside: (file, op) => askOutsideWorkspace(file, op),
    });
    this.links = new LinkOpener(this.policy, this.follow, log, () => this.cwd());
    // Per workspace (storageUri); a window without a folder keeps its conversations in global storage.
    const storage = context.storageUri ?? vscode.Uri.joinPath(context.globalStorageUri, 'no-folder');
    const store = this.register(new ConversationStore({ dir: storage.fsPath, warn: (text) => this.reportStorage(text) }));
    // Rules live in the extension's own storage, never in settings a repository could ship.
    this.rules = this.register(
      new RuleStore({
        globalFile: vscode.Uri.joinPath(context.globalStorageUri, 'permission-rules.json').fsPath,
        workspaceFile: context.storageUri ? vscode.Uri.joinPath(context.storageUri, 'permission-rules.json').fsPath : undefined,
        onProblem: (problem) => this.reportStorage(l10n.t('Permission rules: {0}', describeRuleProblem(problem))),
      }),
    );
    this.mcp = this.register(new McpSettings());
    this.register(this.mcp.onDidChange(() => this.updateSecrets()));
    this.mentions = this.register(new MentionSource((specs) => this.manager.chips(specs)));
    this.review = this.register(new EditorReview(context.storageUri?.fsPath, log, () => this.manager.active?.review.refreshSoon()));
    const remembered = new RememberedOptions(context.globalState);
    this.manager = this.register(
      new ConversationManager({
        agents: { launchConfig: (name) => this.launchConfig(name), defaultName: () => this.settings.defaultAgentName() },
        store,
        cwd: this.cwd(),
        log,
        clientInfo: { name: 'tandem', version: String(context.extension.packageJSON.version ?? '0.0.0') },
        files: new EditorFileAccess(),
        policy: this.policy,
        blocked: (): SessionStatus | undefined => (vscode.workspace.isTrusted ? undefined : { kind: 'untrusted' }),
        follow: (file, line) => this.follow.reveal(file, line),
        onPermissionRequested: (conversation, info) => this.commands.notifyPermission(conversation, info.requestId, info.title, info.options),
        rules: { store: this.rules, workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, trusted: () => vscode.workspace.isTrusted },
        review: this.review,
        runSignInTerminal,
        mcpServers: () => this.mcp.servers(),
        mcpProblems: () => this.mcp.problems(),
        contextSources: this.mentions.sources,
        openExternal: (url) => void vscode.env.openExternal(vscode.Uri.parse(url, true)),
        rememberedOptions: (agent) => remembered.get(agent),
        rememberOption: (agent, configId, value) => remembered.set(agent, configId, value),
        reviewEdits: () => (vscode.workspace.getConfiguration('tandem').get<string>('reviewEdits') === 'before' ? 'before' : 'after'),
      }),
    );
    this.commands = new HostCommands({
      manager: this.manager,
      settings: this.settings,
      rules: this.rules,
      mentions: this.mentions,
      surface: () => this.surface,
      post: (message) => this.changes.fire(message),
      init: () => this.init(),
      cwd: () => this.cwd(),
      followEnabled: () => this.followEnabled(),
    });
    this.register(this.manager.onMessage((m) => this.changes.fire(m)));
    this.updateSecrets();
    this.register(vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.manager.unblocked()));
    this.register(onTemporaryAgentsChanged(() => this.fireAgents()));
  }

  attach(surface: ChatSurface): void {
    this.surface = surface;
  }

  /** Loads the stored conversations and rules (once); the snapshot is complete afterwards. */
  init(): Promise<void> {
    this.initialized ??= Promise.all([this.rules.load(), this.manager.init()]).then(() => undefined);
    return this.initialized;
  }

  private initialized: Promise<void> | undefined;

  snapshot(): SessionSnapshot {
    const active = this.manager.active;
    const conversation = active?.snapshot() ?? { conversationId: '', title: '', status: { kind: 'no_agent' as const }, entries: [], terminals: {} };
    return {
      ...conversation,
      protocolVersion: PROTOCOL_VERSION,
      agents: this.settings.choices(),
      selectedAgent: active?.agentName || this.settings.defaultAgentName(),
      presets: this.settings.presets(),
      followAgent: this.followEnabled(),
      tabs: this.manager.tabs(),
    };
  }

  /** The panel came into view or went out of it (badges and notifications depend on it). */
  visibilityChanged(visible: boolean): void {
    this.manager.setVisible(visible);
  }

  async handle(message: WebviewMessage): Promise<void> {
    if (isConversationCommand(message)) return runConversationCommand(this.manager, message, (text) => this.log.warn(text));
    const active = this.manager.active;
    switch (message.type) {
      case 'ready':
        // The view provider answers a mismatch with the reload notice instead of a snapshot.
        if (message.protocolVersion !== PROTOCOL_VERSION)
          this.log.warn(`The panel speaks protocol ${String(message.protocolVersion)}, the extension ${PROTOCOL_VERSION}; the panel asks to be reloaded.`);
        return;
      case 'reloadView':
      case 'olderEntriesWanted':
        // The view provider reloads the panel or sends what it kept of the snapshot; nothing for the session to do.
        return;
      case 'showHistory':
        await this.commands.showHistory();
        return;
      case 'selectAgent':
        if (this.settings.find(message.name)) await this.manager.selectAgent(message.name);
        return;
      case 'addPreset':
        await this.addPreset(message.presetId);
        return;
      case 'openLocation':
        await this.links.openLocation(message.path, message.line);
        return;
      case 'openDiff': {
        const diff = active?.thread.findDiff(message.entryId, message.index);
        if (diff) await this.diffs.open(diff);
        return;
      }
      case 'fetchDiffLines': {
        const thread = this.manager.get(message.conversationId)?.thread;
        this.changes.fire(
          thread
            ? thread.diffLines(message)
            : { type: 'diffLines', requestId: message.requestId, lines: [], oldLine: 0, newLine: 0, error: l10n.t('Its conversation is closed.') },
        );
        return;
      }
      case 'openTerminal':
        if (active) this.mirror.show(active.thread, message.terminalId);
        return;
      case 'openLink':
        await this.links.openLink(message.href);
        return;
      case 'showLog':
        this.log.showProtocol();
        return;
      case 'reviewOpenDiff': {
        const conversation = this.manager.get(message.conversationId);
        if (!conversation) return;
        const before = await conversation.review.baselineText(message.path).catch(() => undefined);
        await this.diffs.openAgainstFile(message.path, before, l10n.t('changes by {0}', conversation.agentName));
        return;
      }
      case 'manageRules':
        await this.commands.manageRules(message.ruleId);
        return;
      case 'checkAgent':
        await vscode.commands.executeCommand('tandem.checkAgent', active?.agentName);
        return;
      case 'mentionQuery': {
        const items = await this.mentions.query(message.query.slice(0, 200)).catch((err: unknown) => {
          this.log.warn(`The @ picker's suggestions failed: ${String(err)}`);
          return [];
        });
        this.changes.fire({ type: 'mentionResults', requestId: message.requestId, items });
        return;
      }
      case 'dropUris': {
        const conversation = this.manager.get(message.conversationId);
        const chips = await this.mentions.chipsForUris(message.uris);
        if (conversation && chips.length > 0) this.changes.fire({ type: 'mentionsAdded', conversationId: conversation.id, chips });
        return;
      }
      case 'openMention':
        // A chip's line comes with it when its URI has no `#L…` range of its own.
        await this.mentions.open(message.uri, (uri) => this.links.openLink(message.line !== undefined && !uri.includes('#') ? `${uri}#L${message.line}` : uri));
        return;
      case 'focusChanged':
        // Tracked by the view itself (ChatSurface.isVisible).
        return;
      default:
        assertNever(message);
    }
  }

  override dispose(): void {
    this.manager.flushSync();
    super.dispose();
  }

  // --- internals --------------------------------------------------------------------------------

  private cwd(): string {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  }

  private launchConfig(name: string): AgentLaunchConfig | undefined {
    const agent = this.settings.find(name);
    return agent ? { ...agent, cwd: this.cwd() } : undefined;
  }

  /** Every configured agent's env values are masked in the logs (several agents may run at once). */
  private updateSecrets(): void {
    this.log.setSecrets([...this.settings.all().flatMap((a) => Object.values(a.env)), ...this.mcp.secrets()]);
  }

  private async addPreset(presetId: string): Promise<void> {
    const name = AGENT_PRESETS.find((p) => p.id === presetId)?.name;
    if (!name) return;
    // The settings listener must not start another agent while the preset is being written.
    this.addingPreset = true;
    try {
      await this.settings.addPreset(presetId);
    } finally {
      this.addingPreset = false;
    }
    this.fireAgents();
    await this.manager.selectAgent(name);
  }

  private addingPreset = false;

  private followEnabled(): boolean {
    return vscode.workspace.getConfiguration('tandem').get<boolean>('followAgent') !== false;
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (e.affectsConfiguration('tandem.followAgent')) this.changes.fire({ type: 'followChanged', followAgent: this.followEnabled() });
    if (e.affectsConfiguration('tandem.agents') || e.affectsConfiguration('tandem.defaultAgent')) {
      this.updateSecrets();
      this.fireAgents();
      if (!this.addingPreset) this.manager.agentsChanged();
    }
  }

  private fireAgents(): void {
    const selectedAgent = this.manager.active?.agentName || this.settings.defaultAgentName();
    this.changes.fire({ type: 'agentsChanged', agents: this.settings.choices(), selectedAgent, presets: this.settings.presets() });
  }

  private reportStorage(text: string): void {
    this.log.warn(text);
    void vscode.window.showWarningMessage(l10n.t('Tandem: {0}', text));
  }
}
