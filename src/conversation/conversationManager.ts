import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import type { ConversationChange, HostMessage, MentionChip, MentionSpec, TabView } from '../protocol/messages';
import { chipsFor, type PromptContext } from './promptPreparer';
import { Disposable, Emitter } from '../util/disposable';
import type { AgentRuntime } from '../runtime/agentRuntime';
import { Conversation } from './conversation';
import { indexOf, tabsToReopen, type ConversationIndex } from '../store/conversationFormat';
import { newMeta, renameMeta, type ConversationMeta } from '../store/conversationMeta';
import { ConversationKeeper } from './conversationKeeper';
import { ConversationEvents } from './conversationEvents';
import { RuntimePool } from '../runtime/runtimePool';
import { TabStrip } from './tabStrip';
import { forgetWorktree } from './worktreeLifecycle';
import { canDeleteAgentSession, deleteAgentSession, titleAgentSession, type AgentSessionPorts } from './agentSessions';
import { clientCapabilities, conversationPorts, editorPromptContext, type ConversationManagerDeps } from './conversationWiring';
import { launchSecrets } from '../acp/launchSecrets';
import { handoffDocument, handoffSource, handoffSpec } from './handoff';
import { editedEntryIn, nodesOf, staleMarks, versionAt } from './branches';
import type { BranchPorts, BranchSpec } from './promptEditing';

/**
 * Owns the conversations open as tabs, the agent runtimes they share (one process per agent), and
 * the store that keeps them across restarts. Changes of the shown conversation go to the panel
 * tagged with its id; background conversations only update their tab (status, attention badge).
 */
export class ConversationManager extends Disposable {
  private readonly messages = this.register(new Emitter<HostMessage>());
  readonly onMessage = this.messages.event;
  /** What the editor listens to (`onMessage` is the panel's wire alone). */
  private readonly events = this.register(new ConversationEvents());
  readonly onShown = this.events.onShown;
  readonly onTabsChanged = this.events.onTabsChanged;
  readonly onNotesChanged = this.events.onNotesChanged;
  readonly onFilesChanged = this.events.onFilesChanged;
  private readonly strip = new TabStrip();
  /** Conversations of this workspace that are not open, as the index knows them. */
  private closed: ConversationMeta[] = [];
  private readonly runtimes: RuntimePool;
  /** How chips become prompt content, for every conversation. */
  private readonly promptContext: PromptContext;
  private readonly keeper: ConversationKeeper;
  private initialized: Promise<void> | undefined;
  /** Whether the user can see the panel (badges are for conversations out of sight). */
  private visible = false;

  constructor(private readonly deps: ConversationManagerDeps) {
    super();
    const { log, clientInfo } = deps;
    const { files, policy } = deps.editor;
    this.keeper = new ConversationKeeper(deps.store);
    const extraCapabilities = clientCapabilities(deps.editor.runSignInTerminal !== undefined);
    const context = editorPromptContext(deps.editor);
    // A handed-over conversation is written when the prompt it is attached to goes (handoff.ts).
    this.promptContext = { ...context, sources: { ...context.sources, conversation: (id) => this.handoffDocument(id) } };
    this.runtimes = this.register(
      new RuntimePool({ launchConfig: (name) => deps.agents.launchConfig(name), log, clientInfo, files, policy, extraCapabilities, connector: deps.connector }),
    );
  }

  /** Chips for the composer's specs: how each is shown (paths relative to the workspace). */
  chips(specs: readonly MentionSpec[]): MentionChip[] {
    return chipsFor(specs, this.promptContext);
  }

  /** Loads the index and reopens the tabs (the shown one with its transcript); once. */
  init(): Promise<void> {
    this.initialized ??= this.load();
    return this.initialized;
  }

  get active(): Conversation | undefined {
    return this.strip.active;
  }

  get(id: string | undefined): Conversation | undefined {
    return id === undefined ? this.active : this.strip.get(id);
  }

  tabs(): TabView[] {
    return this.strip.tabs();
  }

  /** All conversations of the workspace (open and closed), newest first. */
  all(): Array<{ meta: ConversationMeta; open: boolean }> {
    const metas = [...this.strip.conversations().map((c) => ({ meta: c.meta, open: true })), ...this.closed.map((meta) => ({ meta, open: false }))];
    return metas.sort((a, b) => b.meta.updatedAt - a.meta.updatedAt);
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.active?.clearAttention();
  }

  /**
   * A new conversation with `agentName` (default: the default agent), shown and connected; `place`
   * sets its id, folder and worktree (see `newConversationInWorktree`) or the agent session it opens.
   */
  newConversation(
    agentName = this.deps.agents.defaultName() ?? '',
    place: Partial<Pick<ConversationMeta, 'id' | 'cwd' | 'worktree' | 'sessionId' | 'updatedAt'>> = {},
  ): Conversation {
    const conversation = this.adopt({ ...newMeta(place.id ?? randomUUID(), agentName, place.cwd ?? this.deps.cwd), ...place });
    this.show(conversation.id);
    return conversation;
  }

  /** Shows an open conversation (a tab switch); connects it when it is idle. */
  show(id: string): void {
    const conversation = this.strip.get(id);
    if (!conversation) return;
    // Its edited prompts show which version they are (other branches may have come or gone since it was saved).
    this.markBranches(conversation);
    this.strip.show(id);
    conversation.clearAttention();
    this.messages.fire({ type: 'conversationShown', conversation: conversation.snapshot() });
    this.events.shown(conversation);
    this.fireTabs();
    this.saveIndex();
    if (conversation.status.kind === 'idle' && conversation.agentName !== '') void conversation.connect();
  }

  /**
   * Continue with Another Agent…: a new conversation with `agentName`, shown, that says it continues
   * conversation `sourceId`; the chip to put in its composer is returned (the panel adds it), so the
   * conversation so far goes with its first prompt. Undefined when there is nothing to continue.
   */
  continueWithAgent(sourceId: string, agentName: string): { conversation: Conversation; chips: MentionChip[] } | undefined {
    const source = this.strip.get(sourceId);
    if (!source?.hasHistory || this.deps.agents.launchConfig(agentName) === undefined) return undefined;
    const conversation = this.newConversation(agentName);
    conversation.continuesFrom(source.meta);
    return { conversation, chips: this.chips([handoffSpec(source.meta)]) };
  }

  /** Opens a conversation from the history (restoring its transcript) and shows it. */
  async reopen(id: string): Promise<void> {
    if (this.strip.has(id)) return this.show(id);
    const meta = this.closed.find((m) => m.id === id);
    if (!meta) return;
    this.closed = this.closed.filter((m) => m !== meta);
    const conversation = this.adopt(meta);
    await this.keeper.restore(conversation);
    this.show(id);
  }

  /**
   * An edited prompt's branch (promptEditing.ts): a new conversation with the entries before the
   * prompt takes the tab of `fromId` and sends the edit; once its session is open (a fork needs the
   * source session still there), the conversation it came from goes to History, kept.
   */
  async openBranch(fromId: string, spec: BranchSpec): Promise<void> {
    const from = this.strip.get(fromId);
    if (!from) return;
    // A title the old prompt gave is the new prompt's to give.
    const titleSource = from.meta.titleSource === 'prompt' ? 'none' : from.meta.titleSource;
    const meta: ConversationMeta = { ...newMeta(randomUUID(), from.agentName, from.meta.cwd), title: from.meta.title, titleSource, branch: spec.link };
    const branch = this.adopt(meta);
    this.strip.replace(fromId, branch);
    // In History from now on (its versions count), though it is let go only once the branch's session is open.
    this.closed.push(from.meta);
    branch.startBranch(spec);
    this.show(branch.id);
    await branch.connect();
    await this.retire(from);
  }

  /** `‹ 1/2 ›`: the version `offset` places away of prompt `entryId` takes the tab of `fromId` (which goes to History). */
  async switchBranch(fromId: string, entryId: string, offset: number): Promise<boolean> {
    const from = this.strip.get(fromId);
    if (!from) return false;
    const kind = from.status.kind;
    if (kind === 'running' || kind === 'cancelling') {
      // Its session closes when another branch takes the tab: the turn would be lost.
      from.internals.thread.addNotice('info', l10n.t('Stop the running turn before switching to another version of a prompt.'));
      return false;
    }
    const target = versionAt(nodesOf(this.all().map((c) => c.meta)), fromId, entryId, offset);
    if (!target || target.conversation === fromId) return false;
    if (this.strip.has(target.conversation)) {
      this.show(target.conversation);
      return true;
    }
    const meta = this.closed.find((m) => m.id === target.conversation);
    if (!meta) return false;
    this.closed = this.closed.filter((m) => m !== meta);
    const to = this.adopt(meta);
    this.strip.replace(fromId, to);
    this.closed.push(from.meta);
    await this.keeper.restore(to);
    this.show(to.id);
    await this.retire(from);
    return true;
  }

  /** A conversation a branch took the tab of (already listed in History): its session closed, kept with its transcript. */
  private async retire(conversation: Conversation): Promise<void> {
    this.keeper.transcriptChanged(conversation, true);
    await conversation.disconnect();
    conversation.dispose();
    this.stopUnusedRuntimes();
    this.fireTabs();
    this.saveIndex();
  }

  /** Sets the `‹ i/n ›` of the conversation's prompts that have other versions (and clears it where they went). */
  private markBranches(conversation: Conversation): void {
    const nodes = nodesOf(this.all().map((c) => c.meta));
    for (const entry of staleMarks(nodes, conversation.id, conversation.internals.thread.entries())) conversation.internals.thread.replaceEntry(entry);
  }

  private get branchPorts(): BranchPorts {
    return { open: (from, spec) => this.openBranch(from, spec), switchTo: (from, entryId, offset) => this.switchBranch(from, entryId, offset) };
  }

  /** Opens a session the agent knows but Tandem never saw (from `session/list`). */
  openAgentSession(agentName: string, sessionId: string, title: string | undefined, updatedAt: number | undefined): void {
    const known = this.all().find((c) => c.meta.agentName === agentName && c.meta.sessionId === sessionId);
    if (known) {
      void this.reopen(known.meta.id);
      return;
    }
    const conversation = this.newConversation(agentName, updatedAt === undefined ? { sessionId } : { sessionId, updatedAt });
    if (title) conversation.setTitle(title, 'agent');
  }

  /** Closes a tab (its agent session too); it stays in history. A worktree's keep-or-remove is asked first (false: kept open). */
  async close(id: string, deleting = false): Promise<boolean> {
    const conversation = this.strip.get(id);
    if (!conversation) return true;
    const asked = await conversation.internals.worktree?.ask(deleting);
    if (asked?.decision === 'cancel' || !this.strip.has(id)) return false;
    const { wasShown, next } = this.strip.remove(id);
    this.closed.push(conversation.meta);
    this.keeper.transcriptChanged(conversation, true);
    await conversation.disconnect();
    if (asked?.decision === 'remove' && (await conversation.internals.worktree?.remove(asked.status))) delete conversation.meta.worktree;
    conversation.dispose();
    this.stopUnusedRuntimes();
    if (wasShown) {
      if (next) this.show(next);
      else this.newConversation(conversation.agentName || undefined);
    } else {
      this.fireTabs();
      this.saveIndex();
    }
    return true;
  }

  /** Renames a conversation; the agent's session gets the title too where it supports that (agentSessions). */
  rename(id: string, title: string): void {
    const conversation = this.strip.get(id);
    const meta = conversation?.meta ?? this.closed.find((m) => m.id === id);
    if (conversation) conversation.setTitle(title, 'user');
    else if (meta && renameMeta(meta, title)) this.saveIndex();
    if (meta && title.trim() !== '') void titleAgentSession(this.agentSessions, meta, meta.title);
  }

  /** True when the conversation's agent can delete its own session too (`session/delete`). */
  async canDeleteAgentSession(id: string): Promise<boolean> {
    const meta = this.strip.get(id)?.meta ?? this.closed.find((m) => m.id === id);
    return meta !== undefined && (await canDeleteAgentSession(this.agentSessions, meta));
  }

  /** Deletes a conversation and its transcript (closing its tab first); `agentSession`: the agent's session too. */
  async delete(id: string, opts: { agentSession?: boolean } = {}): Promise<ConversationMeta | undefined> {
    const deleted = await this.deleteHere(id);
    if (deleted && opts.agentSession) {
      await deleteAgentSession(this.agentSessions, deleted);
      // An agent started only for this (its last tab was the one deleted) is not kept running.
      this.stopUnusedRuntimes();
    }
    return deleted;
  }

  /** A conversation, open or closed, as the handoff's Markdown; undefined when it is gone. */
  private async handoffDocument(id: string): Promise<{ preface: string; markdown: string } | undefined> {
    const open = this.strip.get(id);
    const meta = open?.meta ?? this.closed.find((m) => m.id === id);
    if (!meta) return undefined;
    const transcript = open ? open.transcript() : await this.keeper.transcript(id);
    if (!transcript) return undefined;
    // Masked as an export is: what the agents were started with never travels in a conversation.
    const agent = this.deps.agents.launchConfig(meta.agentName);
    return handoffDocument(handoffSource(meta, transcript, open?.changedFiles()), agent ? launchSecrets(agent) : []);
  }

  private get agentSessions(): AgentSessionPorts {
    return { runtimeFor: (name) => this.runtimeFor(name), warn: (text) => this.deps.log.warn(text) };
  }

  private async deleteHere(id: string): Promise<ConversationMeta | undefined> {
    const open = this.strip.has(id);
    if (open && !(await this.close(id, true))) return undefined;
    const meta = this.closed.find((m) => m.id === id);
    // A closed conversation whose worktree was kept is asked again now that it goes.
    if (!open && meta && (await forgetWorktree(this.deps.editor.worktrees, meta)) === 'cancel') return undefined;
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
    const untouched = active?.untouched === true;
    if (!active || !untouched) {
      this.newConversation(name);
      return;
    }
    if (active.agentName === name && active.status.kind !== 'stopped') return;
    await active.disconnect();
    active.setAgent(name);
    this.fireTabs();
    this.saveIndex();
    this.stopUnusedRuntimes();
    void active.connect();
  }

  /** Stops the conversation's agent process (shared with its other conversations) and connects again. */
  async restart(id?: string): Promise<void> {
    const conversation = this.get(id);
    await conversation?.restart();
  }

  /**
   * The configured agents changed: a conversation without a usable agent that has not started
   * talking takes the default one.
   */
  agentsChanged(): void {
    const fallback = this.deps.agents.defaultName();
    if (!fallback) return;
    for (const conversation of this.strip.conversations()) {
      const usable = conversation.agentName !== '' && this.deps.agents.launchConfig(conversation.agentName) !== undefined;
      if (usable || conversation.hasHistory) continue;
      conversation.setAgent(fallback);
      if (this.strip.isShown(conversation.id)) void conversation.connect();
    }
    this.fireTabs();
    this.saveIndex();
  }

  /** The workspace became trusted: conversations may start their agents. */
  unblocked(): void {
    for (const conversation of this.strip.conversations()) {
      if (conversation.status.kind === 'untrusted' || conversation.status.kind === 'no_agent')
        conversation.setAgent(conversation.agentName || (this.deps.agents.defaultName() ?? ''));
    }
    const active = this.active;
    if (active?.status.kind === 'idle') void active.connect();
    this.fireTabs();
  }

  /** A live runtime for `agentName`, created (not started) when none is running. */
  runtimeFor(agentName: string): AgentRuntime | undefined {
    return this.runtimes.get(agentName);
  }

  /** Saves everything pending now (extension shutdown). */
  flushSync(): void {
    this.keeper.flushSync();
  }

  override dispose(): void {
    this.flushSync();
    for (const conversation of this.strip.clear()) conversation.dispose();
    super.dispose();
  }

  private async load(): Promise<void> {
    const index = await this.keeper.loadIndex();
    const { open, closed } = tabsToReopen(index);
    this.closed = closed;
    for (const meta of open) this.adopt(meta);
    await Promise.all(this.strip.conversations().map((c) => this.keeper.restore(c)));
    const activeId = index.activeId !== undefined && this.strip.has(index.activeId) ? index.activeId : this.strip.ids().at(-1);
    if (activeId === undefined) this.newConversation();
    else this.show(activeId);
  }

  /** Makes a conversation for `meta`, wired to the panel and the store, and opens its tab. */
  private adopt(meta: ConversationMeta): Conversation {
    const conversation: Conversation = new Conversation(
      meta,
      conversationPorts(meta, this.deps, {
        runtimeFor: (name) => this.runtimeFor(name),
        isShown: (id) => this.strip.isShown(id),
        stopRuntime: (name, runtime) => this.runtimes.stop(name, runtime ?? this.runtimes.peek(name)),
        promptContext: this.promptContext,
        branches: this.branchPorts,
      }),
    );
    conversation.onChange((changes) => this.forward(conversation, changes));
    conversation.onMetaChange(() => this.saveIndex());
    conversation.onAttention(() => {
      if (this.strip.isShown(conversation.id) && this.visible) conversation.clearAttention();
      // Told even for the shown tab: what the agent does (its activity) is in the tab, and the status bar counts it.
      this.fireTabs();
    });
    this.strip.add(conversation);
    return conversation;
  }

  private forward(conversation: Conversation, changes: ConversationChange[]): void {
    const shown = this.strip.isShown(conversation.id);
    let tabs = false;
    for (const change of changes) {
      if (shown) this.messages.fire({ ...change, conversationId: conversation.id } as HostMessage);
      if (change.type === 'statusChanged' || change.type === 'conversationChanged') tabs = true;
    }
    // A permission prompt appearing or being answered changes the tab's badge.
    if (this.strip.waitingChanged(conversation)) tabs = true;
    // A branch's edited prompt reached its thread: it is a version of the prompt it replaced.
    const link = conversation.meta.branch;
    const edited = link && editedEntryIn(link, changes);
    if (link && edited !== undefined) {
      link.entry = edited;
      this.saveIndex();
      this.markBranches(conversation);
    }
    if (tabs) this.fireTabs();
    this.events.changed(conversation, changes);
    this.keeper.transcriptChanged(conversation);
  }

  private saveIndex(): void {
    const open = () => this.strip.conversations().map((c) => c.meta);
    this.keeper.indexChanged((): ConversationIndex => indexOf(open(), this.closed, [...this.strip.ids()], this.strip.activeId));
  }

  private fireTabs(): void {
    const message = this.strip.message();
    this.messages.fire(message);
    this.events.tabsChanged(message.tabs);
  }

  private stopUnusedRuntimes(): void {
    this.runtimes.retain(new Set(this.strip.conversations().map((c) => c.agentName)));
  }
}
