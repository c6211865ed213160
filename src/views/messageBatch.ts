import type { HostMessage } from '../protocol/messages';

/**
 * Merges a burst of host messages without changing what the webview ends up with: consecutive
 * appends to the same entry or terminal become one append, and an upsert of an entry replaces an
 * earlier upsert of the same entry when nothing in between touched it.
 */
export function coalesce(messages: HostMessage[]): HostMessage[] {
  const out: HostMessage[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (last && message.type === 'textAppended' && last.type === 'textAppended' && last.id === message.id) {
      out[out.length - 1] = { ...last, text: last.text + message.text };
      continue;
    }
    if (last && message.type === 'terminalAppended' && last.type === 'terminalAppended' && last.terminalId === message.terminalId) {
      out[out.length - 1] = { ...last, text: last.text + message.text, truncated: message.truncated };
      continue;
    }
    if (last && message.type === 'entryUpserted' && last.type === 'entryUpserted' && last.entry.id === message.entry.id) {
      out[out.length - 1] = message;
      continue;
    }
    out.push(message);
  }
  return out;
}
