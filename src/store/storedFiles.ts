import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isTempPath } from '../util/atomicFile';
import { errorMessage } from '../util/errors';
import type { ParseResult } from './conversationFormat';

/**
 * Reading the conversation store's files back, and cleaning up after crashes and corruption.
 * Nothing here throws: the panel must come up whatever state the storage folder is in.
 */

/** Corrupt copies kept per file: enough to investigate, not enough to grow without bound. */
export const CORRUPT_COPIES_KEPT = 3;
/** Temp files younger than this may belong to a write in progress and are not swept. */
export const STALE_TEMP_MS = 60_000;

/** A file read back: missing, unusable (already set aside and reported), or parsed. */
export type Loaded<T> = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'loaded'; value: T; dropped: number };

export interface ReadContext {
  /** What the file holds, for messages ("the conversation list"). */
  what: string;
  warn(text: string): void;
  /** True while a write to the file is queued: then the bad file is about to be replaced, not moved. */
  busy(file: string): boolean;
  /** Files whose set-aside failed and were reported already (else every load would report them again). */
  reported: Set<string>;
}

/** Reads and parses `file`; an unreadable or unparsable file is set aside as `<file>.corrupt-<ms>` and reported once. */
export async function readStored<T>(file: string, parse: (text: string) => ParseResult<T>, ctx: ReadContext): Promise<Loaded<T>> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    await setAside(file, errorMessage(err), ctx);
    return { kind: 'unreadable' };
  }
  const result = parse(text);
  if (result.ok) return { kind: 'loaded', value: result.value, dropped: result.dropped };
  await setAside(file, result.reason, ctx);
  return { kind: 'unreadable' };
}

async function setAside(file: string, reason: string, ctx: ReadContext): Promise<void> {
  // A save already on its way replaces the bad file anyway; moving it now could move the good one.
  if (ctx.busy(file)) {
    ctx.warn(l10n.t('Could not read {0} ({1}); it is being replaced.', ctx.what, reason));
    return;
  }
  const aside = `${file}.corrupt-${Date.now()}`;
  try {
    await fs.promises.rename(file, aside);
  } catch (err) {
    if (ctx.reported.has(file)) return;
    ctx.reported.add(file);
    ctx.warn(l10n.t('Could not read {0} ({1}) nor set it aside ({2}).', ctx.what, reason, errorMessage(err)));
    return;
  }
  ctx.warn(l10n.t('Could not read {0} ({1}); it was set aside as {2}.', ctx.what, reason, path.basename(aside)));
  await removeCorruptCopies(file, CORRUPT_COPIES_KEPT);
}

/** Deletes `<file>.corrupt-*` copies beyond the newest `keep`. Best effort. */
export async function removeCorruptCopies(file: string, keep: number): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.corrupt-`;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const stamp = (name: string) => Number(name.slice(prefix.length));
  const copies = names.filter((n) => n.startsWith(prefix)).sort((a, b) => stamp(b) - stamp(a));
  await Promise.all(copies.slice(keep).map((n) => fs.promises.rm(path.join(dir, n), { force: true }).catch(() => undefined)));
}

/** Transcript file names (and their corrupt copies), capturing the conversation id. */
const TRANSCRIPT_NAME = /^([A-Za-z0-9_-]{1,100})\.json(?:\.corrupt-\d+)?$/;

/**
 * Best effort: deletes temp files a crash left in `dirs` (only stale ones: a young one may be a write
 * in progress) and, in `transcriptDir`, transcripts (and their corrupt copies) whose id `keep` rejects.
 * Other files are left alone: the folder is ours, but what we do not recognise we do not delete.
 */
export async function sweepLeftovers(dirs: string[], transcriptDir: string, keep: (id: string) => boolean): Promise<void> {
  const now = Date.now();
  for (const dir of dirs) {
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const full = path.join(dir, name);
      try {
        if (isTempPath(name)) {
          const stat = await fs.promises.stat(full);
          if (now - stat.mtimeMs > STALE_TEMP_MS) await fs.promises.rm(full, { force: true });
        } else if (dir === transcriptDir) {
          const id = TRANSCRIPT_NAME.exec(name)?.[1];
          if (id !== undefined && !keep(id)) await fs.promises.rm(full, { force: true });
        }
      } catch {
        // Housekeeping only: a file that vanished or resists is left for next time.
      }
    }
  }
}
