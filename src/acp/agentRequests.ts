import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentConnection, AgentConnectionOptions, ClientHandlers, McpOverAcpMethod } from './agentPort';
import type { ProtocolLog } from './protocolLog';
import { errorMessage } from '../util/errors';
import { isRecord } from '../protocol/guards';

/** Who is signed in (see src/runtime/accountStatus.ts, which reads them). */
const VENDOR_AUTH_STATUS_METHOD = '_auth/status_update';
const ACP_AUTH_STATUS_METHOD = 'auth/status_update';

const MCP_MESSAGE = 'mcp/message';
const MCP_OVER_ACP_METHODS: readonly McpOverAcpMethod[] = ['mcp/connect', MCP_MESSAGE, 'mcp/disconnect'];
const rawParams = (params: unknown): unknown => params;

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

/**
 * The transport tap for `session/update`: hands each notification's update to `onUpdate` in arrival
 * order and consumes it (the SDK would run handlers concurrently and drop kinds it does not know).
 */
export function sessionUpdateTap(
  log: ProtocolLog,
  onUpdate: AgentConnectionOptions['onUpdate'],
  onAuthStatus?: AgentConnectionOptions['onAuthStatus'],
): (msg: Record<string, unknown>) => boolean {
  return (msg) => {
    // Who is signed in: the SDK has no handler for the adapters' vendor method and would log it as unknown.
    if ((msg.method === VENDOR_AUTH_STATUS_METHOD || msg.method === ACP_AUTH_STATUS_METHOD) && !('id' in msg)) {
      onAuthStatus?.(msg.params);
      return true;
    }
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
    onUpdate(sessionId, update);
    return true;
  };
}

/** The client side of ACP as an SDK app: only the handlers that exist are registered. */
export function buildClient(handlers: ClientHandlers, name: string, log: ProtocolLog): acp.ClientApp {
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
  const { mcpOverAcp } = handlers;
  if (mcpOverAcp) {
    // Unstable methods, registered with a pass-through parser: the SDK's own `mcp/message` schema
    // knows only one of the two envelopes agents send (see src/mcp/acpMcpRouter.ts).
    for (const method of MCP_OVER_ACP_METHODS) app.onRequest(method, rawParams, ({ params, signal }) => mcpOverAcp.request(method, params, signal));
    app.onNotification(MCP_MESSAGE, rawParams, ({ params }) => mcpOverAcp.notification(MCP_MESSAGE, params));
  }
  const caps = capabilitiesFor(handlers);
  const someTerminal = Boolean(createTerminal || terminalOutput || waitForTerminalExit || killTerminal || releaseTerminal);
  if (someTerminal && !caps.terminal) log.warn('Some terminal handlers are missing: the terminal capability is not advertised.');
  return app;
}

/**
 * The ACP requests of an AgentConnection over an SDK connection, whatever carries it (a process's
 * stdio, a WebSocket, Streamable HTTP). Subclasses say how the agent ends and turn transport
 * failures into the error the core expects ({@link call}).
 */
export abstract class AgentRequests implements Omit<AgentConnection, 'stderrTail' | 'onExit' | 'kill'> {
  private initResult: acp.InitializeResponse | undefined;
  protected disposed = false;

  protected constructor(
    protected readonly conn: acp.ClientConnection,
    protected readonly handlers: ClientHandlers,
    protected readonly opts: AgentConnectionOptions,
    protected readonly log: ProtocolLog,
    protected readonly agentName: string,
  ) {}

  /** Runs a request; a failure that is not the agent's own JSON-RPC error may be described better. */
  protected abstract call<T>(run: () => Promise<T>): Promise<T>;

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
      this.log.warn(`Agent '${this.agentName}' answered with protocol version ${String(result.protocolVersion)}; Tandem speaks ${acp.PROTOCOL_VERSION}.`);
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

  /** `session/fork`: a new session with the source's history (cut where `meta` says, when the agent reads it). */
  forkSession(
    sessionId: string,
    cwd: string,
    mcpServers: acp.McpServer[] = [],
    additionalDirectories: string[] = [],
    meta?: Record<string, unknown>,
  ): Promise<acp.NewSessionResponse> {
    // Unstable in the SDK (not in its stable method table): sent untyped; its answer has session/new's fields.
    const params = { sessionId, cwd, mcpServers, ...roots(additionalDirectories), ...(meta ? { _meta: meta } : {}) };
    return this.call(() => this.conn.agent.request<acp.NewSessionResponse, typeof params>('session/fork', params));
  }

  /** One page of `session/list`. */
  listSessions(cwd: string, cursor?: string): Promise<acp.ListSessionsResponse> {
    return this.call(() => this.conn.agent.request(acp.methods.agent.session.list, cursor ? { cwd, cursor } : { cwd }));
  }

  /** `session/close`: the agent cancels the session's work and frees it. */
  async closeSession(sessionId: string): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.session.close, { sessionId }));
  }

  /** `session/delete`: the agent forgets the session for good (its own history too). */
  async deleteSession(sessionId: string): Promise<void> {
    await this.call(() => this.conn.agent.request(acp.methods.agent.session.delete, { sessionId }));
  }

  /** `session/set_title` (unstable in the SDK: sent untyped): the agent's own title of the session. */
  async setSessionTitle(sessionId: string, title: string): Promise<void> {
    await this.call(() => this.conn.agent.request<unknown, { sessionId: string; title: string }>('session/set_title', { sessionId, title }));
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

  /** Closes the connection (pending requests reject). Does not end the agent. Safe twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.conn.close(new Error(l10n.t('The connection to the agent was closed.')));
  }
}

/** The `additionalDirectories` field, left out when there are none (agents that do not know it see nothing new). */
function roots(additionalDirectories: string[]): { additionalDirectories?: string[] } {
  return additionalDirectories.length > 0 ? { additionalDirectories } : {};
}
