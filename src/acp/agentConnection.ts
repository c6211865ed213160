import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import { AgentProcess, type AgentExit, type AgentLaunchConfig } from './agentProcess';
import type { AgentConnection, AgentConnectionOptions, AgentConnector, ClientHandlers } from './agentPort';
import { AgentRequests, buildClient, sessionUpdateTap } from './agentRequests';
import type { IDisposable } from '../util/disposable';
import { createNdJsonTransport } from './ndjsonTransport';
import { connectionLog, createRedactor, redactingLog } from './protocolLog';
import type { ProtocolLog } from './protocolLog';

export { capabilitiesFor } from './agentRequests';

/** A request failed because the agent process is gone. Carries the exit and the stderr tail. */
export class AgentExitedError extends Error {
  constructor(
    readonly agentName: string,
    readonly exit: AgentExit,
    readonly stderrTail: string,
    description: string,
  ) {
    super(`${l10n.t("Agent '{0}' {1}.", agentName, description)}${stderrTail ? `\n${l10n.t('Last stderr output:')}\n${stderrTail}` : ''}`);
    this.name = 'AgentExitedError';
  }
}

/** How long a failed request waits for the process exit to be reported before giving up on it. */
const EXIT_REPORT_WAIT_MS = 2000;

/** One agent process and the ACP connection over its stdio: the AgentConnection the extension uses. */
export class ProcessAgentConnection extends AgentRequests implements AgentConnection {
  /** Resolves when the connection is closed (agent output ended, process exited, or disposed). */
  readonly closed: Promise<void>;

  private constructor(
    readonly process: AgentProcess,
    conn: acp.ClientConnection,
    handlers: ClientHandlers,
    opts: AgentConnectionOptions,
    log: ProtocolLog,
  ) {
    super(conn, handlers, opts, log, process.name);
    this.closed = conn.closed;
  }

  /** Spawns the agent and connects to it (see AgentConnector). */
  static connector(agent: AgentLaunchConfig): AgentConnector {
    return async (handlers, opts) => ProcessAgentConnection.open(AgentProcess.start(agent, opts.log), handlers, opts);
  }

  static async open(proc: AgentProcess, handlers: ClientHandlers, opts: AgentConnectionOptions): Promise<ProcessAgentConnection> {
    const log = connectionLog(redactingLog(opts.log, proc.secrets), proc.name);
    const onInbound = sessionUpdateTap(log, opts.onUpdate, opts.onAuthStatus);
    const transport = createNdJsonTransport(proc.stdin, proc.stdout, { log, onInbound, redact: createRedactor(proc.secrets) });
    const conn = buildClient(handlers, opts.clientInfo.name, log).connect(transport.stream);
    const connection = new ProcessAgentConnection(proc, conn, handlers, opts, log);
    // The SDK closes on EOF with a generic error; closing with the exit first gives every pending
    // request (and every incoming handler's signal) the real reason.
    proc.onExit((exit) => conn.close(connection.exitError(exit)));
    return connection;
  }

  stderrTail(): string {
    return this.process.stderrTail();
  }

  onExit(listener: (description: string, lost: boolean) => void): IDisposable {
    return this.process.onExit((exit) => listener(this.process.describeExit(exit), this.process.lostConnection(exit)));
  }

  kill(): Promise<void> {
    return this.process.kill();
  }

  private exitError(exit: AgentExit): AgentExitedError {
    return new AgentExitedError(this.process.name, exit, this.process.stderrTail(), this.process.describeExit(exit));
  }

  /**
   * Runs a request; when it fails for any reason other than the agent's own JSON-RPC error, and the
   * process is gone (or goes within a moment), the error becomes an {@link AgentExitedError}.
   */
  protected async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof acp.RequestError || err instanceof AgentExitedError || this.disposed) throw err;
      const exit = this.process.exit ?? (await Promise.race([this.process.exited, delay(EXIT_REPORT_WAIT_MS)]));
      if (exit) throw this.exitError(exit);
      throw err;
    }
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}
