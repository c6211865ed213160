import type { AgentLaunchConfig } from '../acp/agentProcess';
import type { ProtocolLog } from '../acp/protocolLog';
import type { ConversationChange, ConversationSnapshot, MentionChip, PromptCapabilitiesView, Entry, QueuedPromptView, ConversationStatus, TabView, TerminalView } from '../protocol/messages';
import { Disposable, Emitter } from '../util/disposable';
import type { AgentRuntime } from '../runtime/agentRuntime';
import { cleanTitle, titleMayChange, type ConversationMeta, type TitleSource } from '../store/conversationMeta';
import type { PermissionRules } from './permissionDesk';
import { PromptQueue } from './promptQueue';
import { ConversationReview, type ReviewHost } from './conversationReview';
import { SessionInfo } from '../thread/sessionInfo';
import { SessionLink } from './sessionLink';
import { Thread } from '../thread/thread';
import { SignIn, type RunSignInTerminal } from './signIn';
import { QuestionDesk } from './questionDesk';
import type { McpDropped, McpServerSpec } from './mcpServers';
import { TurnRunner } from './turnRunner';
import type { PromptContext } from './promptPreparer';

/** What a conversation needs from its surroundings (the manager provides it). */
export interface ConversationDeps {
  log: ProtocolLog;
  isInWorkspace(path: string): boolean;
  /** A live runtime for the agent (started on demand), or undefined when the agent is not configured. */
  runtimeFor(agentName: string): AgentRuntime | undefined;
  /** Follow-along; the manager drops it for conversations that are not shown. */
  follow(conversation: Conversation, path: string, line: number | undefined): void;
  /** A permission prompt appeared (the host notifies when the panel is not in view). */
  onPermissionRequested?(conversation: Conversation, info: { requestId: string; title: string; options: Array<{ optionId: string; name: string; kind?: string }> }): void;
  /** How long to wait for the agent to confirm a cancel before ending the turn ourselves. */
  cancelGraceMs?: number;
  /** True when no agent may be started (untrusted workspace). */
  blocked?(): ConversationStatus | undefined;
  /** Saved permission rules; without them every request is asked. */
  rules?: PermissionRules;
  /** Checkpoints and the editor for the review (none: no changed-files strip). */
  review?: ReviewHost;
  /** `tandem.reviewEdits`: "before" holds each client write until the user accepts it. */
  reviewEdits?(): 'after' | 'before';
  /** Settings the user chose for an agent, re-applied to its new sessions (when remembering is on). */
  rememberedOptions?(agentName: string): Record<string, string | boolean>;
  rememberOption?(agentName: string, configId: string, value: string | boolean): void;
  /** Runs an agent's terminal sign-in where the user sees it (VS Code terminal). */
  runSignInTerminal?: RunSignInTerminal;
  /** The agent's launch configuration (terminal sign-in runs the agent's own invocation). */
  agentLaunch?(agentName: string): AgentLaunchConfig | undefined;
  /** Stops the agent's process so the next connect starts a fresh one (after signing in). */
  restartAgent?(agentName: string): Promise<void>;
  /** Opens a web link in the user's browser (a question's URL, after consent). */
  openExternal?(url: string): void;
  /** MCP servers to hand to the agent, and the configured ones that could not be used (with why). */
  mcpServers?(): McpServerSpec[];
  mcpProblems?(): McpDropped[];
  /** Reads the composer's chips into prompt content (none: chips are not sent). */
  promptContext?: PromptContext;
}

/** What a stored transcript holds (see ConversationStore). */
export interface ConversationTranscript {
  /** Diff items carry both texts here (StoredDiffContent); restoring strips them again. */
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  queue?: QueuedPromptView[];
  /** The review's baseline checkpoint, so the changed-files strip survives a restart. */
  review?: { baseline?: string };
}

/**
 * One conversation: its thread, its agent's ACP session (through a SessionLink to a shared
 * runtime), its turns and the prompts queued for them, its title and status. The single owner of
 * its status; every change leaves as keyed ConversationChanges (the manager tags and routes them).
 */
export class Conversation extends Disposable {
  private readonly changes = this.register(new Emitter<ConversationChange[]>());
  /** Keyed changes for the panel, in order. */
  readonly onChange = this.changes.event;
  private readonly metaChanges = this.register(new Emitter<void>());
  /** Title, session id or times changed (the index must be saved). */
  readonly onMetaChange = this.metaChanges.event;
  private readonly attentionChanges = this.register(new Emitter<void>());
  readonly onAttention = this.attentionChanges.event;

  thread: Thread;
  readonly info: SessionInfo;
  readonly queue: PromptQueue;
  readonly link: SessionLink;
  readonly turns: TurnRunner;
  readonly review: ConversationReview;
  readonly signIn: SignIn;
  readonly questions: QuestionDesk;
  private statusValue: ConversationStatus;
  private attentionValue: TabView['attention'];

  constructor(
    readonly meta: ConversationMeta,
    readonly deps: ConversationDeps,
  ) {
    super();
    this.thread = this.createThread();
    this.info = new SessionInfo((t) => deps.log.warn(t));
    this.queue = new PromptQueue((queue) => this.emit([{ type: 'queueChanged', queue }]));
    this.statusValue = deps.blocked?.() ?? { kind: 'idle', agentName: meta.agentName };
    this.review = new ConversationReview(this, deps.review);
    this.signIn = new SignIn(this);
    this.questions = new QuestionDesk(this);
    this.register({ dispose: () => this.review.dispose() });
    this.link = this.register(new SessionLink(this));
    this.turns = this.register(new TurnRunner(this));
  }

  get id(): string {
    return this.meta.id;
  }

  get agentName(): string {
    return this.meta.agentName;
  }

  get status(): ConversationStatus {
    return this.statusValue;
  }

  get attention(): TabView['attention'] {
    return this.attentionValue;
  }

  /** A thread whose changes reach the panel only while it is this conversation's thread. */
  createThread(): Thread {
    const thread: Thread = new Thread({
      isInWorkspace: (p) => this.deps.isInWorkspace(p),
      warn: (text) => this.deps.log.warn(text),
      emit: (messages) => {
        if (thread === this.thread) this.emit(messages);
      },
      // Only live turns move the editor: a replayed or restored history must not open files.
      follow: (path, line) => {
        if (thread === this.thread && this.turns.active) this.deps.follow(this, path, line);
      },
    });
    return thread;
  }

  /** Shows a stored transcript (after a restart). */
  restore(transcript: ConversationTranscript): void {
    this.thread.restore(transcript.entries, transcript.terminals);
    if (transcript.queue?.length) this.queue.restore(transcript.queue);
    this.review.restore(transcript.review);
  }

  transcript(): ConversationTranscript {
    return { entries: this.thread.storedEntries(), terminals: this.thread.terminals.all(), queue: this.queue.view().items, review: this.review.state() };
  }

  snapshot(): ConversationSnapshot {
    const snapshot: ConversationSnapshot = {
      conversationId: this.id,
      title: this.meta.title,
      status: this.statusValue,
      entries: this.thread.entries(),
      terminals: this.thread.terminals.all(),
      commands: this.info.commands(),
      modes: this.info.modes(),
      configOptions: this.info.configOptions(),
      queue: this.queue.view(),
      review: this.review.view(),
    };
    const usage = this.info.usage();
    if (usage) snapshot.usage = usage;
    if (this.meta.sessionId !== undefined) snapshot.sessionId = this.meta.sessionId;
    const caps = this.promptCapabilities();
    if (caps) snapshot.promptCapabilities = caps;
    return snapshot;
  }

  /** What the agent takes in a prompt besides text and links; undefined until it initialized. */
  promptCapabilities(): PromptCapabilitiesView | undefined {
    const init = this.link.agentRuntime?.initializeResult;
    if (!init) return undefined;
    const p = init.agentCapabilities?.promptCapabilities;
    return { image: p?.image === true, audio: p?.audio === true, embeddedContext: p?.embeddedContext === true };
  }

  tab(): TabView {
    const tab: TabView = { id: this.id, title: this.meta.title, agentName: this.agentName, status: this.statusValue.kind };
    // A waiting prompt is a state, not an event: it shows for as long as it waits.
    const attention = this.thread.reducer.hasPendingPermission ? 'permission' : this.attentionValue;
    if (attention) tab.attention = attention;
    return tab;
  }

  /** The user wrote a prompt: it is queued, and sent as soon as the conversation can. */
  prompt(text: string, mentions: readonly MentionChip[] = []): boolean {
    const id = this.queue.add(text, mentions);
    if (id === undefined) {
      this.deps.log.warn('A prompt was not queued: it is empty, too long, or the queue is full.');
      return false;
    }
    this.turns.pump();
    return true;
  }

  // --- state the parts share --------------------------------------------------------------------

  private shownCaps = 'null';

  setStatus(status: ConversationStatus): void {
    const blocked = this.deps.blocked?.();
    this.statusValue = blocked ?? status;
    const changes: ConversationChange[] = [{ type: 'statusChanged', status: this.statusValue }];
    // The agent's prompt capabilities are known once it initialized (the composer warns by them).
    const caps = this.promptCapabilities();
    const key = JSON.stringify(caps ?? null);
    if (key !== this.shownCaps) {
      this.shownCaps = key;
      changes.push({ type: 'promptCapabilitiesChanged', promptCapabilities: caps });
    }
    this.emit(changes);
  }

  setTitle(text: string, source: TitleSource): void {
    const title = cleanTitle(text);
    if (title === '' || !titleMayChange(this.meta.titleSource, source)) return;
    if (title === this.meta.title && source === this.meta.titleSource) return;
    this.meta.title = title;
    this.meta.titleSource = source;
    this.conversationChanged();
  }

  setSessionId(sessionId: string | undefined): void {
    if (this.meta.sessionId === sessionId) return;
    if (sessionId === undefined) delete this.meta.sessionId;
    else this.meta.sessionId = sessionId;
    this.conversationChanged();
  }

  /** The agent changed (only while nothing was said yet: see the manager). */
  setAgent(agentName: string): void {
    this.meta.agentName = agentName;
    this.setStatus(this.deps.blocked?.() ?? { kind: 'idle', agentName });
  }

  touch(): void {
    this.meta.updatedAt = Date.now();
    this.metaChanges.fire();
  }

  /** Something happened here the user has not seen (a badge on a background tab). */
  flag(attention: NonNullable<TabView['attention']>): void {
    this.attentionValue = attention;
    this.attentionChanges.fire();
  }

  clearAttention(): void {
    if (this.attentionValue === undefined) return;
    this.attentionValue = undefined;
    this.attentionChanges.fire();
  }

  addError(message: string, detail?: string, action?: Parameters<Thread['reducer']['addError']>[2], offerCheck = false): void {
    this.emit(this.thread.reducer.addError(message, detail, action, offerCheck));
    this.flag('error');
  }

  emit(messages: ConversationChange[]): void {
    if (messages.length > 0) this.changes.fire(messages);
  }

  private conversationChanged(): void {
    const change: ConversationChange = { type: 'conversationChanged', title: this.meta.title };
    if (this.meta.sessionId !== undefined) change.sessionId = this.meta.sessionId;
    this.emit([change]);
    this.metaChanges.fire();
  }
}
