import * as fs from 'node:fs';
import type { CheckpointRef } from './checkpointTypes';
import { CheckpointError } from './checkpointTypes';
import type { CheckpointRecord } from './checkpointRecord';
import { extraBlobs, loadRecords, saveRecords } from './checkpointRecord';
import type { ContentHasher } from './contentHasher';
import type { SnapshotBackend } from './snapshotBackend';

export interface BookLimits {
  maxBytes: number;
  maxCheckpoints: number;
}

/**
 * The checkpoints kept, oldest first: their persistence (`checkpoints.json`), a small cache of
 * their manifests, the caps and garbage collection. Not serialised itself: `CheckpointStore` calls
 * it from inside its queue.
 */
export class CheckpointBook {
  private records: CheckpointRecord[] = [];
  private readonly manifests = new Map<string, Map<string, string>>();

  constructor(
    private readonly backend: SnapshotBackend,
    private readonly hasher: ContentHasher,
    private readonly file: string,
    private readonly limits: BookLimits,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Loads the saved checkpoints and frees whatever storage none of them uses. False when a saved
   * file existed but cannot be used (written by the other backend, or damaged): starting afresh.
   */
  async load(): Promise<boolean> {
    const records = await loadRecords(this.file, this.backend.kind);
    this.records = records ?? [];
    await this.collectGarbage();
    return records !== undefined || !fs.existsSync(this.file);
  }

  all(): readonly CheckpointRecord[] {
    return this.records;
  }

  newest(): CheckpointRecord | undefined {
    return this.records[this.records.length - 1];
  }

  find(id: string): CheckpointRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /** The record of a kept checkpoint; `CheckpointError('unknownCheckpoint')` otherwise. */
  get(ref: CheckpointRef): CheckpointRecord {
    const id = typeof ref === 'string' ? ref : ref.id;
    const rec = this.find(id);
    if (!rec) throw new CheckpointError('unknownCheckpoint', id);
    return rec;
  }

  /** Adds a new checkpoint whose manifest holds `files`, then applies the caps. */
  async add(rec: CheckpointRecord, files: Map<string, string>): Promise<void> {
    this.remember(rec.manifest, files);
    this.records.push(rec);
    await this.changed(rec);
  }

  /** Saves after `rec` changed; with `grew`, it stored content, so the caps are checked too. */
  async changed(rec: CheckpointRecord, grew = true): Promise<void> {
    await saveRecords(this.file, this.backend.kind, this.records);
    if (grew) await this.enforceCaps(rec.id);
  }

  async remove(id: string): Promise<void> {
    this.records = this.records.filter((r) => r.id !== id);
    await saveRecords(this.file, this.backend.kind, this.records);
    await this.collectGarbage();
  }

  /** The path → content id map of a checkpoint's capture. */
  async manifest(rec: CheckpointRecord): Promise<Map<string, string>> {
    const files =
      this.manifests.get(rec.manifest) ??
      (await this.backend.readManifest(rec.manifest).catch(() => {
        throw new CheckpointError('missing', rec.manifest);
      }));
    this.remember(rec.manifest, files);
    return files;
  }

  /** A manifest if it is in the cache (no backend call). */
  cached(ref: string): Map<string, string> | undefined {
    return this.manifests.get(ref);
  }

  private remember(ref: string, files: Map<string, string>): void {
    // Most recently used last; keep a few: comparisons hit the newest checkpoints.
    this.manifests.delete(ref);
    this.manifests.set(ref, files);
    while (this.manifests.size > 8) this.manifests.delete(this.manifests.keys().next().value!);
  }

  /**
   * Drops the oldest checkpoints past `maxCheckpoints`, then while the store is over `maxBytes`.
   * Never the newest one, nor `keepId` (the one just written to).
   */
  private async enforceCaps(keepId: string): Promise<void> {
    const dropOldest = (): boolean => {
      const newest = this.newest();
      const i = this.records.findIndex((r) => r.id !== keepId && r !== newest);
      if (i !== -1) this.records.splice(i, 1);
      return i !== -1;
    };
    let dropped = false;
    while (this.records.length > this.limits.maxCheckpoints && dropOldest()) dropped = true;
    if (dropped) await this.collectGarbage();
    let bytes = await this.backend.bytesOnDisk();
    while (bytes > this.limits.maxBytes && dropOldest()) {
      dropped = true;
      await this.collectGarbage();
      bytes = await this.backend.bytesOnDisk();
    }
    if (dropped) await saveRecords(this.file, this.backend.kind, this.records);
    if (bytes > this.limits.maxBytes) this.warn(`Checkpoint: the checkpoints kept take ${bytes} bytes, over the ${this.limits.maxBytes}-byte cap.`);
  }

  private async collectGarbage(): Promise<void> {
    await this.backend.collectGarbage(
      this.records.map((r) => r.manifest),
      new Set(this.records.flatMap(extraBlobs)),
    );
    this.hasher.forgetStored();
    for (const ref of [...this.manifests.keys()]) if (!this.records.some((r) => r.manifest === ref)) this.manifests.delete(ref);
  }
}
