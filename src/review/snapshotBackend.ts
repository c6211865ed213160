/**
 * What the checkpoint store needs from a storage backend: which files are in scope, and a
 * content-addressed object store. The comparison logic (checkpoint ↔ disk, Keep, restore) lives once
 * in `checkpointStore.ts`; the backends only differ in how they list files and keep bytes:
 * - `gitSnapshot.ts`: a repository's own view (tracked + untracked-but-not-ignored files) and git
 *   objects in a private object store that borrows the repository's objects;
 * - `fileSnapshot.ts`: a directory walk and deduplicated, compressed content files.
 */
export interface SnapshotBackend {
  readonly kind: 'git' | 'folder';

  /**
   * Root-relative (`/`-separated) paths of the files a capture covers, not yet stat-ed (some may be
   * directories, symlinks or gone by now; the caller skips those). `complete` is false when the
   * listing was cut short and files beyond it are unknown.
   */
  list(): Promise<{ paths: string[]; complete: boolean }>;

  /** True when `list()` would leave `relPath` out even if it existed (ignored or excluded). */
  isExcluded(relPath: string): Promise<boolean>;

  /**
   * Content ids of the files at these absolute paths, in order; `undefined` where a file could not
   * be read (vanished meanwhile). With `write`, the content is stored so it can be read back.
   */
  hashFiles(absPaths: string[], write: boolean): Promise<Array<string | undefined>>;

  /** Stores bytes and returns their content id. */
  writeBlob(bytes: Uint8Array): Promise<string>;

  /** The stored bytes of these ids; an id whose content is gone is absent from the map. */
  readBlobs(ids: string[]): Promise<Map<string, Buffer>>;

  /** Stores a path → content id map and returns a reference to it (deduplicated by content). */
  writeManifest(files: ReadonlyMap<string, string>): Promise<string>;

  /** The map a `writeManifest` reference stands for. */
  readManifest(ref: string): Promise<Map<string, string>>;

  /** Deletes stored objects reachable from neither these manifests nor these blob ids. */
  collectGarbage(manifests: readonly string[], blobs: ReadonlySet<string>): Promise<void>;

  /** Bytes the backend's own storage occupies on disk (what `maxBytes` bounds). */
  bytesOnDisk(): Promise<number>;
}
