import * as l10n from '@vscode/l10n';
import type { Transcript } from './conversationFormat';
import { TranscriptEncoder, type EncodedTranscript } from './transcriptCap';

/** How the saves reach the disk (the store's atomic, serialised writes) and report problems. */
export interface TranscriptSavesOptions {
  maxBytes: number;
  /** Resolves true once written, false when the write failed (already reported). */
  write(file: string, json: string): Promise<boolean>;
  writeSync(file: string, json: string): boolean;
  warn(text: string): void;
  /** A transcript reached the disk (the search index marks it stale). */
  saved?(id: string): void;
}

/** One save: what to write (asked for when the save runs, so it is the latest state), and who waits. */
class SaveJob {
  superseded = false;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    readonly id: string,
    readonly produce: () => Transcript,
  ) {
    this.done = new Promise<void>((resolve) => (this.resolveDone = resolve));
  }

  finish(): void {
    this.resolveDone();
  }
}

interface FileState {
  running?: SaveJob;
  waiting?: SaveJob;
}

/**
 * Transcript saves whose serialisation is spread over the event loop (TranscriptEncoder, which also
 * keeps each conversation's serialised entries between saves). One save per file is encoded at a
 * time, so the writes keep the order of the saves; a save asked for meanwhile waits, and a newer one
 * replaces it (both would write the latest state). Shutdown writes the newest state synchronously
 * and the slices still running then stop short of writing.
 */
export class TranscriptSaves {
  private readonly encoders = new Map<string, TranscriptEncoder>();
  private readonly files = new Map<string, FileState>();

  constructor(private readonly opts: TranscriptSavesOptions) {}

  /** Encodes in slices, then writes; resolves once content at least as new is written. Never rejects. */
  save(id: string, file: string, produce: () => Transcript): Promise<void> {
    let state = this.files.get(file);
    if (!state) this.files.set(file, (state = {}));
    const job = new SaveJob(id, produce);
    if (!state.running) {
      this.run(file, state, job);
      return job.done;
    }
    const replaced = state.waiting;
    state.waiting = job;
    if (replaced) void job.done.then(() => replaced.finish());
    return job.done;
  }

  /** Encodes and writes now (shutdown); drops any save of this file still in progress. */
  saveSync(id: string, file: string, produce: () => Transcript): void {
    this.supersede(file);
    if (this.opts.writeSync(file, this.encodeSync(id, produce()))) this.opts.saved?.(id);
  }

  /** Resolves once no save of `file` is being encoded or waits to be. Never rejects. */
  async settled(file: string): Promise<void> {
    for (let state = this.files.get(file); state; state = this.files.get(file)) {
      const job = state.waiting ?? state.running;
      if (!job) break;
      await job.done;
    }
  }

  /** The conversation is gone: saves in progress write nothing, and its cache goes. */
  forget(id: string, file: string): void {
    this.supersede(file);
    this.encoders.delete(id);
  }

  /** Writes the newest state of every save in progress synchronously (shutdown). */
  flushSync(): void {
    for (const file of [...this.files.keys()]) {
      const newest = this.supersede(file);
      if (newest && this.opts.writeSync(file, this.encodeSync(newest.id, newest.produce()))) this.opts.saved?.(newest.id);
    }
  }

  /** Drops the saves of `file` in progress (their callers are released); returns the newest. */
  private supersede(file: string): SaveJob | undefined {
    const state = this.files.get(file);
    if (!state) return undefined;
    const newest = state.waiting ?? state.running;
    if (state.running) state.running.superseded = true;
    if (state.waiting) {
      state.waiting.superseded = true;
      state.waiting.finish();
      state.waiting = undefined;
    }
    return newest;
  }

  private run(file: string, state: FileState, job: SaveJob): void {
    state.running = job;
    void (async () => {
      try {
        const encoded = await this.encoderFor(job.id).encodeAsync(job.produce(), this.opts.maxBytes);
        this.report(job.id, encoded);
        if (!job.superseded && (await this.opts.write(file, encoded.json))) this.opts.saved?.(job.id);
      } catch (err) {
        this.opts.warn(l10n.t('Could not save the transcript of conversation {0}: {1}', job.id, err instanceof Error ? err.message : String(err)));
      } finally {
        job.finish();
        state.running = undefined;
        const next = state.waiting;
        state.waiting = undefined;
        if (next && !next.superseded) this.run(file, state, next);
        else if (this.files.get(file) === state) this.files.delete(file);
      }
    })();
  }

  encodeSync(id: string, transcript: Transcript): string {
    const encoded = this.encoderFor(id).encode(transcript, this.opts.maxBytes);
    this.report(id, encoded);
    return encoded.json;
  }

  private report(id: string, encoded: EncodedTranscript): void {
    if (encoded.overBudget)
      this.opts.warn(l10n.t('The transcript of conversation {0} is {1} bytes even without its entries; saved anyway.', id, encoded.bytes));
  }

  private encoderFor(id: string): TranscriptEncoder {
    let encoder = this.encoders.get(id);
    if (!encoder) this.encoders.set(id, (encoder = new TranscriptEncoder()));
    return encoder;
  }
}
