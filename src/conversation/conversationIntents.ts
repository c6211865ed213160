import * as l10n from '@vscode/l10n';
import type { ProtocolLog } from '../acp/protocolLog';
import type { RuleScope } from '../permissions/permissionRule';
import type { ConversationStatus, Entry, MentionChip, ReviewNoteView } from '../protocol/messages';
import type { ConversationMeta } from '../store/conversationMeta';
import { Disposable } from '../util/disposable';
import type { ConversationParts } from './conversationParts';
import { handoffNotice } from './handoff';
import type { ConversationPorts } from './ports';
import { MAX_QUEUED_TEXT } from './promptQueue';
import { editPrompt, type BranchSpec, type EditOutcome } from './promptEditing';
import type { SignOutOutcome } from './signIn';

/** A review note as the user wrote it (the panel's gutter or the editor's comment thread). */
export interface NoteInput {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  hunk?: string;
}

/**
 * The front door of a Conversation: everything a user or the editor can ask of it, each intent
 * sequencing the parts it needs once (a retry resumes the queue and then pumps or connects — here,
 * not in each caller). Conversation extends this and adds the state it keeps and the read
 * queries; the split is by concept, callers see one class.
 */
export abstract class ConversationIntents extends Disposable {
  abstract readonly internals: ConversationParts;
  abstract readonly meta: ConversationMeta;
  abstract readonly log: ProtocolLog;
  abstract get agentName(): string;
  abstract get status(): ConversationStatus;

  constructor(protected readonly ports: ConversationPorts) {
    super();
  }

  /** One entry of the thread, as the panel shows it. */
  entry(entryId: string): Entry | undefined {
    return this.internals.thread.entries().find((e) => e.id === entryId);
  }

  // --- the session -----------------------------------------------------------------------------

  /** Opens its agent session (starting the agent when needed). */
  connect(): Promise<void> {
    return this.internals.link.connect();
  }

  /** Closes its agent session (the tab closes, or the agent changes). */
  disconnect(): Promise<void> {
    return this.internals.link.close();
  }

  /** Stops its agent's process (shared with the agent's other conversations) and connects again, the queue going. */
  async restart(): Promise<void> {
    await this.ports.restartAgent(this.agentName, this.internals.link.agentRuntime);
    await this.reconnect();
  }

  /** After what stopped it (a sign-in, a restart): the queue goes again and the session opens. */
  async reconnect(): Promise<void> {
    this.internals.queue.resume();
    await this.internals.link.connect();
  }

  /** Retry after an error: the queue goes again, sent at once when the session is ready, else once it opens. */
  async retry(): Promise<void> {
    this.internals.queue.resume();
    if (this.status.kind === 'ready') this.internals.turns.pump();
    else await this.internals.link.connect();
  }

  /**
   * **Retry** on a turn end: the same prompt and context, as they were sent, again in the same
   * session. An agent that went away (its process ended) is started again first, as Restart does;
   * the queue goes on after it. False when that turn end offers no Retry (any more).
   */
  async retryTurn(entryId: string): Promise<boolean> {
    const { thread, turns, queue } = this.internals;
    if (!thread.offersRetry(entryId) || turns.busy) return false;
    const kept = turns.retries.request();
    thread.withdrawRetry();
    if (!kept) return false;
    // The user chose to go on: what was queued after the failed turn follows the retry.
    queue.resume();
    if (this.status.kind === 'stopped') await this.restart();
    else turns.pump();
    return true;
  }

  /** Continue with Another Agent…: this new conversation says which conversation, with which agent, it continues. */
  continuesFrom(source: Pick<ConversationMeta, 'title' | 'agentName'>): void {
    this.internals.thread.addNotice('info', handoffNotice(source));
  }

  /** A new agent session for this conversation (the old one was lost); the transcript stays. */
  startFresh(): Promise<void> {
    return this.internals.link.startFresh();
  }

  setMode(modeId: string): Promise<void> {
    return this.internals.settings.setMode(modeId);
  }

  setConfigOption(configId: string, value: string | boolean): Promise<boolean> {
    return this.internals.settings.setConfigOption(configId, value);
  }

  // --- turns and the queue ---------------------------------------------------------------------

  /**
   * The user wrote a prompt: while a turn runs and the agent advertises steering, it goes into that
   * turn (queued instead if the agent does not take it); otherwise it is queued, and sent as soon as
   * the conversation can.
   */
  prompt(text: string, mentions: readonly MentionChip[] = []): boolean {
    const { notes, queue, turns, steering } = this.internals;
    if (steering.available && (text.trim() !== '' || mentions.length > 0) && text.length <= MAX_QUEUED_TEXT) {
      void steering.steer(text, mentions);
      return true;
    }
    // Review notes alone are a prompt too: the agent is asked to address them.
    const said = text.trim() === '' && mentions.length === 0 && notes.pendingCount > 0 ? l10n.t('Please address my review notes.') : text;
    if (queue.add(said, mentions) === undefined) {
      this.log.warn('A prompt was not queued: it is empty, too long, or the queue is full.');
      return false;
    }
    turns.pump();
    return true;
  }

  /** Stops the running turn. */
  stop(): void {
    this.internals.turns.cancel();
  }

  stopSubagent(childSessionId: string): void {
    this.internals.turns.cancelChild(childSessionId);
  }

  /** The queue was paused (a failure): it goes again. */
  resumeQueue(): void {
    this.internals.queue.resume();
    this.internals.turns.pump();
  }

  editQueued(itemId: string, text: string): boolean {
    return this.internals.queue.edit(itemId, text);
  }

  removeQueued(itemId: string): boolean {
    return this.internals.queue.remove(itemId);
  }

  moveQueued(itemId: string, offset: number): boolean {
    return this.internals.queue.move(itemId, offset);
  }

  /**
   * A queued prompt goes now: into the running turn when the agent takes steering (nothing is
   * stopped), else the running turn is stopped for it.
   */
  sendNow(itemId: string): void {
    const { queue, steering, turns } = this.internals;
    const item = steering.available ? queue.view().items.find((i) => i.id === itemId) : undefined;
    if (item && queue.remove(itemId)) {
      void steering.steer(item.text, item.mentions ?? []);
      return;
    }
    turns.sendNow(itemId);
  }

  clearQueue(): void {
    this.internals.queue.clear();
  }

  // --- what the agent asks ---------------------------------------------------------------------

  /** Answers a permission prompt; false when it was already answered or is unknown. */
  respondPermission(requestId: string, optionId: string): boolean {
    return this.internals.permissions.respond(requestId, optionId);
  }

  saveRule(requestId: string, value: string, scope: RuleScope): Promise<void> {
    return this.internals.permissions.saveRule(requestId, value, scope);
  }

  dismissRule(requestId: string): void {
    this.internals.permissions.dismissRule(requestId);
  }

  answerQuestion(entryId: string, action: 'accept' | 'decline' | 'cancel', content: unknown): void {
    this.internals.questions.answer(entryId, action, content);
  }

  openQuestionUrl(entryId: string): void {
    this.internals.questions.openUrl(entryId);
  }

  // --- signing in and out ----------------------------------------------------------------------

  /** Signs in with the agent's first method (the sign-in card offers them all), then opens the session again. */
  async signIn(): Promise<void> {
    const { link, thread, signIn } = this.internals;
    const runtime = link.agentRuntime;
    if (!runtime?.alive || runtime.authMethods.length === 0) return link.connect();
    if (thread.entries().every((e) => e.kind !== 'auth')) this.showSignIn(runtime.authMethods, l10n.t('Sign-in required'));
    await signIn.authenticateFirst();
  }

  /** A method of the sign-in card. */
  authenticate(methodId: string): Promise<void> {
    return this.internals.signIn.authenticate(methodId);
  }

  /**
   * Sign out: the editor forgets the keys it keeps for the agent (`forgetKeys`, true when there
   * were some), the agent forgets its own credentials when it supports that, and with keys gone
   * the agent starts again without them. Says how the agent's part went.
   */
  async signOut(forgetKeys: () => Promise<boolean>): Promise<SignOutOutcome & { forgotKeys: boolean }> {
    const forgotKeys = await forgetKeys();
    const outcome = await this.internals.signIn.signOut();
    if (forgotKeys) {
      await this.restart();
      if (outcome.kind === 'unsupported')
        this.internals.thread.addNotice('info', l10n.t('Tandem forgot the key it kept for {0}; it asks for one again when it needs it.', this.agentName));
    }
    return { ...outcome, forgotKeys };
  }

  /** The sign-in card; once signed in, the session opens again with the queue going. */
  protected showSignIn(methods: Parameters<ConversationParts['signIn']['show']>[0], message: string): void {
    this.internals.signIn.show(methods, message, () => this.reconnect());
  }

  // --- review, notes, worktree -----------------------------------------------------------------

  /** Files changed on disk (the editor saw a save): the changed-files strip looks again. */
  refreshReview(): void {
    this.internals.review.refreshSoon();
  }

  keep(paths?: readonly string[]): Promise<void> {
    return this.internals.review.keep(paths);
  }

  undo(paths?: readonly string[]): Promise<void> {
    return this.internals.review.undo(paths);
  }

  toggleHunks(path: string, open: boolean): Promise<void> {
    return this.internals.review.toggleHunks(path, open);
  }

  reviewHunk(path: string, index: number, action: 'accept' | 'reject'): Promise<void> {
    return this.internals.review.hunk(path, index, action);
  }

  /** Restores the files as they were before a turn (its prompt back in the composer); false: nothing was recorded for it. */
  async rewind(entryId: string): Promise<boolean> {
    const entry = this.entry(entryId);
    if (entry?.kind !== 'user' || entry.checkpoint === undefined) return false;
    await this.internals.review.rewind(entry.checkpoint, entry.text);
    return true;
  }

  /**
   * Sends an earlier prompt again, edited: its turn's files restored (previewed; a No stops it), the
   * conversation goes on from there in a new branch shown in this tab; this one is kept (promptEditing.ts).
   */
  editPrompt(entryId: string, text: string): Promise<EditOutcome> {
    return editPrompt({ id: this.meta.id, agentName: this.agentName, status: this.status, meta: this.meta }, this.internals, this.ports, entryId, text);
  }

  /** Shows another version of an edited prompt (`‹ 1/2 ›`): its branch takes this tab; false when there is none that way. */
  async switchBranch(entryId: string, offset: number): Promise<boolean> {
    return (await this.ports.branches?.switchTo(this.meta.id, entryId, offset)) ?? false;
  }

  /** This conversation is a new branch (the manager made it for an edit): the history before the edited prompt, how its session starts, and the prompt. */
  startBranch(spec: BranchSpec): void {
    const { thread, review, branchStart } = this.internals;
    thread.restore(spec.entries, spec.terminals);
    review.restore(spec.review);
    branchStart.arm(spec.plan);
    if (spec.restoreFailed) thread.addNotice('warning', l10n.t('The files could not be restored to before that turn; they stay as they are.'));
    this.prompt(spec.text);
  }

  addNote(note: NoteInput): Promise<ReviewNoteView | undefined> {
    return this.internals.notes.add(note);
  }

  removeNote(noteId: string): void {
    this.internals.notes.remove(noteId);
  }

  clearNotes(): void {
    this.internals.notes.clearPending();
  }

  async applyWorktree(): Promise<void> {
    await this.internals.worktree?.apply();
  }

  async commitWorktree(): Promise<void> {
    await this.internals.worktree?.commit();
  }

  async discardWorktree(): Promise<void> {
    await this.internals.worktree?.discard();
  }

  async recreateWorktree(): Promise<void> {
    await this.internals.worktree?.recreate();
  }
}
