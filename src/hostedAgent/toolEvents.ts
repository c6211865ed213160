/**
 * The seed API's dialect (`format: "tool-events"`). Streamed (`stream: true`): SSE events `text` / `tool` / `done`
 * / `error` whose JSON data carries a `type` (`text.delta`, `tool.start`, `tool.output`,
 * `tool.complete`, `done`). Tool events carry no call id, only the tool's name: `tool.output` and
 * `tool.complete` belong to the oldest running call of that name (first in, first out per name).
 * Not streamed (`stream: false`): one JSON answer `{ success, data: { messages, usage, tools } }`
 * (also a bare `{ messages }`), whose messages may start with the request's own ones echoed back
 * ("the complete conversation history"): only what follows the last user message is the reply.
 */
import { isRecord } from '../protocol/guards';
import type { ReplyAssembler } from './assembler';
import { incompleteMarker, newEnding, type Ending } from './endings';
import type { SseEvent } from './sse';
import { parseMessages, type UIMessage, type Warn } from './types';

/** What an error event or body says, from the usual fields. */
export function errorTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return undefined;
  for (const key of ['message', 'errorText', 'error', 'detail']) {
    const v = value[key];
    if (typeof v === 'string' && v !== '') return v;
    if (isRecord(v)) {
      const inner = errorTextOf(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

export class ToolEventsReader {
  readonly ending: Ending = newEnding();
  /** Running calls per tool name, oldest first. */
  private readonly running = new Map<string, string[]>();
  private readonly warned = new Set<string>();

  constructor(
    private readonly asm: ReplyAssembler,
    private readonly warn: Warn,
    private readonly newId: () => string,
  ) {}

  handle(ev: SseEvent): void {
    if (this.ending.finished) return;
    let data: unknown;
    try {
      data = JSON.parse(ev.data);
    } catch {
      // The stream's own end and errors count even when their data is not JSON (`[DONE]`, plain text).
      if (ev.event === 'done') return void (this.ending.finished = true);
      if (ev.event === 'error') return void this.ending.errors.push(ev.data.trim().slice(0, 2000) || 'The server reported an error without a message.');
      return this.warnOnce(`json:${ev.event}`, `Ignored a malformed "${ev.event}" event (its data is not JSON): ${ev.data.slice(0, 120)}`);
    }
    if (!isRecord(data)) return this.warnOnce(`shape:${ev.event}`, `Ignored a "${ev.event}" event whose data is not an object.`);
    // The `type` in the data is the precise one; the SSE event name is the fallback.
    const type = typeof data.type === 'string' ? data.type : ev.event;
    switch (type) {
      case 'text.delta':
      case 'text':
        if (typeof data.delta === 'string') this.asm.text(data.delta);
        else if (typeof data.text === 'string') this.asm.text(data.text);
        else this.warnOnce('text', 'Ignored a text event without a "delta" string.');
        return;
      case 'reasoning.delta':
      case 'thinking.delta':
        if (typeof data.delta === 'string') this.asm.reasoning(data.delta);
        return;
      case 'tool.start':
        return this.start(data);
      case 'tool.output':
        return this.output(data);
      case 'tool.complete':
        return this.complete(data);
      case 'done': {
        this.ending.finished = true;
        const incomplete = incompleteMarker(data);
        if (incomplete) this.ending.incomplete = incomplete;
        return;
      }
      case 'incomplete':
        this.ending.incomplete = typeof data.reason === 'string' ? data.reason : 'incomplete';
        return;
      case 'error':
        this.ending.errors.push(errorTextOf(data) ?? 'The server reported an error without a message.');
        return;
      default:
        return this.warnOnce(`type:${type}`, `Ignored an unknown "${type}" event from the server.`);
    }
  }

  private nameOf(data: Record<string, unknown>): string | undefined {
    const name = typeof data.name === 'string' ? data.name : typeof data.toolName === 'string' ? data.toolName : undefined;
    if (!name) this.warnOnce(`noname:${String(data.type)}`, `Ignored a ${String(data.type)} event without a tool name.`);
    return name;
  }

  private start(data: Record<string, unknown>): void {
    const name = this.nameOf(data);
    if (!name) return;
    // A server that does send ids gets them used; otherwise one is made up for the history.
    const id = typeof data.toolCallId === 'string' && data.toolCallId !== '' ? data.toolCallId : this.newId();
    const queue = this.running.get(name) ?? [];
    queue.push(id);
    this.running.set(name, queue);
    this.asm.toolInput(id, name, data.input ?? {}, { dynamic: true });
  }

  private idFor(data: Record<string, unknown>, name: string, take: boolean): string | undefined {
    const queue = this.running.get(name) ?? [];
    const byId = typeof data.toolCallId === 'string' ? queue.indexOf(data.toolCallId) : -1;
    const at = byId >= 0 ? byId : 0;
    const id = queue[at];
    if (id === undefined) {
      this.warnOnce(`orphan:${name}`, `Ignored a ${String(data.type)} event for "${name}", which has no running call.`);
      return undefined;
    }
    if (take) queue.splice(at, 1);
    return id;
  }

  private output(data: Record<string, unknown>): void {
    const name = this.nameOf(data);
    const id = name && this.idFor(data, name, false);
    if (id) this.asm.toolProgress(id, data.output ?? data.delta ?? '');
  }

  private complete(data: Record<string, unknown>): void {
    const name = this.nameOf(data);
    const id = name && this.idFor(data, name, true);
    if (!id) return;
    const state = typeof data.state === 'string' ? data.state : 'output-available';
    const error = typeof data.errorText === 'string' ? data.errorText : typeof data.error === 'string' ? data.error : undefined;
    if (state === 'output-error' || state === 'error' || (error !== undefined && data.output === undefined)) {
      this.asm.toolError(id, error ?? errorTextOf(data.output) ?? 'The tool failed on the server.');
    } else if (state === 'output-denied') {
      this.asm.toolDenied(id);
    } else {
      this.asm.toolOutput(id, data.output);
    }
  }

  private warnOnce(key: string, text: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(text);
  }
}

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
