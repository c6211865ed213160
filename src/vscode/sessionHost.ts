import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { PathPolicy } from '../client/pathPolicy';
import type { HostMessage, SessionSnapshot, SessionStatus, WebviewMessage } from '../protocol/messages';
import { assertNever, PROTOCOL_VERSION } from '../protocol/messages';
import type { Conversation } from '../session/conversation';
import { ConversationManager } from '../session/conversationManager';
import { ConversationStore } from '../session/conversationStore';
import { RuleStore } from '../permissions/ruleStore';
import type { RuleFileProblem } from '../permissions/ruleFile';
import { isConversationCommand, runConversationCommand } from '../session/panelCommands';
import { Disposable, Emitter } from '../util/disposable';
import { AGENT_PRESETS, AgentSettings } from './agentSettings';
import { DiffEditor } from './diffEditor';
import { EditorReview } from './editorReview';
import { runSignInTerminal } from './signInTerminal';
import { McpSettings } from './mcpSettings';
import { MentionSource } from './mentionSource';
import { EditorFileAccess } from './editorFileAccess';
import { FollowAlong } from './followAlong';
import { showHistory, type AgentSessionItem } from './historyPicker';
import { LinkOpener } from './linkOpener';
import { manageRules } from './rulesPicker';
import type { OutputLog } from './outputLog';
import { askOutsideWorkspace } from './outsideAccess';
import { TerminalMirror } from './terminalMirror';

/** globalState key of the session settings remembered per agent (`tandem.rememberSessionOptions`). */
const REMEMBERED_KEY = 'tandem.rememberedSessionOptions';

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
        onProblem: (problem) => this.reportStorage(`Permission rules: ${describeRuleProblem(problem)}`),
      }),
    );
    this.mcp = this.register(new McpSettings());
    this.register(this.mcp.onDidChange(() => this.updateSecrets()));
    this.mentions = this.register(new MentionSource((specs) => this.manager.chips(specs)));
    this.review = this.register(new EditorReview(context.storageUri?.fsPath, log, () => this.manager.filesChanged()));
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
        onPermissionRequested: (conversation, info) => this.notifyPermission(conversation, info.requestId, info.title, info.options),
        rules: { store: this.rules, workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, trusted: () => vscode.workspace.isTrusted },
        review: this.review,
        runSignInTerminal,
        mcpServers: () => this.mcp.servers(),
        mcpProblems: () => this.mcp.problems(),
        contextSources: this.mentions.sources,
        openExternal: (url) => void vscode.env.openExternal(vscode.Uri.parse(url, true)),
        rememberedOptions: (agent) => (this.rememberOptions() ? (context.globalState.get<Record<string, Record<string, string | boolean>>>(REMEMBERED_KEY)?.[agent] ?? {}) : {}),
        rememberOption: (agent, configId, value) => {
          if (!this.rememberOptions()) return;
          const all = { ...(context.globalState.get<Record<string, Record<string, string | boolean>>>(REMEMBERED_KEY) ?? {}) };
          all[agent] = { ...all[agent], [configId]: value };
          void context.globalState.update(REMEMBERED_KEY, all);
        },
        reviewEdits: () => (vscode.workspace.getConfiguration('tandem').get<string>('reviewEdits') === 'before' ? 'before' : 'after'),
      }),
    );
    this.register(this.manager.onMessage((m) => this.changes.fire(m)));
    this.updateSecrets();
    this.register(vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.manager.unblocked()));
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
        if (message.protocolVersion !== PROTOCOL_VERSION) this.log.warn('The panel and the extension disagree on the protocol version; reload the window.');
        return;
      case 'showHistory':
        await this.showHistory();
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
        await this.diffs.openAgainstFile(message.path, before, `changes by ${conversation.agentName}`);
        return;
      }
      case 'manageRules':
        await this.manageRules(message.ruleId);
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

  // --- commands ---------------------------------------------------------------------------------

  stop(): void {
    this.manager.active?.turns.cancel();
  }

  async restart(): Promise<void> {
    await this.manager.restart();
  }

  async newConversation(): Promise<void> {
    await this.init();
    this.manager.newConversation(this.manager.active?.agentName || undefined);
    this.surface?.reveal();
  }

  async closeConversation(): Promise<void> {
    const active = this.manager.active;
    if (active) await this.manager.close(active.id);
  }

  /** Ctrl+PageDown-like switching from the keyboard: the next (or previous) tab, wrapping. */
  cycleConversation(step: 1 | -1): void {
    const tabs = this.manager.tabs();
    const index = tabs.findIndex((t) => t.id === this.manager.active?.id);
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (next) this.manager.show(next.id);
  }

  async showHistory(): Promise<void> {
    await this.init();
    await showHistory(this.manager, () => this.listAgentSessions());
    this.surface?.reveal();
  }

  /** `Tandem: Sign Out`: the shown conversation's agent forgets its credentials (when it supports that). */
  async signOut(): Promise<void> {
    await this.init();
    const conversation = this.manager.active;
    const runtime = conversation?.link.agentRuntime;
    if (!conversation || !runtime?.alive) {
      void vscode.window.showInformationMessage('Tandem: the agent is not running; start a conversation with it first.');
      return;
    }
    if (!runtime.initializeResult?.agentCapabilities?.auth?.logout) {
      void vscode.window.showInformationMessage(`Tandem: ${conversation.agentName} does not support signing out from the editor; use its own command line.`);
      return;
    }
    try {
      await runtime.connection().logout();
      conversation.emit(conversation.thread.reducer.addNotice('info', `Signed out of ${conversation.agentName}. It asks you to sign in again when it needs to.`));
    } catch (err) {
      void vscode.window.showErrorMessage(`Tandem: signing out of ${conversation.agentName} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async manageRules(ruleId?: string): Promise<void> {
    await this.init();
    await manageRules(this.rules, this.manager.active?.id, ruleId);
  }

  /** `Tandem: Add Selection to Chat` / `Add File to Chat`: chips in the shown conversation's composer. */
  async addToChat(uris: readonly vscode.Uri[] | undefined): Promise<void> {
    await this.init();
    let chips;
    if (uris && uris.length > 0) chips = await this.mentions.chipsForUris(uris.map((u) => u.toString()));
    else {
      const selection = this.mentions.selectionSpec();
      const file = vscode.window.activeTextEditor?.document.uri;
      if (selection) chips = this.manager.chips([selection]);
      else if (file) chips = await this.mentions.chipsForUris([file.toString()]);
    }
    if (!chips || chips.length === 0) {
      void vscode.window.showInformationMessage('Tandem: select text in an editor, or pick files in the Explorer, to add them to the chat.');
      return;
    }
    let conversation = this.manager.active;
    if (!conversation) conversation = this.manager.newConversation(undefined);
    this.changes.fire({ type: 'mentionsAdded', conversationId: conversation.id, chips });
    this.surface?.reveal();
  }

  async pickAgent(): Promise<void> {
    const current = this.manager.active?.agentName;
    const picked = await vscode.window.showQuickPick(
      this.settings.choices().map((c) => ({ label: c.name, description: c.commandLine, picked: c.name === current })),
      { placeHolder: 'Select the ACP agent to chat with' },
    );
    if (picked) await this.manager.selectAgent(picked.label);
  }

  async toggleFollow(): Promise<void> {
    await vscode.workspace.getConfiguration('tandem').update('followAgent', !this.followEnabled(), vscode.ConfigurationTarget.Global);
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

  /** Sessions the running agents know for this folder (`session/list`), for the history. */
  private async listAgentSessions(): Promise<AgentSessionItem[]> {
    const names = new Set(this.manager.all().map((c) => c.meta.agentName).filter((n) => n !== ''));
    const lists = await Promise.all(
      [...names].map(async (agentName) => {
        const runtime = this.manager.runtimeFor(agentName);
        if (!runtime) return [];
        await runtime.start();
        if (!runtime.sessionSupport.list) return [];
        const sessions = await runtime.listSessions(this.cwd());
        return sessions.map((s) => ({ agentName, sessionId: s.sessionId, title: s.title ?? undefined, updatedAt: s.updatedAt ? Date.parse(s.updatedAt) || undefined : undefined }));
      }),
    );
    return lists.flat();
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

  private rememberOptions(): boolean {
    return vscode.workspace.getConfiguration('tandem').get<boolean>('rememberSessionOptions') === true;
  }

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
    void vscode.window.showWarningMessage(`Tandem: ${text}`);
  }

  private notifyPermission(conversation: Conversation, requestId: string, title: string, options: Array<{ optionId: string; name: string; kind?: string }>): void {
    if (this.surface?.isVisible() && conversation === this.manager.active) return;
    const where = this.manager.tabs().length > 1 ? ` in "${conversation.meta.title}"` : '';
    // Only one-time answers here: a standing "always" is chosen deliberately, in the panel.
    const labels = options.filter((o) => o.kind === 'allow_once' || o.kind === 'reject_once').slice(0, 2).map((o) => o.name);
    void vscode.window.showInformationMessage(`${conversation.agentName} asks permission${where}: ${title}`, ...labels, 'Show Panel').then((choice) => {
      if (choice === 'Show Panel') {
        this.manager.show(conversation.id);
        this.surface?.reveal();
      }
      const option = options.find((o) => o.name === choice);
      if (option) conversation.link.respondPermission(requestId, option.optionId);
    });
  }
}


function describeRuleProblem(problem: RuleFileProblem): string {
  if (problem.kind === 'droppedRule') return `a rule in ${problem.file} was ignored: ${problem.message}`;
  const where = problem.movedTo ? ` It was set aside as ${problem.movedTo}; the rules start empty.` : '';
  return `${problem.file} could not be read (${problem.message}).${where}`;
}
