import { diffLines } from 'diff';
import type { Change } from 'diff';

/**
 * Line hunks between two texts, and reverting a chosen subset of them.
 *
 * A hunk is one contiguous run of changed lines (removed and/or added) with no context lines, the
 * unit VS Code's diff editor and a review UI show with "accept"/"reject". Hunks are computed with the
 * `diff` package's line diff, whose tokens keep their line endings ("a\r\n", "b\n", or a last line
 * with none), so stitching tokens back together reproduces either text byte for byte: CRLF files and
 * a missing final newline need no special casing, and reverting every hunk gives the old text
 * exactly.
 */

/** One contiguous change. Line numbers are 1-based. */
export interface Hunk {
  /** Position of the hunk in `computeHunks`' result; what `revertHunks` takes. */
  index: number;
  /** First old line of the hunk; when `oldLines` is 0 (an insertion), the old line it sits before. */
  oldStart: number;
  /** Number of old lines the hunk removes (0 for a pure insertion). */
  oldLines: number;
  /** First new line of the hunk; when `newLines` is 0 (a deletion), the new line it sits before. */
  newStart: number;
  /** Number of new lines the hunk adds (0 for a pure deletion). */
  newLines: number;
  /** `-line` for each removed line then `+line` for each added one, line endings stripped. */
  lines: string[];
}

/**
 * Beyond this many changed lines (removed + added) the diff gives up and the whole text becomes one
 * hunk: the line diff's cost grows with the square of the edit length (about 50 ms at 1,000, 200 ms
 * at 2,000), and a change that big is a rewrite anyway. A bound on edit length rather than on time
 * keeps the result deterministic, which matters: the hunk indexes a UI got from `computeHunks` must
 * mean the same hunks when it later calls `revertHunks`.
 */
export const MAX_EDIT_LINES = 1000;

/** A run of the diff: either unchanged text, or one hunk's old and new text. */
type Segment = { kind: 'same'; text: string; lines: number } | { kind: 'hunk'; old: Change[]; new: Change[] };

function segments(oldText: string, newText: string): Segment[] {
  if (oldText === newText) return oldText ? [{ kind: 'same', text: oldText, lines: countLines(oldText) }] : [];
  const changes = diffLines(oldText, newText, { maxEditLength: MAX_EDIT_LINES }) ?? [
    { value: oldText, added: false, removed: true, count: countLines(oldText) },
    { value: newText, added: true, removed: false, count: countLines(newText) },
  ];
  const out: Segment[] = [];
  for (const change of changes) {
    if (!change.added && !change.removed) {
      out.push({ kind: 'same', text: change.value, lines: change.count });
      continue;
    }
    if (!change.value) continue;
    let last = out[out.length - 1];
    if (last?.kind !== 'hunk') {
      last = { kind: 'hunk', old: [], new: [] };
      out.push(last);
    }
    (change.removed ? last.old : last.new).push(change);
  }
  return out;
}

/** The hunks turning `oldText` into `newText`, in file order. */
export function computeHunks(oldText: string, newText: string): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const seg of segments(oldText, newText)) {
    if (seg.kind === 'same') {
      oldLine += seg.lines;
      newLine += seg.lines;
      continue;
    }
    const oldLines = sum(seg.old);
    const newLines = sum(seg.new);
    hunks.push({
      index: hunks.length,
      oldStart: oldLine,
      oldLines,
      newStart: newLine,
      newLines,
      lines: [...seg.old.flatMap((c) => splitLines(c.value).map((l) => `-${l}`)), ...seg.new.flatMap((c) => splitLines(c.value).map((l) => `+${l}`))],
    });
    oldLine += oldLines;
    newLine += newLines;
  }
  return hunks;
}

/**
 * `newText` with the hunks at `hunkIndexes` (from `computeHunks(oldText, newText)`) put back to
 * their old lines; every other hunk keeps its new lines. Reverting all hunks gives `oldText`,
 * reverting none gives `newText`. Unknown indexes are ignored.
 */
export function revertHunks(oldText: string, newText: string, hunkIndexes: Iterable<number>): string {
  const revert = new Set(hunkIndexes);
  let out = '';
  let index = 0;
  for (const seg of segments(oldText, newText)) {
    if (seg.kind === 'same') {
      out += seg.text;
      continue;
    }
    out += (revert.has(index) ? seg.old : seg.new).map((c) => c.value).join('');
    index++;
  }
  return out;
}

/** Lines added and removed between two texts (the same diff as the hunks, so the numbers agree). */
export function countLineChanges(oldText: string, newText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const seg of segments(oldText, newText)) {
    if (seg.kind === 'same') continue;
    removed += sum(seg.old);
    added += sum(seg.new);
  }
  return { added, removed };
}

/** Number of lines in a text; a last line without a line ending counts, an empty text has none. */
export function countLines(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

function sum(changes: Change[]): number {
  return changes.reduce((n, c) => n + c.count, 0);
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
