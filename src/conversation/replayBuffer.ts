import { Disposable } from '../util/disposable';
import type { Conversation } from './conversation';
import type { Thread } from '../thread/thread';

/** Quiet time after which a replay that goes on past the load answer is taken as complete. */
export const REPLAY_QUIET_MS = 1500;

/**
 * A `session/load` replay, gathered in a thread of its own while the stored transcript stays on
 * screen. It replaces the transcript once it has something to show — at the answer, or later, as
 * some agents send most of the history after answering — so the thread is never shown twice and an
 * agent that replays nothing does not blank it. Replays are not faithful (calls without kinds or
 * updates, plans as tool calls): when the replay ends, nothing in it is left pending.
 */
export class ReplayBuffer extends Disposable {
  private thread: Thread | undefined;
  private answeredYet = false;
  private swapped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly c: Conversation) {
    super();
  }

  /** A load is about to be sent. */
  begin(): void {
    this.abandon();
    this.thread = this.c.createThread();
  }

  /** Routes a replayed update into the replay; false when no replay is in progress. */
  apply(update: Record<string, unknown>): boolean {
    const thread = this.thread;
    if (!thread) return false;
    thread.applyUpdate(update);
    if (this.answeredYet) {
      this.swapIfAny();
      this.arm();
    }
    return true;
  }

  /** The agent answered the load; more of the replay may follow. */
  answered(): void {
    if (!this.thread) return;
    this.answeredYet = true;
    this.swapIfAny();
    this.arm();
  }

  /** Ends the replay now (quiet period over, or a turn starts): shows it, settles it. */
  finish(): void {
    if (!this.thread || !this.answeredYet) return;
    this.swapIfAny();
    if (this.swapped) this.c.emit(this.c.thread.reducer.markCancelling());
    this.abandon();
  }

  /** Drops the replay (load failed, or the conversation lost its runtime); the transcript stays. */
  abandon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.thread = undefined;
    this.answeredYet = false;
    this.swapped = false;
  }

  override dispose(): void {
    this.abandon();
    super.dispose();
  }

  private swapIfAny(): void {
    const thread = this.thread;
    if (!thread || this.swapped || thread.reducer.size === 0) return;
    this.swapped = true;
    this.c.thread = thread;
    this.c.emit(thread.restate());
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.finish(), REPLAY_QUIET_MS);
    this.timer.unref?.();
  }
}
