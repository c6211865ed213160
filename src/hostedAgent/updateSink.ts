/**
 * The turn's outgoing `session/update`s, in order. Text and thought deltas that arrive together
 * (one network read often holds hundreds of SSE events) are merged into one update before they
 * are sent: the client sees the same text with far fewer messages, and nothing waits for a timer.
 */
import type * as acp from '@agentclientprotocol/sdk';

function mergeable(u: acp.SessionUpdate): u is Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' }> {
  return (u.sessionUpdate === 'agent_message_chunk' || u.sessionUpdate === 'agent_thought_chunk') && u.content.type === 'text' && u._meta == null;
}

export class UpdateSink {
  private queue: acp.SessionUpdate[] = [];

  constructor(private readonly send: (update: acp.SessionUpdate) => Promise<void>) {}

  push(update: acp.SessionUpdate): void {
    const last = this.queue[this.queue.length - 1];
    if (last && mergeable(last) && mergeable(update) && last.sessionUpdate === update.sessionUpdate && last.content.type === 'text' && update.content.type === 'text') {
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
