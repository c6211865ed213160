import type { WireKind, WireRowView } from '../protocol/inspectorMessages';
import { ROW_TEXT_CHARS } from '../protocol/inspectorMessages';

/**
 * One JSON-RPC message as the inspector keeps it: the line as it crossed the wire (already masked
 * of the agent's env values) and what can be read off the parsed message for free — a few property
 * reads of the object the transport parsed anyway. Nothing is parsed again here: the streaming path
 * pays one small object per message.
 */
export interface WireRecord {
  seq: number;
  t: number;
  dir: 'in' | 'out';
  agent: string;
  conn: number;
  raw: string;
  kind: WireKind;
  method?: string;
  update?: string;
  id?: string | number;
  session?: string;
  pair?: number;
  ms?: number;
  /** `mcp`: the `tandem` MCP server's traffic (WireOrigin.channel), never checked as ACP. */
  channel?: 'mcp';
}

/** The fields of a message that the list shows, from its parsed form (undefined: not an object). */
export function describeMessage(msg: Record<string, unknown> | undefined): Pick<WireRecord, 'kind' | 'method' | 'update' | 'id' | 'session'> {
  if (!msg) return { kind: 'notification' };
  const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined;
  const method = typeof msg.method === 'string' ? msg.method : undefined;
  let kind: WireKind;
  if (method !== undefined) kind = id === undefined ? 'notification' : 'request';
  else kind = msg.error !== undefined ? 'error' : 'response';
  const params = method !== undefined ? msg.params : msg.result;
  let session: string | undefined;
  let update: string | undefined;
  if (typeof params === 'object' && params !== null) {
    const p = params as Record<string, unknown>;
    if (typeof p.sessionId === 'string') session = p.sessionId;
    const u = p.update;
    if (typeof u === 'object' && u !== null && typeof (u as Record<string, unknown>).sessionUpdate === 'string')
      update = (u as Record<string, unknown>).sessionUpdate as string;
  }
  return { kind, method, update, id, session };
}

/** The key under which a request waits for its response: the connection, who asked, and the id. */
export function pairKey(conn: number, requestDir: 'in' | 'out', id: string | number): string {
  return `${conn}|${requestDir}|${typeof id}|${id}`;
}

/** The row the inspector shows for a record. */
export function rowOf(r: WireRecord): WireRowView {
  // Absent fields stay absent (not `undefined`): the row goes over postMessage and into tests' deepEqual.
  return {
    seq: r.seq,
    t: r.t,
    dir: r.dir,
    agent: r.agent,
    conn: r.conn,
    kind: r.kind,
    ...(r.method !== undefined && { method: r.method }),
    ...(r.update !== undefined && { update: r.update }),
    ...(r.id !== undefined && { id: String(r.id) }),
    ...(r.session !== undefined && { session: r.session }),
    size: r.raw.length,
    ...(r.raw.length > ROW_TEXT_CHARS ? { text: r.raw.slice(0, ROW_TEXT_CHARS), cut: true } : { text: r.raw }),
    ...(r.pair !== undefined && { pair: r.pair }),
    ...(r.ms !== undefined && { ms: r.ms }),
  };
}

/** Parses a record's line again (off the streaming path: conformance, export). Undefined when it is not JSON. */
export function parseRecord(r: Pick<WireRecord, 'raw'>): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(r.raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
