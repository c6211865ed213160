import type { ConformanceMonitor } from './conformance';
import { createRedactor } from './redaction';
import { TRANSCRIPT_TYPE, TRANSCRIPT_VERSION, serializeTranscript, type TranscriptHeader, type TranscriptLine } from './transcript';
import { parseRecord, type WireRecord } from './wireRecord';
import type { WireStore } from './wireStore';

/** What to export: one agent's traffic, or one conversation's (its session and its connection's own messages). */
export interface ExportScope {
  agent?: string;
  session?: string;
}

export interface ExportOptions {
  scope: ExportScope;
  tandemVersion: string;
  protocolVersion: number;
  sdkVersion?: string;
  editor?: string;
  platform?: string;
  /** Exact values to mask (the agents' env values, MCP secrets), besides the key patterns. */
  secrets: readonly string[];
}

/** Records serialised between two turns of the event loop, so a big export never blocks it long. */
const SLICE = 2000;

/** True when `r` belongs to the scope. A conversation's export keeps its connection's session-less messages (the handshake, sign-in). */
function selector(store: WireStore, scope: ExportScope): (r: WireRecord) => boolean {
  // A transcript is ACP (the replay agent plays its `in` lines back as an agent): MCP traffic stays in the inspector.
  const byAgent = (r: WireRecord): boolean => r.channel === undefined && (scope.agent === undefined || r.agent === scope.agent);
  if (scope.session === undefined) return byAgent;
  const conns = new Set<number>();
  for (const r of store.since()) if (r.session === scope.session && byAgent(r)) conns.add(r.conn);
  return (r) => conns.has(r.conn) && byAgent(r) && (r.session === scope.session || r.session === undefined);
}

/**
 * A transcript of what the store recorded (JSON lines, see transcript.ts), every message masked by
 * the redactor. Each connection starts with its `initialize` exchange even when the ring had dropped
 * it. Conformance findings ride along on their messages.
 */
export async function exportTranscript(
  store: WireStore,
  monitor: ConformanceMonitor | undefined,
  opts: ExportOptions,
): Promise<{ text: string; header: TranscriptHeader }> {
  monitor?.drain();
  const keep = selector(store, opts.scope);
  const picked: WireRecord[] = [];
  for (const r of store.since()) if (keep(r)) picked.push(r);
  const conns = [...new Set(picked.map((r) => r.conn))];
  const first = picked[0]?.seq ?? Number.POSITIVE_INFINITY;
  const handshakes = conns.flatMap((c) => {
    const h = store.handshake(c);
    return [h?.request, h?.response].filter((r): r is WireRecord => r !== undefined && (r.seq < first || store.get(r.seq) === undefined));
  });
  const records = [...handshakes.filter((h) => !picked.includes(h)), ...picked].sort((a, b) => a.seq - b.seq);
  const redactor = createRedactor(opts.secrets);
  const connNumber = new Map(conns.map((c, i) => [c, i + 1]));
  const lines: TranscriptLine[] = [];
  for (let i = 0; i < records.length; i++) {
    if (i > 0 && i % SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const r = records[i];
    const msg = parseRecord(r);
    if (!msg) continue;
    const line: TranscriptLine = {
      at: new Date(r.t).toISOString(),
      dir: r.dir,
      conn: connNumber.get(r.conn) ?? 0,
      msg: redactor.value(msg) as Record<string, unknown>,
    };
    const warnings = monitor?.warningsOf(r.seq) ?? [];
    if (warnings.length > 0) line.warnings = warnings.map((w) => `${w.rule}: ${w.text}`);
    lines.push(line);
  }
  const handshake = conns.length > 0 ? store.handshake(conns[0]) : undefined;
  const params = handshake?.request ? parseRecord(handshake.request)?.params : undefined;
  const result = handshake?.response ? parseRecord(handshake.response)?.result : undefined;
  const agentName = opts.scope.agent ?? records[0]?.agent;
  const init = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const header: TranscriptHeader = {
    type: TRANSCRIPT_TYPE,
    version: TRANSCRIPT_VERSION,
    exportedAt: new Date().toISOString(),
    tandemVersion: opts.tandemVersion,
    protocolVersion: opts.protocolVersion,
    ...(opts.sdkVersion ? { sdkVersion: opts.sdkVersion } : {}),
    ...(opts.editor ? { editor: opts.editor } : {}),
    ...(opts.platform ? { platform: opts.platform } : {}),
    ...(agentName !== undefined ? { agent: { name: agentName, info: redactor.value(init.agentInfo), protocolVersion: init.protocolVersion } } : {}),
    ...(handshake ? { initialize: { params: redactor.value(params), result: redactor.value(result) } } : {}),
    ...(opts.scope.session ? { session: opts.scope.session } : {}),
    messages: lines.length,
    dropped: store.dropped,
    redactions: redactor.count,
  };
  return { text: serializeTranscript(header, lines), header };
}
