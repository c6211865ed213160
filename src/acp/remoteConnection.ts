import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import type { AcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import { AgentExitedError } from './agentConnection';
import type { AgentLaunchConfig } from './agentProcess';
import { launchSecrets } from './launchSecrets';
import type { AgentConnection, AgentConnectionOptions, AgentConnector, ClientHandlers } from './agentPort';
import { AgentRequests, buildClient, sessionUpdateTap } from './agentRequests';
import { connectionLog, createRedactor, redactingLog, type ProtocolLog } from './protocolLog';
import { describeRemoteFailure, RemoteConnectionError } from './remoteFailure';
import { headerSecrets, remoteHeaders, REMOTE_TOKEN_VAR, tokenMethod } from './remoteHeaders';
import { shownUrl, urlSecrets } from '../util/secretShapes';
import { DEFAULT_REMOTE_LIMITS, openRemoteTransport, type RemoteLimits, type RemoteTransport } from './remoteTransport';
import { tapStream } from './streamTap';
import type { IDisposable } from '../util/disposable';
import { errorData, errorMessage } from '../util/errors';

export interface RemoteOptions {
  /** The agent entry's cookie store, kept across its reconnects. */
  cookies: AcpCookieStore;
  limits?: Partial<RemoteLimits>;
  /** How long `initialize` may take once connected (default 60 s: a gateway may start the agent first). */
  initializeTimeoutMs?: number;
}

/** How long Stop waits for the HTTP transport's DELETE before letting go. */
const CLOSE_WAIT_MS = 2000;

/**
 * An agent on another machine, over ACP's WebSocket or Streamable HTTP transport (the SDK's
 * experimental clients): the same AgentConnection as a local process, so everything above works
 * alike. Every message is logged and tapped as the NDJSON transport does (streamTap); the client
 * side is served from this workspace unless the entry says `clientTools: false`. A failure before
 * `initialize` answered rejects it with what went wrong (remoteFailure); a drop after it is an exit
 * with `lost` set, so conversations reattach their sessions on a new connection.
 */
export class RemoteAgentConnection extends AgentRequests implements AgentConnection {
  private readonly exitListeners = new Set<(description: string, lost: boolean) => void>();
  private exitFired = false;
  /** What every pending and later request rejects with once the connection ended. */
  private closeError: Error | undefined;
  private initialized = false;
  private closing: Promise<void> | undefined;

  private constructor(
    conn: acp.ClientConnection,
    handlers: ClientHandlers,
    opts: AgentConnectionOptions,
    log: ProtocolLog,
    agentName: string,
    private readonly transport: RemoteTransport,
    private readonly closeTransport: () => Promise<void>,
    private readonly where: { host: string; tokenPlace: boolean; redact: (text: string) => string; initializeTimeoutMs: number },
  ) {
    super(conn, handlers, opts, log, agentName);
  }

  /** Connects to the agent at `agent.remote` (see AgentConnector). */
  static connector(agent: AgentLaunchConfig, options: RemoteOptions): AgentConnector {
    return async (handlers, opts) => RemoteAgentConnection.open(agent, handlers, opts, options);
  }

  static async open(agent: AgentLaunchConfig, handlers: ClientHandlers, opts: AgentConnectionOptions, options: RemoteOptions): Promise<RemoteAgentConnection> {
    const remote = agent.remote;
    if (!remote) throw new Error(`Agent '${agent.name}' has no remote address.`);
    const host = new URL(remote.url).host;
    const warnings: string[] = [];
    const fromEnv: string[] = [];
    const { headers, tokenPlace } = remoteHeaders(
      remote.headers,
      agent.env[REMOTE_TOKEN_VAR],
      process.env,
      (t) => warnings.push(t),
      (v) => fromEnv.push(v),
    );
    // Header values (resolved `${env:…}` included), stored tokens and the address's own credentials
    // (a `?token=` included) never reach the log or a message.
    const secrets = [...launchSecrets(agent), ...headerSecrets(headers), ...fromEnv, ...urlSecrets(remote.url)];
    const log = connectionLog(redactingLog(opts.log, secrets), agent.name);
    warnings.forEach((w) => log.warn(w));
    const limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
    const transport = openRemoteTransport({ url: remote.url, headers, cookies: options.cookies, limits, warn: (t) => log.warn(t) });
    log.info(
      `Connecting to agent '${agent.name}' at ${shownUrl(remote.url)} (${transport.kind === 'websocket' ? 'WebSocket' : 'Streamable HTTP'}${remote.clientTools ? '' : '; fs and terminals stay on its side'}).`,
    );
    let connection: RemoteAgentConnection | undefined;
    let endedEarly: { error: unknown } | undefined;
    const tapped = tapStream(transport.stream, {
      log,
      onInbound: sessionUpdateTap(log, opts.onUpdate, opts.onAuthStatus),
      onEnd: (error) => (connection ? connection.ended(error) : (endedEarly = { error })),
    });
    let closing: Promise<void> | undefined;
    const closeTransport = (): Promise<void> => (closing ??= tapped.readable.cancel().catch(() => undefined));
    // An agent with its own sandbox is offered no fs or terminal: the capabilities follow the handlers.
    const served: ClientHandlers = remote.clientTools
      ? handlers
      : { requestPermission: handlers.requestPermission, createElicitation: handlers.createElicitation, completeElicitation: handlers.completeElicitation };
    const conn = buildClient(served, opts.clientInfo.name, log).connect(tapped);
    connection = new RemoteAgentConnection(conn, served, opts, log, agent.name, transport, closeTransport, {
      host,
      tokenPlace,
      redact: createRedactor(secrets),
      initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
    });
    if (endedEarly) connection.ended(endedEarly.error);
    return connection;
  }

  override async initialize(): Promise<acp.InitializeResponse> {
    const { host, initializeTimeoutMs } = this.where;
    const timer = setTimeout(() => {
      const seconds = Math.round(initializeTimeoutMs / 1000);
      this.ended(new RemoteConnectionError('timeout', l10n.t('{0} accepted the connection but did not answer initialize within {1} s.', host, seconds)));
    }, initializeTimeoutMs);
    try {
      const result = await super.initialize();
      this.initialized = true;
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  stderrTail(): string {
    return '';
  }

  onExit(listener: (description: string, lost: boolean) => void): IDisposable {
    this.exitListeners.add(listener);
    return { dispose: () => this.exitListeners.delete(listener) };
  }

  /** Disconnects (the agent stays where it runs); resolves once the transport closed, or after a bounded wait. */
  kill(): Promise<void> {
    this.closing ??= (async () => {
      this.dispose();
      await Promise.race([this.closeTransport(), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
      this.fireExit(l10n.t('was disconnected'), false);
    })();
    return this.closing;
  }

  override dispose(): void {
    if (this.disposed) return;
    super.dispose();
    void this.closeTransport();
  }

  /** The inbound side ended, or the connection gave up (a timeout, a lost session): say why, once. */
  private ended(error: unknown): void {
    if (this.closeError || this.disposed) return;
    const { host, redact } = this.where;
    const failure = describeRemoteFailure(this.transport.failure() ?? error ?? closedNormally(this.transport), host, redact);
    if (!this.initialized) {
      // Still starting: initialize rejects with what went wrong, 401/403 as a sign-in request.
      this.closeError = failure.kind === 'auth' && this.where.tokenPlace ? signInNeeded(failure, host) : failure;
      this.conn.close(this.closeError);
      void this.closeTransport();
      return;
    }
    const description = l10n.t('lost its connection to {0} ({1})', host, failure.message);
    this.closeError = new AgentExitedError(this.agentName, { code: null, signal: null }, '', description);
    this.log.warn(`Agent '${this.agentName}' ${description}`);
    this.conn.close(this.closeError);
    void this.closeTransport();
    this.fireExit(description, true);
  }

  private fireExit(description: string, lost: boolean): void {
    if (this.exitFired) return;
    this.exitFired = true;
    for (const listener of [...this.exitListeners]) {
      try {
        listener(description, lost);
      } catch (err) {
        this.log.error(`Exit listener failed: ${errorMessage(err)}`);
      }
    }
    this.exitListeners.clear();
  }

  /**
   * Requests reject with the reason the connection ended. A session the HTTP transport failed with
   * 409 stays failed until it is reattached: the connection is given up as lost, and the
   * conversation reattaches the session on a new one (resume, else load).
   */
  protected async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (this.closeError) throw this.closeError;
      const status = (errorData(err) as { status?: unknown } | undefined)?.status;
      if (err instanceof acp.RequestError && status === 409) {
        this.ended(new RemoteConnectionError('server', l10n.t('the server no longer routes this session here (409)'), 409));
        throw this.closeError ?? err;
      }
      if (err instanceof acp.RequestError && err.code === -32603 && err.message === SESSION_STREAM_CLOSED) {
        // The session's event stream ended (a proxy's idle timeout, a server's stream limit): the
        // answer can no longer arrive here, though the agent may be working on. Given up as lost, the
        // conversation reattaches the session on a new connection instead of failing the turn.
        this.ended(new RemoteConnectionError('closed', l10n.t("the session's event stream closed")));
        throw this.closeError ?? err;
      }
      if (err instanceof acp.RequestError) {
        // An HTTP failure's message carries the server's answer, which may echo a header or token.
        if (status !== undefined) err.message = this.where.redact(err.message);
        throw err;
      }
      throw describeRemoteFailure(err, this.where.host, this.where.redact);
    }
  }
}

/** What the SDK's HTTP transport rejects a session's pending requests with when its event stream ends. */
const SESSION_STREAM_CLOSED = 'ACP session SSE stream closed';

function closedNormally(transport: RemoteTransport): RemoteConnectionError {
  const info = transport.closeInfo();
  return new RemoteConnectionError('closed', info ? l10n.t('the connection closed ({0})', info) : l10n.t('the connection closed'));
}

/** 401/403 with a place for a token: `authenticate`-required, offering the token card. */
function signInNeeded(failure: RemoteConnectionError, host: string): acp.RequestError {
  return new acp.RequestError(-32000, failure.message, { authMethods: [tokenMethod(host)], status: failure.status });
}
