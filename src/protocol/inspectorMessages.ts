/**
 * The host ⇄ protocol inspector contract (`Tandem: Open Protocol Inspector`, its own webview and
 * bundle, dist/inspector.js). The host keeps every JSON-RPC message (src/inspector/wireStore.ts);
 * the inspector gets each as a row with the start of its text, and asks for the whole of one when it
 * is expanded past that.
 */
import { int, isDeclaredMessage, unchecked, type DeclaredMessages, type Fields, type MessageTable } from './fieldChecks';

/** What one JSON-RPC message is on the wire. `error` is a response that carries `error`. */
export type WireKind = 'request' | 'notification' | 'response' | 'error';

/** One message as the inspector lists it. */
export interface WireRowView {
  /** Increasing, never reused in a window; the key of a row. */
  readonly seq: number;
  /** When it crossed the wire (ms since the epoch). */
  readonly t: number;
  /** `in`: from the agent; `out`: from Tandem. */
  readonly dir: 'in' | 'out';
  /** The agent's name and which of its connections (counted from 1 in this window). */
  readonly agent: string;
  readonly conn: number;
  readonly kind: WireKind;
  /** The method; for a response, its request's (when that is known). */
  readonly method?: string;
  /** The `sessionUpdate` kind of a `session/update`. */
  readonly update?: string;
  /** The JSON-RPC id, as text. */
  readonly id?: string;
  /** The session the message is about (its params, or its request's). */
  readonly session?: string;
  /** Length of the JSON line, in characters. */
  readonly size: number;
  /** The JSON line, or its start when it is long (`cut`). */
  readonly text: string;
  readonly cut?: boolean;
  /** The other half of a request/response pair, and the time between the two. */
  readonly pair?: number;
  readonly ms?: number;
}

/** A conformance finding about one message (src/inspector/conformance.ts). Never changes behaviour. */
export interface WireWarningView {
  readonly seq: number;
  /** A stable id of the rule, e.g. `schema`, `unknown-tool-call`, `stop-reason`. */
  readonly rule: string;
  /** `error`: the message breaks the schema; `warning`: a wire rule or a field the SDK drops. */
  readonly severity: 'warning' | 'error';
  readonly text: string;
}

export type InspectorHostMessage =
  /** Rows in seq order; `reset` replaces what the inspector shows (the first part of a snapshot). */
  | { readonly type: 'rows'; readonly rows: readonly WireRowView[]; readonly reset?: boolean; readonly dropped: number; readonly more?: boolean }
  /** Requests answered since: each side learns its partner and the latency. */
  | { readonly type: 'paired'; readonly pairs: ReadonlyArray<{ readonly seq: number; readonly pair: number; readonly ms: number }> }
  | { readonly type: 'warnings'; readonly warnings: readonly WireWarningView[] }
  /** The whole text of one message (`text` undefined: it is no longer kept). */
  | { readonly type: 'message'; readonly seq: number; readonly text?: string }
  /** Show only this session (the header menu of a conversation), or everything. */
  | { readonly type: 'focus'; readonly session?: string }
  | { readonly type: 'batch'; readonly messages: readonly InspectorHostMessage[] };

/**
 * The version of this contract (both directions). Bump it when a shape changes: a page of another
 * version gets the reload notice instead of misread messages (src/protocol/versionHandshake.ts).
 */
export const INSPECTOR_PROTOCOL_VERSION = 1;

const page = <F extends Fields>(fields: F) => ({ fields }) as const;

/**
 * Inspector → host, each declared once as in webviewMessages.ts: its fields' checks give the type
 * and the validator. The inspector shows agent content, so the host treats every one as untrusted.
 */
export const INSPECTOR_MESSAGES = {
  /** The page loaded: send the snapshot. Any `ready` passes, so a page of another version still gets the reload notice. */
  ready: page({ protocolVersion: unchecked<number>() }),
  /** The Reload button of the version notice: the host loads the page afresh. Its shape never changes. */
  reloadView: page({}),
  /** The whole text of one message, for "Show all". */
  fetch: page({ seq: int }),
  /** Forget every message listed so far (the recording for export is kept). */
  clear: page({}),
  /** Copy one message, pretty-printed, to the clipboard. */
  copy: page({ seq: int }),
  /** Run `Tandem: Export Transcript…`. */
  export: page({}),
} as const satisfies MessageTable;

export type InspectorWebviewMessage = DeclaredMessages<typeof INSPECTOR_MESSAGES>;

/** Longest text a row carries; longer messages come whole on `fetch`. */
export const ROW_TEXT_CHARS = 4096;

/** Checks what the inspector posts against its table. */
export function isInspectorWebviewMessage(value: unknown): value is InspectorWebviewMessage {
  return isDeclaredMessage(INSPECTOR_MESSAGES, value);
}
