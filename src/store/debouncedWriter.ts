/**
 * Coalesces bursts of "this changed, save it" into one save per key.
 *
 * Streaming marks a conversation dirty dozens of times a second; serialising a transcript on each
 * of those would stall the very stream being saved. So callers hand over a job whose work (produce
 * the value, serialise it, write it) happens only when the timer fires: after `debounceMs` of quiet,
 * but no later than `maxWaitMs` after the first change of the burst, so a never-ending stream is
 * still saved regularly. Two timers instead of a clock keep it testable with mocked `setTimeout`.
 */

/** One deferred save. `run` and `runSync` do the same work; only one of them is called. */
export interface WriteJob {
  /** Produces the value and writes it; resolves once it is on disk. */
  run(): Promise<void>;
  /** The same, synchronously, for shutdown when nothing may be awaited. */
  runSync(): void;
}

export interface DebouncedWriterOptions {
  /** Quiet time after the last change before the job runs. */
  debounceMs: number;
  /** Longest a change may wait, however long the burst lasts. */
  maxWaitMs: number;
  /** A job threw or its write failed. Jobs run detached, so nobody else could hear about it. */
  onError(key: string, err: unknown): void;
}

interface Scheduled {
  job: WriteJob;
  quiet: ReturnType<typeof setTimeout>;
  deadline: ReturnType<typeof setTimeout>;
}

export class DebouncedWriter {
  private readonly scheduled = new Map<string, Scheduled>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly opts: DebouncedWriterOptions) {}

  /**
   * Marks `key` dirty. The newest job replaces any earlier one still waiting (only the latest state
   * matters); the quiet timer restarts, the deadline set by the first change of the burst does not.
   */
  schedule(key: string, job: WriteJob): void {
    const existing = this.scheduled.get(key);
    if (existing) {
      clearTimeout(existing.quiet);
      existing.job = job;
      existing.quiet = setTimeout(() => void this.runNow(key), this.opts.debounceMs);
      return;
    }
    this.scheduled.set(key, {
      job,
      quiet: setTimeout(() => void this.runNow(key), this.opts.debounceMs),
      deadline: setTimeout(() => void this.runNow(key), Math.max(this.opts.debounceMs, this.opts.maxWaitMs)),
    });
  }

  /** True while a job for `key` is waiting for its timer. */
  isScheduled(key: string): boolean {
    return this.scheduled.has(key);
  }

  /** Forgets the waiting job for `key` (its value is no longer wanted, e.g. the conversation was deleted). */
  cancel(key: string): void {
    this.take(key);
  }

  /** Runs the waiting job for `key` now, if any, and resolves when its write is done. Never rejects. */
  runNow(key: string): Promise<void> {
    const entry = this.take(key);
    if (!entry) return Promise.resolve();
    let done: Promise<void>;
    try {
      done = entry.job.run().catch((err: unknown) => this.opts.onError(key, err));
    } catch (err) {
      // The producer threw synchronously: report it like a failed write, never to the caller.
      this.opts.onError(key, err);
      return Promise.resolve();
    }
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
    return done;
  }

  /** Runs every waiting job now and resolves when all writes (these and earlier ones) are done. */
  async flush(): Promise<void> {
    for (const key of [...this.scheduled.keys()]) void this.runNow(key);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Runs every waiting job synchronously. A failing job is reported and does not stop the others. */
  flushSync(): void {
    for (const key of [...this.scheduled.keys()]) {
      const entry = this.take(key);
      if (!entry) continue;
      try {
        entry.job.runSync();
      } catch (err) {
        this.opts.onError(key, err);
      }
    }
  }

  /** Drops every waiting job without running it (timers included). */
  clear(): void {
    for (const key of [...this.scheduled.keys()]) this.take(key);
  }

  private take(key: string): Scheduled | undefined {
    const entry = this.scheduled.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.quiet);
    clearTimeout(entry.deadline);
    this.scheduled.delete(key);
    return entry;
  }
}
