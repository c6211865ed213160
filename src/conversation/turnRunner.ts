import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { AgentExitedError } from '../acp/agentConnection';
import { readBridgeFailure } from '../protocol/bridgeFailure';
import type { QueuedPromptView } from '../protocol/messages';
import { AUTH_REQUIRED } from '../runtime/startFailure';
import { describeTurnUsage } from '../thread/configOptions';
import { quotaFailureMessage } from './quotaFailure';
import type { Thread } from '../thread/thread';
import { Disposable } from '../util/disposable';
import { errorCode, errorData, errorMessage } from '../util/errors';
import type { BranchStart } from './branchStart';
import type { ConversationReview } from './conversationReview';
import type { PermissionDesk } from './permissionDesk';
import type { ConversationPorts, ConversationState } from './ports';
import { preparePrompt, type PreparedPrompt } from './promptPreparer';
import type { PromptQueue } from './promptQueue';
import type { QuestionDesk } from './questionDesk';
import type { ReviewNoteDesk } from './reviewNoteDesk';
import type { SessionLink } from './sessionLink';
import type { SignIn } from './signIn';
import { TurnRetry, type SentPrompt } from './turnRetry';

/** What the runner uses besides the conversation's state. */
export interface TurnParts {
  thread: Pick<Thread, 'finishReplay' | 'addUserMessage' | 'endTurn' | 'markCancelling' | 'childSession' | 'promptMetaReceived' | 'session'>;
  queue: Pick<PromptQueue, 'size' | 'paused' | 'takeNext' | 'unsend' | 'promote' | 'pause' | 'resume'>;
  review: Pick<ConversationReview, 'beginTurn' | 'endTurn' | 'takeNotes'>;
  /** The user's review notes: the pending ones go with the prompt. */
  notes: Pick<ReviewNoteDesk, 'take' | 'giveBack'>;
  link: Pick<SessionLink, 'connect' | 'connection' | 'sessionId' | 'agentRuntime'>;
  permissions: Pick<PermissionDesk, 'cancelAll' | 'cancelFor'>;
  questions: Pick<QuestionDesk, 'cancelAll'>;
  signIn: Pick<SignIn, 'show'>;
  ports: Pick<ConversationPorts, 'cancelGraceMs' | 'promptContext'>;
  /** A prompt went out: it names the conversation until the agent or the user gives it a title. */
  named(text: string): void;
  /** What goes before the first prompt of a branch's new session: the transcript (branchStart.ts). */
  preface?: Pick<BranchStart, 'takePreface'>;
}

/**
 * The agent says its configuration lacks something (the hosted bridge's missing context, a missing
 * variable): the error then offers to open the agent's settings rather than the log.
 */
function settingsProblem(err: unknown): boolean {
  const kind = readBridgeFailure(errorData(err))?.kind;
  return kind === 'missingContext' || kind === 'config';
}

/** Why the queue stops sending by itself after a turn that did not simply finish. */
function pauseReason(stopReason: string): string {
  switch (stopReason) {
    case 'cancelled':
      return l10n.t('The last turn was cancelled.');
    case 'error':
      return l10n.t('The last turn failed.');
    case 'refusal':
      return l10n.t('The agent refused the last prompt.');
    case 'max_tokens':
      return l10n.t('The last turn stopped at the token limit.');
    case 'max_turn_requests':
      return l10n.t('The last turn stopped at the request limit.');
    default:
      return l10n.t('The last turn stopped: {0}.', stopReason);
  }
}

/**
 * Runs a conversation's prompt turns: takes the next queued prompt when the session is ready,
 * sends it, and ends the turn with its stop reason. Stop sends session/cancel and answers pending
 * prompts `cancelled`; an agent that ignores the cancel gets a bounded wait. After a turn that did
 * not end normally the queue pauses: the user decides whether the rest still makes sense.
 */
export class TurnRunner extends Disposable {
  /** Bumped per turn so a late answer to an abandoned turn cannot end a newer one. */
  private token = 0;
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  /** "Send now" cancelled the turn: its cancellation must not pause the queue. */
  private sendNowPending = false;
  /** A prompt was taken and is being prepared (checkpoint): nothing else may be taken meanwhile. */
  private preparing = false;
  /** The last turn's prompt as sent, for Retry on its end. */
  readonly retries = new TurnRetry();

  constructor(
    private readonly c: ConversationState,
    private readonly parts: TurnParts,
  ) {
    super();
  }

  /** True from taking a prompt until its turn ended (including recording the files before it). */
  get busy(): boolean {
    return this.preparing || this.active;
  }

  /** Changes when a turn starts and when it ends: a steer that began in one turn can tell it is over. */
  get turnNumber(): number {
    return this.token;
  }

  /** True while a turn runs or is being cancelled. */
  get active(): boolean {
    const kind = this.c.status.kind;
    return kind === 'running' || kind === 'cancelling';
  }

  /** Sends the next queued prompt when the conversation can take it; connects an idle one first. */
  pump(): void {
    const { c, parts } = this;
    // A retry the user asked for goes first, paused queue or not.
    const again = this.retries.pending;
    if (this.preparing || (again === undefined && (parts.queue.size === 0 || parts.queue.paused))) return;
    switch (c.status.kind) {
      case 'ready': {
        if (again) return void this.send(again.item, this.retries.take());
        const next = parts.queue.takeNext();
        if (next) void this.send(next);
        return;
      }
      case 'idle':
      case 'stopped':
        void parts.link.connect();
        return;
      default:
        // starting / running / cancelling: pumped again when that ends; no_agent / untrusted: held.
        return;
    }
  }

  /**
   * Stop on a subagent's card: `session/cancel` with the child's session id, sent only when the
   * agent granted `capabilities.cancel` for that child and it is working. The parent's turn goes on;
   * the agent reports the child idle (`stopReason: cancelled`) through its parent.
   */
  cancelChild(childSessionId: string): void {
    const { c, parts } = this;
    const child = parts.thread.childSession(childSessionId);
    const conn = parts.link.connection();
    if (!child?.cancel || !conn || (child.state !== 'running' && child.state !== 'requires_action')) {
      c.log.warn(`Stop for subagent ${childSessionId} ignored: it is not a running subagent that may be stopped.`);
      return;
    }
    // As for the turn's Stop: the child's pending prompts are answered `cancelled` (ACP's cancel rule).
    parts.permissions.cancelFor(childSessionId);
    conn.cancel(childSessionId).catch((err) => c.log.warn(`session/cancel of subagent ${childSessionId} failed: ${errorMessage(err)}`));
  }

  /** Stop: session/cancel, pending prompts answered `cancelled`, bounded wait for the agent. */
  cancel(): void {
    const { c, parts } = this;
    const conn = parts.link.connection();
    const sessionId = parts.link.sessionId;
    if (c.status.kind !== 'running' || !conn || sessionId === undefined) return;
    const token = this.token;
    c.setStatus({ kind: 'cancelling', agentName: c.agentName });
    parts.permissions.cancelAll();
    parts.questions.cancelAll();
    parts.thread.markCancelling();
    conn.cancel(sessionId).catch((err) => c.log.warn(`session/cancel failed: ${errorMessage(err)}`));
    const grace = parts.ports.cancelGraceMs;
    this.cancelTimer = setTimeout(() => {
      if (token !== this.token || c.status.kind !== 'cancelling') return;
      c.fail({
        message: l10n.t(
          '{0} did not confirm the cancellation within {1} s; the turn was ended here. Restart the agent if it keeps working.',
          c.agentName,
          Math.round(grace / 1000),
        ),
        action: 'restart',
      });
      this.finish(token, 'cancelled');
    }, grace);
  }

  /** "Send now": this prompt goes next, stopping the running turn first. */
  sendNow(itemId: string): void {
    if (!this.parts.queue.promote(itemId)) return;
    if (this.c.status.kind === 'running') {
      this.sendNowPending = true;
      this.cancel();
    } else {
      this.pump();
    }
  }

  /** The process went away: the turn is over without an answer. */
  abandon(): void {
    this.token++;
    // What changed on disk until now was this turn's (the review settles who changed it).
    void this.parts.review.endTurn();
    this.clearCancelTimer();
    this.sendNowPending = false;
  }

  override dispose(): void {
    this.abandon();
    super.dispose();
  }

  /** Sends a queued prompt, or (`again`) a prompt sent before, with the very blocks it had. */
  private async send(item: Pick<QueuedPromptView, 'text' | 'mentions'>, again?: SentPrompt): Promise<void> {
    const { c, parts } = this;
    const { queue, link, thread } = parts;
    const text = item.text;
    const chips = item.mentions ?? [];
    thread.finishReplay();
    const conn = link.connection();
    const sessionId = link.sessionId;
    if (!conn || sessionId === undefined) {
      // Ready without a session cannot happen; if it did, the prompt must not be lost.
      queue.unsend(item, l10n.t('The agent is not connected.'));
      return;
    }
    const token = ++this.token;
    // The files as they are before the agent acts on this prompt (for review, undo and rewind),
    // and the mentioned context as it is now. Nothing else is taken from the queue meanwhile.
    this.preparing = true;
    let prepared: PreparedPrompt;
    let checkpoint: string | undefined;
    try {
      const capabilities = link.agentRuntime?.initializeResult?.agentCapabilities?.promptCapabilities;
      prepared = again ? again.prepared : await preparePrompt(text, chips, capabilities, parts.ports.promptContext);
      checkpoint = await parts.review.beginTurn(text);
    } catch (err) {
      this.preparing = false;
      queue.unsend(item, l10n.t('The prompt could not be prepared.'));
      c.fail({ message: l10n.t('The prompt could not be prepared: {0}', errorMessage(err)), action: 'showLog' });
      return;
    }
    this.preparing = false;
    if (token !== this.token || link.connection() !== conn) {
      queue.unsend(item, l10n.t('The agent stopped before this prompt was sent.'));
      void parts.review.endTurn();
      return;
    }
    // Review notes go only with a prompt that is sent (then they are marked sent). A retry's went
    // with it the first time, in its blocks; what is new waits for the next prompt.
    const reviewNotes = again === undefined && prepared.blocks.length > 0 ? parts.notes.take() : undefined;
    const told = again === undefined ? parts.review.takeNotes() : undefined;
    const note = again ? again.note : [told, reviewNotes?.summary].filter((n) => n !== undefined).join('\n') || undefined;
    const extras = { checkpoint, note, mentions: prepared.mentions, contextNotes: prepared.notes };
    if (prepared.blocks.length === 0) {
      // Only chips, none of which the agent takes (an image to a text-only agent): nothing to send.
      thread.addUserMessage(text, extras);
      c.fail({ message: l10n.t('Nothing was sent to {0}: {1}', c.agentName, prepared.notes.join(' ') || l10n.t('the prompt is empty.')) });
      void parts.review.endTurn();
      this.token++;
      this.pump();
      return;
    }
    c.setStatus({ kind: 'running', agentName: c.agentName });
    thread.addUserMessage(text, extras);
    parts.named(text || (prepared.mentions[0]?.label ?? ''));
    c.touch();
    const blocks: acp.ContentBlock[] = again
      ? structuredClone([...again.blocks])
      : [
          ...(told === undefined ? [] : [{ type: 'text' as const, text: `[Note from Tandem, the user's editor] ${told}` }]),
          ...(reviewNotes ? [{ type: 'text' as const, text: reviewNotes.prompt }] : []),
          ...(parts.preface?.takePreface(link.agentRuntime?.initializeResult?.agentCapabilities?.promptCapabilities?.embeddedContext === true) ?? []),
          ...prepared.blocks,
        ];
    this.retries.sending({ item: { text, mentions: chips }, prepared, note, blocks: structuredClone(blocks) });
    try {
      const response = await conn.prompt(sessionId, blocks);
      if (token === this.token) thread.promptMetaReceived((response as { _meta?: unknown })._meta);
      // Some agents report the turn's usage with the answer (not in the stable schema yet).
      this.finish(token, response.stopReason, describeTurnUsage((response as { usage?: unknown }).usage));
    } catch (err) {
      if (token !== this.token) return;
      if (this.cancelling()) {
        // Spec: a cancelled turn is not an error, even when the agent answers with one.
        this.finish(token, 'cancelled');
      } else if (err instanceof AgentExitedError) {
        // The exit handler reports the crash with the stderr tail.
      } else if (errorCode(err) === AUTH_REQUIRED) {
        // Kept for after the sign-in: it goes again once the user signed in, with its review notes.
        parts.notes.giveBack(reviewNotes);
        queue.unsend(item, l10n.t('Waiting for you to sign in.'));
        this.retries.forget();
        const runtime = link.agentRuntime;
        if (runtime && runtime.authMethods.length > 0) {
          parts.signIn.show(runtime.authMethods, errorMessage(err), async () => {
            queue.resume();
            this.pump();
          });
        } else c.fail({ message: l10n.t('{0} needs you to sign in before it can answer: {1}', c.agentName, errorMessage(err)), action: 'showLog' });
        this.finish(token, 'error');
      } else {
        // The agent refused the prompt: its notes go with the next one instead of counting as read.
        parts.notes.giveBack(reviewNotes);
        const quota = quotaFailureMessage(err, c.agentName, thread.session.quota());
        c.fail({
          message: quota ?? l10n.t('The agent could not complete the turn: {0}', errorMessage(err)),
          action: settingsProblem(err) ? 'openAgentSettings' : 'showLog',
        });
        this.finish(token, 'error');
      }
    }
  }

  /** Read through a method: TypeScript would otherwise keep a narrowing from before an await. */
  private cancelling(): boolean {
    return this.c.status.kind === 'cancelling';
  }

  private finish(token: number, stopReason: string, usage?: string): void {
    const { c, parts } = this;
    if (token !== this.token) return;
    this.token++;
    this.clearCancelTimer();
    parts.permissions.cancelAll();
    parts.questions.cancelAll();
    parts.thread.endTurn(stopReason, usage);
    c.touch();
    void parts.review.endTurn();
    if (this.active) c.setStatus({ kind: 'ready', agentName: c.agentName });
    c.flag('finished');
    const sendNow = this.sendNowPending;
    this.sendNowPending = false;
    if (stopReason !== 'end_turn' && !(sendNow && stopReason === 'cancelled')) parts.queue.pause(pauseReason(stopReason));
    this.pump();
  }

  private clearCancelTimer(): void {
    if (this.cancelTimer) clearTimeout(this.cancelTimer);
    this.cancelTimer = undefined;
  }
}
