import * as fs from 'node:fs';
import type { CheckpointState, FileChange } from './checkpointTypes';
import type { CheckpointRecord, Compared, Known } from './checkpointRecord';
import { extraPaths, recordedState } from './checkpointRecord';
import type { ContentHasher, FileInfo } from './contentHasher';
import { lstatOrUndefined, mapLimit, toAbs } from './fsUtil';
import { countLineChanges, countLines } from './hunks';
import { decodeLenient, isBinary } from './restorePlan';
import type { SnapshotBackend } from './snapshotBackend';

/** What a comparison needs from the store. */
export interface ComparisonContext {
  /** The root paths are handed out under. */
  root: string;
  /** Root-relative path of an absolute path, undefined outside the root. */
  relOf(absPath: string): string | undefined;
  backend: SnapshotBackend;
  hasher: ContentHasher;
  /** Capture limit: now-content above it is not diffed for files the checkpoint never had. */
  maxFileBytes: number;
  /** Store limit: a recorded file up to this size is still compared (and diffed) with the disk. */
  maxBytes: number;
}

/** The state of a file on disk now. */
type Now = { kind: 'absent' } | { kind: 'file'; info: FileInfo };

/** One side of a line count: bytes, no file, or content that cannot be diffed (too large, unreadable). */
type Side = Uint8Array | 'absent' | 'unavailable';

/**
 * The files that differ between a checkpoint (`state` view) and the disk, sorted by path. The
 * candidates are everything listed now plus everything the checkpoint mentions (so deletions and
 * files that became ignored are seen); a listed file the checkpoint does not mention was absent at
 * capture, unless the capture was incomplete (then it is unknown and not reported).
 */
export async function compareWithDisk(
  ctx: ComparisonContext,
  rec: CheckpointRecord,
  manifest: ReadonlyMap<string, string>,
  state: CheckpointState,
  paths?: readonly string[],
): Promise<Compared[]> {
  const listed = new Set((await ctx.backend.list()).paths);
  const candidates = paths
    ? new Set(paths.map((p) => ctx.relOf(p)).filter((r): r is string => r !== undefined))
    : new Set([...listed, ...manifest.keys(), ...extraPaths(rec)]);
  const infos = await statAll(ctx.root, [...candidates]);
  const pairs: Array<{ rel: string; before: Known; now: Now }> = [];
  for (const rel of candidates) {
    const before = recordedState(rec, manifest, rel, state) ?? (rec.complete && listed.has(rel) ? { kind: 'absent' as const } : { kind: 'unknown' as const });
    const info = infos.get(rel);
    pairs.push({ rel, before, now: info ? { kind: 'file', info } : { kind: 'absent' } });
  }
  // Content ids now, only where an earlier content exists to compare with. A recorded file may be
  // over maxFileBytes (recordBeforeWrite takes those), so the bound here is the store's.
  const toHash = pairs.flatMap((p) => (p.before.kind === 'file' && p.now.kind === 'file' && p.now.info.size <= ctx.maxBytes ? [p.now.info] : []));
  const nowIds = await ctx.hasher.ids(toHash, false);
  const changed = pairs.filter((p) => !(p.before.kind === 'file' && p.now.kind === 'file' && nowIds.get(p.rel) === p.before.id));
  const out: Compared[] = [];
  // In slices, so a turn that touched thousands of files does not hold all their contents at once.
  for (let i = 0; i < changed.length; i += 200) {
    const slice = changed.slice(i, i + 200);
    const olds = await ctx.backend.readBlobs(slice.flatMap((p) => (p.before.kind === 'file' ? [p.before.id] : [])));
    for (const { rel, before, now } of slice) {
      const change = await changeOf(ctx, rel, before, now, olds);
      if (change) out.push({ change, before });
    }
  }
  return out.sort((a, b) => (a.change.relPath < b.change.relPath ? -1 : a.change.relPath > b.change.relPath ? 1 : 0));
}

/** The change of one path whose states may differ (`unrecorded` compares size and mtime). */
async function changeOf(ctx: ComparisonContext, rel: string, before: Known, now: Now, olds: ReadonlyMap<string, Buffer>): Promise<FileChange | undefined> {
  const base = { path: toAbs(ctx.root, rel), relPath: rel, added: 0, removed: 0, binary: true, restorable: true };
  const status = now.kind === 'absent' ? ('deleted' as const) : ('modified' as const);
  const current = async (): Promise<Side> => {
    if (now.kind === 'absent') return 'absent';
    if (now.info.size > (before.kind === 'file' ? ctx.maxBytes : ctx.maxFileBytes)) return 'unavailable';
    return (await fs.promises.readFile(now.info.abs).catch(() => undefined)) ?? 'unavailable';
  };
  switch (before.kind) {
    case 'unknown':
      return undefined;
    case 'unrecorded':
      if (now.kind === 'file' && now.info.size === before.sig.size && now.info.mtimeMs === before.sig.mtimeMs) return undefined;
      return { ...base, status, restorable: false };
    case 'absent':
      if (now.kind === 'absent') return undefined;
      return { ...base, status: 'added', ...counts('absent', await current()) };
    case 'file': {
      const old = olds.get(before.id);
      if (!old) return { ...base, status, restorable: false };
      return { ...base, status, ...counts(old, await current()) };
    }
  }
}

/** Line counts between two sides; `binary` when either side cannot be diffed as text. */
function counts(before: Side, after: Side): { added: number; removed: number; binary: boolean } {
  if (before === 'unavailable' || after === 'unavailable') return { added: 0, removed: 0, binary: true };
  if ((before !== 'absent' && isBinary(before)) || (after !== 'absent' && isBinary(after))) return { added: 0, removed: 0, binary: true };
  const oldText = before === 'absent' ? '' : decodeLenient(before);
  const newText = after === 'absent' ? '' : decodeLenient(after);
  if (!oldText || !newText) return { added: countLines(newText), removed: countLines(oldText), binary: false };
  return { ...countLineChanges(oldText, newText), binary: false };
}

/**
 * `lstat` of root-relative paths, in their order; only regular files are returned (links and
 * folders are not files we restore).
 */
export async function statAll(root: string, rels: readonly string[]): Promise<Map<string, FileInfo>> {
  const stats = await mapLimit(rels, 32, (rel) => lstatOrUndefined(toAbs(root, rel)));
  const infos = new Map<string, FileInfo>();
  rels.forEach((rel, i) => {
    const st = stats[i];
    if (st?.isFile()) infos.set(rel, { rel, abs: toAbs(root, rel), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  });
  return infos;
}
