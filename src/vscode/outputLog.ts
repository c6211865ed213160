import * as vscode from 'vscode';
import { redactSecrets, type ProtocolLog, type WireOrigin } from '../acp/protocolLog';
import type { IDisposable } from '../util/disposable';

/** Longest single protocol message written to the log; the rest is elided so the log stays usable. */
const MAX_LOGGED_CHARS = 64 * 1024;

/**
 * The "Tandem" log channel (agent stderr, lifecycle, warnings) and the "Tandem Protocol" channel
 * (every JSON-RPC message both ways). Both are LogOutputChannels, which timestamp every line. Values
 * of configured agent env variables are redacted from everything written.
 */
export class OutputLog implements ProtocolLog, IDisposable {
  private readonly main = vscode.window.createOutputChannel('Tandem', { log: true });
  private readonly protocol = vscode.window.createOutputChannel('Tandem Protocol', { log: true });
  private secrets: string[] = [];
  /** Also gets every message and stderr line (the protocol inspector's recording). */
  private tap: Pick<ProtocolLog, 'message' | 'stderr'> | undefined;

  tee(tap: Pick<ProtocolLog, 'message' | 'stderr'>): void {
    this.tap = tap;
  }

  setSecrets(values: string[]): void {
    this.secrets = values.filter((v) => v.length >= 4);
  }

  /** The values masked in everything written (exported transcripts mask them too). */
  secretValues(): readonly string[] {
    return this.secrets;
  }

  message(direction: 'in' | 'out', raw: string, origin?: WireOrigin): void {
    this.tap?.message(direction, raw, origin);
    const text = raw.length > MAX_LOGGED_CHARS ? `${raw.slice(0, MAX_LOGGED_CHARS)} … [${raw.length - MAX_LOGGED_CHARS} more characters]` : raw;
    this.protocol.info(`${direction === 'in' ? '←' : '→'} ${this.clean(text)}`);
  }

  info(text: string): void {
    this.main.info(this.clean(text));
  }

  warn(text: string): void {
    this.main.warn(this.clean(text));
    this.protocol.warn(this.clean(text));
  }

  error(text: string): void {
    this.main.error(this.clean(text));
    this.protocol.error(this.clean(text));
  }

  stderr(agentName: string, line: string): void {
    this.tap?.stderr(agentName, line);
    this.main.info(`[${agentName} stderr] ${this.clean(line)}`);
  }

  showProtocol(): void {
    this.protocol.show(true);
  }

  dispose(): void {
    this.main.dispose();
    this.protocol.dispose();
  }

  private clean(text: string): string {
    return this.secrets.length ? redactSecrets(text, this.secrets) : text;
  }
}
