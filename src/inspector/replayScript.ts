import type { ParsedTranscript } from './transcript';

export type JsonRpcId = string | number;

/** What the client sent in the recording: the replay waits for the same from the live client. */
export interface ExpectStep {
  kind: 'expect';
  /** 1-based line of the transcript, for messages that say where. */
  line: number;
  at: number;
  what: 'request' | 'notification' | 'response';
  /** The method of a request or notification. */
  method?: string;
  /** A request's id in the recording; a response's id (the agent's own request id, sent as recorded). */
  id?: JsonRpcId;
  /** The recorded params (volatile fields are read off them) or the recorded response. */
  recorded: Record<string, unknown>;
}

/** What the agent sent in the recording: the replay sends it again. */
export interface SendStep {
  kind: 'send';
  line: number;
  at: number;
  msg: Record<string, unknown>;
}

export type Step = ExpectStep | SendStep;

export interface ReplayScript {
  steps: Step[];
  /** The connection replayed (the first one of the recording). */
  conn: number;
  /** Messages of other connections (an agent restart), which are not replayed. */
  skipped: number;
}

const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || typeof value === 'number';

/** The steps of a transcript's first connection, in recorded order. */
export function buildScript(transcript: ParsedTranscript): ReplayScript {
  const conn = transcript.messages[0]?.conn ?? 1;
  const steps: Step[] = [];
  let skipped = 0;
  for (const m of transcript.messages) {
    if (m.conn !== conn) {
      skipped++;
      continue;
    }
    if (m.dir === 'in') {
      steps.push({ kind: 'send', line: m.line, at: m.atMs, msg: m.msg });
      continue;
    }
    const method = typeof m.msg.method === 'string' ? m.msg.method : undefined;
    const id = isId(m.msg.id) ? m.msg.id : undefined;
    const what = method === undefined ? 'response' : id === undefined ? 'notification' : 'request';
    steps.push({ kind: 'expect', line: m.line, at: m.atMs, what, method, id, recorded: m.msg });
  }
  return { steps, conn, skipped };
}

/** `id` as a map key that keeps 1 and "1" apart (JSON-RPC does). */
export const idKey = (id: JsonRpcId): string => `${typeof id}:${id}`;

/**
 * The recorded values that differ on another machine or another run, and what they are now: the
 * session ids the client uses (a loaded session keeps the id it was stored with) and the working
 * folder (paths in tool calls, file requests and titles).
 */
export class Volatiles {
  private readonly sessions = new Map<string, string>();
  private cwdFrom: string | undefined;
  private cwdTo: string | undefined;

  /** Learns from a live request matched to a recorded one. */
  learn(recorded: unknown, live: unknown): void {
    const r = params(recorded);
    const l = params(live);
    if (typeof r.sessionId === 'string' && typeof l.sessionId === 'string' && r.sessionId !== l.sessionId && !this.sessions.has(r.sessionId)) this.sessions.set(r.sessionId, l.sessionId);
    // Only a real folder: replacing "/" or "" would rewrite every path.
    if (this.cwdFrom === undefined && typeof r.cwd === 'string' && typeof l.cwd === 'string' && r.cwd.length > 3 && r.cwd !== l.cwd) {
      this.cwdFrom = stripSlash(r.cwd);
      this.cwdTo = stripSlash(l.cwd);
    }
  }

  /** A recorded agent message with today's values in place of the recorded ones. */
  apply<T>(value: T): T {
    if (this.sessions.size === 0 && this.cwdFrom === undefined) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') {
      const session = this.sessions.get(value);
      if (session !== undefined) return session;
      return this.cwdFrom !== undefined && value.includes(this.cwdFrom) ? value.split(this.cwdFrom).join(this.cwdTo) : value;
    }
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.walk(v)]));
  }
}

function params(msg: unknown): Record<string, unknown> {
  const p = typeof msg === 'object' && msg !== null ? (msg as Record<string, unknown>).params : undefined;
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
}

function stripSlash(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
}

/** A short description of a message for divergence reports: `session/prompt (request 3)`. */
export function describeWire(msg: Record<string, unknown>): string {
  const id = isId(msg.id) ? JSON.stringify(msg.id) : undefined;
  if (typeof msg.method === 'string') return id !== undefined ? `${msg.method} (request ${id})` : `${msg.method} (notification)`;
  return `a response to ${id ?? 'no id'}`;
}

export function describeStep(step: ExpectStep): string {
  if (step.what === 'response') return `a response to ${JSON.stringify(step.id)}`;
  return `${step.method} (${step.what})`;
}
