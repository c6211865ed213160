/**
 * The data behind an inline diff, computed with the `diff` package: hunks with a few context lines,
 * the unchanged gaps between them (kept as ranges, so hidden lines cost no DOM), and word-level
 * changes for paired removed/added lines. Pure: no DOM.
 */
import { diffWordsWithSpace, structuredPatch } from 'diff';

export type LineType = 'added' | 'removed' | 'context';

export interface WordPart {
  text: string;
  /** True for the words that changed on this line. */
  changed: boolean;
}

export interface DiffRow {
  type: LineType;
  oldNo?: number;
  newNo?: number;
  text: string;
  /** Word-level parts, for removed/added lines paired with a counterpart. */
  words?: WordPart[];
}

export type DiffSegment =
  | { kind: 'rows'; rows: DiffRow[] }
  /** Unchanged lines not shown: old lines [oldStart, oldStart+count), 0-based; new numbering offset. */
  | { kind: 'gap'; oldStart: number; newStart: number; count: number };

export interface DiffModel {
  segments: DiffSegment[];
  added: number;
  removed: number;
  /** Old file lines (for expanding gaps). */
  oldLines: string[];
  /** First changed line in the new file (1-based), for "open at". */
  firstChangedLine: number;
}

const CONTEXT = 3;
/** Lines longer than this skip word diffs: the cost is quadratic-ish and the highlight useless. */
const WORD_DIFF_MAX = 400;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Recently computed models: a diff is computed when its message arrives, then reused by the frame. */
const recent: Array<{ oldText: string | null; newText: string; model: DiffModel }> = [];
const RECENT_LIMIT = 4;

/** `computeDiff`, reusing one of the last few results for the same texts. */
export function cachedDiff(oldText: string | null, newText: string): DiffModel {
  const hit = recent.find((r) => r.oldText === oldText && r.newText === newText);
  if (hit) return hit.model;
  const model = computeDiff(oldText, newText);
  recent.unshift({ oldText, newText, model });
  if (recent.length > RECENT_LIMIT) recent.pop();
  return model;
}

export function computeDiff(oldText: string | null, newText: string): DiffModel {
  const before = oldText ?? '';
  const patch = structuredPatch('a', 'b', before, newText, undefined, undefined, { context: CONTEXT });
  const oldLines = splitLines(before);
  const segments: DiffSegment[] = [];
  let added = 0;
  let removed = 0;
  let firstChangedLine = 0;
  let oldCursor = 0; // 0-based index of the next old line not yet covered
  let newCursor = 0;
  for (const hunk of patch.hunks) {
    // jsdiff numbers a pure insertion by the line it goes before (not GNU diff's line after),
    // so start - 1 is the 0-based index of the first line the hunk covers either way.
    const hunkOld = Math.max(0, hunk.oldStart - 1);
    const hunkNew = Math.max(0, hunk.newStart - 1);
    if (hunkOld > oldCursor) segments.push({ kind: 'gap', oldStart: oldCursor, newStart: newCursor, count: hunkOld - oldCursor });
    let o = hunkOld;
    let n = hunkNew;
    const rows: DiffRow[] = [];
    for (const line of hunk.lines) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === '+') {
        rows.push({ type: 'added', newNo: ++n, text });
        added++;
        if (firstChangedLine === 0) firstChangedLine = n;
      } else if (sign === '-') {
        rows.push({ type: 'removed', oldNo: ++o, text });
        removed++;
        if (firstChangedLine === 0) firstChangedLine = Math.max(1, n + 1);
      } else if (sign === ' ') {
        rows.push({ type: 'context', oldNo: ++o, newNo: ++n, text });
      } // '\' lines ("No newline at end of file") carry no content
    }
    addWordDiffs(rows);
    segments.push({ kind: 'rows', rows });
    oldCursor = o;
    newCursor = n;
  }
  if (oldCursor < oldLines.length && patch.hunks.length > 0) {
    segments.push({ kind: 'gap', oldStart: oldCursor, newStart: newCursor, count: oldLines.length - oldCursor });
  }
  return { segments, added, removed, oldLines, firstChangedLine: firstChangedLine || 1 };
}

/** Pairs each run of removed lines with the run of added lines right after it, line by line. */
function addWordDiffs(rows: DiffRow[]): void {
  let i = 0;
  while (i < rows.length) {
    if (rows[i].type !== 'removed') {
      i++;
      continue;
    }
    const removedStart = i;
    while (i < rows.length && rows[i].type === 'removed') i++;
    const addedStart = i;
    while (i < rows.length && rows[i].type === 'added') i++;
    const pairs = Math.min(addedStart - removedStart, i - addedStart);
    for (let k = 0; k < pairs; k++) {
      const oldRow = rows[removedStart + k];
      const newRow = rows[addedStart + k];
      if (oldRow.text.length > WORD_DIFF_MAX || newRow.text.length > WORD_DIFF_MAX) continue;
      const parts = diffWordsWithSpace(oldRow.text, newRow.text);
      oldRow.words = parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: p.removed }));
      newRow.words = parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: p.added }));
    }
  }
}

/** Rows for `count` unchanged lines of a gap starting at offset `from` within it. */
export function gapRows(model: DiffModel, gap: { oldStart: number; newStart: number }, from: number, count: number): DiffRow[] {
  const rows: DiffRow[] = [];
  for (let k = from; k < from + count; k++) {
    rows.push({ type: 'context', oldNo: gap.oldStart + k + 1, newNo: gap.newStart + k + 1, text: model.oldLines[gap.oldStart + k] ?? '' });
  }
  return rows;
}
