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
  /** Recorded strings (session ids, terminal ids) and what the live client calls them. */
  private readonly aliases = new Map<string, string>();
  private cwdFrom: string | undefined;
  private cwdTo: string | undefined;

  /** Learns from a live request matched to a recorded one. */
  learn(recorded: unknown, live: unknown): void {
    const r = params(recorded);
    const l = params(live);
    if (typeof r.sessionId === 'string' && typeof l.sessionId === 'string') this.alias(r.sessionId, l.sessionId);
    // Only a real folder: replacing "/" or "" would rewrite every path.
    if (this.cwdFrom === undefined && typeof r.cwd === 'string' && typeof l.cwd === 'string' && r.cwd.length > 3 && r.cwd !== l.cwd) {
      this.cwdFrom = stripSlash(r.cwd);
      this.cwdTo = stripSlash(l.cwd);
    }
  }

  /** The live client names `recorded` `live` (the first naming wins). */
  alias(recorded: string, live: string): void {
    if (recorded !== live && !this.aliases.has(recorded)) this.aliases.set(recorded, live);
  }

  /** A recorded agent message with today's values in place of the recorded ones. */
  apply<T>(value: T): T {
    if (this.aliases.size === 0 && this.cwdFrom === undefined) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') {
      const alias = this.aliases.get(value);
      if (alias !== undefined) return alias;
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

/** What a recorded terminal printed, and how it ended, by the id of the `terminal/create` request. */
export interface RecordedTerminal {
  output: string;
  exitCode: number | null;
}

const resultOf = (step: Step | undefined): Record<string, unknown> | undefined => {
  const result = step?.kind === 'expect' ? step.recorded.result : undefined;
  return typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : undefined;
};

/**
 * The output of every terminal of the recording, from the client's recorded answers to
 * `terminal/output` and `terminal/wait_for_exit`: the replay shows it instead of running the
 * recorded command again.
 */
export function recordedTerminals(steps: readonly Step[]): Map<string, RecordedTerminal> {
  const answers = new Map<string, Step>();
  for (const step of steps) if (step.kind === 'expect' && step.what === 'response' && step.id !== undefined) answers.set(idKey(step.id), step);
  const byTerminal = new Map<string, { createId: string; terminal: RecordedTerminal }>();
  for (const step of steps) {
    if (step.kind !== 'send' || !isId(step.msg.id)) continue;
    const method = step.msg.method;
    const p = (step.msg.params ?? {}) as Record<string, unknown>;
    const result = resultOf(answers.get(idKey(step.msg.id)));
    if (method === 'terminal/create' && typeof result?.terminalId === 'string') {
      byTerminal.set(result.terminalId, { createId: idKey(step.msg.id), terminal: { output: '', exitCode: null } });
    } else if (typeof p.terminalId === 'string' && byTerminal.has(p.terminalId) && result) {
      const t = byTerminal.get(p.terminalId)!.terminal;
      if (method === 'terminal/output' && typeof result.output === 'string') t.output = result.output;
      const exit = method === 'terminal/output' ? (result.exitStatus as Record<string, unknown> | null | undefined) : result;
      if (typeof exit?.exitCode === 'number') t.exitCode = exit.exitCode;
    }
  }
  return new Map([...byTerminal.values()].map(({ createId, terminal }) => [createId, terminal]));
}
