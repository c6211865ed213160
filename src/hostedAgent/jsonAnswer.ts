/**
 * A non-streaming answer (`stream: false`): `{ success, data: { messages, usage, tools } }` as the
 * seed documents it (also a bare `{ messages }`). The messages are the reply, possibly preceded by
 * the request's own messages echoed back ("the complete conversation history"): only what follows
 * the last user message is the new reply.
 */
import { isRecord } from '../protocol/guards';
import { incompleteMarker } from './endings';
import { errorTextOf } from './toolEvents';
import { parseMessages, type UIMessage, type Warn } from './types';

export interface JsonAnswer {
  /** The reply's messages (assistant messages, as the server sent them). */
  messages: UIMessage[];
  incomplete?: string;
  /** `success: false`: what the server said. */
  error?: string;
  /** `data.tools.skipped`: tools the server left out (contextStrategy "skip"). */
  skipped: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function readJsonAnswer(body: unknown, warn: Warn, newId: () => string): JsonAnswer {
  if (!isRecord(body)) return { messages: [], error: 'The server answered with JSON that is not an object.', skipped: [] };
  if (body.success === false) return { messages: [], error: errorTextOf(body) ?? 'The server answered "success": false without a message.', skipped: [] };
  const data = isRecord(body.data) ? body.data : body;
  if (!Array.isArray(data.messages)) return { messages: [], error: 'The server answered JSON without a "messages" list.', skipped: [] };
  const all = parseMessages(data.messages, warn, newId);
  const lastUser = all.map((m) => m.role).lastIndexOf('user');
  const messages = all.slice(lastUser + 1).filter((m) => m.role === 'assistant');
  const answer: JsonAnswer = { messages, skipped: isRecord(data.tools) ? strings(data.tools.skipped) : [] };
  const incomplete = incompleteMarker(data) ?? (data === body ? undefined : incompleteMarker(body));
  if (incomplete) answer.incomplete = incomplete;
  return answer;
}
