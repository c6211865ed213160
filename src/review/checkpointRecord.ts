import * as fs from 'node:fs';
import type { Checkpoint, CheckpointState, FileChange } from './checkpointTypes';
import { writeFileAtomic } from './fsUtil';

/**
 * The persisted form of a checkpoint and how a path's earlier state is read from it. Kept small: the
 * file list itself is a manifest in the backend's object store (a git tree, or a JSON blob), so
 * `checkpoints.json` holds only ids and the few per-path overrides.
 */

/** Size and mtime of a file whose content was not recorded: enough to notice that it changed. */
export interface StatSig {
  size: number;
  mtimeMs: number;
}

/** A path's recorded state: a content id, `null` for "did not exist", or a `StatSig`. */
export type StoredState = string | null | StatSig;

export interface CheckpointRecord {
  id: string;
  createdAt: number;
  label?: string;
  /** Backend reference of the path → content id map of the files captured. */
  manifest: string;
  /** False when the scan stopped early: unlisted paths are unknown rather than absent. */
  complete: boolean;
  /** Present at capture but larger than `maxFileBytes`. */
  skipped: Map<string, StatSig>;
  /** States taken by `recordBeforeWrite` for paths the capture did not cover; the first one wins. */
  recorded: Map<string, string | null>;
  /** Keep / accepted hunks: the baseline moved to this state. Only the `baseline` view sees it. */
  accepted: Map<string, StoredState>;
}

/** A path's earlier state, resolved. */
export type Known =
  | { kind: 'file'; id: string }
  | { kind: 'absent' }
  /** Present, content not recorded; `sig` tells whether it changed since. */
  | { kind: 'unrecorded'; sig: StatSig }
  /** The checkpoint cannot say (excluded from the capture, or beyond an incomplete scan). */
  | { kind: 'unknown' };

/** A change plus the earlier state it came from (a restore needs the content id). Here, not in diskComparison.ts, so restorePlan.ts can take it without a loop. */
export interface Compared {
  change: FileChange;
  before: Known;
}

function known(state: StoredState): Known {
  if (state === null) return { kind: 'absent' };
  if (typeof state === 'string') return { kind: 'file', id: state };
  return { kind: 'unrecorded', sig: state };
}

/**
 * The state of `rel` in `rec`, or `undefined` when no part of the record mentions it (then it was
 * absent at capture if the capture covered it, and unknown otherwise — the caller decides).
 */
export function recordedState(rec: CheckpointRecord, manifest: ReadonlyMap<string, string>, rel: string, state: CheckpointState): Known | undefined {
  const accepted = rec.accepted.get(rel);
  if (state === 'baseline' && accepted !== undefined) return known(accepted);
  const recorded = rec.recorded.get(rel);
  if (recorded !== undefined) return known(recorded);
  const id = manifest.get(rel);
  if (id !== undefined) return { kind: 'file', id };
  const sig = rec.skipped.get(rel);
  return sig && { kind: 'unrecorded', sig };
}

/** Every path the record mentions besides its manifest. */
export function extraPaths(rec: CheckpointRecord): string[] {
  return [...rec.skipped.keys(), ...rec.recorded.keys(), ...rec.accepted.keys()];
}

/** Content ids the record holds outside its manifest (they must survive garbage collection). */
export function extraBlobs(rec: CheckpointRecord): string[] {
  return [...rec.recorded.values(), ...rec.accepted.values()].filter((s): s is string => typeof s === 'string');
}

export function toCheckpoint(rec: CheckpointRecord): Checkpoint {
  return { id: rec.id, createdAt: rec.createdAt, label: rec.label, skipped: [...rec.skipped.keys()].sort(), complete: rec.complete };
}

/** On disk the maps are entry arrays: a path named `__proto__` must stay a path. */
interface StoredRecord extends Omit<CheckpointRecord, 'skipped' | 'recorded' | 'accepted'> {
  skipped: Array<[string, StatSig]>;
  recorded: Array<[string, string | null]>;
  accepted: Array<[string, StoredState]>;
}

interface StoreFile {
  version: 1;
  backend: 'git' | 'folder';
  checkpoints: StoredRecord[];
}

/**
 * Records saved by a store of the same backend kind; `undefined` when the file is missing, another
 * version, or was written by the other backend (the folder became, or stopped being, a repository).
 */
export async function loadRecords(file: string, backend: 'git' | 'folder'): Promise<CheckpointRecord[] | undefined> {
  let data: StoreFile;
  try {
    data = JSON.parse(await fs.promises.readFile(file, 'utf8')) as StoreFile;
  } catch {
    return undefined;
  }
  if (data?.version !== 1 || data.backend !== backend || !Array.isArray(data.checkpoints)) return undefined;
  return data.checkpoints.map((r) => ({ ...r, skipped: new Map(r.skipped), recorded: new Map(r.recorded), accepted: new Map(r.accepted) }));
}

export async function saveRecords(file: string, backend: 'git' | 'folder', records: CheckpointRecord[]): Promise<void> {
  const checkpoints = records.map((r) => ({ ...r, skipped: [...r.skipped], recorded: [...r.recorded], accepted: [...r.accepted] }));
  const data: StoreFile = { version: 1, backend, checkpoints };
  await writeFileAtomic(file, JSON.stringify(data));
}

/** True when two manifests name the same files with the same contents. */
export function sameFiles(a: ReadonlyMap<string, string> | undefined, b: ReadonlyMap<string, string>): boolean {
  if (!a || a.size !== b.size) return false;
  for (const [rel, id] of b) if (a.get(rel) !== id) return false;
  return true;
}
