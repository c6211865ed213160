import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import { AgentProcess, type AgentExit, type AgentLaunchConfig } from './agentProcess';
import type { AgentConnection, AgentConnectionOptions, AgentConnector, ClientHandlers } from './agentPort';
import type { IDisposable } from '../util/disposable';
import { createNdJsonTransport } from './ndjsonTransport';
import { connectionLog, createRedactor, redactingLog } from './protocolLog';
import type { ProtocolLog } from './protocolLog';
import { errorMessage } from '../util/errors';
import { isRecord } from '../protocol/guards';

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

/** One agent process and the ACP connection over its stdio: the AgentConnection the extension uses. */
export class ProcessAgentConnection implements AgentConnection {
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

  /** Spawns the agent and connects to it (see AgentConnector). */
  static connector(agent: AgentLaunchConfig): AgentConnector {
    return async (handlers, opts) => ProcessAgentConnection.open(AgentProcess.start(agent, opts.log), handlers, opts);
  }

  static async open(proc: AgentProcess, handlers: ClientHandlers, opts: AgentConnectionOptions): Promise<ProcessAgentConnection> {
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
    const app = ProcessAgentConnection.buildClient(handlers, opts.clientInfo.name, log);
    const conn = app.connect(transport.stream);
    const connection = new ProcessAgentConnection(proc, conn, handlers, opts, log);
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

  newSession(cwd: string, mcpServers: acp.McpServer[] = [], additionalDirectories: string[] = []): Promise<acp.NewSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers, ...roots(additionalDirectories) }));
  }

  /** `session/load`: the agent replays the history as session/update notifications (some after answering). */
  loadSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = [], additionalDirectories: string[] = []): Promise<acp.LoadSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers, ...roots(additionalDirectories) }));
  }

  /** `session/resume`: the session continues without a replay. */
  resumeSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = [], additionalDirectories: string[] = []): Promise<acp.ResumeSessionResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd, mcpServers, ...roots(additionalDirectories) }));
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

  /** An extension request (a vendor method such as `_tandem/hosted/check`), answered as the agent likes. */
  extension(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    return this.call(() => this.conn.agent.request<unknown, Record<string, unknown>>(method, params));
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

  stderrTail(): string {
    return this.process.stderrTail();
  }

  onExit(listener: (description: string) => void): IDisposable {
    return this.process.onExit((exit) => listener(this.process.describeExit(exit)));
  }

  kill(): Promise<void> {
    return this.process.kill();
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

/** The `additionalDirectories` field, left out when there are none (agents that do not know it see nothing new). */
function roots(additionalDirectories: string[]): { additionalDirectories?: string[] } {
  return additionalDirectories.length > 0 ? { additionalDirectories } : {};
}
