import type { ProtocolLog, WireOrigin } from '../../acp/protocolLog';
import { createMasker, type Masker } from '../../util/secretMask';
import { TANDEM_MCP_TOKEN } from '../../util/secretShapes';

/** Longest single protocol message written to the log; the rest is elided so the log stays usable. */
const MAX_LOGGED_CHARS = 64 * 1024;

/** Where the masked lines go (a LogOutputChannel in the editor, memory in tests). */
export interface LogChannel {
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

/**
 * The editor's log with every known secret masked (every agent's entrySecrets, the stored sign-in
 * values, MCP servers' env and header values) before anything is written or handed on: the
 * protocol inspector's recording (the tap) gets the same masked text as the channels, so what it
 * lists, shows and copies holds no more than the log. Kept free of `vscode` (OutputLog puts it on
 * VS Code's channels) so tests drive it with a real agent.
 */
export class MaskedLog implements ProtocolLog {
  private secrets: string[] = [];
  private masker: Masker = createMasker([]);
  /** Also gets every message and stderr line (the protocol inspector's recording). */
  private tap: Pick<ProtocolLog, 'message' | 'stderr'> | undefined;

  constructor(
    private readonly main: LogChannel,
    private readonly protocol: LogChannel,
  ) {}

  tee(tap: Pick<ProtocolLog, 'message' | 'stderr'>): void {
    this.tap = tap;
  }

  setSecrets(values: string[]): void {
    this.secrets = values.filter((v) => v.length >= 4);
    // Prepared once per change: every message of every agent goes through it.
    this.masker = createMasker(this.secrets);
  }

  /** The values masked in everything written (exported transcripts mask them too). */
  secretValues(): readonly string[] {
    return this.secrets;
  }

  message(direction: 'in' | 'out', raw: string, origin?: WireOrigin): void {
    // Exact values only: the line is JSON the inspector parses again. Masked before it is cut, so
    // a secret across the cut cannot stay half readable.
    const clean = this.masker.exact(raw).replace(TANDEM_MCP_TOKEN, '***');
    this.tap?.message(direction, clean, origin);
    const text = clean.length > MAX_LOGGED_CHARS ? `${clean.slice(0, MAX_LOGGED_CHARS)} … [${clean.length - MAX_LOGGED_CHARS} more characters]` : clean;
    this.protocol.info(`${direction === 'in' ? '←' : '→'} ${text}`);
  }

  // Lines of text (never parsed back): the exact values and every shape of a secret.
  info(text: string): void {
    this.main.info(this.masker.text(text));
  }

  warn(text: string): void {
    const clean = this.masker.text(text);
    this.main.warn(clean);
    this.protocol.warn(clean);
  }

  error(text: string): void {
    const clean = this.masker.text(text);
    this.main.error(clean);
    this.protocol.error(clean);
  }

  stderr(agentName: string, line: string): void {
    const clean = this.masker.text(line);
    this.tap?.stderr(agentName, clean);
    this.main.info(`[${agentName} stderr] ${clean}`);
  }
}
