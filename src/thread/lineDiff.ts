import { diffArrays } from 'diff';
import type { DiffLineView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';
import { DIFF_LINE_MAX_CHARS } from '../protocol/messages';

/**
 * A line diff of two texts as runs of rows, and reading any range of those rows back as lines.
 *
 * Rows are the lines of the unified diff in order: an unchanged line counts once, a removed line and
 * an added line once each. Only the runs (kind and length) are kept, never per-line data, so a
 * 100,000-line diff costs a few hundred bytes once computed; lines are read back from the texts on
 * demand, in one forward pass per request.
 *
 * Lines are compared with their line endings, like `diff` and git do, so a changed line ending (CRLF
 * for LF) or a missing final newline is a change; lines are shown without their endings.
 */

export type RunKind = 'same' | 'del' | 'add';

export interface Run {
  kind: RunKind;
  count: number;
}

export interface LineDiff {
  /** Runs in file order; within one change, removed rows come before added ones. */
  runs: Run[];
  /** Rows in total (unchanged + removed + added lines). */
  rows: number;
  added: number;
  removed: number;
}

/**
 * Past this many changed lines (removed + added) the line diff gives up and shows everything between
 * the common start and the common end as one change. The `diff` package's Myers diff grows with the
 * square of the edit length (about 170 ms for a 100,000-line file at this bound); a bound on edit
 * length rather than on time keeps the result, and so every row number, deterministic.
 */
export const MAX_EDIT_LINES = 1000;

/** The text's lines with their endings (`\n`, `\r\n`, or none for a last line without one). */
export function splitKeepingEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      if (start < text.length) lines.push(text.slice(start));
      return lines;
    }
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
}

/** The runs turning `oldText` (null: no file) into `newText`. */
export function diffLineRuns(oldText: string | null, newText: string): LineDiff {
  const oldLines = oldText ? splitKeepingEnds(oldText) : [];
  const newLines = splitKeepingEnds(newText);
  const runs: Run[] = [];
  const push = (kind: RunKind, count: number): void => {
    if (count <= 0) return;
    const last = runs[runs.length - 1];
    if (last?.kind === kind) last.count += count;
    else runs.push({ kind, count });
  };
  const changes = oldLines.length === 0 || newLines.length === 0 ? undefined : diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LINES });
  if (changes) {
    for (const change of changes) push(change.removed ? 'del' : change.added ? 'add' : 'same', change.count ?? change.value.length);
  } else {
    // Nothing to compare against, or too many changes: the common start and end stay, the middle is replaced.
    let head = 0;
    while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
    let tail = 0;
    while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail])
      tail++;
    push('same', head);
    push('del', oldLines.length - head - tail);
    push('add', newLines.length - head - tail);
    push('same', tail);
  }
  return summarise(runs);
}

function summarise(runs: Run[]): LineDiff {
  let rows = 0;
  let added = 0;
  let removed = 0;
  for (const run of runs) {
    rows += run.count;
    if (run.kind === 'add') added += run.count;
    else if (run.kind === 'del') removed += run.count;
  }
  return { runs, rows, added, removed };
}

/** Where a row lies: 0-based line indexes in the old and new text of the row (or of the next line on that side). */
export interface RowPosition {
  row: number;
  oldIndex: number;
  newIndex: number;
}

/** The old and new line indexes at `row` (0 ≤ row ≤ rows). */
export function positionOf(diff: LineDiff, row: number): RowPosition {
  let r = 0;
  let oldIndex = 0;
  let newIndex = 0;
  for (const run of diff.runs) {
    const take = Math.min(run.count, row - r);
    if (take <= 0) break;
    r += take;
    if (run.kind !== 'add') oldIndex += take;
    if (run.kind !== 'del') newIndex += take;
  }
  return { row: r, oldIndex, newIndex };
}

/** Reads a text's lines forward only: skipping costs one `indexOf` per line, no copies. */
export class LineReader {
  private offset = 0;
  private index = 0;

  constructor(private readonly text: string) {}

  /** Moves to line `index` (never backwards). */
  seek(index: number): void {
    while (this.index < index && this.offset < this.text.length) {
      const end = this.text.indexOf('\n', this.offset);
      this.offset = end === -1 ? this.text.length : end + 1;
      this.index++;
    }
  }

  /** Moves past the current line. */
  skip(): void {
    this.seek(this.index + 1);
  }

  /** The current line as the panel shows it, then moves past it. */
  read(kind: DiffLineView['kind']): DiffLineView {
    const end = this.text.indexOf('\n', this.offset);
    const stop = end === -1 ? this.text.length : end;
    let textEnd = stop;
    if (end !== -1 && textEnd > this.offset && this.text.charCodeAt(textEnd - 1) === 13) textEnd--;
    const line: Draft<DiffLineView> = { kind, text: '' };
    if (textEnd - this.offset > DIFF_LINE_MAX_CHARS) {
      let cutAt = this.offset + DIFF_LINE_MAX_CHARS;
      // Never end inside a surrogate pair.
      const code = this.text.charCodeAt(cutAt - 1);
      if (code >= 0xd800 && code <= 0xdbff) cutAt--;
      line.text = this.text.slice(this.offset, cutAt);
      line.cut = true;
    } else {
      line.text = this.text.slice(this.offset, textEnd);
    }
    if (end === -1) line.noEol = true;
    this.offset = end === -1 ? this.text.length : end + 1;
    this.index++;
    return line;
  }
}

const KIND: Record<RunKind, DiffLineView['kind']> = { same: 'context', del: 'del', add: 'add' };

/**
 * Reads rows [from, from + count) forward with one reader per side; readers may be reused for a
 * later, larger `from` (building a whole view costs one pass over each text).
 */
export function readRows(diff: LineDiff, readers: { old: LineReader; new: LineReader }, from: number, count: number): DiffLineView[] {
  const lines: DiffLineView[] = [];
  const start = positionOf(diff, from);
  readers.old.seek(start.oldIndex);
  readers.new.seek(start.newIndex);
  let r = 0;
  for (const run of diff.runs) {
    const runEnd = r + run.count;
    if (runEnd <= from) {
      r = runEnd;
      continue;
    }
    const first = Math.max(from, r);
    const last = Math.min(from + count, runEnd);
    for (let row = first; row < last; row++) {
      // An unchanged line is the same on both sides: read it from the old text, step over it in the new.
      if (run.kind === 'add') lines.push(readers.new.read('add'));
      else {
        lines.push(readers.old.read(KIND[run.kind]));
        if (run.kind === 'same') readers.new.skip();
      }
    }
    r = runEnd;
    if (r >= from + count) break;
  }
  return lines;
}
