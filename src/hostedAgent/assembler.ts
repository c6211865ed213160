/**
 * Builds one assistant reply (a UIMessage) from whatever the server streams, and says what changed
 * as ACP `session/update`s. Both dialects drive it: the seed's tool events and the AI SDK's UI
 * message stream map their events to these calls, so the history they keep and the cards they show
 * are the same. No I/O: updates go to the `emit` callback the turn supplies.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { progressFor, toolCallFor, toolUpdateFor } from './toolCards';
import { acpToolId, isFinal, isToolPart, type MessagePart, type TextPart, type ToolPart, type UIMessage, type Warn } from './types';

export type Emit = (update: acp.SessionUpdate) => void;

export interface ToolOptions {
  /** AI SDK: a `dynamic-tool` part rather than `tool-<name>`. The seed's tools are all dynamic. */
  dynamic?: boolean;
  title?: string;
  providerExecuted?: boolean;
}

/** Keep at most this much live output per call (the tail: the newest lines matter most). */
const MAX_LIVE_CHARS = 64 * 1024;

export class ReplyAssembler {
  /** Open text / reasoning parts by the stream's part id. */
  private readonly open = new Map<string, TextPart>();
  private readonly live = new Map<string, string>();
  private readonly inputText = new Map<string, string>();
  private readonly warned = new Set<string>();

  constructor(
    readonly message: UIMessage,
    /** Where the message sits in the session's history: part of every ACP tool call id. */
    private readonly messageIndex: number,
    private readonly emit: Emit,
    private readonly warn: Warn,
  ) {}

  get hasContent(): boolean {
    return this.message.parts.some((p) => p.type !== 'step-start');
  }

  text(delta: string, partId?: string): void {
    if (delta === '') return;
    this.append('text', delta, partId);
    this.emit({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta } });
  }

  reasoning(delta: string, partId?: string): void {
    if (delta === '') return;
    this.append('reasoning', delta, partId);
    this.emit({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: delta } });
  }

  /** `text-end` / `reasoning-end`: the next delta starts a new part. */
  endText(partId?: string): void {
    const key = partId ?? '';
    for (const type of ['text', 'reasoning']) {
      const part = this.open.get(`${type}:${key}`);
      if (part) part.state = 'done';
      this.open.delete(`${type}:${key}`);
    }
  }

  /** The AI SDK's step boundary (`start-step`): kept, servers use it to split steps again. */
  stepStart(): void {
    this.closeTexts();
    this.message.parts.push({ type: 'step-start' });
  }

  toolInputStart(toolCallId: string, toolName: string, opts: ToolOptions = {}): void {
    if (this.tool(toolCallId, true)) return this.warnOnce(`tool-dup:${toolCallId}`, `The server started tool call ${toolCallId} twice; kept the first.`);
    const part = this.newTool(toolCallId, toolName, 'input-streaming', undefined, opts);
    this.emit(toolCallFor(this.acpId(part), part));
  }

  toolInputDelta(toolCallId: string, delta: string): void {
    if (!this.tool(toolCallId)) return;
    this.inputText.set(toolCallId, (this.inputText.get(toolCallId) ?? '') + delta);
  }

  /** The complete input: the tool is running on the server now. */
  toolInput(toolCallId: string, toolName: string, input: unknown, opts: ToolOptions = {}): void {
    const known = this.tool(toolCallId, true);
    if (known && known.state !== 'input-streaming') return;
    const part = known ?? this.newTool(toolCallId, toolName, 'input-available', input, opts);
    part.state = 'input-available';
    part.input = input;
    if (opts.title) part.title = opts.title;
    this.inputText.delete(toolCallId);
    this.emit(known ? toolUpdateFor(this.acpId(part), part) : toolCallFor(this.acpId(part), part));
  }

  /** The input did not parse or validate on the server: the call failed before it ran. */
  toolInputError(toolCallId: string, toolName: string, input: unknown, errorText: string, opts: ToolOptions = {}): void {
    const known = this.tool(toolCallId, true);
    const part = known ?? this.newTool(toolCallId, toolName, 'output-error', input, opts);
    part.input = input ?? this.inputText.get(toolCallId);
    this.finish(part, 'output-error', { errorText });
    if (!known) this.emit(toolCallFor(this.acpId(part), part));
  }

  /** Live output of a running tool: shown, not kept (only the final output goes back to the server). */
  toolProgress(toolCallId: string, output: unknown): void {
    const part = this.tool(toolCallId);
    if (!part || isFinal(part)) return;
    const chunk = typeof output === 'string' ? output : JSON.stringify(output, null, 2);
    const before = typeof output === 'string' ? (this.live.get(toolCallId) ?? '') : '';
    const joined = before === '' || before.endsWith('\n') ? before + chunk : `${before}\n${chunk}`;
    const kept = joined.length > MAX_LIVE_CHARS ? joined.slice(-MAX_LIVE_CHARS) : joined;
    this.live.set(toolCallId, kept);
    this.emit(progressFor(this.acpId(part), part, kept));
  }

  toolOutput(toolCallId: string, output: unknown): void {
    const part = this.tool(toolCallId);
    if (part) this.finish(part, 'output-available', { output });
  }

  toolError(toolCallId: string, errorText: string): void {
    const part = this.tool(toolCallId);
    if (part) this.finish(part, 'output-error', { errorText });
  }

  toolDenied(toolCallId: string): void {
    const part = this.tool(toolCallId);
    if (part) this.finish(part, 'output-denied', {});
  }

  /** The server wants the user to allow the call before it runs it (AI SDK tool approval). */
  approvalRequest(toolCallId: string, approvalId: string): void {
    const part = this.tool(toolCallId);
    if (!part || isFinal(part)) return;
    part.state = 'approval-requested';
    part.approval = { id: approvalId };
    this.emit(toolUpdateFor(this.acpId(part), part));
  }

  /** Calls waiting for the user's answer. */
  pendingApprovals(): Array<{ part: ToolPart; acpId: string }> {
    return this.tools()
      .filter((p) => p.state === 'approval-requested' && p.approval)
      .map((part) => ({ part, acpId: this.acpId(part) }));
  }

  /** Parts the bridge does not show but keeps for the server (`data-*`, sources, files). */
  keep(part: MessagePart): void {
    const id = typeof part.id === 'string' ? part.id : undefined;
    const same = id === undefined ? -1 : this.message.parts.findIndex((p) => p.type === part.type && p.id === id);
    if (same >= 0) this.message.parts[same] = part;
    else this.message.parts.push(part);
  }

  /** Ends every call the server left running (stream cut, cancel): failed, with why. */
  closeOpen(reason: string): void {
    this.closeTexts();
    for (const part of this.tools()) {
      if (isFinal(part) || part.state === 'approval-requested' || part.state === 'approval-responded') continue;
      if (part.input === undefined && this.inputText.has(part.toolCallId)) part.input = this.inputText.get(part.toolCallId);
      this.finish(part, 'output-error', { errorText: reason });
    }
  }

  acpId(part: ToolPart): string {
    return acpToolId(this.messageIndex, part.toolCallId);
  }

  /** The tool part with this id (in the whole message: a continued reply answers earlier calls). */
  tool(toolCallId: string, quiet = false): ToolPart | undefined {
    const part = this.tools().find((p) => p.toolCallId === toolCallId);
    if (!part && !quiet) this.warnOnce(`tool:${toolCallId}`, `The server sent an event for tool call ${toolCallId}, which it never started; ignored.`);
    return part;
  }

  private tools(): ToolPart[] {
    return this.message.parts.filter(isToolPart);
  }

  private newTool(toolCallId: string, toolName: string, state: ToolPart['state'], input: unknown, opts: ToolOptions): ToolPart {
    this.closeTexts();
    const part: ToolPart = opts.dynamic === false ? { type: `tool-${toolName}`, toolCallId, state } : { type: 'dynamic-tool', toolName, toolCallId, state };
    if (input !== undefined) part.input = input;
    if (opts.title) part.title = opts.title;
    if (opts.providerExecuted !== undefined) part.providerExecuted = opts.providerExecuted;
    this.message.parts.push(part);
    return part;
  }

  private finish(part: ToolPart, state: 'output-available' | 'output-error' | 'output-denied', fields: { output?: unknown; errorText?: string }): void {
    if (isFinal(part)) return this.warnOnce(`final:${part.toolCallId}`, `The server finished tool call ${part.toolCallId} twice; kept the first result.`);
    part.state = state;
    if ('output' in fields) part.output = fields.output;
    if (fields.errorText !== undefined) part.errorText = fields.errorText;
    this.live.delete(part.toolCallId);
    this.emit(toolUpdateFor(this.acpId(part), part));
  }

  private append(type: 'text' | 'reasoning', delta: string, partId?: string): void {
    const key = `${type}:${partId ?? ''}`;
    let part = this.open.get(key);
    const last = this.message.parts[this.message.parts.length - 1];
    // Without ids (the seed's events) consecutive deltas extend the last part of their kind.
    if (!part && partId === undefined && last?.type === type && last.state === 'streaming') part = last as TextPart;
    if (!part) {
      part = { type, text: '', state: 'streaming' };
      this.message.parts.push(part);
      this.open.set(key, part);
    }
    part.text += delta;
  }

  private closeTexts(): void {
    for (const part of this.open.values()) part.state = 'done';
    this.open.clear();
    const last = this.message.parts[this.message.parts.length - 1];
    if (last && (last.type === 'text' || last.type === 'reasoning') && last.state === 'streaming') last.state = 'done';
  }

  private warnOnce(key: string, text: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(text);
  }
}
