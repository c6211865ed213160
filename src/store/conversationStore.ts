import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { Emitter, type IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { FileWriteQueue } from '../util/atomicFile';
import { DebouncedWriter } from './debouncedWriter';
import { emptyIndex, isValidConversationId, parseIndex, parseTranscript, serialiseIndex, type ConversationIndex, type Transcript } from './conversationFormat';
import { readStored, removeCorruptCopies, sweepLeftovers, type ReadContext } from './storedFiles';
import { TranscriptSaves } from './transcriptSaves';

import * as defaults from './conversationStoreOptions';
import type { ConversationStoreOptions } from './conversationStoreOptions';

export { INDEX_FILE, TRANSCRIPT_DIR, type ConversationStoreOptions } from './conversationStoreOptions';

/**
 * Persists a workspace's conversations: an index (`conversations.json`) and one bounded transcript
 * per conversation (`transcripts/<id>.json`), in a folder the caller owns.
 *
 * The caller owns the truth (its in-memory index and sessions); the store only writes snapshots of
 * it and reads them back. Nothing here throws at the caller: unreadable files are set aside and
 * reported once through `warn`, failed writes are reported and retried by the next save. Writes are
 * atomic and serialised per file, and scheduled saves are debounced so streaming never waits on disk.
 */
export class ConversationStore implements IDisposable {
  private readonly queue = new FileWriteQueue();
  private readonly writer: DebouncedWriter;
  private readonly indexFile: string;
  private readonly transcriptDir: string;
  private readonly maxConversations: number;
  private readonly maxTranscriptBytes: number;
  /** Ids this instance saved: the orphan sweep must not delete a transcript whose index entry is still on its way. */
  private readonly ownIds = new Set<string>();
  /** Unreadable files already reported (when setting them aside failed, every load would find them again). */
  private readonly reported = new Set<string>();
  private writesFailing = false;
  private swept = false;
  private disposed = false;
  private readonly saves: TranscriptSaves;
  private readonly savedEmitter = new Emitter<string>();
  private readonly removedEmitter = new Emitter<string>();
  /** A transcript reached the disk (its id): what reads it later (the search index) knows it changed. */
  readonly onTranscriptSaved = this.savedEmitter.event;
  /** A transcript was deleted (its conversation deleted or evicted). */
  readonly onTranscriptRemoved = this.removedEmitter.event;

  constructor(private readonly opts: ConversationStoreOptions) {
    this.indexFile = path.join(opts.dir, defaults.INDEX_FILE);
    this.transcriptDir = path.join(opts.dir, defaults.TRANSCRIPT_DIR);
    this.maxConversations = opts.maxConversations ?? defaults.DEFAULT_MAX_CONVERSATIONS;
    this.maxTranscriptBytes = opts.maxTranscriptBytes ?? defaults.DEFAULT_MAX_TRANSCRIPT_BYTES;
    this.writer = new DebouncedWriter({
      debounceMs: opts.debounceMs ?? defaults.DEFAULT_DEBOUNCE_MS,
      maxWaitMs: opts.maxWaitMs ?? defaults.DEFAULT_MAX_WAIT_MS,
      onError: (file, err) => this.warn(l10n.t('Could not save {0}: {1}', this.describe(file), errorMessage(err))),
    });
    this.saves = new TranscriptSaves({
      maxBytes: this.maxTranscriptBytes,
      write: (file, json) => this.write(file, json),
      writeSync: (file, json) => this.writeSync(file, json),
      warn: (text) => this.warn(text),
      saved: (id) => this.savedEmitter.fire(id),
    });
  }

  /**
   * The workspace's index; empty when there is none or it is unreadable (then it is renamed to
   * `conversations.json.corrupt-<ms>` and reported once). Malformed records are dropped with one
   * warning. The first successful load also sweeps crash leftovers (old temp files, transcripts no
   * record refers to).
   */
  async loadIndex(): Promise<ConversationIndex> {
    await this.writer.runNow(this.indexFile);
    await this.queue.settled(this.indexFile);
    const loaded = await readStored(this.indexFile, parseIndex, this.readContext(l10n.t('the conversation list')));
    // After a failed load the transcripts may be worth recovering along with the index: sweep nothing.
    if (loaded.kind === 'unreadable') return emptyIndex();
    const index = loaded.kind === 'loaded' ? loaded.value : emptyIndex();
    if (loaded.kind === 'loaded' && loaded.dropped > 0)
      this.warn(l10n.t('Dropped {0} malformed conversation record(s) from {1}.', loaded.dropped, defaults.INDEX_FILE));
    if (!this.swept) {
      this.swept = true;
      const known = new Set(index.conversations.map((c) => c.id));
      await sweepLeftovers(
        [this.opts.dir, this.transcriptDir],
        this.transcriptDir,
        (id) => known.has(id) || this.ownIds.has(id) || this.queue.isBusy(this.transcriptFile(id)),
      );
    }
    return index;
  }

  /**
   * Writes `index` now, superseding a scheduled index save. Applies the conversation cap first;
   * once the index is on disk, the evicted conversations' transcripts are deleted (in that order, so
   * a crash leaves orphans rather than records without transcripts). Resolves with the evicted ids.
   */
  async saveIndex(index: ConversationIndex): Promise<string[]> {
    this.writer.cancel(this.indexFile);
    return this.writeIndex(index);
  }

  /** Saves the index later (debounced); `produce` is called once, when the write happens. */
  scheduleIndex(produce: () => ConversationIndex): void {
    if (this.disposed) return;
    this.writer.schedule(this.indexFile, {
      run: () => this.writeIndex(produce()).then(() => undefined),
      runSync: () => this.writeIndexSync(produce()),
    });
  }

  /**
   * A conversation's transcript, or undefined when there is none, the id is invalid, or the file is
   * unreadable (set aside as `<id>.json.corrupt-<ms>` and reported once). A save still scheduled for
   * this id is written first, so the result is never older than what the caller last scheduled.
   */
  async loadTranscript(id: string): Promise<Transcript | undefined> {
    if (!this.checkId(id, 'load')) return undefined;
    const file = this.transcriptFile(id);
    await this.writer.runNow(file);
    await this.saves.settled(file);
    await this.queue.settled(file);
    const loaded = await readStored(file, parseTranscript, this.readContext(l10n.t('the transcript of conversation {0}', id)));
    if (loaded.kind !== 'loaded') return undefined;
    if (loaded.dropped > 0) this.warn(l10n.t('Dropped {0} malformed part(s) of the transcript of conversation {1}.', loaded.dropped, id));
    return loaded.value;
  }

  /**
   * Writes a transcript now, superseding a scheduled save of it. Over the size cap, terminal outputs
   * are cut to their tail and then the oldest entries dropped; `droppedEntries` in the file adds the
   * number dropped to the one in `transcript` (pass back what `loadTranscript` returned).
   */
  async saveTranscript(id: string, transcript: Transcript): Promise<void> {
    if (!this.checkId(id, 'save')) return;
    const file = this.transcriptFile(id);
    this.writer.cancel(file);
    this.ownIds.add(id);
    await this.saves.save(id, file, () => transcript);
  }

  /**
   * Marks a transcript dirty; it is written after `debounceMs` of quiet, at most `maxWaitMs` after the
   * first change. Only the latest `produce` is called, once, when the write happens, so a burst of
   * updates costs one serialisation, spread over the event loop in slices of a few milliseconds and
   * limited to the entries that changed since the last save (TranscriptSaves). Cheap enough to call
   * on every streamed update.
   */
  scheduleTranscript(id: string, produce: () => Transcript): void {
    if (this.disposed || !this.checkId(id, 'save')) return;
    const file = this.transcriptFile(id);
    this.ownIds.add(id);
    this.writer.schedule(file, {
      run: () => this.saves.save(id, file, produce),
      runSync: () => this.saves.saveSync(id, file, produce),
    });
  }

  /**
   * Deletes a conversation's transcript (and any corrupt copies of it), dropping a save still
   * scheduled for it. The caller removes the record from its index and saves the index.
   */
  async deleteConversation(id: string): Promise<void> {
    if (!this.checkId(id, 'delete')) return;
    await this.removeTranscript(id);
  }

  /** Writes everything scheduled now and resolves when every pending write is on disk. Never rejects. */
  async flush(): Promise<void> {
    await this.writer.flush();
    await this.queue.idle();
  }

  /**
   * Writes everything scheduled or queued synchronously (`writeFileSync` + `renameSync`), for
   * extension shutdown where nothing may be awaited. Never throws.
   */
  flushSync(): void {
    try {
      this.saves.flushSync();
    } catch (err) {
      this.writeFailed(this.opts.dir, err);
    }
    this.writer.flushSync();
    try {
      this.queue.flushSync();
    } catch (err) {
      this.writeFailed(this.opts.dir, err);
    }
  }

  /** Flushes synchronously; later schedule calls are ignored. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.flushSync();
    this.disposed = true;
    this.savedEmitter.dispose();
    this.removedEmitter.dispose();
  }

  private readContext(what: string): ReadContext {
    return { what, warn: (text) => this.warn(text), busy: (file) => this.queue.isBusy(file), reported: this.reported };
  }

  private transcriptFile(id: string): string {
    return path.join(this.transcriptDir, `${id}.json`);
  }

  private describe(file: string): string {
    if (file === this.indexFile) return l10n.t('the conversation list');
    return path.dirname(file) === this.transcriptDir ? l10n.t('the transcript {0}', path.basename(file)) : l10n.t('conversations');
  }

  private warn(text: string): void {
    try {
      this.opts.warn(text);
    } catch {
      // A failing reporter must not turn a reported problem into a crash.
    }
  }

  private checkId(id: string, action: string): boolean {
    if (isValidConversationId(id)) return true;
    this.warn(`Refused to ${action} a conversation with the invalid id ${JSON.stringify(String(id).slice(0, 120))}.`);
    return false;
  }

  /** The index for disk (see serialiseIndex); reports evictions. */
  private prepareIndex(index: ConversationIndex): { json: string; evicted: string[] } {
    const prepared = serialiseIndex(index, this.maxConversations, (text) => this.warn(text));
    if (prepared.evicted.length > 0) {
      try {
        this.opts.onEvicted?.(prepared.evicted);
      } catch (err) {
        this.warn(`onEvicted failed: ${errorMessage(err)}`);
      }
    }
    return prepared;
  }

  private async writeIndex(index: ConversationIndex): Promise<string[]> {
    const { json, evicted } = this.prepareIndex(index);
    // Transcripts go only once the index no longer lists them; if the index write failed, keep them.
    if (await this.write(this.indexFile, json)) await Promise.all(evicted.map((id) => this.removeTranscript(id)));
    return evicted;
  }

  private writeIndexSync(index: ConversationIndex): void {
    const { json, evicted } = this.prepareIndex(index);
    if (!this.writeSync(this.indexFile, json)) return;
    for (const id of evicted) {
      this.writer.cancel(this.transcriptFile(id));
      this.saves.forget(id, this.transcriptFile(id));
      this.ownIds.delete(id);
      this.removedEmitter.fire(id);
      try {
        this.queue.removeSync(this.transcriptFile(id));
      } catch (err) {
        this.writeFailed(this.transcriptFile(id), err);
      }
    }
  }

  private async removeTranscript(id: string): Promise<void> {
    const file = this.transcriptFile(id);
    this.writer.cancel(file);
    this.saves.forget(id, file);
    this.ownIds.delete(id);
    this.removedEmitter.fire(id);
    try {
      await this.queue.remove(file);
      await removeCorruptCopies(file, 0);
    } catch (err) {
      this.writeFailed(file, err);
    }
  }

  /** Resolves true once written; false (reported once per failing streak) when the write failed. */
  private async write(file: string, json: string): Promise<boolean> {
    try {
      await this.queue.write(file, json);
      this.writesFailing = false;
      return true;
    } catch (err) {
      this.writeFailed(file, err);
      return false;
    }
  }

  private writeSync(file: string, json: string): boolean {
    try {
      this.queue.writeSync(file, json);
      this.writesFailing = false;
      return true;
    } catch (err) {
      this.writeFailed(file, err);
      return false;
    }
  }

  private writeFailed(file: string, err: unknown): void {
    // A full or read-only disk fails every save: say so once, not every half second.
    if (this.writesFailing) return;
    this.writesFailing = true;
    this.warn(l10n.t('Could not save {0}: {1}', this.describe(file), errorMessage(err)));
  }
}
