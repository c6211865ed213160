/**
 * Agents replay a session's history (session/load) from their own logs, and those logs hold more
 * than the user typed: Claude Code, for one, stores slash commands as `<command-name>` markup and
 * wraps injected context in `<system-reminder>`. Shown verbatim that would read as noise (or as
 * raw HTML) in the user's own message, so the known wrappers are reduced to what the user wrote.
 */

/** Blocks that never came from the user: dropped with their content. */
const HIDDEN_BLOCKS = ['system-reminder', 'local-command-stdout', 'local-command-stderr', 'local-command-caveat', 'command-message'];
/** Wrappers around text the user did write: the tags go, the text stays. */
const UNWRAPPED = ['command-name', 'command-args', 'user-prompt-submit-hook'];

const hidden = new RegExp(`<(${HIDDEN_BLOCKS.join('|')})>[\\s\\S]*?</\\1>`, 'g');
const unwrapped = new RegExp(`</?(${UNWRAPPED.join('|')})>`, 'g');

/** The user-visible part of a replayed user chunk (may be empty: then nothing is shown). */
export function withoutInternalMarkup(text: string): string {
  if (!text.includes('<')) return text;
  const cleaned = text.replace(hidden, '').replace(unwrapped, ' ');
  // Only collapse what the removal left behind; text without markup stays byte for byte.
  return cleaned === text ? text : cleaned.replace(/[ \t]{2,}/g, ' ').trim();
}
