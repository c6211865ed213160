import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentExit, AgentProcess } from './agentProcess';
import { createNdJsonTransport } from './ndjsonTransport';
import { connectionLog, createRedactor, redactingLog } from './protocolLog';
import type { ProtocolLog } from './protocolLog';
import { errorMessage } from '../util/errors';
import { isRecord } from '../protocol/guards';

/**
 * The client side of ACP, implemented elsewhere (fs, terminal, permission handlers). Each may
 * throw `acp.RequestError` to answer with that JSON-RPC error; any other thrown error reaches the
 * agent as `-32603 Internal error` with `data.details` = its message (SDK behaviour).
 * Only the handlers that exist are registered, and capabilities are advertised from them.
 */
export interface ClientHandlers {
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile?(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile?(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  createTerminal?(p: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  terminalOutput?(p: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForTerminalExit?(p: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
  killTerminal?(p: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse | void>;
  releaseTerminal?(p: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse | void>;
  /** `elicitation/create` (form and url modes) and `elicitation/complete`; both or neither. */
  createElicitation?(p: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  completeElicitation?(p: acp.CompleteElicitationNotification): void;
}

export interface AgentConnectionOptions {
  log: ProtocolLog;
  /**
   * Every `session/update` notification's raw `update` object, synchronously and in arrival order,
   * including kinds the SDK does not know. Throwing here is logged, never fatal.
   */
  onUpdate: (sessionId: string, update: Record<string, unknown>) => void;
  clientInfo: { name: string; version: string };
  /** Capabilities of the client beyond the handlers (config options, notices, sign-in…), once they work. */
  extraCapabilities?: Pick<acp.ClientCapabilities, 'session' | 'auth'>;
}

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

/** Capabilities that follow from the handlers present — never more than what is implemented. */
export function capabilitiesFor(handlers: ClientHandlers, extra: AgentConnectionOptions['extraCapabilities'] = {}): acp.ClientCapabilities {
  const terminal = Boolean(
    handlers.createTerminal && handlers.terminalOutput && handlers.waitForTerminalExit && handlers.killTerminal && handlers.releaseTerminal,
  );
  const caps: acp.ClientCapabilities = {
    fs: { readTextFile: Boolean(handlers.readTextFile), writeTextFile: Boolean(handlers.writeTextFile) },
    terminal,
    ...extra,
  };
  if (handlers.createElicitation && handlers.completeElicitation) caps.elicitation = { form: {}, url: {} };
  return caps;
}

/** One ACP connection to one agent process, over its stdio. */
export class AgentConnection {
  /** Resolves when the connection is closed (agent output ended, process exited, or disposed). */
  readonly closed: Promise<void>;
  private initResult: acp.InitializeResponse | undefined;
  private disposed = false;

  private constructor(
    readonly process: AgentProcess,
    private readonly conn: acp.ClientConnection,
    private readonly handlers: ClientHandlers,
    private readonly opts: AgentConnectionOptions,
    private readonly log: ProtocolLog,
  ) {
    this.closed = conn.closed;
  }

  static async open(proc: AgentProcess, handlers: ClientHandlers, opts: AgentConnectionOptions): Promise<AgentConnection> {
    const log = connectionLog(redactingLog(opts.log, proc.secrets), proc.name);
    const onInbound = (msg: Record<string, unknown>): boolean => {
      // Only notifications (no id) are session updates; a request named session/update is left
      // to the SDK, which answers it with an error.
      if (msg.method !== acp.methods.client.session.update || 'id' in msg) return false;
      const params = msg.params;
      const sessionId = isRecord(params) ? params.sessionId : undefined;
      const update = isRecord(params) ? params.update : undefined;
      if (typeof sessionId !== 'string' || !isRecord(update)) {
        log.warn('Ignored a session/update without a sessionId or update object.');
        return true;
      }
      opts.onUpdate(sessionId, update);
      return true;
    };
    const transport = createNdJsonTransport(proc.stdin, proc.stdout, { log, onInbound, redact: createRedactor(proc.secrets) });
    const app = AgentConnection.buildClient(handlers, opts.clientInfo.name, log);
    const conn = app.connect(transport.stream);
    const connection = new AgentConnection(proc, conn, handlers, opts, log);
    // The SDK closes on EOF with a generic error; closing with the exit first gives every pending
    // request (and every incoming handler's signal) the real reason.
    proc.onExit((exit) => conn.close(connection.exitError(exit)));
    return connection;
  }

  private static buildClient(handlers: ClientHandlers, name: string, log: ProtocolLog): acp.ClientApp {
    const m = acp.methods.client;
    const app = acp.client({ name });
    app.onRequest(m.session.requestPermission, ({ params, signal }) => handlers.requestPermission(params, signal));
    // Updates are consumed by the transport tap in arrival order; this is never reached for
    // well-formed notifications, but keeps the SDK from treating the method as unknown.
    app.onNotification(m.session.update, () => undefined);
    const { readTextFile, writeTextFile, createTerminal, terminalOutput, waitForTerminalExit, killTerminal, releaseTerminal } = handlers;
    if (readTextFile) app.onRequest(m.fs.readTextFile, ({ params }) => readTextFile.call(handlers, params));
    if (writeTextFile) app.onRequest(m.fs.writeTextFile, ({ params }) => writeTextFile.call(handlers, params));
    if (createTerminal) app.onRequest(m.terminal.create, ({ params }) => createTerminal.call(handlers, params));
    if (terminalOutput) app.onRequest(m.terminal.output, ({ params }) => terminalOutput.call(handlers, params));
    if (waitForTerminalExit) app.onRequest(m.terminal.waitForExit, ({ params }) => waitForTerminalExit.call(handlers, params));
    if (killTerminal) app.onRequest(m.terminal.kill, ({ params }) => killTerminal.call(handlers, params));
    if (releaseTerminal) app.onRequest(m.terminal.release, ({ params }) => releaseTerminal.call(handlers, params));
    const { createElicitation, completeElicitation } = handlers;
    if (createElicitation && completeElicitation) {
      app.onRequest(m.elicitation.create, ({ params, signal }) => createElicitation.call(handlers, params, signal));
      app.onNotification(m.elicitation.complete, ({ params }) => completeElicitation.call(handlers, params));
    }
    const caps = capabilitiesFor(handlers);
    const someTerminal = Boolean(createTerminal || terminalOutput || waitForTerminalExit || killTerminal || releaseTerminal);
    if (someTerminal && !caps.terminal) log.warn('Some terminal handlers are missing: the terminal capability is not advertised.');
    return app;
  }

  /** The agent's answer to `initialize`. Throws before {@link initialize} has succeeded. */
  get initializeResult(): acp.InitializeResponse {
    if (!this.initResult) throw new Error('initialize() has not completed yet.');
    return this.initResult;
  }

  async initialize(): Promise<acp.InitializeResponse> {
    const result = await this.call(() =>
      this.conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: capabilitiesFor(this.handlers, this.opts.extraCapabilities),
        clientInfo: { name: this.opts.clientInfo.name, version: this.opts.clientInfo.version },
      }),
    );
    if (result.protocolVersion !== acp.PROTOCOL_VERSION) {
      this.log.warn(`Agent '${this.process.name}' answered with protocol version ${String(result.protocolVersion)}; Tandem speaks ${acp.PROTOCOL_VERSION}.`);
    }
    this.initResult = result;
    return result;
  }

  async authenticate(methodId: string): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.authenticate, { methodId }));
  }

  newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers }));
  }

  /** `session/load`: the agent replays the history as session/update notifications (some after answering). */
  loadSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.LoadSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers }));
  }

  /** `session/resume`: the session continues without a replay. */
  resumeSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.ResumeSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd, mcpServers }));
  }

  /** One page of `session/list`. */
  listSessions(cwd: string, cursor?: string): Promise<acp.ListSessionsResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.list, cursor ? { cwd, cursor } : { cwd }));
  }

  /** `session/close`: the agent cancels the session's work and frees it. */
  async closeSession(sessionId: string): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.session.close, { sessionId }));
  }

  /** `session/prompt` with the user's content (a string is one text block). */
  prompt(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse> {
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks }));
  }

  /** `session/set_mode`; rejects with the agent's error when it refuses the mode. */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId }));
  }

  /** `session/set_config_option`; the answer is the full list of options. */
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<acp.SetSessionConfigOptionResponse> {
    const params = (
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value }
    ) as acp.SetSessionConfigOptionRequest;
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.setConfigOption, params));
  }

  /** The older `session/set_model` (not in the current schema: sent as an untyped request). */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.call(() => this.conn.agent.request<unknown, { sessionId: string; modelId: string }>('session/set_model', { sessionId, modelId }));
  }

  /** `logout`: the agent forgets its credentials. */
  async logout(): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.logout, {}));
  }

  /** Sends `session/cancel`. Never throws: cancelling a dead agent has nothing left to stop. */
  async cancel(sessionId: string): Promise<void> {
    try {
      await this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    } catch (err) {
      this.log.info(`session/cancel not sent: ${errorMessage(err)}`);
    }
  }

  /** Closes the connection (pending requests reject). Does not kill the process. Safe twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.conn.close(new Error(l10n.t('The connection to the agent was closed.')));
  }

  private exitError(exit: AgentExit): AgentExitedError {
    return new AgentExitedError(this.process.name, exit, this.process.stderrTail(), this.process.describeExit(exit));
  }

  /**
   * Runs a request; when it fails for any reason other than the agent's own JSON-RPC error, and the
   * process is gone (or goes within a moment), the error becomes an {@link AgentExitedError}.
   */
  private async call<T>(run: () => Promise<T>): Promise<T> {
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
