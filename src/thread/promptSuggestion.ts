/**
 * The next prompt an agent predicts for the user: claude-agent-acp 0.101 sends it after a turn as
 * `session_info_update._meta.promptSuggestions {suggestions: [{text}]}`; an empty list withdraws the
 * previous prediction. Shown as ghost text in the empty composer, never sent by itself. Input is
 * untrusted: anything but a list of texts is ignored, a text is trimmed and bounded.
 */
import { isRecord } from '../protocol/guards';

/** Longest suggestion kept (a predicted prompt is a sentence or two). */
export const MAX_SUGGESTION_CHARS = 2000;

/**
 * What a session_info_update says of the suggestion: its text, `null` when it withdraws the one
 * shown, undefined when it says nothing of it (a title change only, or a malformed value).
 */
export function promptSuggestionOf(update: Record<string, unknown>): string | null | undefined {
  const meta = update._meta;
  if (!isRecord(meta) || !isRecord(meta.promptSuggestions)) return undefined;
  const list = meta.promptSuggestions.suggestions;
  if (!Array.isArray(list)) return undefined;
  for (const item of list.slice(0, 20)) {
    const text = isRecord(item) && typeof item.text === 'string' ? item.text.trim() : '';
    // The first one that says something, as the adapter means it.
    if (text.length > 0) return text.length > MAX_SUGGESTION_CHARS ? `${text.slice(0, MAX_SUGGESTION_CHARS - 1)}…` : text;
  }
  return null;
}
