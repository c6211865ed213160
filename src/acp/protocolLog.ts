import { exactMasker, secretForms } from '../util/secretMask';

/**
 * Where the ACP core reports what happens on the wire and around the agent process. The core never
 * imports `vscode`; the editor adapter implements this on a LogOutputChannel, tests use
 * {@link MemoryProtocolLog}.
 */
export interface ProtocolLog {
  /** One JSON-RPC message as it crossed the wire ('in' = from the agent). `raw` is one JSON line. */
  message(direction: 'in' | 'out', raw: string, origin?: WireOrigin): void;
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
  /** One line the agent wrote to stderr (already redacted by the caller). */
  stderr(agentName: string, line: string): void;
}

/** What the connection knows of a message beyond its text (for the protocol inspector, src/inspector). */
export interface WireOrigin {
  /** The parsed message, as the SDK gets it: read only, never kept. */
  msg?: Record<string, unknown>;
  /** The agent's name and which of its connections (counted from 1 in this process). */
  agent?: string;
  connection?: number;
  /**
   * Not ACP: `mcp` is the `tandem` MCP server's own JSON-RPC with the agent's MCP client
   * (src/mcp/mcpWireLog.ts). The inspector shows it, and its ACP checks leave it alone.
   */
  channel?: 'mcp';
}

let connections = 0;

/**
 * Tags every message of one connection with its agent and a connection number of its own (and,
 * for traffic that is not ACP, its channel).
 */
export function connectionLog(log: ProtocolLog, agent: string, channel?: 'mcp'): ProtocolLog {
  const connection = ++connections;
  return {
    message: (direction, raw, origin) => log.message(direction, raw, { msg: origin?.msg, agent, connection, ...(channel ? { channel } : {}) }),
    info: (text) => log.info(text),
    warn: (text) => log.warn(text),
    error: (text) => log.error(text),
    stderr: (agentName, line) => log.stderr(agentName, line),
  };
}

/** One recorded log line; `level` names which {@link ProtocolLog} method produced it. */
export interface MemoryLogLine {
  time: string;
  level: 'in' | 'out' | 'info' | 'warn' | 'error' | 'stderr';
  text: string;
}

/** Keeps every line in memory with an ISO timestamp — for tests and for a log that has no UI yet. */
export class MemoryProtocolLog implements ProtocolLog {
  readonly lines: MemoryLogLine[] = [];

  message(direction: 'in' | 'out', raw: string): void {
    this.push(direction, raw);
  }
  info(text: string): void {
    this.push('info', text);
  }
  warn(text: string): void {
    this.push('warn', text);
  }
  error(text: string): void {
    this.push('error', text);
  }
  stderr(agentName: string, line: string): void {
    this.push('stderr', `[${agentName}] ${line}`);
  }

  /** Texts of the lines of one level, in order. */
  of(level: MemoryLogLine['level']): string[] {
    return this.lines.filter((l) => l.level === level).map((l) => l.text);
  }

  /** Everything as `time level text` lines, as a user would read it in the output channel. */
  toString(): string {
    return this.lines.map((l) => `${l.time} ${l.level} ${l.text}`).join('\n');
  }

  private push(level: MemoryLogLine['level'], text: string): void {
    this.lines.push({ time: new Date().toISOString(), level, text });
  }
}

/**
 * Replaces every occurrence of each secret with `***`. Secrets shorter than 4 characters are left
 * alone: masking values like "1" or "yes" would shred the log and protect nothing.
 */
export function redactSecrets(text: string, secrets: string[]): string {
  return createRedactor(secrets)(text);
}

/**
 * The same as {@link redactSecrets}, with the secret list prepared once (for hot paths): the exact
 * values in every form they take on the wire (src/util/secretMask.ts), JSON literals left alone so
 * the logged lines stay JSON.
 */
export function createRedactor(secrets: string[]): (text: string) => string {
  if (secretForms(secrets).length === 0) return (text) => text;
  return exactMasker(secrets);
}

/** Like {@link redactingLog}, with the secrets looked up per line (they may change with the settings). */
export function lazyRedactingLog(log: ProtocolLog, secrets: () => string[]): ProtocolLog {
  const masked = (): ProtocolLog => redactingLog(log, secrets());
  return {
    message: (direction, raw, origin) => masked().message(direction, raw, origin),
    info: (text) => masked().info(text),
    warn: (text) => masked().warn(text),
    error: (text) => masked().error(text),
    stderr: (agentName, line) => masked().stderr(agentName, line),
  };
}

/** Wraps a log so that configured env values never reach it, whatever the agent echoes back. */
export function redactingLog(log: ProtocolLog, secrets: string[]): ProtocolLog {
  if (secretForms(secrets).length === 0) return log;
  const r = createRedactor(secrets);
  return {
    message: (direction, raw, origin) => log.message(direction, r(raw), origin),
    info: (text) => log.info(r(text)),
    warn: (text) => log.warn(r(text)),
    error: (text) => log.error(r(text)),
    stderr: (agentName, line) => log.stderr(agentName, r(line)),
  };
}
