/**
 * Diffs for agents that write the disk themselves and send none (Cline, and any agent whose edit
 * card has no diff): when an edit-kind call is first seen, the files it names are read (before the
 * agent writes: agents announce a call, and most ask permission, before running it); when it
 * completes without a diff of its own, they are read again and what changed becomes the card's
 * diff, marked observed. Everything here is asynchronous and bounded — a few files per call, a
 * size cap, text only — so the streaming path only records which files to read.
 */
import { open } from 'node:fs/promises';
import type { DiffSource } from './diffContent';
import type { CallObservation } from './toolCallBook';

/** Largest file read for an observed diff. */
export const OBSERVED_MAX_BYTES = 2 * 1024 * 1024;
/** Most files observed per call, and calls observed at once. */
const MAX_PATHS = 8;
const MAX_CALLS = 64;

/** A file's text; `null`: it does not exist; `undefined`: it cannot be diffed (binary, too large, unreadable). */
export type DiskText = string | null | undefined;

/** Reads a file's text for an observed diff (see DiskText). */
export async function readDiskText(path: string): Promise<DiskText> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > OBSERVED_MAX_BYTES) return undefined;
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8192).includes(0)) return undefined;
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

const WATCHED_KINDS = new Set(['edit', 'delete', 'move']);

export class ObservedDiffs {
  /** Per open call: each file's text as it was first seen. */
  private readonly before = new Map<string, Map<string, Promise<DiskText>>>();

  constructor(
    private readonly read: (path: string) => Promise<DiskText>,
    /** The diffs of a completed call (only called with changes). */
    private readonly deliver: (toolCallId: string, diffs: DiffSource[]) => void,
  ) {}

  /** After every update of a call: starts reading the files it names, or diffs them once it completed. */
  update(toolCallId: string, call: CallObservation | undefined): void {
    if (call === undefined || !WATCHED_KINDS.has(call.kind) || call.sentDiff || call.status === 'failed' || call.status === 'cancelled') {
      this.before.delete(toolCallId);
      return;
    }
    let files = this.before.get(toolCallId);
    if (files === undefined) {
      // Calls a turn left open are never completed: the oldest make room.
      if (this.before.size >= MAX_CALLS) this.before.delete(this.before.keys().next().value as string);
      files = new Map();
      this.before.set(toolCallId, files);
    }
    for (const path of call.paths) {
      if (files.size >= MAX_PATHS) break;
      if (!files.has(path))
        files.set(
          path,
          this.read(path).catch(() => undefined),
        );
    }
    if (call.status === 'completed') {
      this.before.delete(toolCallId);
      void this.finish(toolCallId, files);
    }
  }

  /** The turn ended or the thread was replaced: nothing open is observed any more. */
  clear(): void {
    this.before.clear();
  }

  private async finish(toolCallId: string, files: Map<string, Promise<DiskText>>): Promise<void> {
    const diffs: DiffSource[] = [];
    for (const [path, first] of files) {
      const [oldText, newText] = await Promise.all([first, this.read(path).catch(() => undefined)]);
      if (oldText === undefined || newText === undefined || oldText === newText) continue;
      diffs.push({ type: 'diff', path, oldText: oldText === null || oldText === '' ? null : oldText, newText: newText ?? '', observed: 'disk' });
    }
    if (diffs.length > 0) this.deliver(toolCallId, diffs);
  }
}
