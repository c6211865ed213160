/**
 * The message shapes the hosted bridge keeps and sends: the Vercel AI SDK's `UIMessage` (the seed
 * API's JSON answers use it too), reduced to what the bridge reads. Everything else a server puts in
 * a part is kept as it came, so it goes back to the server unchanged on the next turn.
 */
import { isRecord } from '../protocol/guards';

/** The two HTTP dialects the bridge speaks. */
export type HostedFormat = 'tool-events' | 'ui-message-stream';
export const FORMATS: readonly HostedFormat[] = ['tool-events', 'ui-message-stream'];

/** A tool part's life, as the AI SDK names it. */
export type ToolState =
  'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied';
const TOOL_STATES: readonly string[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
];
/** States after which the server sends nothing more for the call. */
export const FINAL_TOOL_STATES: readonly ToolState[] = ['output-available', 'output-error', 'output-denied'];

export interface ToolApproval {
  id: string;
  approved?: boolean;
  reason?: string;
}

/** Any part: a `type` and whatever else the server sent. */
export type MessagePart = { type: string } & Record<string, unknown>;

/** `dynamic-tool` (name in `toolName`) or `tool-<name>` (the AI SDK's static tools). */
export interface ToolPart extends MessagePart {
  toolName?: string;
  toolCallId: string;
  state: ToolState;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: ToolApproval;
  title?: string;
}

export interface TextPart extends MessagePart {
  type: 'text' | 'reasoning';
  text: string;
  state?: 'streaming' | 'done';
}

export interface UIMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  parts: MessagePart[];
  metadata?: unknown;
}

export function isToolPart(part: MessagePart): part is ToolPart {
  return (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) && typeof part.toolCallId === 'string' && typeof part.state === 'string';
}

export function isTextPart(part: MessagePart): part is TextPart {
  return (part.type === 'text' || part.type === 'reasoning') && typeof part.text === 'string';
}

/** The tool's name, from either spelling of a tool part. */
export function toolNameOf(part: ToolPart): string {
  if (part.type === 'dynamic-tool') return typeof part.toolName === 'string' && part.toolName !== '' ? part.toolName : 'tool';
  return part.type.slice('tool-'.length);
}

export function isFinal(part: ToolPart): boolean {
  return FINAL_TOOL_STATES.includes(part.state);
}

/** The id of the ACP tool call for a tool part: unique in the session even when a server reuses ids across turns. */
export function acpToolId(messageIndex: number, toolCallId: string): string {
  return `m${messageIndex}:${toolCallId}`;
}

/** Text of a message's text parts (what `content` carries for servers that read only that). */
export function plainText(message: UIMessage): string {
  return message.parts
    .filter((p): p is TextPart => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
}

export type Warn = (text: string) => void;

/**
 * Messages from a server's JSON (untrusted): a message needs an id (one is made up when missing),
 * a role and parts; tool parts need an id and a known state (made up / `input-available`).
 */
export function parseMessages(value: unknown, warn: Warn, newId: () => string): UIMessage[] {
  if (!Array.isArray(value)) return [];
  const out: UIMessage[] = [];
  for (const raw of value) {
    if (!isRecord(raw) || (raw.role !== 'assistant' && raw.role !== 'user' && raw.role !== 'system')) {
      warn('Ignored a message without a known role in the server answer.');
      continue;
    }
    const parts: MessagePart[] = [];
    const rawParts: unknown[] = Array.isArray(raw.parts) ? raw.parts : typeof raw.content === 'string' ? [{ type: 'text', text: raw.content }] : [];
    for (const p of rawParts) {
      if (!isRecord(p) || typeof p.type !== 'string') {
        warn('Ignored a message part without a type in the server answer.');
        continue;
      }
      const part: MessagePart = { ...p, type: p.type };
      if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
        if (typeof part.toolCallId !== 'string' || part.toolCallId === '') part.toolCallId = newId();
        if (typeof part.state !== 'string' || !TOOL_STATES.includes(part.state)) part.state = 'output' in part ? 'output-available' : 'input-available';
      }
      parts.push(part);
    }
    const message: UIMessage = { id: typeof raw.id === 'string' && raw.id !== '' ? raw.id : newId(), role: raw.role, parts };
    if (raw.metadata !== undefined) message.metadata = raw.metadata;
    out.push(message);
  }
  return out;
}
