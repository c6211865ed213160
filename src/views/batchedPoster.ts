import type { HostMessage } from '../protocol/messages';
import { MessageBatch } from './messageBatch';

/** Messages in one post from which the stream counts as a flood (a replay, a fast agent). */
const FLOOD_MESSAGES = 32;
/** At most this many messages in one post bring the interval back to its minimum. */
const CALM_MESSAGES = 8;
/** Longest interval a flood stretches the pacing to. */
const FLOOD_INTERVAL_MS = 100;

/**
 * Posts host messages to the panel, merged by MessageBatch, about once per interval. The panel draws
 * at most once per frame and every post costs both sides work, so a burst is gathered; but latency
 * matters more than rate for what stands alone:
 * - an isolated update goes out on the next tick, and so does one right after it (the pacing is a
 *   token bucket holding two posts, refilled one per interval), so the first chunk of an answer is
 *   not held back by the post of the prompt that started it;
 * - a change of status (a turn starting or ending) goes out at once with whatever is waiting: nothing
 *   more is coming to merge it with, and the end of a stream shows without delay;
 * - while a post carries many messages (a flood: an agent far faster than anyone reads, a replayed
 *   history) the interval doubles up to 100 ms, since in a flood most of the panel's work (and of
 *   the transport's) is per post, not per message, and ten updates a second are more than anyone
 *   reads at that pace; calmer posts bring it back to the minimum.
 */
export class BatchedPoster {
  private readonly batch = new MessageBatch();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private interval: number;
  /** Posts allowed now (at most 2); refilled one per interval since `refilledAt`. */
  private tokens = 2;
  private refilledAt = Number.NEGATIVE_INFINITY;
  /** Messages pushed since the last post. */
  private pushed = 0;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly intervalMs = 16,
  ) {
    this.interval = intervalMs;
  }

  /** True when nothing is waiting to be posted. */
  get idle(): boolean {
    return this.timer === undefined && this.batch.isEmpty;
  }

  push(message: HostMessage): void {
    this.batch.push(message);
    this.pushed++;
    if (message.type === 'statusChanged') {
      // Not counted against the pace: status changes are rare, and the post after one must not wait.
      this.flush(false);
      return;
    }
    if (this.timer) return;
    this.refill();
    const wait = this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) * this.interval);
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Posts what waits now; `paced`: the post counts against the pace. */
  flush(paced = true): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const messages = this.batch.take();
    if (messages.length === 0) return;
    this.refill();
    if (paced) this.tokens = Math.max(0, this.tokens - 1);
    if (this.pushed >= FLOOD_MESSAGES) this.interval = Math.min(Math.max(this.intervalMs, FLOOD_INTERVAL_MS), this.interval * 2);
    else if (this.pushed <= CALM_MESSAGES) this.interval = this.intervalMs;
    this.pushed = 0;
    this.post(messages.length === 1 ? messages[0] : { type: 'batch', messages });
  }

  /** Drops what is waiting (a snapshot is about to carry it). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.batch.take();
    this.pushed = 0;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(2, this.tokens + (now - this.refilledAt) / this.interval);
    this.refilledAt = now;
  }
}
