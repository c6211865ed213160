/**
 * Size caps for what a tool answers. A model's context is the scarce thing (Claude Code refuses MCP
 * results beyond ~25k tokens by default), so every result is cut to a known size and says so when
 * it was: the model can then ask for a narrower range instead of acting on a silently partial answer.
 */

/** The most characters one tool result carries (about 12k tokens). */
export const MAX_RESULT_CHARS = 48_000;
/** The most items a list result (diagnostics, symbols, references …) carries. */
export const MAX_LIST_ITEMS = 200;

/** What a tool answers before the registry caps it: text for the model, and whether it is an error. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
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
 * `text` cut to `max` characters (never inside a surrogate pair), followed by a line that says how
 * much was left out. Text that fits is returned as it is.
 */
export function capText(text: string, max = MAX_RESULT_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const note = `\n[truncated: showing the first ${end} of ${text.length} characters; ask for a smaller range (read_file's startLine/endLine, a path for diagnostics)]`;
  return { text: text.slice(0, end) + note, truncated: true };
}

/** A JSON answer (compact: models read it fine and it costs fewer tokens), with an optional note line. */
export function jsonOutput(value: unknown, note?: string): ToolOutput {
  const text = JSON.stringify(value);
  return { text: note === undefined ? text : `${text}\n${note}` };
}
