import * as l10n from '@vscode/l10n';
import type { HunkView } from '../protocol/messages';
import type { computeHunks } from '../review/hunks';

/** Hunk lines sent to the panel per hunk (the native diff editor shows everything). */
const HUNK_LINES = 200;

/** A changed file's hunk as the strip shows it: long hunks cut, with how many lines are left out. */
export function hunkView(hunk: ReturnType<typeof computeHunks>[number]): HunkView {
  const lines = hunk.lines.length > HUNK_LINES ? [...hunk.lines.slice(0, HUNK_LINES), l10n.t('… {0} more lines', hunk.lines.length - HUNK_LINES)] : hunk.lines;
  return { index: hunk.index, oldStart: hunk.oldStart, oldLines: hunk.oldLines, newStart: hunk.newStart, newLines: hunk.newLines, lines };
}

/** Where a hunk is, in the words of a note to the agent (English: the agent reads it). */
export function lineRange(start: number, count: number): string {
  return count <= 1 ? `line ${start}` : `lines ${start}–${start + count - 1}`;
}
