import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { launchSecrets } from '../acp/launchSecrets';
import type { AgentConnection, AgentConnectionOptions, AgentConnector } from '../acp/agentPort';
import { redactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { TerminalService } from '../client/terminalManager';
import type { AcpMcpRouter } from '../mcp/acpMcpRouter';
import { Disposable, Emitter } from '../util/disposable';
import { errorData } from '../util/errors';
import type { AccountView } from '../protocol/messages';
import { parseAccountStatus, sameAccount } from './accountStatus';
import type { ClientServices } from './clientServicePorts';
import { clientServices } from './clientServices';
import { SessionRouter } from './sessionRouter';
import { readSteeringSupport, type SteeringSupport } from './steeringSupport';
import type { SessionEndpoint } from './sessionPort';

export interface AgentRuntimeDeps {
  agent: AgentLaunchConfig;
  /** Starts the agent and connects to it (a process over stdio; a stub in fast tests). */
  connect: AgentConnector;
  log: ProtocolLog;
  clientInfo: { name: string; version: string };
  files: FileAccess;
  policy: PathPolicy;
  /** Client capabilities beyond the handlers (see AgentConnectionOptions.extraCapabilities). */
  extraCapabilities?: AgentConnectionOptions['extraCapabilities'];
}

/** The process went away; `intentional` when Tandem stopped it (restart, last conversation closed). */
export interface RuntimeExit {
  description: string;
  stderrTail: string;
  intentional: boolean;
  /** The connection to an agent on another machine dropped: its sessions may be reattached. */
  lost: boolean;
}

/** The session methods an agent advertised in `initialize`. */
export interface SessionSupport {
  load: boolean;
  resume: boolean;
  list: boolean;
  close: boolean;
  /** `session/delete` (claude-agent-acp 0.101, codex-acp 2.6). */
  delete: boolean;
  /** `session/set_title` (codex-acp 2.6). */
  title: boolean;
  /** `session/fork` (both adapters; at a message through `_meta.jetbrains.air.fork`). */
  fork: boolean;
}

/**
 * One agent process and its ACP connection, shared by every conversation with that agent: a
 * connection may host several sessions, so the runtime routes each update and each request the
 * agent makes to the session it names. It serves files and terminals for all of them; permission
 * prompts are answered by the conversation that owns the session.
 */
export class AgentRuntime extends Disposable {
  private readonly exits = this.register(new Emitter<RuntimeExit>());
  readonly onExit = this.exits.event;
  private readonly accounts = this.register(new Emitter<AccountView | undefined>());
  /** Who the agent says it is signed in as changed (the connection's `_auth/status_update`, `auth/status_update`). */
  readonly onAccount = this.accounts.event;
  private accountState: AccountView | undefined;

  private conn: AgentConnection | undefined;
  private terminals: TerminalService | undefined;
  private readonly router: SessionRouter;
  /** Live services, or a replay's sandbox (AgentLaunchConfig.sandbox): chosen once, here. */
  private readonly services: ClientServices;
  private startPromise: Promise<acp.InitializeResponse> | undefined;
  private exited = false;
  private stopping = false;
  /** deps.log with the agent's env values masked: warnings quote agent input, which may echo them. */
  private readonly log: ProtocolLog;

  constructor(private readonly deps: AgentRuntimeDeps) {
    super();
    this.log = redactingLog(deps.log, launchSecrets(deps.agent));
    this.services = clientServices(deps.agent, { files: deps.files, policy: deps.policy });
    this.router = new SessionRouter({ log: this.log, files: (endpoint) => this.services.files(endpoint) }, () => this.terminals);
  }

  get agentName(): string {
    return this.deps.agent.name;
  }

  /** True until the process exits (or failed to start) or the runtime is disposed. */
  get alive(): boolean {
    return !this.exited && !this.isDisposed;
  }

  get initializeResult(): acp.InitializeResponse | undefined {
    try {
      return this.conn?.initializeResult;
    } catch {
      return undefined;
    }
  }

  get sessionSupport(): SessionSupport {
    const caps = this.initializeResult?.agentCapabilities;
    const session = caps?.sessionCapabilities;
    // `delete` and `title` are newer than the SDK's stable types: read from the capabilities as sent.
    const extra = (session ?? {}) as Record<string, unknown>;
    return {
      load: caps?.loadSession === true,
      resume: Boolean(session?.resume),
      list: Boolean(session?.list),
      close: Boolean(session?.close),
      delete: Boolean(extra.delete),
      title: Boolean(extra.title),
      fork: Boolean(extra.fork),
    };
  }

  /** How the agent takes a message into its running turn (see steeringSupport.ts); undefined: it does not. */
  get steering(): SteeringSupport | undefined {
    return this.alive ? readSteeringSupport(this.initializeResult) : undefined;
  }

  /** Tandem's version as the agent is told it (MCP servers Tandem offers say the same). */
  get clientVersion(): string {
    return this.deps.clientInfo.version;
  }

  /** Where a session's `tandem` server registers for MCP over ACP (agents with `mcpCapabilities.acp`). */
  get mcpOverAcp(): AcpMcpRouter {
    return this.router.mcpOverAcp;
  }

  /** A sandboxed agent (a replay) runs nothing and gets no editor tools. */
  get sandboxed(): boolean {
    return this.deps.agent.sandbox !== undefined;
  }

  /** The terminals of this start of the agent (the ones `terminal/create` uses); undefined before start or after exit. */
  get terminalService(): TerminalService | undefined {
    return this.terminals;
  }

  /** Who the agent last said it is signed in as; undefined: it has not said (or cannot tell). */
  get account(): AccountView | undefined {
    return this.accountState === undefined ? undefined : { ...this.accountState };
  }

  /** The agent advertised `logout` (`agentCapabilities.auth.logout`): Sign out can go through it. */
  get canLogout(): boolean {
    return this.alive && this.initializeResult?.agentCapabilities?.auth?.logout != null;
  }

  /** The agent's sign-in methods; before it initialized, those its failed start offered (a remote token). */
  get authMethods(): acp.AuthMethod[] {
    return this.initializeResult?.authMethods ?? this.startAuthMethods;
  }

  /** Sign-in methods carried by the error a start failed with (`data.authMethods`). */
  private startAuthMethods: acp.AuthMethod[] = [];

  /** The last lines the agent wrote to stderr (for error messages). */
  stderrTail(): string {
    return this.conn?.stderrTail() ?? this.lastStderr;
  }

  /** The stderr tail of an agent that is gone (its connection is dropped at teardown). */
  private lastStderr = '';

  /** Spawns the agent and runs `initialize`, once; later calls share the result. Rejects on failure. */
  start(): Promise<acp.InitializeResponse> {
    this.startPromise ??= this.startOnce();
    return this.startPromise;
  }

  private async startOnce(): Promise<acp.InitializeResponse> {
    try {
      const { name, command, args, remote } = this.deps.agent;
      if (!remote) this.deps.log.info(`Starting ${name}: ${[command, ...args].join(' ')}`);
      const terminals = this.services.terminals();
      this.terminals = terminals;
      terminals.onDidChange((event) => this.router.terminal(event));
      const conn = await this.deps.connect(this.router.handlers(), {
        log: this.deps.log,
        clientInfo: this.deps.clientInfo,
        onUpdate: (sessionId, update) => this.router.update(sessionId, update),
        onAuthStatus: (params) => this.accountReported(params),
        extraCapabilities: this.deps.extraCapabilities,
      });
      if (this.exited || this.isDisposed) {
        // Stopped while it was being started: nothing may outlive the runtime.
        conn.dispose();
        await conn.kill();
        throw new Error(l10n.t('{0} was stopped while it started.', this.agentName));
      }
      this.conn = conn;
      conn.onExit((description, lost) => this.handleExit(description, lost));
      return await conn.initialize();
    } catch (err) {
      this.startAuthMethods = authMethodsOf(err);
      this.exited = true;
      void this.teardown();
      throw err;
    }
  }

  private accountReported(params: unknown): void {
    const account = parseAccountStatus(params);
    if (account === undefined) {
      this.log.warn('Ignored a sign-in status that names no account.');
      return;
    }
    if (sameAccount(account, this.accountState)) return;
    this.accountState = account;
    this.accounts.fire({ ...account });
  }

  /** `session/new`; the endpoint gets the session's updates, including any sent before the answer. */
  async newSession(cwd: string, endpoint: SessionEndpoint, mcpServers: acp.McpServer[] = [], roots: string[] = []): Promise<acp.NewSessionResponse> {
    const conn = this.connection();
    return this.router.whileCreating(async () => {
      const result = await conn.newSession(cwd, mcpServers, this.additional(roots));
      this.router.attach(result.sessionId, endpoint);
      return result;
    });
  }

  /** `session/fork` of `sessionId` (cut where `meta` says); the endpoint gets the new session's updates, as for session/new. */
  async forkSession(
    sessionId: string,
    cwd: string,
    endpoint: SessionEndpoint,
    mcpServers: acp.McpServer[] = [],
    roots: string[] = [],
    meta?: Record<string, unknown>,
  ): Promise<acp.NewSessionResponse> {
    const conn = this.connection();
    return this.router.whileCreating(async () => {
      const result = await conn.forkSession(sessionId, cwd, mcpServers, this.additional(roots), meta);
      if (typeof result?.sessionId !== 'string' || result.sessionId === '') throw new Error('session/fork answered without a sessionId.');
      this.router.attach(result.sessionId, endpoint);
      return result;
    });
  }

  /** `session/load`: the replay (during and after the answer) goes to the endpoint. */
  async loadSession(
    sessionId: string,
    cwd: string,
    endpoint: SessionEndpoint,
    mcpServers: acp.McpServer[] = [],
    roots: string[] = [],
  ): Promise<acp.LoadSessionResponse> {
    const conn = this.connection();
    this.router.attach(sessionId, endpoint);
    try {
      return await conn.loadSession(sessionId, cwd, mcpServers, this.additional(roots));
    } catch (err) {
      this.detach(sessionId);
      throw err;
    }
  }

  async resumeSession(
    sessionId: string,
    cwd: string,
    endpoint: SessionEndpoint,
    mcpServers: acp.McpServer[] = [],
    roots: string[] = [],
  ): Promise<acp.ResumeSessionResponse> {
    const conn = this.connection();
    this.router.attach(sessionId, endpoint);
    try {
      return await conn.resumeSession(sessionId, cwd, mcpServers, this.additional(roots));
    } catch (err) {
      this.detach(sessionId);
      throw err;
    }
  }

  /** Roots besides the cwd, for an agent that advertised `sessionCapabilities.additionalDirectories`. */
  private additional(roots: string[]): string[] {
    return this.initializeResult?.agentCapabilities?.sessionCapabilities?.additionalDirectories ? roots : [];
  }

  /** Every session the agent knows for `cwd` (all pages, bounded). */
  async listSessions(cwd: string): Promise<acp.SessionInfo[]> {
    const conn = this.connection();
    const sessions: acp.SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await conn.listSessions(cwd, cursor);
      sessions.push(...(Array.isArray(result.sessions) ? result.sessions : []));
      cursor = result.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return sessions;
  }

  /** Forgets the session here, and asks the agent to close it when it supports that. */
  async closeSession(sessionId: string): Promise<void> {
    this.detach(sessionId);
    if (!this.alive || !this.sessionSupport.close || !this.conn) return;
    try {
      await this.conn.closeSession(sessionId);
    } catch (err) {
      this.log.warn(`session/close failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  detach(sessionId: string): void {
    this.router.detach(sessionId);
  }

  /** Sessions still attached (a runtime with none may be stopped). */
  get sessionCount(): number {
    return this.router.size;
  }

  /** The connection for requests a session makes (prompt, cancel, set_mode, authenticate). */
  connection(): AgentConnection {
    if (!this.conn || !this.alive) throw new Error(l10n.t('{0} is not running.', this.agentName));
    return this.conn;
  }

  /** Stops the process on purpose; conversations see an intentional exit. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    await this.teardown();
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }

  private handleExit(description: string, lost: boolean): void {
    if (this.exited && !this.stopping) return;
    const intentional = this.stopping;
    this.exited = true;
    const stderrTail = this.stderrTail();
    void this.teardown();
    this.exits.fire({ description, stderrTail, intentional, lost: lost && !intentional });
  }

  private async teardown(): Promise<void> {
    this.exited = true;
    const conn = this.conn;
    const terminals = this.terminals;
    if (conn) this.lastStderr = conn.stderrTail();
    this.conn = undefined;
    this.terminals = undefined;
    this.router.clear();
    conn?.dispose();
    await Promise.allSettled([terminals?.disposeAll(), conn?.kill()]);
  }
}

/** `data.authMethods` of a start failure (a remote endpoint that wants a token), when well formed enough. */
function authMethodsOf(err: unknown): acp.AuthMethod[] {
  const methods = (errorData(err) as { authMethods?: unknown } | undefined)?.authMethods;
  return Array.isArray(methods) ? (methods.filter((m) => typeof (m as { id?: unknown })?.id === 'string') as acp.AuthMethod[]) : [];
}
