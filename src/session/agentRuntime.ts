import type * as acp from '@agentclientprotocol/sdk';
import { AgentConnection, type AgentConnectionOptions, type ClientHandlers } from '../acp/agentConnection';
import { AgentProcess, type AgentLaunchConfig } from '../acp/agentProcess';
import { redactingLog, type ProtocolLog } from '../acp/protocolLog';
import { FsHandler, type FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import { TerminalManager } from '../client/terminalManager';
import { Disposable, Emitter } from '../util/disposable';
import type { TerminalViewEvent } from './terminalViews';

/** What one ACP session of a runtime receives: its updates and the agent's requests about it. */
export interface SessionEndpoint {
  /** One `session/update` of this session, in arrival order. */
  update(update: Record<string, unknown>): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** A terminal this session's agent created changed. */
  terminal(event: TerminalViewEvent): void;
  /** The agent read or wrote a file for this session (follow-along). */
  touched(path: string, line: number | undefined): void;
  /** The agent is about to write a file for this session: record it, or refuse by throwing. */
  beforeWrite(path: string, before: string | undefined, after: string): Promise<void>;
  /** The agent asks the user something (`elicitation/create`). */
  elicit(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete` (every session hears it; the one that asked acts on it). */
  elicitationComplete(params: acp.CompleteElicitationNotification): void;
}

export interface AgentRuntimeDeps {
  agent: AgentLaunchConfig;
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
}

/** The session methods an agent advertised in `initialize`. */
export interface SessionSupport {
  load: boolean;
  resume: boolean;
  list: boolean;
  close: boolean;
}

/** Updates kept per unknown session id while a session/new is in flight (agents announce commands early). */
const EARLY_UPDATE_LIMIT = 1000;

/**
 * One agent process and its ACP connection, shared by every conversation with that agent: a
 * connection may host several sessions, so the runtime routes each update and each request the
 * agent makes to the session it names. It serves files and terminals for all of them; permission
 * prompts are answered by the conversation that owns the session.
 */
export class AgentRuntime extends Disposable {
  private readonly exits = this.register(new Emitter<RuntimeExit>());
  readonly onExit = this.exits.event;

  private proc: AgentProcess | undefined;
  private conn: AgentConnection | undefined;
  private terminals: TerminalManager | undefined;
  private readonly endpoints = new Map<string, SessionEndpoint>();
  private readonly fsBySession = new Map<string, FsHandler>();
  private readonly terminalOwners = new Map<string, string>();
  /** Updates for session ids not registered yet, kept only while a session/new is in flight. */
  private readonly early = new Map<string, Record<string, unknown>[]>();
  private newSessionsInFlight = 0;
  private startPromise: Promise<acp.InitializeResponse> | undefined;
  private exited = false;
  private stopping = false;
  /** deps.log with the agent's env values masked: warnings quote agent input, which may echo them. */
  private readonly log: ProtocolLog;

  constructor(private readonly deps: AgentRuntimeDeps) {
    super();
    this.log = redactingLog(deps.log, Object.values(deps.agent.env));
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
    return { load: caps?.loadSession === true, resume: Boolean(session?.resume), list: Boolean(session?.list), close: Boolean(session?.close) };
  }

  get authMethods(): acp.AuthMethod[] {
    return this.initializeResult?.authMethods ?? [];
  }

  /** The last lines the agent wrote to stderr (for error messages). */
  stderrTail(): string {
    return this.proc?.stderrTail() ?? '';
  }

  /** Spawns the agent and runs `initialize`, once; later calls share the result. Rejects on failure. */
  start(): Promise<acp.InitializeResponse> {
    this.startPromise ??= this.startOnce();
    return this.startPromise;
  }

  private async startOnce(): Promise<acp.InitializeResponse> {
    try {
      const { name, command, args } = this.deps.agent;
      this.deps.log.info(`Starting ${name}: ${[command, ...args].join(' ')}`);
      const proc = AgentProcess.start(this.deps.agent, this.deps.log);
      this.proc = proc;
      const terminals = new TerminalManager({ defaultCwd: this.deps.agent.cwd, baseEnv: process.env, policy: this.deps.policy });
      this.terminals = terminals;
      terminals.onDidChange((event) => this.routeTerminal(event));
      proc.onExit((exit) => this.handleExit(proc.describeExit(exit)));
      const conn = await AgentConnection.open(proc, this.handlers(), {
        log: this.deps.log,
        clientInfo: this.deps.clientInfo,
        onUpdate: (sessionId, update) => this.routeUpdate(sessionId, update),
        extraCapabilities: this.deps.extraCapabilities,
      });
      this.conn = conn;
      return await conn.initialize();
    } catch (err) {
      this.exited = true;
      void this.teardown();
      throw err;
    }
  }

  /** `session/new`; the endpoint gets the session's updates, including any sent before the answer. */
  async newSession(cwd: string, endpoint: SessionEndpoint, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    const conn = this.connection();
    this.newSessionsInFlight++;
    try {
      const result = await conn.newSession(cwd, mcpServers);
      this.attach(result.sessionId, endpoint);
      return result;
    } finally {
      if (--this.newSessionsInFlight === 0) this.early.clear();
    }
  }

  /** `session/load`: the replay (during and after the answer) goes to the endpoint. */
  async loadSession(sessionId: string, cwd: string, endpoint: SessionEndpoint, mcpServers: acp.McpServer[] = []): Promise<acp.LoadSessionResponse> {
    const conn = this.connection();
    this.attach(sessionId, endpoint);
    try {
      return await conn.loadSession(sessionId, cwd, mcpServers);
    } catch (err) {
      this.detach(sessionId);
      throw err;
    }
  }

  async resumeSession(sessionId: string, cwd: string, endpoint: SessionEndpoint, mcpServers: acp.McpServer[] = []): Promise<acp.ResumeSessionResponse> {
    const conn = this.connection();
    this.attach(sessionId, endpoint);
    try {
      return await conn.resumeSession(sessionId, cwd, mcpServers);
    } catch (err) {
      this.detach(sessionId);
      throw err;
    }
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
    this.endpoints.delete(sessionId);
    this.fsBySession.delete(sessionId);
  }

  /** Sessions still attached (a runtime with none may be stopped). */
  get sessionCount(): number {
    return this.endpoints.size;
  }

  /** The connection for requests a session makes (prompt, cancel, set_mode, authenticate). */
  connection(): AgentConnection {
    if (!this.conn || !this.alive) throw new Error(`${this.agentName} is not running.`);
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

  // --- routing ---------------------------------------------------------------------------------

  private attach(sessionId: string, endpoint: SessionEndpoint): void {
    this.endpoints.set(sessionId, endpoint);
    const waiting = this.early.get(sessionId);
    this.early.delete(sessionId);
    for (const update of waiting ?? []) endpoint.update(update);
  }

  private routeUpdate(sessionId: string, update: Record<string, unknown>): void {
    const endpoint = this.endpoints.get(sessionId);
    if (endpoint) {
      endpoint.update(update);
      return;
    }
    if (this.newSessionsInFlight > 0) {
      // Agents announce commands and modes before session/new answers with the id they belong to.
      const list = this.early.get(sessionId) ?? [];
      if (list.length < EARLY_UPDATE_LIMIT) list.push(update);
      this.early.set(sessionId, list);
      return;
    }
    this.log.warn(`Update for unknown session ${sessionId} ignored.`);
  }

  private routeTerminal(event: TerminalViewEvent): void {
    if (event.kind === 'created') {
      const owner = this.terminals?.get(event.terminalId)?.sessionId;
      if (owner !== undefined) this.terminalOwners.set(event.terminalId, owner);
    }
    const owner = this.terminalOwners.get(event.terminalId);
    const endpoint = owner === undefined ? undefined : this.endpoints.get(owner);
    endpoint?.terminal(event);
  }

  private fsFor(sessionId: string): FsHandler {
    let fs = this.fsBySession.get(sessionId);
    if (!fs) {
      fs = new FsHandler({
        files: this.deps.files,
        policy: this.deps.policy,
        onTouched: (path, line) => this.endpoints.get(sessionId)?.touched(path, line),
        beforeWrite: async (path, before, after) => this.endpoints.get(sessionId)?.beforeWrite(path, before, after),
      });
      if (this.endpoints.has(sessionId)) this.fsBySession.set(sessionId, fs);
    }
    return fs;
  }

  private handlers(): ClientHandlers {
    const terminals = (): TerminalManager => {
      if (!this.terminals) throw new Error('The agent is not running.');
      return this.terminals;
    };
    return {
      requestPermission: async (params, signal) => {
        const endpoint = this.endpoints.get(params.sessionId);
        if (!endpoint) {
          this.log.warn(`Permission request for unknown session ${params.sessionId} answered cancelled.`);
          return { outcome: { outcome: 'cancelled' } };
        }
        return endpoint.requestPermission(params, signal);
      },
      readTextFile: (p) => this.fsFor(p.sessionId).readTextFile(p),
      writeTextFile: (p) => this.fsFor(p.sessionId).writeTextFile(p),
      createTerminal: (p) => terminals().create(p),
      terminalOutput: (p) => terminals().output(p),
      waitForTerminalExit: (p) => terminals().waitForExit(p),
      killTerminal: (p) => terminals().kill(p),
      releaseTerminal: (p) => terminals().release(p),
      createElicitation: async (params, signal) => {
        const sessionId = (params as { sessionId?: unknown }).sessionId;
        const endpoint = typeof sessionId === 'string' ? this.endpoints.get(sessionId) : undefined;
        if (!endpoint) {
          // A request-scoped question (no session) cannot be shown in a conversation: declined, said so.
          this.log.warn('A question from the agent named no known session; declined.');
          return { action: 'decline' };
        }
        return endpoint.elicit(params, signal);
      },
      completeElicitation: (params) => {
        for (const endpoint of this.endpoints.values()) endpoint.elicitationComplete(params);
      },
    };
  }

  private handleExit(description: string): void {
    if (this.exited && !this.stopping) return;
    const intentional = this.stopping;
    this.exited = true;
    const stderrTail = this.proc?.stderrTail() ?? '';
    void this.teardown();
    this.exits.fire({ description, stderrTail, intentional });
  }

  private async teardown(): Promise<void> {
    this.exited = true;
    const conn = this.conn;
    const proc = this.proc;
    const terminals = this.terminals;
    this.conn = undefined;
    this.terminals = undefined;
    this.endpoints.clear();
    this.fsBySession.clear();
    this.early.clear();
    conn?.dispose();
    await Promise.allSettled([terminals?.disposeAll(), proc?.kill()]);
  }
}
