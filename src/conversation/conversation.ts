import type { ProtocolLog } from '../acp/protocolLog';
import type {
  AccountView,
  ConversationChange,
  ConversationSnapshot,
  ConversationStatus,
  HostMessage,
  PromptCapabilitiesView,
  ReviewNoteView,
  ReviewView,
  TabView,
  TerminalView,
  WebviewMessage,
} from '../protocol/messages';
import type { AgentRuntime } from '../runtime/agentRuntime';
import { cleanTitle, titleMayChange, type ConversationMeta, type TitleSource } from '../store/conversationMeta';
import type { AgentActivity } from '../thread/agentActivity';
import { Emitter } from '../util/disposable';
import { ConversationIntents } from './conversationIntents';
import { wireParts, type ConversationParts } from './conversationParts';
import { conversationSnapshot, conversationTab, conversationTranscript, promptCapabilities, type ConversationTranscript } from './conversationViews';
import { stoppedStatus, type Failure } from './failure';
import type { ConversationPorts, ConversationState } from './ports';

export type { ConversationTranscript } from './conversationViews';
export type { SignOutOutcome } from './signIn';

/**
 * One conversation: its thread, its agent's ACP session (through a SessionLink to a shared
 * runtime), its turns and the prompts queued for them, its title and status. Its front door: every
 * thing a user or the editor can ask of it is an intent method here (conversationIntents.ts), which
 * sequences its parts (wired in conversationParts.ts) once; outside src/conversation only the
 * intents and the read queries are used. The single owner of its status and meta. Every change
 * leaves as keyed ConversationChanges (the manager tags and routes them); the thread emits its own.
 */
export class Conversation extends ConversationIntents implements ConversationState {
  private readonly changes = this.register(new Emitter<ConversationChange[]>());
  /** Keyed changes for the panel, in order. */
  readonly onChange = this.changes.event;
  private readonly metaChanges = this.register(new Emitter<void>());
  /** Title, session id or times changed (the index must be saved). */
  readonly onMetaChange = this.metaChanges.event;
  private readonly attentionChanges = this.register(new Emitter<void>());
  readonly onAttention = this.attentionChanges.event;

  /** Its parts: for the files of src/conversation only (eslint.config.mjs forbids `.internals` elsewhere). */
  readonly internals: ConversationParts;
  readonly log: ProtocolLog;
  private statusValue: ConversationStatus;
  private attentionValue: TabView['attention'];
  private shownCaps = 'null';
  private accountValue: AccountView | undefined;
  private activityValue: AgentActivity | undefined;
  private shownAccount = '';

  constructor(
    readonly meta: ConversationMeta,
    ports: ConversationPorts,
  ) {
    super(ports);
    this.log = ports.log;
    this.statusValue = ports.blocked() ?? { kind: 'idle', agentName: meta.agentName };
    this.internals = wireParts(
      {
        c: this,
        own: (part) => this.register(part),
        emit: (changes) => this.emit(changes),
        setTitle: (text, source) => this.setTitle(text, source),
        activityChanged: (activity) => this.activityChanged(activity),
        accountChanged: (account) => {
          this.accountValue = account;
          const change = this.accountChange();
          if (change) this.emit([change]);
        },
        saved: () => this.conversationChanged(),
      },
      ports,
    );
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

  /** Shows a stored transcript (after a restart). */
  restore(transcript: ConversationTranscript): void {
    const { thread, queue, review, notes } = this.internals;
    thread.restore(transcript.entries, transcript.terminals);
    if (transcript.queue?.length) queue.restore(transcript.queue);
    review.restore(transcript.review);
    notes.restore(transcript.notes);
  }

  transcript(): ConversationTranscript {
    return conversationTranscript(this.internals);
  }

  snapshot(): ConversationSnapshot {
    return conversationSnapshot(this);
  }

  /** What the agent takes in a prompt besides text and links; undefined until it initialized. */
  promptCapabilities(): PromptCapabilitiesView | undefined {
    return promptCapabilities(this.internals);
  }

  tab(): TabView {
    return conversationTab(this);
  }

  /** Nothing was said or queued here, and no agent session is attached (it may switch agents). */
  get untouched(): boolean {
    return this.internals.thread.size === 0 && this.internals.queue.size === 0 && this.meta.sessionId === undefined;
  }

  /** The thread has entries (a history that keeps its agent, something to export). */
  get hasHistory(): boolean {
    return this.internals.thread.size > 0;
  }

  /** The runtime its session is attached to, when it is. */
  get agentRuntime(): AgentRuntime | undefined {
    return this.internals.link.agentRuntime;
  }

  /** Its terminals' output, by id. */
  terminals(): Record<string, TerminalView> {
    return this.internals.thread.terminals();
  }

  /** The changed-files strip's files. */
  changedFiles(): ReviewView['files'] {
    return this.internals.review.view().files;
  }

  /** The review notes, pending and sent (the editor's comment threads show them). */
  reviewNotes(): ReviewNoteView[] {
    return this.internals.notes.view();
  }

  /** The lines around a diff the panel asked for. */
  diffLines(request: Extract<WebviewMessage, { type: 'fetchDiffLines' }>): Extract<HostMessage, { type: 'diffLines' }> {
    return this.internals.thread.diffLines(request);
  }

  /** A diff of an entry, for the editor's diff view. */
  findDiff(entryId: string, index: number): ReturnType<ConversationParts['thread']['findDiff']> {
    return this.internals.thread.findDiff(entryId, index);
  }

  /** Its terminals as the editor's mirror reads them (a view, and their output as it comes). */
  get terminalFeed(): Pick<ConversationParts['thread'], 'terminalView' | 'onTerminalOutput'> {
    return this.internals.thread;
  }

  /** A file as the review's baseline has it (the "before" of a changed file). */
  baselineText(path: string): Promise<string | undefined> {
    return this.internals.review.baselineText(path);
  }

  // --- state the parts share (ConversationState) -----------------------------------------------

  setStatus(status: ConversationStatus): void {
    this.statusValue = this.ports.blocked() ?? status;
    const changes: ConversationChange[] = [{ type: 'statusChanged', status: this.statusValue }];
    // The agent's prompt capabilities are known once it initialized (the composer warns by them).
    const caps = this.promptCapabilities();
    const key = JSON.stringify(caps ?? null);
    if (key !== this.shownCaps) {
      this.shownCaps = key;
      changes.push({ type: 'promptCapabilitiesChanged', promptCapabilities: caps });
    }
    // Whether the agent can sign out is known once it initialized, which a status change follows.
    const account = this.accountChange();
    if (account) changes.push(account);
    this.emit(changes);
  }

  /** What the agent last said it does (codex's threadStatus); undefined: it does not say. */
  get activity(): AgentActivity | undefined {
    return this.activityValue;
  }

  /** The agent waits for the user by its own account (an approval, an answer), whether or not Tandem shows a prompt yet. */
  get agentWaiting(): boolean {
    return this.activityValue === 'waiting';
  }

  private activityChanged(activity: AgentActivity): void {
    if (activity === this.activityValue) return;
    this.activityValue = activity;
    // The tab's badge and the status bar follow (conversationTab reads it).
    this.attentionChanges.fire();
  }

  /** Who the agent says it is signed in as (the header's signed-in row). */
  get account(): AccountView | undefined {
    return this.accountValue === undefined ? undefined : { ...this.accountValue };
  }

  /** The agent advertised `logout`, so signOut reaches it. */
  get canSignOut(): boolean {
    return this.internals.signIn.canSignOut;
  }

  /** The signed-in row's change, when it differs from what the panel was last told. */
  private accountChange(): ConversationChange | undefined {
    const canSignOut = this.canSignOut;
    const key = JSON.stringify([this.accountValue ?? null, canSignOut]);
    if (key === this.shownAccount) return undefined;
    this.shownAccount = key;
    return this.accountValue === undefined ? { type: 'accountChanged', canSignOut } : { type: 'accountChanged', account: this.account, canSignOut };
  }

  fail(failure: Failure): void {
    if (failure.signIn) this.showSignIn(failure.signIn, failure.message);
    else {
      this.internals.thread.addError(failure.message, failure.detail, failure.action, failure.offerCheck === true);
      this.flag('error');
    }
    if (failure.pause !== undefined) this.internals.queue.pause(failure.pause);
    const stopped = stoppedStatus(this.agentName, failure);
    if (stopped) this.setStatus(stopped);
  }

  flag(attention: NonNullable<TabView['attention']>): void {
    this.attentionValue = attention;
    this.attentionChanges.fire();
  }

  clearAttention(): void {
    if (this.attentionValue === undefined) return;
    this.attentionValue = undefined;
    this.attentionChanges.fire();
  }

  setTitle(text: string, source: TitleSource): void {
    const title = cleanTitle(text);
    if (title === '' || !titleMayChange(this.meta.titleSource, source)) return;
    if (title === this.meta.title && source === this.meta.titleSource) return;
    this.meta.title = title;
    this.meta.titleSource = source;
    this.conversationChanged();
    void this.internals.worktree?.titled(title);
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
    this.setStatus(this.ports.blocked() ?? { kind: 'idle', agentName });
  }

  touch(): void {
    this.meta.updatedAt = Date.now();
    this.metaChanges.fire();
  }

  // --- internals -------------------------------------------------------------------------------

  private emit(changes: ConversationChange[]): void {
    if (changes.length > 0) this.changes.fire(changes);
  }

  private conversationChanged(): void {
    const { sessionId } = this.meta;
    const change: ConversationChange = { type: 'conversationChanged', title: this.meta.title, ...(sessionId !== undefined ? { sessionId } : {}) };
    this.emit([change]);
    this.metaChanges.fire();
  }
}
