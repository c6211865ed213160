/**
 * The text of a `LineRange` in a document, as a selection or symbol mention embeds it: whole
 * lines with their line breaks (as Zed embeds selections and symbols), or from the start column
 * to the end column when the range has them. Lines and columns are 1-based; columns count UTF-16
 * code units (VS Code's `Position.character` + 1) and the end column is exclusive.
 */
import type { LineRange } from './contextUri';

/**
 * The range's text, clamped to the document (an end past the last line stops at the end, a
 * column past a line's end stops at the line's end); undefined when the range starts past the end.
 */
export function rangeText(text: string, range: LineRange): string | undefined {
  const start = lineStart(text, range.startLine);
  // Line 1 always exists (an empty document has one empty line); a later line must have content
  // or a line break after the previous one.
  if (start === undefined || (start === text.length && range.startLine > 1)) return undefined;
  const from = start + columnOffset(text, start, range.startColumn);
  const endStart = lineStart(text, range.endLine);
  let to: number;
  if (endStart === undefined) {
    to = text.length;
  } else if (range.endColumn !== undefined) {
    to = endStart + columnOffset(text, endStart, range.endColumn);
  } else {
    const nl = text.indexOf('\n', endStart);
    to = nl === -1 ? text.length : nl + 1;
  }
  return text.slice(from, Math.max(from, to));
}

/** Offset where 1-based `line` starts, or undefined past the last line. */
function lineStart(text: string, line: number): number | undefined {
  let pos = 0;
  for (let i = 1; i < line; i++) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) return undefined;
    pos = nl + 1;
  }
  return pos;
}

/** Offset of 1-based `column` from the line starting at `start`, at most the line's length. */
function columnOffset(text: string, start: number, column: number | undefined): number {
  if (column === undefined || column <= 1) return 0;
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return Math.min(column - 1, end - start);
}
