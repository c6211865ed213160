import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { lazyRedactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { ConversationChange, HostMessage, MentionChip, MentionSpec, MentionView, SessionStatus, TabView } from '../protocol/messages';
import { specView, type ContextSources } from '../context/mentionSpecs';
import { NO_CONTEXT_SOURCES, type PromptContext } from './promptPreparer';
import { Disposable, Emitter } from '../util/disposable';
import type { AgentRuntime } from './agentRuntime';
import { Conversation } from './conversation';
import type { PermissionRules } from './permissionDesk';
import type { ReviewHost } from './conversationReview';
import type { RunSignInTerminal } from './signIn';
import type { McpDropped, McpServerSpec } from './mcpServers';
import type { ConversationIndex } from './conversationFormat';
import { newMeta, type ConversationMeta } from './conversationMeta';
import { ConversationKeeper } from './conversationKeeper';
import type { ConversationStore } from './conversationStore';
import { RuntimePool } from './runtimePool';

/** The agents Tandem can start (settings), as the core needs them. */
export interface AgentCatalog {
  /** The launch configuration of a configured agent, or undefined. */
  launchConfig(name: string): AgentLaunchConfig | undefined;
  /** The agent new conversations use. */
  defaultName(): string | undefined;
}

export interface ConversationManagerDeps {
  agents: AgentCatalog;
  /** Where conversations are kept; undefined: in memory only (no folder to store them for). */
  store: ConversationStore | undefined;
  cwd: string;
  log: ProtocolLog;
  clientInfo: { name: string; version: string };
  files: FileAccess;
  policy: PathPolicy;
  /** The status every conversation shows instead of starting an agent (untrusted workspace). */
  blocked(): SessionStatus | undefined;
  /** Follow-along for the shown conversation. */
  follow(path: string, line: number | undefined): void;
  onPermissionRequested?(conversation: Conversation, info: { requestId: string; title: string; options: Array<{ optionId: string; name: string; kind?: string }> }): void;
  cancelGraceMs?: number;
  /** Saved permission rules (every conversation judges requests by them). */
  rules?: PermissionRules;
  /** Checkpoints and the editor for reviewing what agents changed. */
  review?: ReviewHost;
  /** `tandem.reviewEdits`. */
  reviewEdits?(): 'after' | 'before';
  /** Terminal sign-in (advertised to agents only when given). */
  runSignInTerminal?: RunSignInTerminal;
  openExternal?(url: string): void;
  /** Remembered session settings per agent (`tandem.rememberSessionOptions`). */
  rememberedOptions?(agentName: string): Record<string, string | boolean>;
  rememberOption?(agentName: string, configId: string, value: string | boolean): void;
  /** MCP servers for the agents (`tandem.mcpServers`, `.vscode/mcp.json`), and the unusable ones. */
  mcpServers?(): McpServerSpec[];
  mcpProblems?(): McpDropped[];
  /** Diagnostics, terminal output and the git diff for `@` mentions (none: those are sent empty). */
  contextSources?: ContextSources;
}

/**
 * Owns the conversations open as tabs, the agent runtimes they share (one process per agent), and
 * the store that keeps them across restarts. Changes of the shown conversation go to the panel
 * tagged with its id; background conversations only update their tab (status, attention badge).
 */
export class ConversationManager extends Disposable {
  private readonly messages = this.register(new Emitter<HostMessage>());
  readonly onMessage = this.messages.event;
  private readonly open = new Map<string, Conversation>();
  private order: string[] = [];
  private activeId = '';
  /** Conversations of this workspace that are not open, as the index knows them. */
  private closed: ConversationMeta[] = [];
  private readonly runtimes: RuntimePool;
  private readonly keeper: ConversationKeeper;
  private initialized: Promise<void> | undefined;
  /** Whether the user can see the panel (badges are for conversations out of sight). */
  private visible = false;
  private readonly waiting = new Map<string, boolean>();

  constructor(private readonly deps: ConversationManagerDeps) {
    super();
    const { log, clientInfo, files, policy } = deps;
    this.keeper = new ConversationKeeper(deps.store);
    // Advertised only because each works: boolean options, notices and compaction render in the
    // panel; terminal sign-in needs a terminal to run in.
    const extraCapabilities = {
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      auth: { terminal: deps.runSignInTerminal !== undefined },
    };
    this.runtimes = this.register(new RuntimePool({ launchConfig: (name) => deps.agents.launchConfig(name), log, clientInfo, files, policy, extraCapabilities }));
    this.promptContext = {
      // Mentioned files are read like the agent's own reads: the editor's text, within the workspace
      // unless the user allows more.
      reader: {
        readText: async (path) => files.readText(await policy.check(path, 'read')),
        fileSize: async (path) => (policy.isInWorkspace(path) ? (await stat(path).catch(() => undefined))?.size : undefined),
      },
      sources: deps.contextSources ?? NO_CONTEXT_SOURCES,
      workspaceRoots: () => policy.roots(),
      pathStyle: process.platform === 'win32' ? 'windows' : 'posix',
    };
  }

  private readonly promptContext: PromptContext;

  /** Chips for the composer's specs: how each is shown (paths relative to the workspace). */
  chips(specs: readonly MentionSpec[]): MentionChip[] {
    const display = { pathStyle: this.promptContext.pathStyle, workspaceRoots: this.promptContext.workspaceRoots() };
    return specs.map((spec) => ({ spec, view: specView(spec, display) as MentionView }));
  }

  /** Loads the index and reopens the tabs (the shown one with its transcript); once. */
  init(): Promise<void> {
    this.initialized ??= this.load();
    return this.initialized;
  }

  get active(): Conversation | undefined {
    return this.open.get(this.activeId);
  }

  get(id: string | undefined): Conversation | undefined {
    return id === undefined ? this.active : this.open.get(id);
  }

  tabs(): TabView[] {
    return this.order.map((id) => this.open.get(id)!.tab());
  }

  /** All conversations of the workspace (open and closed), newest first. */
  all(): Array<{ meta: ConversationMeta; open: boolean }> {
    const metas = [...[...this.open.values()].map((c) => ({ meta: c.meta, open: true })), ...this.closed.map((meta) => ({ meta, open: false }))];
    return metas.sort((a, b) => b.meta.updatedAt - a.meta.updatedAt);
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.active?.clearAttention();
  }

  /** A new conversation with `agentName` (default: the default agent), shown and connected. */
  newConversation(agentName = this.deps.agents.defaultName() ?? ''): Conversation {
    const conversation = this.adopt(newMeta(randomUUID(), agentName, this.deps.cwd));
    this.show(conversation.id);
    return conversation;
  }

  /** Shows an open conversation (a tab switch); connects it when it is idle. */
  show(id: string): void {
    const conversation = this.open.get(id);
    if (!conversation) return;
    this.activeId = id;
    conversation.clearAttention();
    this.messages.fire({ type: 'conversationShown', conversation: conversation.snapshot() });
    this.fireTabs();
    this.saveIndex();
    if (conversation.status.kind === 'idle' && conversation.agentName !== '') void conversation.link.connect();
  }

  /** Opens a conversation from the history (restoring its transcript) and shows it. */
  async reopen(id: string): Promise<void> {
    if (this.open.has(id)) return this.show(id);
    const meta = this.closed.find((m) => m.id === id);
    if (!meta) return;
    this.closed = this.closed.filter((m) => m !== meta);
    const conversation = this.adopt(meta);
    await this.keeper.restore(conversation);
    this.show(id);
  }

  /** Opens a session the agent knows but Tandem never saw (from `session/list`). */
  openAgentSession(agentName: string, sessionId: string, title: string | undefined, updatedAt: number | undefined): void {
    const known = this.all().find((c) => c.meta.agentName === agentName && c.meta.sessionId === sessionId);
    if (known) {
      void this.reopen(known.meta.id);
      return;
    }
    const meta = newMeta(randomUUID(), agentName, this.deps.cwd);
    meta.sessionId = sessionId;
    if (updatedAt !== undefined) meta.updatedAt = updatedAt;
    const conversation = this.adopt(meta);
    if (title) conversation.setTitle(title, 'agent');
    this.show(conversation.id);
  }

  /** Closes a tab: the agent's session is closed (when it supports that); the conversation stays in history. */
  async close(id: string): Promise<void> {
    const conversation = this.open.get(id);
    if (!conversation) return;
    const index = this.order.indexOf(id);
    this.order.splice(index, 1);
    this.open.delete(id);
    this.closed.push(conversation.meta);
    this.keeper.transcriptChanged(conversation, true);
    await conversation.link.close();
    conversation.dispose();
    this.stopUnusedRuntimes();
    if (this.activeId === id) {
      const next = this.order[Math.min(index, this.order.length - 1)];
      if (next) this.show(next);
      else this.newConversation(conversation.agentName || undefined);
    } else {
      this.fireTabs();
      this.saveIndex();
    }
  }

  rename(id: string, title: string): void {
    const conversation = this.open.get(id);
    if (conversation) return conversation.setTitle(title, 'user');
    const meta = this.closed.find((m) => m.id === id);
    if (!meta || title.trim() === '') return;
    meta.title = title.trim().slice(0, 80);
    meta.titleSource = 'user';
    this.saveIndex();
  }

  /** Deletes a conversation and its transcript (closing its tab first). */
  async delete(id: string): Promise<ConversationMeta | undefined> {
    if (this.open.has(id)) await this.close(id);
    const meta = this.closed.find((m) => m.id === id);
    this.closed = this.closed.filter((m) => m.id !== id);
    this.saveIndex();
    await this.keeper.delete(id);
    return meta;
  }

  /**
   * The user picked an agent: a conversation that has not started talking switches to it; one with
   * a history keeps its agent and a new conversation opens with the picked one.
   */
  async selectAgent(name: string): Promise<void> {
    const active = this.active;
    const untouched = active && active.thread.reducer.size === 0 && active.queue.size === 0 && active.meta.sessionId === undefined;
    if (!active || !untouched) {
      this.newConversation(name);
      return;
    }
    if (active.agentName === name && active.status.kind !== 'stopped') return;
    await active.link.close();
    active.setAgent(name);
    this.fireTabs();
    this.saveIndex();
    this.stopUnusedRuntimes();
    void active.link.connect();
  }

  /** Stops the conversation's agent process (shared with its other conversations) and connects again. */
  async restart(id?: string): Promise<void> {
    const conversation = this.get(id);
    if (!conversation) return;
    await this.runtimes.stop(conversation.agentName, conversation.link.agentRuntime ?? this.runtimes.peek(conversation.agentName));
    conversation.queue.resume();
    await conversation.link.connect();
  }

  /**
   * The configured agents changed: a conversation without a usable agent that has not started
   * talking takes the default one.
   */
  agentsChanged(): void {
    const fallback = this.deps.agents.defaultName();
    if (!fallback) return;
    for (const conversation of this.open.values()) {
      const usable = conversation.agentName !== '' && this.deps.agents.launchConfig(conversation.agentName) !== undefined;
      if (usable || conversation.thread.reducer.size > 0) continue;
      conversation.setAgent(fallback);
      if (conversation.id === this.activeId) void conversation.link.connect();
    }
    this.fireTabs();
    this.saveIndex();
  }

  /** The workspace became trusted: conversations may start their agents. */
  unblocked(): void {
    for (const conversation of this.open.values()) {
      if (conversation.status.kind === 'untrusted' || conversation.status.kind === 'no_agent') conversation.setAgent(conversation.agentName || (this.deps.agents.defaultName() ?? ''));
    }
    const active = this.active;
    if (active?.status.kind === 'idle') void active.link.connect();
    this.fireTabs();
  }

  /** A live runtime for `agentName`, created (not started) when none is running. */
  runtimeFor(agentName: string): AgentRuntime | undefined {
    return this.runtimes.get(agentName);
  }

  /** Files changed on disk: the shown conversation's changed-files strip catches up. */
  filesChanged(): void {
    this.active?.review.refreshSoon();
  }

  /** Saves everything pending now (extension shutdown). */
  flushSync(): void {
    this.keeper.flushSync();
  }

  override dispose(): void {
    this.flushSync();
    for (const conversation of this.open.values()) conversation.dispose();
    this.open.clear();
    super.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private async load(): Promise<void> {
    const index = await this.keeper.loadIndex();
    const byId = new Map(index.conversations.map((m) => [m.id, m]));
    const openIds = index.openIds.filter((id) => byId.has(id));
    // Without open tabs (first run, or all closed), the most recent conversation comes back.
    if (openIds.length === 0 && index.conversations.length > 0) {
      openIds.push([...index.conversations].sort((a, b) => b.updatedAt - a.updatedAt)[0].id);
    }
    this.closed = index.conversations.filter((m) => !openIds.includes(m.id));
    for (const id of openIds) this.adopt(byId.get(id)!);
    await Promise.all([...this.open.values()].map((c) => this.keeper.restore(c)));
    const activeId = index.activeId !== undefined && this.open.has(index.activeId) ? index.activeId : this.order[this.order.length - 1];
    if (activeId === undefined) this.newConversation();
    else this.show(activeId);
  }

  /** Makes a conversation for `meta`, wired to the panel and the store, and opens its tab. */
  private adopt(meta: ConversationMeta): Conversation {
    const conversation: Conversation = new Conversation(meta, {
      // Warnings quote agent input, which may echo env values: masked with the agent's current ones.
      log: lazyRedactingLog(this.deps.log, () => Object.values(this.deps.agents.launchConfig(meta.agentName)?.env ?? {})),
      isInWorkspace: (p) => this.deps.policy.isInWorkspace(p),
      runtimeFor: (name) => this.runtimeFor(name),
      follow: (c, path, line) => {
        if (c.id === this.activeId) this.deps.follow(path, line);
      },
      onPermissionRequested: (c, info) => this.deps.onPermissionRequested?.(c, info),
      cancelGraceMs: this.deps.cancelGraceMs,
      rules: this.deps.rules,
      review: this.deps.review,
      reviewEdits: () => this.deps.reviewEdits?.() ?? 'after',
      runSignInTerminal: this.deps.runSignInTerminal,
      openExternal: this.deps.openExternal,
      rememberedOptions: this.deps.rememberedOptions,
      rememberOption: this.deps.rememberOption,
      mcpServers: this.deps.mcpServers,
      mcpProblems: this.deps.mcpProblems,
      promptContext: this.promptContext,
      agentLaunch: (name) => this.deps.agents.launchConfig(name),
      restartAgent: (name) => this.runtimes.stop(name),
      blocked: () => (meta.agentName === '' ? (this.deps.blocked() ?? { kind: 'no_agent' }) : this.deps.blocked()),
    });
    conversation.onChange((changes) => this.forward(conversation, changes));
    conversation.onMetaChange(() => this.saveIndex());
    conversation.onAttention(() => {
      if (conversation.id === this.activeId && this.visible) conversation.clearAttention();
      else this.fireTabs();
    });
    this.open.set(meta.id, conversation);
    this.order.push(meta.id);
    return conversation;
  }

  private forward(conversation: Conversation, changes: ConversationChange[]): void {
    const shown = conversation.id === this.activeId;
    let tabs = false;
    for (const change of changes) {
      if (shown) this.messages.fire({ ...change, conversationId: conversation.id } as HostMessage);
      if (change.type === 'statusChanged' || change.type === 'conversationChanged') tabs = true;
    }
    // A permission prompt appearing or being answered changes the tab's badge.
    const waiting = conversation.thread.reducer.hasPendingPermission;
    if (waiting !== (this.waiting.get(conversation.id) ?? false)) {
      this.waiting.set(conversation.id, waiting);
      tabs = true;
    }
    if (tabs) this.fireTabs();
    this.keeper.transcriptChanged(conversation);
  }

  private saveIndex(): void {
    this.keeper.indexChanged(() => this.index());
  }

  private index(): ConversationIndex {
    const conversations = [...[...this.open.values()].map((c) => c.meta), ...this.closed];
    const index: ConversationIndex = { version: 1, conversations, openIds: [...this.order] };
    if (this.activeId) index.activeId = this.activeId;
    return index;
  }

  private fireTabs(): void {
    this.messages.fire({ type: 'tabsChanged', tabs: this.tabs(), activeId: this.activeId });
  }

  private stopUnusedRuntimes(): void {
    this.runtimes.retain(new Set([...this.open.values()].map((c) => c.agentName)));
  }
}
