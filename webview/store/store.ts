/**
 * A pure store over host messages: it holds the session snapshot and records which keys changed
 * since the renderer last looked, so the renderer can update only those parts (once per frame).
 * No DOM here, so it can be unit-tested and fuzzed in Node.
 */
import type {
  AgentChoice,
  AgentPreset,
  CommandView,
  ConfigOptionView,
  ConversationSnapshot,
  Entry,
  MentionCandidate,
  MentionChip,
  HostMessage,
  ModesView,
  QueueView,
  ReviewView,
  PanelSnapshot,
  ConversationStatus,
  TabView,
  TerminalView,
  UsageView,
  QuotaView,
  AccountView,
} from '../../src/protocol/messages';
import { assertNever, isRecord } from '../../src/protocol/guards';
import {
  isChip,
  isEntry,
  parseCommands,
  parseModes,
  parseAccount,
  parseOptions,
  parseQueue,
  parseQuota,
  parseReview,
  parseSuggestion,
  parseTabs,
  parseUsage,
} from './snapshotFields';
import type { StoreChanges } from './storeChanges';
import { anyChange, emptyChanges, markConversationChanged } from './storeChanges';
import { prependOlder } from './olderEntries';
import { addTerminals, appendTerminal, replaceTerminal } from './terminalOutputs';
import { WorktreeState } from './worktreeState';

export type { StoreChanges, TerminalChange } from './storeChanges';

export class Store {
  status: ConversationStatus = { kind: 'starting', agentName: '' };
  agents: AgentChoice[] = [];
  selectedAgent: string | undefined;
  presets: AgentPreset[] = [];
  followAgent = true;
  /** The agent's slash commands (suggested in the composer). */
  commands: CommandView[] = [];
  /** The session's modes; undefined when the agent has none. */
  modes: ModesView | undefined;
  /** True once a snapshot arrived (before that the panel shows "Connecting…"). */
  hasSnapshot = false;
  /** The shown conversation: Tandem's id, the agent's session id, its title. */
  conversationId = '';
  sessionId: string | undefined;
  title = '';
  /** Prompts waiting to be sent in the shown conversation. */
  queue: QueueView = { items: [] };
  /** Every open conversation, in tab order. */
  tabs: TabView[] = [];
  /** Files the shown conversation changed (the review strip). */
  review: ReviewView = { files: [] };
  /** The session's settings (model, reasoning level, …), for the header's pickers. */
  configOptions: ConfigOptionView[] = [];
  /** How full the agent's context is; undefined when the agent reports nothing. */
  usage: UsageView | undefined;
  /** The next prompt the agent predicts (ghost text in the empty composer); undefined: none. */
  promptSuggestion: string | undefined;
  /** The account's limits (quota meter); undefined: the agent reported none. */
  quota: QuotaView | undefined;
  /** Who the agent says it is signed in as; undefined: it has not said. */
  account: AccountView | undefined;
  /** The agent advertised `logout`: the signed-in row offers Sign out. */
  canSignOut = false;
  /** What the agent accepts besides text and links (images, audio, embedded files), and whether it takes steering. */
  promptCapabilities: { image: boolean; audio: boolean; embeddedContext: boolean; steering?: true } | undefined;
  /** Chips the host asked to add to the shown conversation's composer (taken by the composer). */
  pendingChips: MentionChip[] = [];
  /** A prompt to land on once it is shown (revealPrompt), until the time given. */
  reveal?: { requestId: string; until: number };
  /** An entry to land on once it is here (revealEntry, a search match), until the time given. */
  revealEntry?: { entryId: string; query?: string; until: number };
  /** The latest answer to the `@` picker's query. */
  mentionResults: { requestId: number; items: MentionCandidate[] } | undefined;
  readonly terminals = new Map<string, TerminalView>();
  /** The shown conversation's worktree and review notes, and whether new conversations can have a worktree. */
  readonly worktrees = new WorktreeState();
  private order: string[] = [];
  private readonly byId = new Map<string, Entry>();
  private changes: StoreChanges = emptyChanges();

  /** Entries the snapshot announced before its own, not arrived yet (`olderEntries`). */
  olderPending = 0;

  get entryIds(): readonly string[] {
    return this.order;
  }

  entry(id: string): Entry | undefined {
    return this.byId.get(id);
  }

  get lastEntry(): Entry | undefined {
    const id = this.order[this.order.length - 1];
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Returns the changes accumulated since the previous call and starts a new set. */
  takeChanges(): StoreChanges {
    const taken = this.changes;
    this.changes = emptyChanges();
    return taken;
  }

  hasChanges(): boolean {
    return anyChange(this.changes);
  }

  /** Applies one message. Throws on a malformed message; the caller logs and goes on. */
  apply(message: HostMessage): void {
    if (!isRecord(message) || typeof message.type !== 'string') throw new Error('Malformed host message');
    // A change for a conversation not shown (a tab switch raced with it) is not ours to apply.
    if ('conversationId' in message && message.conversationId !== undefined && message.conversationId !== this.conversationId) return;
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message.snapshot);
        return;
      case 'conversationShown':
        this.applyConversation(message.conversation);
        return;
      case 'olderEntries':
        // For another conversation (the user switched tabs meanwhile): its next snapshot has them.
        if (message.conversationId === this.conversationId && this.olderPending > 0) this.prependEntries(message.entries, message.terminals);
        return;
      case 'tabsChanged':
        this.tabs = parseTabs(message.tabs);
        this.changes.tabs = true;
        return;
      case 'queueChanged':
        this.queue = parseQueue(message.queue);
        this.changes.queue = true;
        return;
      case 'configOptionsChanged':
        this.configOptions = parseOptions(message.options);
        this.changes.options = true;
        return;
      case 'usageChanged':
        this.usage = parseUsage(message.usage);
        this.changes.usage = true;
        return;
      case 'promptSuggestionChanged':
        this.promptSuggestion = parseSuggestion(message.suggestion);
        this.changes.suggestion = true;
        return;
      case 'accountChanged':
        this.account = parseAccount(message.account);
        this.canSignOut = message.canSignOut === true;
        this.changes.account = true;
        return;
      case 'quotaChanged':
        this.quota = parseQuota(message.quota);
        this.changes.usage = true;
        return;
      case 'promptCapabilitiesChanged':
        this.promptCapabilities = isRecord(message.promptCapabilities) ? message.promptCapabilities : undefined;
        this.changes.mentions = true;
        return;
      case 'mentionResults':
        if (typeof message.requestId !== 'number' || !Array.isArray(message.items)) throw new Error('Malformed mentionResults');
        this.mentionResults = { requestId: message.requestId, items: message.items.filter(isChip) as MentionCandidate[] };
        this.changes.mentions = true;
        return;
      case 'diffLines':
        // An answer to one diff view's request, not state: the view takes it (see diffRequests.ts).
        return;
      case 'mentionsAdded':
        // Addressed to one conversation: kept only when it is the shown one (the host shows it first).
        if (message.conversationId !== this.conversationId || !Array.isArray(message.chips)) return;
        this.pendingChips.push(...message.chips.filter(isChip));
        this.changes.mentions = true;
        return;
      case 'reviewChanged':
        this.review = parseReview(message.review);
        this.changes.review = true;
        return;
      case 'conversationChanged':
        this.sessionId = typeof message.sessionId === 'string' ? message.sessionId : undefined;
        this.title = typeof message.title === 'string' ? message.title : '';
        this.changes.conversation = true;
        return;
      case 'entryUpserted':
        this.upsert(message.entry);
        return;
      case 'textAppended':
        this.appendText(message.id, message.text);
        return;
      case 'entriesCleared':
        this.order = [];
        this.byId.clear();
        this.olderPending = 0;
        this.changes.reset = true;
        this.changes.entries.clear();
        return;
      case 'statusChanged':
        if (!isRecord(message.status) || typeof message.status.kind !== 'string') throw new Error('Malformed status');
        this.status = message.status;
        this.changes.status = true;
        return;
      case 'terminalChanged':
        replaceTerminal(this.terminals, this.changes, message.terminal);
        return;
      case 'terminalAppended':
        appendTerminal(this.terminals, this.changes, message.terminalId, message.text, message.truncated);
        return;
      case 'agentsChanged':
        this.agents = Array.isArray(message.agents) ? message.agents : [];
        this.selectedAgent = message.selectedAgent;
        this.presets = Array.isArray(message.presets) ? message.presets : [];
        this.changes.agents = true;
        return;
      case 'followChanged':
        this.followAgent = message.followAgent === true;
        this.changes.follow = true;
        return;
      case 'commandsChanged':
        this.commands = parseCommands(message.commands);
        this.changes.commands = true;
        return;
      case 'modesChanged':
        this.modes = parseModes(message.modes);
        this.changes.modes = true;
        return;
      case 'revealPrompt':
        this.reveal = typeof message.requestId === 'string' ? { requestId: message.requestId, until: Date.now() + 5000 } : undefined;
        return void (this.changes.reveal = true);
      case 'revealEntry':
        this.revealEntry =
          typeof message.entryId === 'string'
            ? { entryId: message.entryId, query: typeof message.query === 'string' ? message.query : undefined, until: Date.now() + 10_000 }
            : undefined;
        return void (this.changes.reveal = true);
      case 'worktreeChanged':
      case 'notesChanged':
      case 'worktreeOfferChanged':
        this.changes.worktree = this.worktrees.apply(message);
        return;
      case 'messageCopied':
        // Said once by the announcer; nothing to keep (the store ignored it for another conversation above).
        this.changes.copied = true;
        return;
      case 'batch':
        if (!Array.isArray(message.messages)) throw new Error('Malformed batch');
        for (const inner of message.messages) this.apply(inner);
        return;
      default:
        assertNever(message);
    }
  }

  private applySnapshot(snapshot: unknown): void {
    if (!isRecord(snapshot) || !Array.isArray(snapshot.entries)) throw new Error('Malformed snapshot');
    const s = snapshot as unknown as PanelSnapshot;
    this.changes = emptyChanges();
    this.applyConversation(s);
    this.agents = Array.isArray(s.agents) ? s.agents : [];
    this.selectedAgent = s.selectedAgent;
    this.presets = Array.isArray(s.presets) ? s.presets : [];
    this.followAgent = s.followAgent !== false;
    this.tabs = parseTabs(s.tabs);
    this.worktrees.showPanel(s);
    this.hasSnapshot = true;
    this.changes.agents = true;
    this.changes.follow = true;
    this.changes.tabs = true;
  }

  /** Replaces everything that belongs to the shown conversation (snapshot or tab switch). */
  private applyConversation(conversation: unknown): void {
    if (!isRecord(conversation) || !Array.isArray(conversation.entries)) throw new Error('Malformed conversation');
    const c = conversation as unknown as ConversationSnapshot;
    this.order = [];
    this.byId.clear();
    for (const entry of c.entries) {
      if (!isEntry(entry)) {
        console.error('Tandem: skipping malformed entry in snapshot', entry);
        continue;
      }
      if (!this.byId.has(entry.id)) this.order.push(entry.id);
      this.byId.set(entry.id, entry);
    }
    this.terminals.clear();
    addTerminals(this.terminals, c.terminals);
    this.conversationId = typeof c.conversationId === 'string' ? c.conversationId : '';
    this.sessionId = typeof c.sessionId === 'string' ? c.sessionId : undefined;
    this.title = typeof c.title === 'string' ? c.title : '';
    this.olderPending = typeof c.olderEntries === 'number' && c.olderEntries > 0 ? c.olderEntries : 0;
    this.status = isRecord(c.status) && typeof c.status.kind === 'string' ? c.status : { kind: 'no_agent' };
    this.commands = parseCommands(c.commands);
    this.modes = parseModes(c.modes);
    this.queue = parseQueue(c.queue);
    this.review = parseReview(c.review);
    this.configOptions = parseOptions(c.configOptions);
    this.usage = parseUsage(c.usage);
    this.promptSuggestion = parseSuggestion(c.promptSuggestion);
    this.quota = parseQuota(c.quota);
    this.account = parseAccount(c.account);
    this.canSignOut = c.canSignOut === true;
    this.promptCapabilities = isRecord(c.promptCapabilities) ? c.promptCapabilities : undefined;
    this.worktrees.showConversation(c);
    markConversationChanged(this.changes, this.terminals.keys());
  }

  private prependEntries(entries: unknown, terminals: unknown): void {
    const older = prependOlder(this.order, this.byId, entries);
    this.order = older.order;
    if (older.reset) this.changes.reset = true;
    else this.changes.prepended += older.prepended;
    // A terminal already here is as new or newer (changes after the snapshot update it).
    for (const id of addTerminals(this.terminals, terminals)) this.changes.terminals.set(id, { replaced: true, appended: '' });
    this.olderPending = 0;
  }

  private upsert(entry: unknown): void {
    if (!isEntry(entry)) throw new Error('Malformed entry');
    if (!this.byId.has(entry.id)) this.order.push(entry.id);
    this.byId.set(entry.id, entry);
    this.changes.entries.add(entry.id);
  }

  private appendText(id: string, text: string): void {
    if (typeof text !== 'string') throw new Error('Malformed textAppended');
    const entry = this.byId.get(id);
    if (entry === undefined) throw new Error(`textAppended for unknown entry ${id}`);
    if (entry.kind !== 'agent' && entry.kind !== 'thought' && entry.kind !== 'user') {
      throw new Error(`textAppended for a ${entry.kind} entry`);
    }
    this.byId.set(id, { ...entry, text: entry.text + text });
    this.changes.entries.add(id);
  }
}
