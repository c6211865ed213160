import type * as acp from '@agentclientprotocol/sdk';
import type { QueuedPromptView } from '../protocol/messages';
import type { PreparedPrompt } from './promptPreparer';

/**
 * Stop reasons whose turn end offers Retry: the user stopped it, the agent refused or failed, or the
 * agent went away under it (`exited`: its process ended; `interrupted`: a remote connection dropped).
 * Not `max_tokens` nor `max_turn_requests`: the same prompt would run into the same limit again —
 * what the user wants there is "go on", which is a new prompt, not the old one resent.
 */
const RETRY_STOP_REASONS: ReadonlySet<string> = new Set(['cancelled', 'refusal', 'error', 'exited', 'interrupted']);

export function offersRetry(stopReason: string): boolean {
  return RETRY_STOP_REASONS.has(stopReason);
}

/** A prompt as it went to the agent: what is needed to send it again, identical. */
export interface SentPrompt {
  /** The composer's text and chips (what the queue would give back if it could not go). */
  readonly item: Pick<QueuedPromptView, 'text' | 'mentions'>;
  /** The chips as read then (views and notes for the thread); `blocks` below is what was sent. */
  readonly prepared: PreparedPrompt;
  /** What Tandem told the agent along with it (shown on the user entry). */
  readonly note: string | undefined;
  /** The `prompt` of `session/prompt` exactly as sent: Tandem's notes, review notes, text, context. */
  readonly blocks: readonly acp.ContentBlock[];
}

/**
 * The prompt of the conversation's last turn, kept so that **Retry** on its end sends the very same
 * blocks (the files' text as it was read then, the review notes as they were said) in the same
 * session; and the one retry waiting to go (the agent may have to start first). One prompt per
 * conversation is kept: only the last failed turn offers Retry. Kept in memory only: a transcript
 * restored after a reload offers no Retry (the reducer drops the flag).
 */
export class TurnRetry {
  private last: SentPrompt | undefined;
  private waiting: SentPrompt | undefined;

  /** A prompt goes to the agent (a new one, or a retry): it is the one Retry would send next. */
  sending(prompt: SentPrompt): void {
    this.last = prompt;
  }

  /** May the turn that just ended so offer Retry? */
  offers(stopReason: string): boolean {
    return this.last !== undefined && offersRetry(stopReason);
  }

  /** Retry was clicked: the last prompt waits to go before anything queued; false when none is kept. */
  request(): boolean {
    if (!this.last) return false;
    this.waiting = this.last;
    return true;
  }

  /** The retry waiting to go, if any (not taken). */
  get pending(): SentPrompt | undefined {
    return this.waiting;
  }

  /** Takes the retry waiting to go. */
  take(): SentPrompt | undefined {
    const prompt = this.waiting;
    this.waiting = undefined;
    return prompt;
  }

  /** The prompt went back to the queue (it waits for a sign-in): its turn end must not offer it twice. */
  forget(): void {
    this.last = undefined;
    this.waiting = undefined;
  }
}
