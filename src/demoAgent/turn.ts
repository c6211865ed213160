/**
 * One prompt turn of the demo agent: sends session updates, paces them, and keeps track of the tool
 * calls that are still running so a cancel can close them. Every await in a turn goes through
 * `sleep`, `update` or `race`, which is what makes `session/cancel` stop the show promptly.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';

/** Thrown inside a turn once the client cancelled it; the prompt handler answers `cancelled`. */
export class Cancelled extends Error {
  constructor() {
    super('turn cancelled');
  }
}

/** What the demo remembers per session across turns. */
export interface DemoSession {
  id: string;
  cwd: string;
  /** The user chose "Always allow" for demo edits. */
  alwaysAllowEdits: boolean;
  /** The running turn's abort controller, if a turn is running. */
  running?: AbortController;
  /** Counter for unique tool call ids across turns. */
  nextToolId: number;
  /** The session mode: 'tour' paces the show for reading, 'fast' runs it without pauses. */
  mode: DemoMode;
}

export type DemoMode = 'tour' | 'fast';

export type ToolFields = Omit<acp.ToolCallUpdate, 'toolCallId'>;

export class Turn {
  private readonly inFlight = new Set<string>();

  constructor(
    readonly client: acp.AgentContext,
    readonly session: DemoSession,
    readonly caps: acp.ClientCapabilities,
    readonly promptText: string,
    private readonly signal: AbortSignal,
    private readonly delayScale: number,
  ) {}

  get cwd(): string {
    return this.session.cwd;
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** The signal to hand to client requests so they are cancelled with the turn. */
  get cancellationSignal(): AbortSignal {
    return this.signal;
  }

  check(): void {
    if (this.signal.aborted) throw new Cancelled();
  }

  /** Paced pause; rejects with Cancelled as soon as the turn is cancelled. */
  sleep(ms: number): Promise<void> {
    this.check();
    const scaled = Math.max(0, Math.round(ms * this.delayScale));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new Cancelled());
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, scaled);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Waits for `p` unless the turn is cancelled first. */
  race<T>(p: Promise<T>): Promise<T> {
    this.check();
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(new Cancelled());
      this.signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  async update(update: acp.SessionUpdate): Promise<void> {
    this.check();
    await this.client.notify(methods.client.session.update, { sessionId: this.session.id, update });
  }

  /** Streams markdown in small chunks, cutting at spaces where possible so words arrive whole. */
  async streamMarkdown(text: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk'): Promise<void> {
    let i = 0;
    while (i < text.length) {
      let end = Math.min(text.length, i + 10 + Math.floor(Math.random() * 10));
      const space = text.indexOf(' ', end);
      if (space !== -1 && space - end < 6) end = space + 1;
      await this.update({ sessionUpdate: kind, content: { type: 'text', text: text.slice(i, end) } });
      i = end;
      await this.sleep(kind === 'agent_thought_chunk' ? 25 : 18);
    }
  }

  newToolId(label: string): string {
    this.session.nextToolId += 1;
    return `demo-${label}-${this.session.nextToolId}`;
  }

  /** Announces a tool call; it counts as in flight until `finishTool`. */
  async startTool(call: acp.ToolCall): Promise<string> {
    this.inFlight.add(call.toolCallId);
    await this.update({ sessionUpdate: 'tool_call', ...call });
    return call.toolCallId;
  }

  async updateTool(toolCallId: string, fields: ToolFields): Promise<void> {
    await this.update({ sessionUpdate: 'tool_call_update', toolCallId, ...fields });
  }

  async finishTool(toolCallId: string, status: 'completed' | 'failed', fields: ToolFields = {}): Promise<void> {
    await this.updateTool(toolCallId, { ...fields, status });
    this.inFlight.delete(toolCallId);
  }

  /**
   * After a cancel: ends every unfinished tool call as failed with a note, before the prompt is
   * answered (the spec allows updates after `session/cancel` only until then). ACP's agent-side
   * statuses have no `cancelled`; the client shows its own cancelled state for the turn.
   */
  async closeInFlight(): Promise<void> {
    for (const toolCallId of this.inFlight) {
      await this.client.notify(methods.client.session.update, {
        sessionId: this.session.id,
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: 'Stopped: the turn was cancelled.' } }],
          rawOutput: { cancelled: true },
        },
      });
    }
    this.inFlight.clear();
  }
}

/** A text item for a tool call's `content`. */
export function textContent(text: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** A readable message from whatever a client request rejected with. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'message' in err) return String((err as { message: unknown }).message);
  return String(err);
}
