/**
 * What the client is sent. `UpdateSink`: the turn's outgoing `session/update`s, in order, with the
 * text and thought deltas that arrive together (one network read often holds hundreds of SSE
 * events) merged into one update before they go out — the same text in far fewer messages, and
 * nothing waits for a timer. `historyUpdates`: kept messages as updates — `session/load` replays a
 * whole history this way, and a JSON (non-streaming) answer is shown as its messages arrive in one
 * piece. Tool calls appear once, in their final state; the bridge's notices are replayed after the
 * message they followed.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { noticeUpdate, type Notice } from './endings';
import { settledCallFor } from './toolCards';
import { acpToolId, isTextPart, isToolPart, type UIMessage } from './types';

function mergeable(u: acp.SessionUpdate): u is Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' }> {
  return (u.sessionUpdate === 'agent_message_chunk' || u.sessionUpdate === 'agent_thought_chunk') && u.content.type === 'text' && u._meta == null;
}

export class UpdateSink {
  private queue: acp.SessionUpdate[] = [];

  constructor(private readonly send: (update: acp.SessionUpdate) => Promise<void>) {}

  push(update: acp.SessionUpdate): void {
    const last = this.queue[this.queue.length - 1];
    if (
      last &&
      mergeable(last) &&
      mergeable(update) &&
      last.sessionUpdate === update.sessionUpdate &&
      last.content.type === 'text' &&
      update.content.type === 'text'
    ) {
      this.queue[this.queue.length - 1] = { ...last, content: { type: 'text', text: last.content.text + update.content.text } };
      return;
    }
    this.queue.push(update);
  }

  /** Sends everything queued, in order; resolves once the transport took it. */
  async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      for (const update of batch) await this.send(update);
    }
  }
}

/** A notice shown after message `after` (an index in the history). */
export interface KeptNotice extends Notice {
  after: number;
}

export function messageUpdates(message: UIMessage, index: number): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const part of message.parts) {
    if (isTextPart(part)) {
      if (part.text === '') continue;
      const content: acp.ContentBlock = { type: 'text', text: part.text };
      if (message.role === 'user') updates.push({ sessionUpdate: 'user_message_chunk', content });
      else if (part.type === 'reasoning') updates.push({ sessionUpdate: 'agent_thought_chunk', content });
      else if (message.role === 'assistant') updates.push({ sessionUpdate: 'agent_message_chunk', content });
    } else if (isToolPart(part) && message.role === 'assistant') {
      updates.push(settledCallFor(acpToolId(index, part.toolCallId), part));
    }
  }
  return updates;
}

export function historyUpdates(messages: readonly UIMessage[], notices: readonly KeptNotice[] = []): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  messages.forEach((message, index) => {
    updates.push(...messageUpdates(message, index));
    for (const n of notices) if (n.after === index) updates.push(noticeUpdate(n));
  });
  return updates;
}
