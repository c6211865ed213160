import type { ProtocolLog } from '../acp/protocolLog';
import { addToSummary, emptySummary, type ConformanceSummary } from './conformance';
import { MessageChecker } from './messageCheck';
import { parseRecord } from './wireRecord';

/** One message of a short exchange (the agent check's handshake), as logged. */
export interface WireLine {
  dir: 'in' | 'out';
  raw: string;
}

/** A log that also keeps every ACP message line in `into` (everything still reaches `log`; MCP lines are not kept: they are not ACP). */
export function captureWire(log: ProtocolLog, into: WireLine[]): ProtocolLog {
  return {
    message: (dir, raw, origin) => {
      if (origin?.channel === undefined) into.push({ dir, raw });
      log.message(dir, raw, origin);
    },
    info: (text) => log.info(text),
    warn: (text) => log.warn(text),
    error: (text) => log.error(text),
    stderr: (agentName, line) => log.stderr(agentName, line),
  };
}

/** Checks a short exchange of one connection at once (no monitor, no slices: a few messages). */
export function checkWire(lines: readonly WireLine[]): ConformanceSummary {
  const checker = new MessageChecker();
  const summary = emptySummary();
  lines.forEach((line, i) => {
    const msg = parseRecord(line);
    if (!msg) return;
    const findings = checker.check({ dir: line.dir, conn: 1 }, msg);
    if (line.dir !== 'in') return;
    summary.checked++;
    addToSummary(
      summary,
      findings.map((f) => ({ seq: i, ...f })),
    );
  });
  return summary;
}
