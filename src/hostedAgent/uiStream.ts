/**
 * The Vercel AI SDK's UI message stream (`format: "ui-message-stream"`, header
 * `x-vercel-ai-ui-message-stream: v1`): SSE `data:` lines, each a JSON chunk with a `type`, ended
 * by `data: [DONE]`. Chunks update the reply the way the SDK's own `useChat` builds a message, so
 * the history sent back on the next request is what an AI SDK server expects.
 */
import { isRecord } from '../protocol/guards';
import type { ReplyAssembler, ToolOptions } from './assembler';
import { incompleteMarker, newEnding, type Ending } from './endings';
import type { SseEvent } from './sse';
import type { Warn } from './types';

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function toolOptions(chunk: Record<string, unknown>): ToolOptions {
  const opts: ToolOptions = { dynamic: chunk.dynamic === true };
  if (typeof chunk.title === 'string') opts.title = chunk.title;
  if (typeof chunk.providerExecuted === 'boolean') opts.providerExecuted = chunk.providerExecuted;
  return opts;
}

/** Chunk types the bridge reads, with the string fields each must carry. */
const REQUIRED: Record<string, readonly string[]> = {
  'text-start': ['id'],
  'text-delta': ['id', 'delta'],
  'text-end': ['id'],
  'reasoning-start': ['id'],
  'reasoning-delta': ['id', 'delta'],
  'reasoning-end': ['id'],
  'tool-input-start': ['toolCallId', 'toolName'],
  'tool-input-delta': ['toolCallId', 'inputTextDelta'],
  'tool-input-available': ['toolCallId', 'toolName'],
  'tool-input-error': ['toolCallId', 'toolName', 'errorText'],
  'tool-output-available': ['toolCallId'],
  'tool-output-error': ['toolCallId', 'errorText'],
  'tool-output-denied': ['toolCallId'],
  'tool-approval-request': ['approvalId', 'toolCallId'],
  error: ['errorText'],
  'source-url': ['sourceId', 'url'],
  'source-document': ['sourceId', 'mediaType', 'title'],
  file: ['url', 'mediaType'],
};

export class UiStreamReader {
  readonly ending: Ending = newEnding();
  /** `start.messageId`: the id the server gave the reply. */
  messageId: string | undefined;
  private readonly warned = new Set<string>();

  constructor(
    private readonly asm: ReplyAssembler,
    private readonly warn: Warn,
  ) {}

  handle(ev: SseEvent): void {
    if (this.ending.finished) return;
    if (ev.data.trim() === '[DONE]') {
      this.ending.finished = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(ev.data);
    } catch {
      return this.warnOnce('json', `Ignored a malformed chunk (not JSON): ${ev.data.slice(0, 120)}`);
    }
    if (!isRecord(chunk) || typeof chunk.type !== 'string') return this.warnOnce('shape', 'Ignored a chunk without a "type".');
    const missing = (Object.hasOwn(REQUIRED, chunk.type) ? REQUIRED[chunk.type] : []).filter((f) => typeof chunk[f] !== 'string');
    if (missing.length > 0) return this.warnOnce(`fields:${chunk.type}`, `Ignored a "${chunk.type}" chunk without ${missing.join(', ')}.`);
    this.apply(chunk.type, chunk);
  }

  private apply(type: string, c: Record<string, unknown>): void {
    const a = this.asm;
    switch (type) {
      case 'start':
        if (typeof c.messageId === 'string' && c.messageId !== '') {
          this.messageId = c.messageId;
          // The server names the reply (as useChat adopts it); a continued reply keeps its id.
          if (a.message.parts.length === 0) a.message.id = c.messageId;
        }
        if (c.messageMetadata !== undefined) a.message.metadata = c.messageMetadata;
        return;
      case 'text-start':
      case 'reasoning-start':
        return;
      case 'text-delta':
        return a.text(str(c.delta) ?? '', str(c.id));
      case 'reasoning-delta':
        return a.reasoning(str(c.delta) ?? '', str(c.id));
      case 'text-end':
      case 'reasoning-end':
        return a.endText(str(c.id));
      case 'tool-input-start':
        return a.toolInputStart(str(c.toolCallId) ?? '', str(c.toolName) ?? '', toolOptions(c));
      case 'tool-input-delta':
        return a.toolInputDelta(str(c.toolCallId) ?? '', str(c.inputTextDelta) ?? '');
      case 'tool-input-available':
        return a.toolInput(str(c.toolCallId) ?? '', str(c.toolName) ?? '', c.input, toolOptions(c));
      case 'tool-input-error':
        return a.toolInputError(str(c.toolCallId) ?? '', str(c.toolName) ?? '', c.input, str(c.errorText) ?? '', toolOptions(c));
      case 'tool-output-available':
        return c.preliminary === true ? a.toolProgress(str(c.toolCallId) ?? '', c.output) : a.toolOutput(str(c.toolCallId) ?? '', c.output);
      case 'tool-output-error':
        return a.toolError(str(c.toolCallId) ?? '', str(c.errorText) ?? '');
      case 'tool-output-denied':
        return a.toolDenied(str(c.toolCallId) ?? '');
      case 'tool-approval-request':
        return a.approvalRequest(str(c.toolCallId) ?? '', str(c.approvalId) ?? '');
      case 'start-step':
        return a.stepStart();
      case 'finish-step':
        return;
      case 'finish': {
        this.ending.finished = true;
        if (typeof c.finishReason === 'string') this.ending.finishReason = c.finishReason;
        if (c.messageMetadata !== undefined) a.message.metadata = c.messageMetadata;
        const incomplete = incompleteMarker(c.messageMetadata);
        if (incomplete) this.ending.incomplete = incomplete;
        return;
      }
      case 'abort':
        this.ending.finished = true;
        this.ending.aborted = str(c.reason) ?? '';
        return;
      case 'error':
        this.ending.errors.push(str(c.errorText) ?? '');
        return;
      case 'message-metadata':
        a.message.metadata = c.messageMetadata;
        return;
      case 'source-url':
      case 'source-document':
      case 'file': {
        const { type: kind, ...rest } = c;
        return a.keep({ type: kind as string, ...rest });
      }
      default:
        if (type.startsWith('data-')) {
          // Transient data parts are for the UI of the moment only: the SDK does not keep them.
          if (c.transient !== true) a.keep({ type, ...(c.id !== undefined ? { id: c.id } : {}), data: c.data });
          return;
        }
        return this.warnOnce(`type:${type}`, `Ignored an unknown "${type}" chunk from the server.`);
    }
  }

  private warnOnce(key: string, text: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(text);
  }
}
