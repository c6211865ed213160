import type * as acp from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../acp/agentPort';
import type { ProtocolLog } from '../acp/protocolLog';
import { FsHandler, type FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { TerminalManager } from '../client/terminalManager';
import type { SessionEndpoint } from './agentRuntime';
import type { TerminalViewEvent } from '../thread/terminalViews';

/** Updates kept per unknown session id while a session/new is in flight (agents announce commands early). */
const EARLY_UPDATE_LIMIT = 1000;

/**
 * Routes what one agent process sends to the session it names: updates, permission prompts, file
 * reads and writes (one FsHandler per session, so follow-along and review go to the right
 * conversation), terminal events (by the session that created the terminal) and questions.
 */
export class SessionRouter {
  private readonly endpoints = new Map<string, SessionEndpoint>();
  private readonly fsBySession = new Map<string, FsHandler>();
  private readonly terminalOwners = new Map<string, string>();
  /** Updates for session ids not registered yet, kept only while a session/new is in flight. */
  private readonly early = new Map<string, Record<string, unknown>[]>();
  private newSessionsInFlight = 0;

  constructor(
    private readonly deps: { files: FileAccess; policy: PathPolicy; log: ProtocolLog },
    private readonly terminals: () => TerminalManager | undefined,
  ) {}

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
    this.fsBySession.delete(sessionId);
  }

  clear(): void {
    this.endpoints.clear();
    this.fsBySession.clear();
    this.early.clear();
  }

  update(sessionId: string, update: Record<string, unknown>): void {
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
    this.deps.log.warn(`Update for unknown session ${sessionId} ignored.`);
  }

  terminal(event: TerminalViewEvent): void {
    if (event.kind === 'created') {
      const owner = this.terminals()?.get(event.terminalId)?.sessionId;
      if (owner !== undefined) this.terminalOwners.set(event.terminalId, owner);
    }
    const owner = this.terminalOwners.get(event.terminalId);
    const endpoint = owner === undefined ? undefined : this.endpoints.get(owner);
    endpoint?.terminal(event);
  }

  /** The client side of ACP for this process, each request answered for the session it names. */
  handlers(): ClientHandlers {
    const terminals = (): TerminalManager => {
      const manager = this.terminals();
      if (!manager) throw new Error('The agent is not running.');
      return manager;
    };
    return {
      requestPermission: async (params, signal) => {
        const endpoint = this.endpoints.get(params.sessionId);
        if (!endpoint) {
          this.deps.log.warn(`Permission request for unknown session ${params.sessionId} answered cancelled.`);
          return { outcome: { outcome: 'cancelled' } };
        }
        return endpoint.requestPermission(params, signal);
      },
      readTextFile: (p) => this.fsFor(p.sessionId).readTextFile(p),
      writeTextFile: (p) => this.fsFor(p.sessionId).writeTextFile(p),
      createTerminal: (p) => terminals().create(p, this.endpoints.get(p.sessionId)?.scope),
      terminalOutput: (p) => terminals().output(p),
      waitForTerminalExit: (p) => terminals().waitForExit(p),
      killTerminal: (p) => terminals().kill(p),
      releaseTerminal: (p) => terminals().release(p),
      createElicitation: async (params: acp.CreateElicitationRequest, signal) => {
        const sessionId = (params as { sessionId?: unknown }).sessionId;
        const endpoint = typeof sessionId === 'string' ? this.endpoints.get(sessionId) : undefined;
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

  private fsFor(sessionId: string): FsHandler {
    let fs = this.fsBySession.get(sessionId);
    if (!fs) {
      fs = new FsHandler({
        files: this.deps.files,
        policy: this.endpoints.get(sessionId)?.scope?.policy ?? this.deps.policy,
        onTouched: (path, line) => this.endpoints.get(sessionId)?.touched(path, line),
        beforeWrite: async (path, before, after) => this.endpoints.get(sessionId)?.beforeWrite(path, before, after),
      });
      if (this.endpoints.has(sessionId)) this.fsBySession.set(sessionId, fs);
    }
    return fs;
  }
}
