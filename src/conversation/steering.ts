import * as l10n from '@vscode/l10n';
import type { MentionChip } from '../protocol/messages';
import { isRecord } from '../protocol/guards';
import { STEERING_METHOD } from '../runtime/steeringSupport';
import type { Thread } from '../thread/thread';
import { errorMessage } from '../util/errors';
import type { ConversationPorts, ConversationState } from './ports';
import { preparePrompt, type PreparedPrompt } from './promptPreparer';
import type { PromptQueue } from './promptQueue';
import type { SessionLink } from './sessionLink';
import type { TurnRunner } from './turnRunner';

/** How long the agent may take to say what it did with a steered message before it is queued instead. */
export const STEER_TIMEOUT_MS = 15_000;

/** What became of a steered message. */
export type SteerOutcome =
  /** It joined the running turn: the thread shows it marked steered. */
  | 'injected'
  /** The agent started a turn of its own with it (its running turn had just ended): shown as a plain prompt. */
  | 'startedNewTurn'
  /** It was not taken (no running turn, a failure, no answer in time): queued as the next prompt. */
  | 'queued';

export interface SteeringParts {
  thread: Pick<Thread, 'addUserMessage' | 'addNotice'>;
  queue: Pick<PromptQueue, 'add' | 'remove'>;
  link: Pick<SessionLink, 'connection' | 'sessionId' | 'agentRuntime'>;
  turns: Pick<TurnRunner, 'pump' | 'turnNumber'>;
  ports: Pick<ConversationPorts, 'promptContext'>;
}

/**
 * Sends a message the user wrote while a turn runs into that turn, for an agent that advertises
 * steering (src/runtime/steeringSupport.ts): the turn goes on, nothing is cancelled. Whatever goes
 * wrong — the agent refuses, fails, answers nonsense or not at all, its turn had ended — the message
 * is queued as the next prompt, so it is never lost; the log says why. Steered messages go out one
 * at a time, in the order they were written.
 */
export class Steering {
  /** The steers in flight, in order: the next waits for the one before. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly c: ConversationState,
    private readonly parts: SteeringParts,
  ) {}

  /** A message written now would be steered into the running turn (rather than queued). */
  get available(): boolean {
    const { link } = this.parts;
    return this.c.status.kind === 'running' && link.agentRuntime?.steering !== undefined && link.sessionId !== undefined && link.connection() !== undefined;
  }

  /** Steers `text` (and its chips) into the running turn; resolves with what became of it. */
  steer(text: string, mentions: readonly MentionChip[]): Promise<SteerOutcome> {
    const next = this.chain.then(() => this.deliver(text, mentions));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async deliver(text: string, mentions: readonly MentionChip[]): Promise<SteerOutcome> {
    const { c, parts } = this;
    const { link } = parts;
    const turn = parts.turns.turnNumber;
    const conn = link.connection();
    const sessionId = link.sessionId;
    const form = link.agentRuntime?.steering;
    if (!conn || sessionId === undefined || form === undefined || c.status.kind !== 'running') return this.queue(text, mentions, 'the turn had ended');
    let prepared: PreparedPrompt;
    try {
      prepared = await preparePrompt(text, mentions, link.agentRuntime?.initializeResult?.agentCapabilities?.promptCapabilities, parts.ports.promptContext);
    } catch (err) {
      return this.queue(text, mentions, `the message could not be prepared (${errorMessage(err)})`);
    }
    if (prepared.blocks.length === 0) return this.queue(text, mentions, 'nothing in it can be sent');
    if (parts.turns.turnNumber !== turn || c.status.kind !== 'running') return this.queue(text, mentions, 'the turn had ended');
    const shown = { mentions: prepared.mentions, contextNotes: prepared.notes };
    if (form === 'prompt') {
      // The RFD's form: an ordinary session/prompt during the turn. Its answer may come only once
      // the agent reached a safe point (or the turn's end), so the message shows at once; a refusal
      // (the turn was cancelled first, say) queues it and says so.
      parts.thread.addUserMessage(text, { ...shown, steered: true });
      c.log.info('Steered a message into the running turn (session/prompt).');
      conn.prompt(sessionId, prepared.blocks).catch((err: unknown) => {
        this.queue(text, mentions, `the agent did not take it: ${errorMessage(err)}`);
        parts.thread.addNotice('warning', l10n.t('The agent did not take the steered message; it was queued as the next prompt.'));
      });
      return 'injected';
    }
    // The adapters' form. promptRequired is asked for: an agent whose turn just ended hands the
    // message back rather than starting a turn Tandem would not know of.
    const params = { sessionId, prompt: prepared.blocks, _meta: { steering: { idleBehavior: 'promptRequired' } } };
    const answer = await this.requestWithin(conn.extension(STEERING_METHOD, params));
    if (answer.kind === 'late') {
      // Queued meanwhile: a late "injected" takes it back out of the queue, when it is still there.
      const queuedId = this.queueId(text, mentions, `${STEERING_METHOD} did not answer within ${STEER_TIMEOUT_MS / 1000} s`);
      void answer.later.then((result) => {
        if (outcomeOf(result) !== 'injected' || queuedId === undefined) return;
        if (parts.queue.remove(queuedId)) {
          parts.thread.addUserMessage(text, { ...shown, steered: true });
          c.log.info(`${STEERING_METHOD} answered late: the message joined the turn and left the queue.`);
        } else c.log.warn(`${STEERING_METHOD} answered late that it took a message that had already been sent again as a prompt.`);
      });
      return 'queued';
    }
    if (answer.kind === 'error') return this.queue(text, mentions, `${STEERING_METHOD} failed: ${answer.message}`);
    const outcome = outcomeOf(answer.result);
    switch (outcome) {
      case 'injected':
        parts.thread.addUserMessage(text, { ...shown, steered: true });
        c.log.info('Steered a message into the running turn.');
        return 'injected';
      case 'startedNewTurn':
        // The message was taken, as a turn of the agent's own: sending it again would say it twice.
        parts.thread.addUserMessage(text, shown);
        c.log.info(`${STEERING_METHOD}: the agent's turn had ended; it started a new one with the message.`);
        return 'startedNewTurn';
      case 'promptRequired':
        return this.queue(text, mentions, 'the agent has no running turn (promptRequired)');
      default:
        return this.queue(text, mentions, `${STEERING_METHOD} answered ${describe(answer.result)}`);
    }
  }

  /** The message was not taken: it goes as the next normal prompt, once the turn ends. */
  private queue(text: string, mentions: readonly MentionChip[], why: string): 'queued' {
    this.queueId(text, mentions, why);
    return 'queued';
  }

  private queueId(text: string, mentions: readonly MentionChip[], why: string): string | undefined {
    const { c, parts } = this;
    const id = parts.queue.add(text, mentions);
    if (id === undefined) {
      // The queue refused it (full): the text stays in the thread so it is not lost.
      c.log.warn(`A message could not be steered (${why}) nor queued.`);
      parts.thread.addNotice('warning', l10n.t('This message could not be sent or queued: {0}', text));
      return undefined;
    }
    c.log.warn(`A message was not steered into the turn (${why}); it was queued as the next prompt.`);
    parts.turns.pump();
    return id;
  }

  /** The request's answer, or `late` (with the answer still to come) after STEER_TIMEOUT_MS. */
  private requestWithin(
    request: Promise<unknown>,
  ): Promise<{ kind: 'answer'; result: unknown } | { kind: 'error'; message: string } | { kind: 'late'; later: Promise<unknown> }> {
    const later = request.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<{ kind: 'late'; later: Promise<unknown> }>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'late', later }), STEER_TIMEOUT_MS);
    });
    const answered = request.then(
      (result) => ({ kind: 'answer' as const, result }),
      (err: unknown) => ({ kind: 'error' as const, message: errorMessage(err) }),
    );
    return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
  }
}

/** The `outcome` of a `_session/steering` answer, when it is one. */
function outcomeOf(result: unknown): string | undefined {
  return isRecord(result) && typeof result.outcome === 'string' ? result.outcome : undefined;
}

/** A short, safe rendering of an unexpected answer for the log. */
function describe(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json.length > 200 ? `${json.slice(0, 200)}…` : json;
  } catch {
    return typeof value;
  }
}
