/**
 * An in-memory agent behind the AgentConnection port (src/acp/agentPort.ts), for the fast tier: a
 * real ConversationManager, Conversation, Thread and runtime run against it with no process, so
 * cancel, grace, sign-in, replay and crashes are deterministic and take milliseconds (mock timers
 * step through the waits). The agent's side is scripted by the test: it answers requests with what
 * the test set, sends updates and permission requests when told, and records what it received.
 * The real-process suites (scripted agent, Claude, Gemini) stay as the integration tier.
 */
import * as acp from '@agentclientprotocol/sdk';
import { AgentExitedError } from '../../src/acp/agentConnection';
import type { AgentConnection, AgentConnectionOptions, AgentConnector, ClientHandlers } from '../../src/acp/agentPort';

interface PendingPrompt {
  sessionId: string;
  prompt: acp.ContentBlock[];
  resolve(response: acp.PromptResponse): void;
  reject(err: unknown): void;
}

/** What the stub answers; tests change these between steps. */
export interface StubBehaviour {
  initialize: acp.InitializeResponse;
  /** session/new fails with this once (then is cleared), e.g. auth required. */
  newSessionError?: acp.RequestError;
  /** authenticate fails with this (an API-key method whose key is not in the environment). */
  authenticateError?: acp.RequestError;
  /** Updates the agent replays for session/load, before answering, and after answering. */
  replay?: { before: Array<Record<string, unknown>>; after: Array<Record<string, unknown>> };
  /** Answer session/cancel by ending the running turn `cancelled` (true), or ignore it (false). */
  honourCancel: boolean;
  /** session/fork fails with this (an agent that cannot find the fork point). */
  forkError?: acp.RequestError;
  /** The next connects fail with these, one each, in order (a remote agent that does not answer yet). */
  connectFailures?: unknown[];
  /** Answers extension requests (`_session/steering` …); absent: method not found. May throw or never settle. */
  extension?: (method: string, params: Record<string, unknown>) => unknown;
}

export class StubAgent {
  /** Every request and notification the client sent, in order. */
  readonly received: Array<{ method: string; params: unknown }> = [];
  readonly behaviour: StubBehaviour = {
    initialize: { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: true }, authMethods: [] },
    honourCancel: true,
  };
  private handlers: ClientHandlers | undefined;
  private opts: AgentConnectionOptions | undefined;
  private readonly prompts: PendingPrompt[] = [];
  private readonly exitListeners = new Set<(description: string, lost: boolean) => void>();
  private gone: string | undefined;
  private nextSession = 1;
  /** How many times the runtime started this agent. */
  starts = 0;

  /** The connector to hand to the manager (`connector: () => stub.connector`). */
  readonly connector: AgentConnector = async (handlers, opts) => {
    this.starts++;
    const failure = this.behaviour.connectFailures?.shift();
    if (failure !== undefined) throw failure;
    this.handlers = handlers;
    this.opts = opts;
    this.gone = undefined;
    return this.connection();
  };

  /** What the runtime connected with last (its client capabilities, the log). */
  get options(): AgentConnectionOptions | undefined {
    return this.opts;
  }

  /** The turn waiting for an answer, if any. */
  get pendingPrompt(): PendingPrompt | undefined {
    return this.prompts[0];
  }

  /** The client's handlers, for requests the agent makes (fs, terminals) in a test. */
  get client(): ClientHandlers {
    if (!this.handlers) throw new Error('not connected');
    return this.handlers;
  }

  methods(): string[] {
    return this.received.map((r) => r.method);
  }

  /** The agent sends a `session/update`. */
  sendUpdate(sessionId: string, update: Record<string, unknown>): void {
    this.opts?.onUpdate(sessionId, update);
  }

  /** The agent asks permission; resolves with the client's answer. */
  requestPermission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    if (!this.handlers) throw new Error('not connected');
    return this.handlers.requestPermission(params, new AbortController().signal);
  }

  /** The agent answers the running prompt. */
  endTurn(stopReason: acp.StopReason = 'end_turn'): void {
    const prompt = this.prompts.shift();
    if (!prompt) throw new Error('no prompt is waiting');
    prompt.resolve({ stopReason });
  }

  /** The agent answers a later prompt (a steered one, sent while the first still runs) at `index` in the waiting list. */
  answerPrompt(index: number, answer: acp.PromptResponse | acp.RequestError): void {
    const [prompt] = this.prompts.splice(index, 1);
    if (!prompt) throw new Error(`no prompt is waiting at ${index}`);
    if (answer instanceof acp.RequestError) prompt.reject(answer);
    else prompt.resolve(answer);
  }

  /** The agent answers the running prompt with an error. */
  failTurn(error: acp.RequestError): void {
    const prompt = this.prompts.shift();
    if (!prompt) throw new Error('no prompt is waiting');
    prompt.reject(error);
  }

  /** The agent goes away (a crash): pending requests reject, listeners hear how. */
  crash(description = 'exited with code 1', lost = false): void {
    this.gone = description;
    for (const p of this.prompts.splice(0)) p.reject(this.exitError());
    for (const listener of [...this.exitListeners]) listener(description, lost);
    this.exitListeners.clear();
  }

  /** The connection to the agent drops (a remote agent's network): it may be reattached. */
  drop(description = 'lost its connection'): void {
    this.crash(description, true);
  }

  private exitError(): AgentExitedError {
    return new AgentExitedError('Stub', { code: 1, signal: null }, 'stub stderr', this.gone ?? 'exited');
  }

  private record<T>(method: string, params: unknown, answer: () => T | Promise<T>): Promise<T> {
    this.received.push({ method, params });
    if (this.gone !== undefined) return Promise.reject(this.exitError());
    return Promise.resolve().then(answer);
  }

  private connection(): AgentConnection {
    let initialized: acp.InitializeResponse | undefined;
    const stub = this;
    return {
      get initializeResult(): acp.InitializeResponse {
        if (!initialized) throw new Error('initialize() has not completed yet.');
        return initialized;
      },
      initialize: () => this.record('initialize', {}, () => (initialized = structuredClone(this.behaviour.initialize))),
      authenticate: (methodId) =>
        this.record('authenticate', { methodId }, () => {
          if (this.behaviour.authenticateError) throw this.behaviour.authenticateError;
        }),
      newSession: (cwd, mcp, dirs) =>
        this.record('session/new', { cwd, ...(dirs?.length ? { additionalDirectories: dirs } : {}), ...(mcp?.length ? { mcpServers: mcp } : {}) }, () => {
          const error = this.behaviour.newSessionError;
          if (error) {
            this.behaviour.newSessionError = undefined;
            throw error;
          }
          return { sessionId: `stub-${this.nextSession++}` };
        }),
      loadSession: (sessionId, cwd) =>
        this.record('session/load', { sessionId, cwd }, () => {
          for (const update of this.behaviour.replay?.before ?? []) this.sendUpdate(sessionId, update);
          // The rest of the replay follows the answer, as some agents send it.
          const after = this.behaviour.replay?.after ?? [];
          if (after.length > 0) setTimeout(() => after.forEach((u) => this.sendUpdate(sessionId, u)), 0);
          return {};
        }),
      resumeSession: (sessionId, cwd) => this.record('session/resume', { sessionId, cwd }, () => ({})),
      forkSession: (sessionId, cwd, _mcp, _dirs, meta) =>
        this.record('session/fork', meta ? { sessionId, cwd, _meta: meta } : { sessionId, cwd }, () => {
          const error = this.behaviour.forkError;
          if (error) throw error;
          return { sessionId: `stub-${this.nextSession++}` };
        }),
      listSessions: (cwd) => this.record('session/list', { cwd }, () => ({ sessions: [] })),
      closeSession: (sessionId) => this.record('session/close', { sessionId }, () => undefined),
      deleteSession: (sessionId) => this.record('session/delete', { sessionId }, () => undefined),
      setSessionTitle: (sessionId, title) => this.record('session/set_title', { sessionId, title }, () => undefined),
      prompt: (sessionId, prompt) => {
        const blocks = typeof prompt === 'string' ? [{ type: 'text' as const, text: prompt }] : prompt;
        this.received.push({ method: 'session/prompt', params: { sessionId, prompt: blocks } });
        if (this.gone !== undefined) return Promise.reject(this.exitError());
        return new Promise((resolve, reject) => this.prompts.push({ sessionId, prompt: blocks, resolve, reject }));
      },
      setMode: (sessionId, modeId) => this.record('session/set_mode', { sessionId, modeId }, () => undefined),
      setConfigOption: (sessionId, configId, value) => this.record('session/set_config_option', { sessionId, configId, value }, () => ({ configOptions: [] })),
      setModel: (sessionId, modelId) => this.record('session/set_model', { sessionId, modelId }, () => undefined),
      logout: () => this.record('logout', {}, () => undefined),
      extension: (method, params = {}) =>
        this.record(method, params, () => {
          const answer = this.behaviour.extension;
          if (!answer) throw acp.RequestError.methodNotFound(method);
          return answer(method, params);
        }),
      cancel: async (sessionId) => {
        this.received.push({ method: 'session/cancel', params: { sessionId } });
        if (stub.behaviour.honourCancel && this.prompts[0]?.sessionId === sessionId) this.endTurn('cancelled');
      },
      stderrTail: () => 'stub stderr',
      onExit: (listener) => {
        this.exitListeners.add(listener);
        return { dispose: () => this.exitListeners.delete(listener) };
      },
      kill: async () => {
        if (this.gone === undefined) this.crash('was stopped');
      },
      dispose: () => undefined,
    };
  }
}
