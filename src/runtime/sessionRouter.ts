import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../acp/agentPort';
import type { ProtocolLog } from '../acp/protocolLog';
import type { TerminalService } from '../client/terminalManager';
import { AcpMcpRouter } from '../mcp/acpMcpRouter';
import type { SessionEndpoint } from './sessionPort';
import type { SessionFiles } from './clientServicePorts';
import type { TerminalViewEvent } from '../thread/terminalViews';

/** Updates kept per unknown session id while a session/new is in flight (agents announce commands early). */
const EARLY_UPDATE_LIMIT = 1000;
/** Most child sessions (subagents) remembered per runtime; the oldest are forgotten first. */
const CHILD_LIMIT = 1000;

export interface SessionRouterDeps {
  log: ProtocolLog;
  /** Serves one known, live session's file requests (asked once per endpoint). */
  files(endpoint: SessionEndpoint): SessionFiles;
}

/**
 * Routes what one agent process sends to the session it names: updates, permission prompts, file
 * reads and writes (one handler per session, so follow-along and review go to the right
 * conversation), terminal events (by the session that created the terminal) and questions.
 *
 * It is the one place that decides what a request may touch: a file or terminal request is served
 * only for a session attached here whose endpoint is live, with that session's scope; any other
 * session id (made up, closed, or of a connect attempt that is over) is refused with -32602 —
 * never served with the runtime's defaults.
 */
export class SessionRouter {
  private readonly endpoints = new Map<string, SessionEndpoint>();
  private readonly filesByEndpoint = new WeakMap<SessionEndpoint, SessionFiles>();
  private readonly terminalOwners = new Map<string, string>();
  /** Updates for session ids not registered yet, kept only while a session/new is in flight. */
  private readonly early = new Map<string, Record<string, unknown>[]>();
  /**
   * Child session id → its parent's (subagents RFD): a parent announces each child with a
   * `subagent_update` before any of the child's own traffic, which then goes to the parent's endpoint.
   */
  private readonly parents = new Map<string, string>();
  private newSessionsInFlight = 0;

  /**
   * The agent's `mcp/*` requests (MCP over ACP): each session's `tandem` server registers here and
   * is found by the serverId its declaration carries. One per runtime: the handlers outlive a connection.
   */
  readonly mcpOverAcp: AcpMcpRouter;

  constructor(
    private readonly deps: SessionRouterDeps,
    private readonly terminals: () => TerminalService | undefined,
  ) {
    this.mcpOverAcp = new AcpMcpRouter((line) => deps.log.warn(`MCP over ACP: ${line}`));
  }

  /** Sessions attached. */
  get size(): number {
    return this.endpoints.size;
  }

  /** Runs a session/new: updates for ids nobody attached yet are kept until it answered. */
  async whileCreating<T>(work: () => Promise<T>): Promise<T> {
    this.newSessionsInFlight++;
    try {
      return await work();
    } finally {
      if (--this.newSessionsInFlight === 0) this.early.clear();
    }
  }

  attach(sessionId: string, endpoint: SessionEndpoint): void {
    this.endpoints.set(sessionId, endpoint);
    const waiting = this.early.get(sessionId);
    this.early.delete(sessionId);
    for (const update of waiting ?? []) endpoint.update(update);
  }

  detach(sessionId: string): void {
    this.endpoints.delete(sessionId);
    for (const [child, parent] of this.parents) if (parent === sessionId) this.parents.delete(child);
  }

  clear(): void {
    this.endpoints.clear();
    this.early.clear();
    this.parents.clear();
  }

  /** The endpoint a session's traffic goes to: its own, or its parent's for a child session. */
  private endpointOf(sessionId: unknown): SessionEndpoint | undefined {
    if (typeof sessionId !== 'string') return undefined;
    const own = this.endpoints.get(sessionId);
    if (own) return own;
    const parent = this.parents.get(sessionId);
    return parent === undefined ? undefined : this.endpoints.get(parent);
  }

  /** A parent's `subagent_update` names a child: the child's own traffic goes to the parent from now on. */
  private noteChild(parentId: string, update: Record<string, unknown>): void {
    const child = update.sessionId;
    if (update.sessionUpdate !== 'subagent_update' || typeof child !== 'string' || child === parentId || this.endpoints.has(child)) return;
    // Nested subagents: a grandchild's traffic goes to the root session's endpoint.
    const root = this.parents.get(parentId) ?? parentId;
    if (this.parents.get(child) === root) return;
    this.parents.set(child, root);
    if (this.parents.size > CHILD_LIMIT) this.parents.delete(this.parents.keys().next().value!);
  }

  /** The live endpoint of `sessionId`, or the error a request naming any other session gets. */
  session(sessionId: unknown, what: string): SessionEndpoint {
    const endpoint = this.endpointOf(sessionId);
    if (endpoint?.live()) return endpoint;
    const known = endpoint ? 'no longer open here' : 'not a session of this client';
    this.deps.log.warn(`${what} for session ${String(sessionId)} refused: ${known}.`);
    throw new RequestError(-32602, `Unknown session ${JSON.stringify(sessionId) ?? 'undefined'}: it is ${known}; ${what} is refused.`, { sessionId });
  }

  update(sessionId: string, update: Record<string, unknown>): void {
    const endpoint = this.endpoints.get(sessionId);
    if (endpoint) {
      this.noteChild(sessionId, update);
      endpoint.update(update);
      return;
    }
    const parent = this.parents.get(sessionId);
    const parentEndpoint = parent === undefined ? undefined : this.endpoints.get(parent);
    if (parentEndpoint?.childUpdate) {
      if (update.sessionUpdate === 'subagent_update') this.noteChild(sessionId, update);
      parentEndpoint.childUpdate(sessionId, update);
      return;
    }
    if (this.newSessionsInFlight > 0) {
      // Agents announce commands and modes before session/new answers with the id they belong to.
      const list = this.early.get(sessionId) ?? [];
      if (list.length < EARLY_UPDATE_LIMIT) list.push(update);
      this.early.set(sessionId, list);
      return;
    }
    this.deps.log.warn(`Update for unknown session ${sessionId} ignored.`);
  }

  terminal(event: TerminalViewEvent): void {
    if (event.kind === 'created') {
      const owner = this.terminals()?.get(event.terminalId)?.sessionId;
      if (owner !== undefined) this.terminalOwners.set(event.terminalId, owner);
    }
    const owner = this.terminalOwners.get(event.terminalId);
    const endpoint = this.endpointOf(owner);
    endpoint?.terminal(event);
  }

  /** The client side of ACP for this process, each request answered for the session it names. */
  handlers(): ClientHandlers {
    const terminals = (): TerminalService => {
      const manager = this.terminals();
      if (!manager) throw new Error('The agent is not running.');
      return manager;
    };
    return {
      requestPermission: async (params, signal) => {
        // A child session's prompt is the parent conversation's to answer (its card is in that thread).
        const endpoint = this.endpointOf(params.sessionId);
        if (!endpoint) {
          this.deps.log.warn(`Permission request for unknown session ${params.sessionId} answered cancelled.`);
          return { outcome: { outcome: 'cancelled' } };
        }
        return endpoint.requestPermission(params, signal);
      },
      mcpOverAcp: this.mcpOverAcp,
      readTextFile: async (p) => this.filesFor(p.sessionId, 'fs/read_text_file').readTextFile(p),
      writeTextFile: async (p) => this.filesFor(p.sessionId, 'fs/write_text_file').writeTextFile(p),
      createTerminal: async (p) => terminals().create(p, this.session(p.sessionId, 'terminal/create').scope),
      terminalOutput: async (p) => (this.session(p.sessionId, 'terminal/output'), terminals().output(p)),
      waitForTerminalExit: async (p) => (this.session(p.sessionId, 'terminal/wait_for_exit'), terminals().waitForExit(p)),
      // Stopping and freeing need no live session (an agent cleans up after a conversation closed);
      // the terminal must still be one that session created (TerminalManager checks the owner).
      killTerminal: (p) => terminals().kill(p),
      releaseTerminal: (p) => terminals().release(p),
      createElicitation: async (params: acp.CreateElicitationRequest, signal) => {
        const sessionId = (params as { sessionId?: unknown }).sessionId;
        const endpoint = this.endpointOf(sessionId);
        if (!endpoint) {
          // A request-scoped question (no session) cannot be shown in a conversation: declined, said so.
          this.deps.log.warn('A question from the agent named no known session; declined.');
          return { action: 'decline' };
        }
        return endpoint.elicit(params, signal);
      },
      completeElicitation: (params) => {
        for (const endpoint of this.endpoints.values()) endpoint.elicitationComplete(params);
      },
    };
  }

  private filesFor(sessionId: string, what: string): SessionFiles {
    const endpoint = this.session(sessionId, what);
    let files = this.filesByEndpoint.get(endpoint);
    if (!files) this.filesByEndpoint.set(endpoint, (files = this.deps.files(endpoint)));
    return files;
  }
}
