/**
 * Diffs for agents that write the disk themselves and send none (Cline, and any agent whose edit
 * card has no diff): when an edit-kind call is first seen, the files it names are read — at once
 * when they are small (the agent, another process, may write a moment after announcing the call:
 * an asynchronous read could see the file already written), otherwise asynchronously; when it
 * completes without a diff of its own, they are read again, asynchronously, and what changed
 * becomes the card's diff, marked observed, computed off the streaming path. Bounded: a few files
 * per call, a size cap, text only.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, statSync } from 'node:fs';
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
    // Non-blocking: opening a named pipe would otherwise wait for a writer (the fstat below skips it).
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
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

/** Largest file whose first text is read at once (a few tens of microseconds); bigger ones are read asynchronously. */
export const READ_AT_ONCE_MAX_BYTES = 256 * 1024;

/** The text of a small file now, or `'later'` when it is too big to read at once. */
export function readDiskTextNow(path: string): DiskText | 'later' {
  let fd: number;
  try {
    // Non-blocking: a named pipe an agent named would otherwise hang the extension host here.
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    if (stat.size > READ_AT_ONCE_MAX_BYTES) return 'later';
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const text = bytes.subarray(0, read);
    return text.subarray(0, 8192).includes(0) ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(text);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * When a file came into being (ms), or undefined when unknown (missing, or a file system that keeps
 * no birth time: then 0, read as unknown).
 */
export function fileBirthMs(path: string): number | undefined {
  try {
    const born = statSync(path, { throwIfNoEntry: false })?.birthtimeMs;
    return born !== undefined && born > 0 ? born : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How much earlier than the call's first update a file may have been born and still count as made
 * by it: file times come from a coarse kernel clock that lags the wall clock by up to a few ms.
 */
const BIRTH_SLACK_MS = 20;

const WATCHED_KINDS = new Set(['edit', 'delete', 'move']);

/** The files a call says it changes: those an edit, delete or move names, and those of the diffs it sent (whatever its kind). */
export function changedPaths(call: CallObservation | undefined): string[] {
  if (call === undefined) return [];
  return [...new Set([...(WATCHED_KINDS.has(call.kind) ? call.paths : []), ...call.diffPaths])];
}

export class ObservedDiffs {
  /** Per open call: each file's text as it was first seen. */
  private readonly before = new Map<string, Map<string, Promise<DiskText>>>();
  /** Per open call: the edit its input asks for (see CallObservation.inputEdit). */
  private readonly edits = new Map<string, NonNullable<CallObservation['inputEdit']>>();
  /** Per open call: when its first update came (ms). */
  private readonly started = new Map<string, number>();

  constructor(
    private readonly read: (path: string) => Promise<DiskText>,
    /** The diffs of a completed call (only called with changes). */
    private readonly deliver: (toolCallId: string, diffs: DiffSource[]) => void,
    /** Reads a small file's first text at once (see readDiskTextNow); none: always asynchronously. */
    private readonly readNow?: (path: string) => DiskText | 'later',
    /**
     * A file's birth time (see fileBirthMs). A file born while the call ran did not exist before it,
     * even when Tandem first hears of it with the completing update (OpenCode names a write's file
     * only then): its old text is none, and the card shows the new file.
     */
    private readonly bornAt?: (path: string) => number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** After every update of a call: starts reading the files it names, or diffs them once it completed. */
  update(toolCallId: string, call: CallObservation | undefined): void {
    if (call === undefined || !WATCHED_KINDS.has(call.kind) || call.sentDiff || call.status === 'failed' || call.status === 'cancelled') {
      this.before.delete(toolCallId);
      this.edits.delete(toolCallId);
      this.started.delete(toolCallId);
      return;
    }
    if (!this.started.has(toolCallId)) {
      if (this.started.size >= MAX_CALLS) this.started.delete(this.started.keys().next().value as string);
      this.started.set(toolCallId, this.now());
    }
    const start = this.started.get(toolCallId)!;
    if (call.inputEdit) this.edits.set(toolCallId, call.inputEdit);
    let files = this.before.get(toolCallId);
    if (files === undefined) {
      // Calls a turn left open are never completed: the oldest make room.
      if (this.before.size >= MAX_CALLS) this.before.delete(this.before.keys().next().value as string);
      files = new Map();
      this.before.set(toolCallId, files);
    }
    for (const path of call.paths) {
      if (files.size >= MAX_PATHS) break;
      if (files.has(path)) continue;
      // A small file's first text is read at once too: an agent may write it right after this update.
      // Not for an edit that replaces text: the file was there, and a new inode (a rewrite by rename) is no new file.
      const replaces = this.edits.get(toolCallId)?.create === false;
      const born = replaces ? undefined : this.bornAt?.(path);
      if (born !== undefined && born >= start - BIRTH_SLACK_MS) {
        files.set(path, Promise.resolve(null));
        continue;
      }
      const now = this.readNow?.(path) ?? 'later';
      files.set(path, now === 'later' ? this.read(path).catch(() => undefined) : Promise.resolve(now));
    }
    if (call.status === 'completed') {
      const edit = this.edits.get(toolCallId);
      this.before.delete(toolCallId);
      this.edits.delete(toolCallId);
      this.started.delete(toolCallId);
      // Small files are read again at once too, so a busy event loop cannot delay the diff; it is
      // computed after this update has been handled.
      const after = new Map<string, Promise<DiskText>>();
      for (const path of files.keys()) {
        const now = this.readNow?.(path) ?? 'later';
        const text = now === 'later' ? this.read(path).catch(() => undefined) : Promise.resolve(now);
        after.set(path, text);
        // Another call still open on the same file started from what this one leaves: its diff is
        // its own change, not both calls' (two edits of one file at once).
        for (const [other, otherFiles] of this.before) if (other !== toolCallId && otherFiles.has(path)) otherFiles.set(path, text);
      }
      void this.finish(toolCallId, files, edit, after);
    }
  }

  /** The turn ended or the thread was replaced: nothing open is observed any more. */
  clear(): void {
    this.before.clear();
    this.edits.clear();
    this.started.clear();
  }

  private async finish(
    toolCallId: string,
    files: Map<string, Promise<DiskText>>,
    edit: CallObservation['inputEdit'],
    after: Map<string, Promise<DiskText>>,
  ): Promise<void> {
    const diffs: DiffSource[] = [];
    for (const [path, first] of files) {
      const [seen, newText] = await Promise.all([first, after.get(path) ?? this.read(path).catch(() => undefined)]);
      // The agent wrote before the first read (it was quicker than Tandem): undo the input's edit on what is there now.
      const oldText = seen === newText && edit?.path === path && typeof newText === 'string' ? undone(newText, edit) : seen;
      if (oldText === undefined || newText === undefined || oldText === newText) continue;
      diffs.push({ type: 'diff', path, oldText: oldText === null || oldText === '' ? null : oldText, newText: newText ?? '', observed: 'disk' });
    }
    if (diffs.length > 0) this.deliver(toolCallId, diffs);
  }
}

/** The text before an edit, from the text after it: the new text once in it put back to the old one (`create`: none). */
function undone(after: string, edit: NonNullable<CallObservation['inputEdit']>): DiskText {
  if (edit.create) return after === edit.newText ? null : undefined;
  if (edit.oldText === undefined || edit.newText === '') return undefined;
  const at = after.indexOf(edit.newText);
  if (at < 0 || after.indexOf(edit.newText, at + 1) >= 0) return undefined;
  return after.slice(0, at) + edit.oldText + after.slice(at + edit.newText.length);
}
