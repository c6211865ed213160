import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ActivityStatus } from './activityStatus';
import type { AgentLaunchConfig } from '../../acp/agentProcess';
import { PathPolicy } from '../../client/pathPolicy';
import type { HostMessage, PanelSnapshot, ConversationStatus, WebviewMessage, WorktreeOffer } from '../../protocol/messages';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { ConversationManager } from '../../conversation/conversationManager';
import { ConversationStore } from '../../store/conversationStore';
import { ConversationSearch } from '../../store/conversationSearch';
import type { FolderStorage } from '../../store/folderStorage';
import { RuleStore } from '../../permissions/ruleStore';
import { describeRuleProblem } from '../../permissions/ruleFile';
import { isCoreCommand, runCoreCommand } from '../../conversation/panelCommands';
import { Disposable, Emitter, toDisposable, type IDisposable } from '../../util/disposable';
import { launchConfigFor, entrySecrets } from '../agents/agentLaunch';
import { affectsProxy, editorProxySecrets, editorProxySettings } from '../settings/editorProxy';
import { AgentSecrets } from '../agents/agentSecrets';
import { askAgentSecret } from '../agents/secretPrompt';
import { AGENT_PRESETS, AgentSettings, onTemporaryAgentsChanged } from '../agents/agentSettings';
import type { ChatSurface } from './chatSurface';
import { HostCommands } from './hostCommands';
import { isEditorCommand, runEditorCommand } from './editorCommands';
import { RememberedOptions } from '../settings/rememberedOptions';
import { DiffEditor } from '../editor/diffEditor';
import { SubagentDocuments } from '../editor/subagentDocuments';
import { EditorReview } from '../review/editorReview';
import { EditorWorktrees } from '../worktree/editorWorktrees';
import { ReviewComments } from '../review/reviewComments';
import { confirmSignInCommand, runSignInTerminal } from '../terminals/signInTerminal';
import { McpSettings } from '../agents/mcpSettings';
import { MentionSource } from '../mentions/mentionSource';
import { EditorFileAccess } from '../editor/editorFileAccess';
import { FollowAlong } from '../editor/followAlong';
import { STDIO_BRIDGE_FILE } from '../../mcp/stdioDeclaration';
import { editorToolsHost } from '../editor/editorQueries';
import { openWorkspaceStorage } from '../core/workspaceStorage';
import { LinkOpener } from '../editor/linkOpener';
import { MarkdownExporter } from '../editor/markdownExport';
import { openExternalLink } from '../editor/externalLinks';
import type { OutputLog } from '../core/outputLog';
import { askOutsideWorkspace } from '../editor/outsideAccess';
import { TerminalMirror } from '../terminals/terminalMirror';
import { affects, setting } from '../settings/settings';

/**
 * The editor side of Tandem: settings, workspace trust, storage and editor-aware file access around
 * the ConversationManager (the vscode-free core), and the routing of panel commands to it.
 */
export class EditorHost extends Disposable {
  private readonly settings: AgentSettings;
  private readonly secrets: AgentSecrets;
  private readonly follow: FollowAlong;
  private readonly diffs = this.register(new DiffEditor());
  /** A subagent's history in its own read-only tab. */
  readonly subagents = this.register(new SubagentDocuments({ conversation: (id) => this.manager.get(id), secrets: () => this.log.secretValues() }));
  private readonly mirror = this.register(new TerminalMirror());
  private readonly policy: PathPolicy;
  private readonly links: LinkOpener;
  /** What the editor itself tells the panel (settings, agents, the worktree offer, commands' posts). */
  private readonly changes = this.register(new Emitter<HostMessage>());
  readonly manager: ConversationManager;
  private readonly rules: RuleStore;
  readonly review: EditorReview;
  private readonly mcp: McpSettings;
  private surface: ChatSurface | undefined;
  private readonly mentions: MentionSource;
  private readonly storage: FolderStorage;
  private readonly search: ConversationSearch;
  /** What the command palette and menus run. */
  readonly commands: HostCommands;
  /** Conversation worktrees (undefined without a folder), and whether new conversations may have one. */
  private readonly worktrees: EditorWorktrees | undefined;
  private offer: WorktreeOffer = { available: false, byDefault: false };
  /** Review notes as comments in VS Code's editors. */
  readonly comments: ReviewComments;
  /** Export as Markdown and Copy as Markdown. */
  readonly markdown: MarkdownExporter;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: OutputLog,
  ) {
    super();
    this.settings = new AgentSettings(context.extensionPath, (text) => this.log.warn(text));
    this.secrets = this.register(new AgentSecrets(context.secrets));
    this.register(this.secrets.onDidChange(() => this.updateSecrets()));
    this.follow = this.register(new FollowAlong(() => this.followEnabled()));
    this.policy = new PathPolicy({
      roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      allowOutside: () => setting('allowFileAccessOutsideWorkspace') === true,
      askOutside: (file, op) => askOutsideWorkspace(file, op),
    });
    this.links = new LinkOpener(
      (file) => this.policy.isInWorkspace(file) || this.worktrees?.owner(file) !== undefined,
      this.follow,
      log,
      () => this.cwd(),
    );
    const { hasFolder, ...storage } = openWorkspaceStorage(context, vscode.workspace, (text) => this.reportStorage(text));
    this.storage = storage;
    const store = this.register(new ConversationStore({ dir: this.storage.dir, warn: (text) => this.reportStorage(text) }));
    // Built on the first search, from the store; kept in step by its saves, never by the stream.
    this.search = this.register(new ConversationSearch({ load: (id) => store.loadTranscript(id) }));
    this.register(store.onTranscriptSaved((id) => this.search.saved(id)));
    this.register(store.onTranscriptRemoved((id) => this.search.removed(id)));
    // Rules live in the extension's own storage, never in settings a repository could ship.
    this.rules = this.register(
      new RuleStore({
        globalFile: vscode.Uri.joinPath(context.globalStorageUri, 'permission-rules.json').fsPath,
        workspaceFile: hasFolder ? path.join(this.storage.dir, 'permission-rules.json') : undefined,
        onProblem: (problem) => this.reportStorage(l10n.t('Permission rules: {0}', describeRuleProblem(problem))),
      }),
    );
    this.mcp = this.register(new McpSettings());
    this.register(this.mcp.onDidChange(() => this.updateSecrets()));
    this.mentions = this.register(new MentionSource((specs) => this.manager.chips(specs)));
    this.review = this.register(new EditorReview(hasFolder ? this.storage : undefined, log, () => this.manager.active?.refreshReview()));
    this.worktrees = hasFolder ? this.register(new EditorWorktrees(context.globalStorageUri.fsPath, this.review, log)) : undefined;
    const remembered = new RememberedOptions(context.globalState);
    this.manager = this.register(
      new ConversationManager({
        agents: { launchConfig: (name) => this.launchConfig(name), defaultName: () => this.settings.defaultAgentName() },
        store,
        cwd: this.cwd(),
        log,
        clientInfo: { name: 'tandem', version: String(context.extension.packageJSON.version ?? '0.0.0') },
        editor: {
          files: new EditorFileAccess(),
          policy: this.policy,
          blocked: (): ConversationStatus | undefined => (vscode.workspace.isTrusted ? undefined : { kind: 'untrusted' }),
          follow: (file, line) => this.follow.reveal(file, line),
          permissionRequested: (conversationId, notice) => {
            const conversation = this.manager.get(conversationId);
            if (conversation) this.commands.notifyPermission(conversation, notice.requestId, notice.title, notice.options);
          },
          rules: { store: this.rules, workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, trusted: () => vscode.workspace.isTrusted },
          review: this.review,
          runSignInTerminal,
          confirmSignInCommand,
          askSecret: (agentName, variable) => askAgentSecret(this.secrets, this.settings.find(agentName), variable),
          mcpServers: () => this.mcp.servers(),
          mcpProblems: () => this.mcp.problems(),
          contextSources: this.mentions.sources,
          openExternal: (url) => void openExternalLink(vscode.Uri.parse(url, true), log),
          rememberedOptions: (agent) => remembered.get(agent),
          rememberOption: (agent, configId, value) => remembered.set(agent, configId, value),
          reviewEdits: () => (setting('reviewEdits') === 'before' ? 'before' : 'after'),
          worktrees: this.worktrees,
          editorTools: editorToolsHost(this.follow, path.join(context.extensionPath, STDIO_BRIDGE_FILE)),
        },
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
      forgetSecrets: (agentName) => this.secrets.forget(agentName),
      worktrees: this.worktrees,
      search: this.search,
    });
    this.comments = this.register(new ReviewComments(this.manager));
    this.markdown = new MarkdownExporter({
      manager: this.manager,
      init: () => this.init(),
      secrets: () => this.log.secretValues(),
      wrote: (file) => this.review.userWrote(file),
    });
    // Files of every conversation's worktree are badged as such in the editor.
    this.register(this.manager.onTabsChanged(() => this.worktrees?.setBound(this.manager.all().map((c) => c.meta))));
    this.register(
      new ActivityStatus({
        tabs: () => this.manager.tabs(),
        onTabs: (listener) => this.manager.onTabsChanged(() => listener()),
        show: (id) => {
          this.manager.show(id);
          this.surface?.reveal();
        },
      }),
    );
    this.updateSecrets();
    this.register(vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)));
    this.register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.manager.unblocked();
        void this.refreshOffer();
      }),
    );
    this.register(onTemporaryAgentsChanged(() => this.fireAgents()));
  }

  attach(surface: ChatSurface): void {
    this.surface = surface;
  }

  /** Loads the stored conversations and rules (once); the snapshot is complete afterwards. */
  init(): Promise<void> {
    // After the folder's storage took over the URI's; stored sign-in values first, so starting an agent needs no wait.
    this.initialized ??= Promise.all([this.storage.ready, this.secrets.load(this.settings.all().map((a) => a.name))])
      .then(() => Promise.all([this.rules.load(), this.manager.init(), this.refreshOffer()]))
      .then(() => undefined);
    return this.initialized;
  }

  private initialized: Promise<void> | undefined;

  /**
   * The panel's wire: the manager's messages straight from it (no re-fire in between) and the
   * editor's own. Nothing in the editor listens here; it has the manager's domain events.
   */
  onMessage(listener: (message: HostMessage) => void): IDisposable {
    const subscriptions = [this.manager.onMessage(listener), this.changes.event(listener)];
    return toDisposable(() => subscriptions.forEach((s) => s.dispose()));
  }

  snapshot(): PanelSnapshot {
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
      worktrees: this.offer,
    };
  }

  /** The panel came into view or went out of it (badges and notifications depend on it). */
  visibilityChanged(visible: boolean): void {
    this.manager.setVisible(visible);
  }

  /** A panel command for the core or the editor (the panel connection serves its own). */
  async handle(message: WebviewMessage, reply: (message: HostMessage) => void): Promise<void> {
    if (isCoreCommand(message)) return runCoreCommand(this.manager, message, { warn: (text) => this.log.warn(text), reply });
    if (isEditorCommand(message)) {
      const { manager, settings, commands, links, diffs, mirror, mentions, log, markdown, subagents } = this;
      return runEditorCommand(message, {
        manager,
        settings,
        commands,
        links,
        diffs,
        mirror,
        mentions,
        log,
        markdown,
        subagents,
        addPreset: (id) => this.addPreset(id),
        reply,
      });
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

  /** What starting `name` runs (or reaches), with the values the user stored for where it points; Check Agent uses it too. */
  launchConfig(name: string): AgentLaunchConfig | undefined {
    const agent = this.settings.find(name);
    if (!agent) return undefined;
    return launchConfigFor(agent, {
      extensionPath: this.context.extensionPath,
      storageDir: this.context.globalStorageUri.fsPath,
      cwd: this.cwd(),
      ...this.secrets.forAgent(agent),
      proxy: editorProxySettings(),
    });
  }

  /** Every configured agent's secrets (entrySecrets), stored values and MCP secrets are masked in the logs (several agents may run at once). */
  private updateSecrets(): void {
    this.log.setSecrets([...this.settings.all().flatMap(entrySecrets), ...this.secrets.values(), ...this.mcp.secrets(), ...editorProxySecrets()]);
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
    return setting('followAgent') !== false;
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (affects(e, 'followAgent')) this.changes.fire({ type: 'followChanged', followAgent: this.followEnabled() });
    if (affects(e, 'newConversationsInWorktree')) void this.refreshOffer();
    if (affectsProxy(e)) this.updateSecrets();
    if (affects(e, 'agents', 'defaultAgent')) {
      this.updateSecrets();
      this.fireAgents();
      if (!this.addingPreset) this.manager.agentsChanged();
    }
  }

  private fireAgents(): void {
    const selectedAgent = this.manager.active?.agentName || this.settings.defaultAgentName();
    this.changes.fire({ type: 'agentsChanged', agents: this.settings.choices(), selectedAgent, presets: this.settings.presets() });
  }

  /** Whether new conversations can have a worktree (git, a repository, trust): told to the panel when it changes. */
  private async refreshOffer(): Promise<void> {
    const offer = (await this.worktrees?.offer()) ?? {
      available: false,
      reason: l10n.t('Open a folder first: worktrees are made from its git repository.'),
      byDefault: false,
    };
    if (JSON.stringify(offer) === JSON.stringify(this.offer)) return;
    this.offer = offer;
    this.changes.fire({ type: 'worktreeOfferChanged', worktrees: offer });
  }

  private reportStorage(text: string): void {
    this.log.warn(text);
    void vscode.window.showWarningMessage(l10n.t('Tandem: {0}', text));
  }
}
