import { TERMINAL_VIEW_LIMIT_CHARS, type HostMessage } from '../protocol/messages';

/** A pending append whose text is kept as parts and joined once, when the batch is taken. */
interface PendingAppend {
  kind: 'text' | 'terminal';
  id: string;
  parts: string[];
  length: number;
  truncated: boolean;
}

type Pending = { kind: 'message'; message: HostMessage } | PendingAppend;

/**
 * Gathers host messages between two posts and merges them without changing what the webview ends
 * up with: consecutive appends to the same entry or terminal become one append, and an upsert of an
 * entry replaces an earlier upsert of the same entry when nothing in between touched it. Merging
 * happens as messages arrive, and terminal output keeps only the tail the panel shows, so a command
 * printing megabytes between two frames costs bounded memory and one small post.
 */
export class MessageBatch {
  private items: Pending[] = [];

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  push(message: HostMessage): void {
    const last = this.items[this.items.length - 1];
    if (message.type === 'textAppended' || message.type === 'terminalAppended') {
      const kind = message.type === 'textAppended' ? 'text' : 'terminal';
      const id = message.type === 'textAppended' ? message.id : message.terminalId;
      const truncated = message.type === 'terminalAppended' && message.truncated;
      if (last && last.kind === kind && last.id === id) {
        last.parts.push(message.text);
        last.length += message.text.length;
        last.truncated ||= truncated;
        if (kind === 'terminal') trimToTail(last);
        return;
      }
      const append: PendingAppend = { kind, id, parts: [message.text], length: message.text.length, truncated };
      if (kind === 'terminal') trimToTail(append);
      this.items.push(append);
      return;
    }
    if (last?.kind === 'message' && message.type === 'entryUpserted' && last.message.type === 'entryUpserted' && last.message.entry.id === message.entry.id) {
      last.message = message;
      return;
    }
    this.items.push({ kind: 'message', message });
  }

  /** The merged messages, in order; the batch is empty afterwards. */
  take(): HostMessage[] {
    const out = this.items.map(toMessage);
    this.items = [];
    return out;
  }
}

/** One-shot form of MessageBatch, for a list already gathered. */
export function coalesce(messages: HostMessage[]): HostMessage[] {
  const batch = new MessageBatch();
  for (const message of messages) batch.push(message);
  return batch.take();
}

function trimToTail(append: PendingAppend): void {
  // Drop whole leading parts that lie entirely before the kept tail; the rest is cut in toMessage.
  while (append.parts.length > 1 && append.length - append.parts[0].length >= TERMINAL_VIEW_LIMIT_CHARS) {
    append.length -= append.parts.shift()!.length;
    append.truncated = true;
  }
}

function toMessage(item: Pending): HostMessage {
  if (item.kind === 'message') return item.message;
  let text = item.parts.length === 1 ? item.parts[0] : item.parts.join('');
  if (item.kind === 'text') return { type: 'textAppended', id: item.id, text };
  let truncated = item.truncated;
  if (text.length > TERMINAL_VIEW_LIMIT_CHARS) {
    text = text.slice(text.length - TERMINAL_VIEW_LIMIT_CHARS);
    truncated = true;
  }
  return { type: 'terminalAppended', terminalId: item.id, text, truncated };
}
