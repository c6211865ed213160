import type * as acp from '@agentclientprotocol/sdk';
import type { IDisposable } from '../util/disposable';
import type { ProtocolLog } from './protocolLog';

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
  /**
   * MCP over ACP (unstable): the agent's `mcp/connect`, `mcp/message` and `mcp/disconnect` for MCP
   * servers the client declared as `{type: "acp", serverId}`. Raw params in, raw result out; absent,
   * the SDK answers them "method not found". Nothing is advertised: the agent's own
   * `mcpCapabilities.acp` says whether it sends them.
   */
  mcpOverAcp?: McpOverAcpHandler;
}

/** The agent→client methods of MCP over ACP. */
export type McpOverAcpMethod = 'mcp/connect' | 'mcp/message' | 'mcp/disconnect';

/**
 * Where the connection hands MCP-over-ACP traffic (src/mcp/acpMcpRouter.ts routes it to the
 * session's server by `serverId` / `connectionId`). A thrown `acp.RequestError` is the answer's
 * JSON-RPC error.
 */
export interface McpOverAcpHandler {
  request(method: McpOverAcpMethod, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** An `mcp/message` without an id: an MCP notification (`notifications/initialized`, `notifications/cancelled`). */
  notification(method: 'mcp/message', params: unknown): void;
}

export interface AgentConnectionOptions {
  log: ProtocolLog;
  /**
   * Every `session/update` notification's raw `update` object, synchronously and in arrival order,
   * including kinds the SDK does not know. Throwing here is logged, never fatal.
   */
  onUpdate: (sessionId: string, update: Record<string, unknown>) => void;
  /** The params of an `_auth/status_update` or `auth/status_update` notification (who is signed in). */
  onAuthStatus?: (params: unknown) => void;
  clientInfo: { name: string; version: string };
  /** Capabilities of the client beyond the handlers (config options, notices, sign-in…), once they work. */
  extraCapabilities?: Pick<acp.ClientCapabilities, 'session' | 'auth' | '_meta'> & { subagents?: Record<string, never> };
}

/**
 * What the core needs of a started agent: its ACP requests, and how it ends. The real ones are a
 * process over stdio (ProcessAgentConnection) and an agent on another machine over ACP's WebSocket
 * or Streamable HTTP transport (RemoteAgentConnection); tests use an in-memory stub
 * (test/support/stubAgent.ts) that drives a whole conversation in milliseconds under mock timers.
 * Every request rejects with AgentExitedError once the agent is gone.
 */
export interface AgentConnection {
  /** The agent's answer to `initialize`. Throws before {@link initialize} has succeeded. */
  readonly initializeResult: acp.InitializeResponse;
  initialize(): Promise<acp.InitializeResponse>;
  authenticate(methodId: string): Promise<void>;
  /** `additionalDirectories` (roots besides `cwd`) only when the agent advertised them and there are any. */
  newSession(cwd: string, mcpServers?: acp.McpServer[], additionalDirectories?: string[]): Promise<acp.NewSessionResponse>;
  /** `session/load`: the agent replays the history as session/update notifications (some after answering). */
  loadSession(sessionId: string, cwd: string, mcpServers?: acp.McpServer[], additionalDirectories?: string[]): Promise<acp.LoadSessionResponse>;
  /** `session/resume`: the session continues without a replay. */
  resumeSession(sessionId: string, cwd: string, mcpServers?: acp.McpServer[], additionalDirectories?: string[]): Promise<acp.ResumeSessionResponse>;
  /**
   * `session/fork`, for an agent that advertised `sessionCapabilities.fork`: a new session with the
   * source's history (answered like `session/new`); `_meta` says where to cut it (`jetbrains.air.fork`, see src/conversation/forkPoint.ts).
   */
  forkSession(
    sessionId: string,
    cwd: string,
    mcpServers?: acp.McpServer[],
    additionalDirectories?: string[],
    meta?: Record<string, unknown>,
  ): Promise<acp.NewSessionResponse>;
  /** One page of `session/list`. */
  listSessions(cwd: string, cursor?: string): Promise<acp.ListSessionsResponse>;
  closeSession(sessionId: string): Promise<void>;
  /** `session/delete`, for an agent that advertised `sessionCapabilities.delete`. */
  deleteSession(sessionId: string): Promise<void>;
  /** `session/set_title`, for an agent that advertised `sessionCapabilities.title`. */
  setSessionTitle(sessionId: string, title: string): Promise<void>;
  prompt(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
  setMode(sessionId: string, modeId: string): Promise<void>;
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<acp.SetSessionConfigOptionResponse>;
  /** The older `session/set_model`. */
  setModel(sessionId: string, modelId: string): Promise<void>;
  logout(): Promise<void>;
  /** An extension request (a `_`-prefixed vendor method such as `_session/steering`), answered as the agent likes. */
  extension(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Sends `session/cancel`. Never throws. */
  cancel(sessionId: string): Promise<void>;
  /** The last lines the agent wrote to stderr (redacted), for error messages. */
  stderrTail(): string;
  /**
   * Calls `listener` once when the agent goes away, with how ("exited with code 3"). `lost`: the
   * connection to an agent on another machine dropped (a WebSocket or HTTP transport closed, an
   * `ssh` tunnel ended with 255) — the agent may still be there, so the session can be reattached.
   */
  onExit(listener: (description: string, lost: boolean) => void): IDisposable;
  /** Ends the agent (its whole process tree); resolves once it is gone. Safe to call twice. */
  kill(): Promise<void>;
  /** Closes the connection (pending requests reject); does not end the agent. Safe twice. */
  dispose(): void;
}

/** Starts one agent and connects to it (not yet initialized). Throws when it cannot be started at all. */
export type AgentConnector = (handlers: ClientHandlers, opts: AgentConnectionOptions) => Promise<AgentConnection>;
