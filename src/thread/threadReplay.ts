import type { ThreadView } from './threadView';

/** Quiet time after which a replay that goes on past the load answer is taken as complete. */
export const REPLAY_QUIET_MS = 1500;

export interface ReplayHooks {
  /** A fresh view to gather the replay in. */
  create(): ThreadView;
  /** Makes the replay the shown view (and tells the panel). */
  swap(view: ThreadView): void;
  /** The replay ended after it was shown: nothing in it may be left pending. */
  settle(): void;
}

/**
 * A `session/load` replay, gathered in a view of its own while the stored transcript stays on
 * screen. It replaces the transcript once it has something to show — at the answer, or later, as
 * some agents send most of the history after answering — so the thread is never shown twice and an
 * agent that replays nothing does not blank it. Replays are not faithful (calls without kinds or
 * updates, plans as tool calls): when the replay ends, nothing in it is left pending.
 */
export class ThreadReplay {
  private view: ThreadView | undefined;
  private answeredYet = false;
  private swapped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hooks: ReplayHooks) {}

  /** Where replayed updates go until the replay is shown; undefined when none is being gathered. */
  target(): ThreadView | undefined {
    return this.swapped ? undefined : this.view;
  }

  begin(): void {
    this.abandon();
    this.view = this.hooks.create();
  }

  /** A replayed update was applied out of sight. */
  applied(): void {
    if (!this.answeredYet) return;
    this.swapIfAny();
    this.arm();
  }

  answered(): void {
    if (!this.view) return;
    this.answeredYet = true;
    this.swapIfAny();
    this.arm();
  }

  /** Ends the replay now (quiet period over, or a turn starts): shows it, settles it. */
  finish(): void {
    if (!this.view || !this.answeredYet) return;
    this.swapIfAny();
    const swapped = this.swapped;
    this.abandon();
    if (swapped) this.hooks.settle();
  }

  /** Drops the replay (the load failed, or the conversation lost its runtime); the transcript stays. */
  abandon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.view = undefined;
    this.answeredYet = false;
    this.swapped = false;
  }

  private swapIfAny(): void {
    const view = this.view;
    if (!view || this.swapped || view.reducer.size === 0) return;
    this.swapped = true;
    this.hooks.swap(view);
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.finish(), REPLAY_QUIET_MS);
    this.timer.unref?.();
  }
}
