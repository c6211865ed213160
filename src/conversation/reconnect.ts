import * as l10n from '@vscode/l10n';
import { AgentExitedError } from '../acp/agentConnection';
import { RemoteConnectionError } from '../acp/remoteFailure';
import type { ConversationStatus, NoticeEntry } from '../protocol/messages';
import type { Thread } from '../thread/thread';
import type { IDisposable } from '../util/disposable';
import { errorData, errorMessage } from '../util/errors';
import type { ConversationState } from './ports';
import type { PromptQueue } from './promptQueue';

/** Attempts after a drop before the conversation gives up and offers Retry. */
export const RECONNECT_ATTEMPTS = 8;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * The wait before attempt `attempt` (1-based): doubling from 0.5 s up to 30 s, each ±20 % so that
 * the conversations of a restarted server do not all knock at the same instant. About two minutes
 * for all of them: long enough for a server restart or a network change, short enough that a
 * machine that is gone is said soon.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Whether a failed attempt may succeed later: the address does not answer yet, times out or drops
 * (a server restarting, a network coming back, an ssh tunnel ending with 255). A refused token, a
 * TLS error or an address that is not ACP needs the user: the attempts stop and the failure is said.
 */
export function mayRecover(err: unknown): boolean {
  if (err instanceof RemoteConnectionError) return err.transient;
  if (err instanceof AgentExitedError) return err.exit.code === 255;
  // The HTTP transport's own failures of one request (resume or load answered 502 by a gateway
  // whose agent is still starting): a server error or a rate limit passes, a 4xx does not.
  const status = (errorData(err) as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && (status >= 500 || status === 429);
}

export interface ReconnectParts {
  c: Pick<ConversationState, 'agentName' | 'fail'>;
  thread: Pick<Thread, 'addEntry' | 'replaceEntry' | 'endTurn'>;
  queue: Pick<PromptQueue, 'size'>;
  /** Makes one attempt (the link connects again and reattaches the session). */
  attempt(): void;
  /** The status changed (the link shows "Reconnecting…" with the attempt). */
  showStatus(): void;
  random?: () => number;
}

/**
 * A conversation whose agent on another machine dropped the connection: it says so, tries again
 * with growing waits, and says how it ended. The turn that ran is marked interrupted (never left
 * spinning, never silently gone) and the queue holds what comes after it — not paused: an
 * interruption is not the user's cancel, so what waits (queued behind the turn, or typed while
 * reconnecting) goes out once, in order, when the session is back, and the notice says so. Once
 * back, the link has reattached the same session (`session/resume`, else `session/load`). After
 * {@link RECONNECT_ATTEMPTS} failures the error offers Retry.
 */
export class Reconnect implements IDisposable {
  private attemptNo = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private notice: NoticeEntry | undefined;
  private lastError = '';

  constructor(private readonly parts: ReconnectParts) {}

  get active(): boolean {
    return this.attemptNo > 0;
  }

  /** The `starting` status: with the attempt while reconnecting (`detail` says what is being done, if anything). */
  startingStatus(agentName: string, detail?: string): ConversationStatus {
    if (!this.active) return { kind: 'starting', agentName, ...(detail ? { detail } : {}) };
    const reconnecting = { attempt: Math.min(this.attemptNo, RECONNECT_ATTEMPTS), attempts: RECONNECT_ATTEMPTS };
    return {
      kind: 'starting',
      agentName,
      detail: detail ?? l10n.t('Reconnecting… attempt {0} of {1}', reconnecting.attempt, reconnecting.attempts),
      reconnecting,
    };
  }

  /** The connection dropped: `description` says how; `interrupted` when a turn was running. */
  lost(description: string, interrupted: boolean): void {
    this.stop();
    const { c, thread } = this.parts;
    if (interrupted) thread.endTurn('interrupted');
    this.lastError = description;
    this.notice = thread.addEntry((id) => ({ kind: 'notice', id, level: 'warning', message: l10n.t('{0} {1}. Reconnecting…', c.agentName, description) }));
    this.next();
  }

  /**
   * An attempt failed. True when that is handled here (another attempt is on its way, or the
   * attempts ran out and the error is written); false when the link should say the failure itself
   * (not reconnecting, or nothing to wait for: a sign-in, a certificate, a wrong address).
   */
  failed(err: unknown): boolean {
    if (!this.active) return false;
    if (!mayRecover(err)) {
      this.say('warning', l10n.t('Reconnecting to {0} stopped: {1}', this.parts.c.agentName, errorMessage(err)));
      this.end();
      return false;
    }
    this.lastError = errorMessage(err);
    this.next();
    return true;
  }

  /** The session is attached again. */
  succeeded(): void {
    if (!this.active) return;
    const n = this.attemptNo;
    const back = n === 1 ? l10n.t('Reconnected to {0}.', this.parts.c.agentName) : l10n.t('Reconnected to {0} after {1} attempts.', this.parts.c.agentName, n);
    const waiting = this.parts.queue.size;
    // The queue goes on by itself once the session is ready: the notice says what is sent now.
    this.say(
      'info',
      waiting === 0
        ? back
        : waiting === 1
          ? l10n.t('{0} Sending the message written meanwhile.', back)
          : l10n.t('{0} Sending the {1} messages written meanwhile, in order.', back, waiting),
    );
    this.end();
  }

  /** Stops trying (the user restarted, closed the conversation, or connected on purpose). */
  stop(): void {
    this.end();
  }

  /** The agent was stopped on purpose while an attempt was under way: the notice says so, no attempt follows. */
  abandon(): void {
    if (!this.active) return;
    this.say('info', l10n.t('Reconnecting to {0} stopped: {1}', this.parts.c.agentName, l10n.t('the agent was stopped')));
    this.end();
  }

  dispose(): void {
    this.end();
  }

  private next(): void {
    if (this.attemptNo >= RECONNECT_ATTEMPTS) return this.giveUp();
    this.attemptNo++;
    const wait = reconnectDelay(this.attemptNo, this.parts.random);
    this.parts.showStatus();
    if (this.attemptNo > 1)
      this.say('warning', l10n.t('Reconnecting to {0}… attempt {1} of {2} ({3})', this.parts.c.agentName, this.attemptNo, RECONNECT_ATTEMPTS, this.lastError));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.parts.attempt();
    }, wait);
  }

  private giveUp(): void {
    const { c } = this.parts;
    this.say('warning', l10n.t('Reconnecting to {0} stopped after {1} attempts.', c.agentName, RECONNECT_ATTEMPTS));
    const lastError = this.lastError;
    this.end();
    c.fail({
      message: l10n.t('Could not reconnect to {0} after {1} attempts: {2}', c.agentName, RECONNECT_ATTEMPTS, lastError),
      action: 'retry',
      offerCheck: true,
      pause: l10n.t('{0} is not reachable.', c.agentName),
      stop: l10n.t('Connection lost'),
    });
  }

  /** The one notice of this drop, updated in place (a new one if it is gone from the thread). */
  private say(level: NoticeEntry['level'], message: string): void {
    const { thread } = this.parts;
    if (this.notice) {
      const updated: NoticeEntry = { ...this.notice, level, message };
      if (thread.replaceEntry(updated)) {
        this.notice = updated;
        return;
      }
    }
    this.notice = thread.addEntry((id) => ({ kind: 'notice', id, level, message }));
  }

  private end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.attemptNo = 0;
    this.notice = undefined;
  }
}
