/**
 * Kept messages as ACP updates: `session/load` replays a whole history this way, and a JSON
 * (non-streaming) answer is shown as its messages arrive in one piece. Tool calls appear once, in
 * their final state; the bridge's notices are replayed after the message they followed.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { noticeUpdate, type Notice } from './endings';
import { toolCallFor } from './toolCards';
import { acpToolId, isTextPart, isToolPart, type UIMessage } from './types';

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
      updates.push(toolCallFor(acpToolId(index, part.toolCallId), part));
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
