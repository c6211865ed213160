/**
 * Size caps for what a tool answers. A model's context is the scarce thing (Claude Code refuses MCP
 * results beyond ~25k tokens by default), so every result is cut to a known size and says so when
 * it was: the model can then ask for a narrower range instead of acting on a silently partial answer.
 */

/** The most characters one tool result carries (about 12k tokens), the truncation note included. */
export const MAX_RESULT_CHARS = 48_000;
/** The most items a list result (diagnostics, symbols, references …) carries. */
export const MAX_LIST_ITEMS = 200;

/** What a tool answers before the registry caps it: text for the model, and whether it is an error. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
  /**
   * True when the tool itself left something out (a list over `MAX_LIST_ITEMS`, the start of a
   * command's output); its text then carries a `[truncated: …]` note. The registry's own character
   * cap adds to this, so the host's card and `_meta` say "truncated" for either cut.
   */
  truncated?: boolean;
}

/** A list of at most `max` items, with the note to add when some were left out. */
export function capList<T>(items: readonly T[], what: string, max = MAX_LIST_ITEMS): { items: T[]; note?: string } {
  if (items.length <= max) return { items: [...items] };
  return {
    items: items.slice(0, max),
    note: `[truncated: showing the first ${max} of ${items.length} ${what}; narrow the request to see the rest]`,
  };
}

/**
 * `text` cut so that it and the line saying how much was left out fit in `max` characters (never
 * inside a surrogate pair). Text that fits is returned as it is.
 */
export function capText(text: string, max = MAX_RESULT_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  // The note's length depends on the numbers in it; the longest form is reserved.
  const note = (shown: number): string =>
    `\n[truncated: showing the first ${shown} of ${text.length} characters; ask for a smaller range (read_file's startLine/endLine, a path for diagnostics)]`;
  let end = Math.max(0, max - note(max).length);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return { text: text.slice(0, end) + note(end), truncated: true };
}

/** The last `max` characters of `text` (never starting inside a surrogate pair), and whether any were dropped. */
export function tailText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let start = text.length - max;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return { text: text.slice(start), cut: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * A JSON answer (compact: models read it fine and it costs fewer tokens), with an optional note
 * line; a note means something was left out.
 */
export function jsonOutput(value: unknown, note?: string): ToolOutput {
  const text = JSON.stringify(value);
  return note === undefined ? { text } : { text: `${text}\n${note}`, truncated: true };
}
