/**
 * What the bridge sends: the prompt as a user message, and each request's body — the whole kept
 * history (the APIs are stateless), the bridge's own fields, and the configured `body` on top.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { deepMerge, type HostedConfig } from './config';
import { isTextPart, isToolPart, plainText, type UIMessage } from './types';

/** An ACP prompt as one user message of text parts (resources become text: these APIs take text). */
export function promptMessage(prompt: readonly acp.ContentBlock[], id: string): UIMessage {
  const texts: string[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'resource_link':
        texts.push(`[${block.title ?? block.name}](${block.uri})`);
        break;
      case 'resource': {
        const r = block.resource;
        if ('text' in r) texts.push(`${r.uri}:\n\`\`\`\n${r.text}\n\`\`\``);
        else texts.push(`(binary resource ${r.uri} left out)`);
        break;
      }
      case 'image':
      case 'audio':
        texts.push(`(${block.type} left out: this agent sends text only)`);
        break;
    }
  }
  return { id, role: 'user', parts: texts.filter((t) => t !== '').map((text) => ({ type: 'text', text })) };
}

/**
 * What an earlier turn left open, closed before the history goes again: calls the user never
 * answered (a cancelled turn) are denied; calls and texts still running when the bridge was ended
 * mid-turn (the history is saved while it streams) end as interrupted — an AI SDK server refuses a
 * history holding a tool call without a result.
 */
export function closeStaleApprovals(messages: readonly UIMessage[]): void {
  for (const m of messages) {
    for (const p of m.parts) {
      if (isToolPart(p) && p.state === 'approval-requested' && p.approval) {
        p.state = 'approval-responded';
        p.approval = { ...p.approval, approved: false, reason: 'The user did not answer.' };
      } else if (isToolPart(p) && (p.state === 'input-streaming' || p.state === 'input-available')) {
        p.state = 'output-error';
        p.errorText = 'Interrupted: the conversation stopped before this call finished.';
      } else if (isTextPart(p) && p.state === 'streaming') p.state = 'done';
    }
  }
}

/** The history as each dialect expects it on the wire. */
export function wireMessages(messages: readonly UIMessage[], format: HostedConfig['format']): unknown[] {
  // The seed's requests are `{ role, content }`; its answers are UIMessages with parts. Both are
  // sent so a server reading either finds the conversation (parts carry the tool calls).
  if (format === 'tool-events') return messages.map((m) => ({ id: m.id, role: m.role, content: plainText(m), parts: m.parts }));
  return messages.map((m) =>
    m.metadata === undefined ? { id: m.id, role: m.role, parts: m.parts } : { id: m.id, role: m.role, metadata: m.metadata, parts: m.parts },
  );
}

export interface BodyOptions {
  sessionId: string;
  /** ui-message-stream: the id of the message being continued (after an approval), if any. */
  continuing?: string;
}

/** One request body: the bridge's fields, then `cfg.body` merged over them (except `messages`). */
export function requestBody(cfg: HostedConfig, messages: readonly UIMessage[], opts: BodyOptions): Record<string, unknown> {
  const own: Record<string, unknown> =
    cfg.format === 'tool-events'
      ? { stream: cfg.stream }
      : // What the AI SDK's DefaultChatTransport sends: the chat id, the trigger, the message continued.
        { id: opts.sessionId, trigger: 'submit-message', ...(opts.continuing ? { messageId: opts.continuing } : {}) };
  if (cfg.model) own.model = cfg.model;
  const { messages: _ignored, ...extra } = cfg.body;
  return { ...deepMerge(own, extra), messages: wireMessages(messages, cfg.format) };
}
