import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { ProtocolLog } from '../acp/protocolLog';
import type {
  ConversationChange,
  ConversationSnapshot,
  ConversationStatus,
  MentionChip,
  PromptCapabilitiesView,
  ReviewView,
  TabView,
  WorktreeView,
  AccountView,
} from '../protocol/messages';
import { cleanTitle, titleMayChange, type ConversationMeta, type TitleSource } from '../store/conversationMeta';
import type { AgentActivity } from '../thread/agentActivity';
import { Thread } from '../thread/thread';
import { Disposable, Emitter } from '../util/disposable';
import { ConversationReview } from './conversationReview';
import { conversationSnapshot, conversationTab, conversationTranscript, promptCapabilities, type ConversationTranscript } from './conversationViews';
import { ConversationWorktree } from './conversationWorktree';
import { stoppedStatus, type Failure } from './failure';
import { PermissionDesk } from './permissionDesk';
import type { ConversationPorts, ConversationState } from './ports';
import { PromptQueue } from './promptQueue';
import { QuestionDesk } from './questionDesk';
import { ReviewNoteDesk } from './reviewNoteDesk';
import { SessionLink } from './sessionLink';
import { SessionSettings } from './sessionSettings';
import { SignIn } from './signIn';
import { TurnRunner } from './turnRunner';

export type { ConversationTranscript } from './conversationViews';

/**
 * One conversation: its thread, its agent's ACP session (through a SessionLink to a shared
 * runtime), its turns and the prompts queued for them, its title and status. The composition root
 * of its parts — each gets the narrow ports it uses, wired here — and the single owner of its
 * status and meta. Every change leaves as keyed ConversationChanges (the manager tags and routes
 * them); the thread emits its own.
 */
export class Conversation extends Disposable implements ConversationState {
  private readonly changes = this.register(new Emitter<ConversationChange[]>());
  /** Keyed changes for the panel, in order. */
  readonly onChange = this.changes.event;
  private readonly metaChanges = this.register(new Emitter<void>());
  /** Title, session id or times changed (the index must be saved). */
  readonly onMetaChange = this.metaChanges.event;
  private readonly attentionChanges = this.register(new Emitter<void>());
  readonly onAttention = this.attentionChanges.event;

  readonly thread: Thread;
  readonly queue: PromptQueue;
  readonly link: SessionLink;
  readonly turns: TurnRunner;
  readonly review: ConversationReview;
  readonly notes: ReviewNoteDesk;
  /** The git worktree it works in, when it has one. */
  readonly worktree: ConversationWorktree | undefined;
  readonly signIn: SignIn;
  readonly questions: QuestionDesk;
  readonly permissions: PermissionDesk;
  readonly settings: SessionSettings;
  readonly log: ProtocolLog;
  private statusValue: ConversationStatus;
  private attentionValue: TabView['attention'];
  private shownCaps = 'null';
  private accountValue: AccountView | undefined;
  private activityValue: AgentActivity | undefined;
  private shownAccount = '';

  constructor(
    readonly meta: ConversationMeta,
    private readonly ports: ConversationPorts,
  ) {
    super();
    const { editor } = ports;
    this.log = ports.log;
    this.statusValue = ports.blocked() ?? { kind: 'idle', agentName: meta.agentName };
    this.thread = new Thread({
      isInWorkspace: (p) => editor.policy.isInWorkspace(p),
      roots: () => editor.policy.roots(),
      warn: (text) => this.log.warn(text),
      emit: (changes) => this.emit(changes),
      // Only live turns move the editor: a replayed or restored history must not open files.
      follow: (path, line) => this.followLive(path, line),
      titled: (title) => this.setTitle(title, 'agent'),
      changes: (paths) => this.review.agentChanges(paths),
      activity: (activity) => this.activityChanged(activity),
    });
    this.queue = new PromptQueue((queue) => this.emit([{ type: 'queueChanged', queue }]));
    const reviewChanged = (review: ReviewView) => {
      this.emit([{ type: 'reviewChanged', review }]);
      // What the strip shows changed on disk: so may what is unapplied.
      this.worktree?.refreshSoon();
    };
    this.review = this.register(new ConversationReview(editor.review, this.log, reviewChanged));
    this.notes = new ReviewNoteDesk({
      roots: () => editor.policy.roots(),
      hunkAt: (path, start, end) => this.review.hunkAt(path, start, end),
      changed: (notes) => this.emit([{ type: 'notesChanged', notes }]),
      refused: (message) => this.thread.addNotice('warning', message),
    });
    this.worktree = this.worktreePart();
    this.questions = new QuestionDesk(this, this.thread, (url) => editor.openExternal(url));
    this.permissions = this.register(new PermissionDesk(this, this.thread, editor.rules, (notice) => editor.permissionRequested(this.id, notice)));
    this.link = this.register(
      new SessionLink(this, {
        thread: this.thread,
        permissions: this.permissions,
        questions: this.questions,
        review: this.review,
        queue: this.queue,
        ports,
        turnActive: () => this.turns.active,
        opened: (token, created) => {
          // A new session gets the settings the user chose last time for this agent (when enabled).
          if (created) void this.settings.applyRemembered(token);
          this.turns.pump();
        },
        exited: () => this.turns.abandon(),
        showSignIn: (methods, message) => this.showSignIn(methods, message),
        accountChanged: (account) => {
          this.accountValue = account;
          const change = this.accountChange();
          if (change) this.emit([change]);
        },
        followLive: (path, line) => this.followLive(path, line),
      }),
    );
    this.settings = new SessionSettings(this, this.thread, this.link, editor);
    this.signIn = new SignIn(this, this.thread, { runtime: () => this.link.agentRuntime, ports });
    this.turns = this.register(
      new TurnRunner(this, {
        thread: this.thread,
        queue: this.queue,
        review: this.review,
        notes: this.notes,
        link: this.link,
        permissions: this.permissions,
        questions: this.questions,
        signIn: this.signIn,
        ports,
        named: (text) => {
          if (this.meta.titleSource === 'none') this.setTitle(text, 'prompt');
        },
      }),
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
    this.thread.restore(transcript.entries, transcript.terminals);
    if (transcript.queue?.length) this.queue.restore(transcript.queue);
    this.review.restore(transcript.review);
    this.notes.restore(transcript.notes);
  }

  transcript(): ConversationTranscript {
    return conversationTranscript(this);
  }

  snapshot(): ConversationSnapshot {
    return conversationSnapshot(this);
  }

  /** What the agent takes in a prompt besides text and links; undefined until it initialized. */
  promptCapabilities(): PromptCapabilitiesView | undefined {
    return promptCapabilities(this);
  }

  tab(): TabView {
    return conversationTab(this);
  }

  /** The user wrote a prompt: it is queued, and sent as soon as the conversation can. */
  prompt(text: string, mentions: readonly MentionChip[] = []): boolean {
    // Review notes alone are a prompt too: the agent is asked to address them.
    const said = text.trim() === '' && mentions.length === 0 && this.notes.pendingCount > 0 ? l10n.t('Please address my review notes.') : text;
    const id = this.queue.add(said, mentions);
    if (id === undefined) {
      this.log.warn('A prompt was not queued: it is empty, too long, or the queue is full.');
      return false;
    }
    this.turns.pump();
    return true;
  }

  /** Signs in with the agent's first method (the sign-in card offers them all), then opens the session again. */
  async signInFirst(): Promise<void> {
    const runtime = this.link.agentRuntime;
    if (!runtime?.alive || runtime.authMethods.length === 0) return this.link.connect();
    if (this.thread.entries().every((e) => e.kind !== 'auth')) this.showSignIn(runtime.authMethods, l10n.t('Sign-in required'));
    await this.signIn.authenticateFirst();
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

  /** The agent advertised `logout`, so Sign out reaches it. */
  get canSignOut(): boolean {
    return this.link.agentRuntime?.canLogout === true;
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
    this.thread.addError(failure.message, failure.detail, failure.action, failure.offerCheck === true);
    this.flag('error');
    if (failure.pause !== undefined) this.queue.pause(failure.pause);
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
    void this.worktree?.titled(title);
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

  /** The sign-in card; once signed in, the session opens again with the queue going. */
  private showSignIn(methods: acp.AuthMethod[], message: string): void {
    this.signIn.show(methods, message, async () => {
      this.queue.resume();
      await this.link.connect();
    });
  }

  /** The worktree part, for a conversation that has one (and an editor that offers them). */
  private worktreePart(): ConversationWorktree | undefined {
    const host = this.ports.editor.worktrees;
    if (!this.meta.worktree || !host) return undefined;
    const changed = (worktree: WorktreeView) => this.emit([{ type: 'worktreeChanged', worktree }]);
    const recreated = () => {
      this.setStatus({ kind: 'idle', agentName: this.agentName });
      this.turns.pump();
    };
    const parts = { host, thread: this.thread, review: this.review, changed, saved: () => this.conversationChanged(), recreated };
    return this.register(new ConversationWorktree(this, this.meta.worktree, parts));
  }

  private followLive(path: string, line: number | undefined): void {
    if (this.turns.active) this.ports.follow(path, line);
  }

  private emit(changes: ConversationChange[]): void {
    if (changes.length > 0) this.changes.fire(changes);
  }

  private conversationChanged(): void {
    const change: ConversationChange = { type: 'conversationChanged', title: this.meta.title };
    if (this.meta.sessionId !== undefined) change.sessionId = this.meta.sessionId;
    this.emit([change]);
    this.metaChanges.fire();
  }
}
