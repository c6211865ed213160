/**
 * The host ⇄ protocol inspector contract (`Tandem: Open Protocol Inspector`, its own webview and
 * bundle, dist/inspector.js). The host keeps every JSON-RPC message (src/inspector/wireStore.ts);
 * the inspector gets each as a row with the start of its text, and asks for the whole of one when it
 * is expanded past that.
 */

/** What one JSON-RPC message is on the wire. `error` is a response that carries `error`. */
export type WireKind = 'request' | 'notification' | 'response' | 'error';

/** One message as the inspector lists it. */
export interface WireRowView {
  /** Increasing, never reused in a window; the key of a row. */
  seq: number;
  /** When it crossed the wire (ms since the epoch). */
  t: number;
  /** `in`: from the agent; `out`: from Tandem. */
  dir: 'in' | 'out';
  /** The agent's name and which of its connections (counted from 1 in this window). */
  agent: string;
  conn: number;
  kind: WireKind;
  /** The method; for a response, its request's (when that is known). */
  method?: string;
  /** The `sessionUpdate` kind of a `session/update`. */
  update?: string;
  /** The JSON-RPC id, as text. */
  id?: string;
  /** The session the message is about (its params, or its request's). */
  session?: string;
  /** Length of the JSON line, in characters. */
  size: number;
  /** The JSON line, or its start when it is long (`cut`). */
  text: string;
  cut?: boolean;
  /** The other half of a request/response pair, and the time between the two. */
  pair?: number;
  ms?: number;
}

/** A conformance finding about one message (src/inspector/conformance.ts). Never changes behaviour. */
export interface WireWarningView {
  seq: number;
  /** A stable id of the rule, e.g. `schema`, `unknown-tool-call`, `stop-reason`. */
  rule: string;
  /** `error`: the message breaks the schema; `warning`: a wire rule or a field the SDK drops. */
  severity: 'warning' | 'error';
  text: string;
}

export type InspectorHostMessage =
  /** Rows in seq order; `reset` replaces what the inspector shows (the first part of a snapshot). */
  | { type: 'rows'; rows: WireRowView[]; reset?: boolean; dropped: number; more?: boolean }
  /** Requests answered since: each side learns its partner and the latency. */
  | { type: 'paired'; pairs: Array<{ seq: number; pair: number; ms: number }> }
  | { type: 'warnings'; warnings: WireWarningView[] }
  /** The whole text of one message (`text` undefined: it is no longer kept). */
  | { type: 'message'; seq: number; text?: string }
  /** Show only this session (the header menu of a conversation), or everything. */
  | { type: 'focus'; session?: string }
  | { type: 'batch'; messages: InspectorHostMessage[] };

export type InspectorWebviewMessage =
  | { type: 'ready' }
  /** The whole text of one message, for "Show all". */
  | { type: 'fetch'; seq: number }
  /** Forget every message listed so far (the recording for export is kept). */
  | { type: 'clear' }
  /** Copy one message, pretty-printed, to the clipboard. */
  | { type: 'copy'; seq: number }
  /** Run `Tandem: Export Transcript…`. */
  | { type: 'export' };

/** Longest text a row carries; longer messages come whole on `fetch`. */
export const ROW_TEXT_CHARS = 4096;

/** Checks what the inspector posts: it shows agent content, so its messages are untrusted. */
export function isInspectorWebviewMessage(value: unknown): value is InspectorWebviewMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'clear':
    case 'export':
      return true;
    case 'fetch':
    case 'copy':
      return Number.isInteger(m.seq);
    default:
      return false;
  }
}
