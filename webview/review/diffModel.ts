/**
 * The data behind an inline diff, from the host's hunk view: numbered rows for the lines sent,
 * collapsed regions (fetched from the host by row when the user opens them), and word-level
 * changes for paired removed/added lines. Pure: no DOM. Views come from the host but are checked
 * here anyway: a malformed one yields fewer rows, never an exception.
 */
import { diffWordsWithSpace } from 'diff';
import type { DiffContentView, DiffLineView } from '../../src/protocol/messages';

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
  /** The line was cut (too long to send). */
  cut?: boolean;
  /** The file's last line, without a final line break. */
  noEol?: boolean;
}

/** Lines not shown: `count` rows of the whole diff from `row`; the first is old line `oldLine`, new line `newLine`. */
export interface DiffGap {
  row: number;
  count: number;
  oldLine: number;
  newLine: number;
  /** False: unchanged lines between hunks; true: the rest of a long change. */
  changed: boolean;
}

export type DiffSegment = { kind: 'rows'; rows: DiffRow[] } | ({ kind: 'gap' } & DiffGap);

/** Lines longer than this skip word diffs: the cost is quadratic-ish and the highlight useless. */
const WORD_DIFF_MAX = 400;

const TYPE: Record<DiffLineView['kind'], LineType> = { add: 'added', del: 'removed', context: 'context' };

const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0);
const lineNo = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1);

/**
 * Numbers `lines` from old line `oldLine` and new line `newLine` (with word diffs for changed pairs);
 * also returns the numbers of the line after them.
 */
export function numberRows(lines: unknown, oldLine: number, newLine: number): { rows: DiffRow[]; oldLine: number; newLine: number } {
  const rows: DiffRow[] = [];
  let o = oldLine;
  let n = newLine;
  for (const line of Array.isArray(lines) ? (lines as unknown[]) : []) {
    if (typeof line !== 'object' || line === null) continue;
    const { kind, text, cut, noEol } = line as Partial<DiffLineView>;
    if (typeof text !== 'string' || (kind !== 'add' && kind !== 'del' && kind !== 'context')) continue;
    const row: DiffRow = { type: TYPE[kind], text };
    if (kind !== 'add') row.oldNo = o++;
    if (kind !== 'del') row.newNo = n++;
    if (cut === true) row.cut = true;
    if (noEol === true) row.noEol = true;
    rows.push(row);
  }
  addWordDiffs(rows);
  return { rows, oldLine: o, newLine: n };
}

/** The view in display order: hunks' rows, and gaps for whatever was not sent. */
export function segmentsOf(view: DiffContentView): DiffSegment[] {
  const segments: DiffSegment[] = [];
  const hunks = Array.isArray(view.hunks) ? view.hunks : [];
  let end = { row: 0, oldLine: 1, newLine: 1 };
  for (const hunk of hunks) {
    if (typeof hunk !== 'object' || hunk === null) continue;
    const row = count(hunk.row);
    const oldStart = lineNo(hunk.oldStart);
    const newStart = lineNo(hunk.newStart);
    const before = count(hunk.collapsedBefore);
    if (before > 0) segments.push({ kind: 'gap', row: row - before, count: before, oldLine: oldStart - before, newLine: newStart - before, changed: false });
    const numbered = numberRows(hunk.lines, oldStart, newStart);
    if (numbered.rows.length > 0) segments.push({ kind: 'rows', rows: numbered.rows });
    const more = count(hunk.more);
    if (more > 0)
      segments.push({ kind: 'gap', row: row + numbered.rows.length, count: more, oldLine: numbered.oldLine, newLine: numbered.newLine, changed: true });
    end = { row: row + numbered.rows.length + more, oldLine: oldStart + count(hunk.oldLines), newLine: newStart + count(hunk.newLines) };
  }
  const after = count(view.collapsedAfter);
  if (after > 0 && segments.length > 0) segments.push({ kind: 'gap', row: end.row, count: after, oldLine: end.oldLine, newLine: end.newLine, changed: false });
  return segments;
}

/** The first changed line in the new file (1-based), for "open at"; 1 when unknown. */
export function firstChangedLine(view: DiffContentView): number {
  const hunk = Array.isArray(view.hunks) ? view.hunks[0] : undefined;
  if (!hunk) return 1;
  let line = lineNo(hunk.newStart);
  for (const l of Array.isArray(hunk.lines) ? hunk.lines : []) {
    if (l?.kind !== 'context') return line;
    line++;
  }
  return line;
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
