/**
 * A tool call's diff as unified diff text, for a ```diff block of an exported conversation. A stored
 * transcript keeps both texts of each diff (StoredDiffContent), so the whole change is written, not
 * only the hunks the panel was sent; without them (a view from the panel) the hunks the view holds
 * are written and what they left out is said.
 */
import type { DiffContentView, DiffLineView } from '../../protocol/messages';
import { DIFF_INLINE_MAX_BYTES } from '../../protocol/messages';
import { hunkRanges } from '../diffContent';
import { diffLineRuns, LineReader, readRows } from '../lineDiff';

/** Most lines of one diff written into the document; a longer change is cut with a note. */
export const EXPORT_DIFF_MAX_LINES = 5000;

/** A diff item, with the texts a stored transcript keeps. */
export type ExportDiff = DiffContentView & { oldText?: string | null; newText?: string };

export interface DiffText {
  /** Unified diff: `---` / `+++` headers, `@@` hunks, ` `/`-`/`+` lines. Empty when there is nothing to show. */
  body: string;
  /** What was left out (too large, lines past the limit, hunks the view did not hold). */
  omitted?: { lines: number } | { tooLarge: number };
}

function lineText(line: DiffLineView): string {
  const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
  const text = `${mark}${line.text}${line.cut ? '…' : ''}`;
  return line.noEol ? `${text}\n\\ No newline at end of file` : text;
}

function hunkHeader(oldStart: number, oldLines: number, newStart: number, newLines: number): string {
  // Unified diff numbers an empty side by the line before it (0 at the top of the file).
  const side = (start: number, lines: number) => `${lines === 0 ? Math.max(0, start - 1) : start},${lines}`;
  return `@@ -${side(oldStart, oldLines)} +${side(newStart, newLines)} @@`;
}

function bytes(text: string | null | undefined): number {
  return text ? Buffer.byteLength(text, 'utf8') : 0;
}

/** `shownPath`: the file's name in the document (workspace-relative). */
export function diffText(item: ExportDiff, shownPath: string): DiffText {
  const header = [item.isNew ? '--- /dev/null' : `--- a/${shownPath}`, `+++ b/${shownPath}`];
  const out: string[] = [];
  let omitted = 0;
  if (typeof item.newText === 'string') {
    const oldText = typeof item.oldText === 'string' ? item.oldText : null;
    const size = Math.max(bytes(oldText), bytes(item.newText));
    if (size > DIFF_INLINE_MAX_BYTES) return { body: '', omitted: { tooLarge: size } };
    const diff = diffLineRuns(oldText, item.newText);
    const readers = { old: new LineReader(oldText ?? ''), new: new LineReader(item.newText) };
    let budget = EXPORT_DIFF_MAX_LINES;
    for (const range of hunkRanges(diff)) {
      const take = Math.min(range.rows, budget);
      if (take === 0) {
        omitted += range.rows;
        continue;
      }
      budget -= take;
      out.push(hunkHeader(range.oldIndex + 1, range.rows - range.added, range.newIndex + 1, range.rows - range.removed));
      for (const line of readRows(diff, readers, range.row, take)) out.push(lineText(line));
      omitted += range.rows - take;
    }
  } else {
    if (item.tooLarge) return { body: '', omitted: { tooLarge: item.tooLarge.bytes } };
    for (const hunk of Array.isArray(item.hunks) ? item.hunks : []) {
      out.push(hunkHeader(hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines));
      for (const line of Array.isArray(hunk.lines) ? hunk.lines : []) out.push(lineText(line));
      omitted += Math.max(0, hunk.more || 0);
    }
  }
  if (out.length === 0) return omitted > 0 ? { body: '', omitted: { lines: omitted } } : { body: '' };
  const body = [...header, ...out].join('\n');
  return omitted > 0 ? { body, omitted: { lines: omitted } } : { body };
}
