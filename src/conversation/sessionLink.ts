import * as l10n from '@vscode/l10n';
import type { AgentConnection } from '../acp/agentConnection';
import { Disposable, type IDisposable } from '../util/disposable';
import { errorCode, errorMessage } from '../util/errors';
import type { AgentRuntime, RuntimeExit, SessionEndpoint } from '../runtime/agentRuntime';
import type { Conversation } from './conversation';
import { PermissionDesk } from './permissionDesk';
import { ReplayBuffer } from './replayBuffer';
import { AUTH_REQUIRED, describeStartFailure, isUnknownSession } from '../runtime/startFailure';
import { SessionSettings } from './sessionSettings';
import { offerMcpServers } from './mcpServers';

/**
 * Binds a conversation to its agent: a runtime (shared process) and one ACP session in it. Opens
 * the session the best way the agent allows — `session/resume` (no replay), `session/load` (the
 * replay becomes the thread), or `session/new` (the agent starts fresh, and says so) — routes the
 * session's updates and permission prompts, and reports the process going away.
 */
export class SessionLink extends Disposable {
  private runtime: AgentRuntime | undefined;
  private exitSubscription: IDisposable | undefined;
  private attached: string | undefined;
  /** The conversation's permission prompts and rules. */
  readonly permissions: PermissionDesk;
  /** Bumped per connect and per unbind: events of an older attempt are ignored. */
  private token = 0;
  /** The connect in progress (only while the conversation is `starting`: its outcome sets another status). */
  private connecting: Promise<void> | undefined;
  private readonly replay: ReplayBuffer;
  private readonly mcpNoted = new Set<string>();
  /** Mode and config options as the user changes them. */
  readonly settings: SessionSettings;

  constructor(private readonly c: Conversation) {
    super();
    this.settings = new SessionSettings(c, this);
    this.replay = this.register(new ReplayBuffer(c));
    this.permissions = new PermissionDesk(c, c.deps.rules);
    this.register({ dispose: () => this.permissions.dispose() });
  }

  /** The attached ACP session id in a live runtime. */
  get sessionId(): string | undefined {
    return this.attached;
  }

  get agentRuntime(): AgentRuntime | undefined {
    return this.runtime;
  }

  connection(): AgentConnection | undefined {
    if (!this.runtime?.alive || this.attached === undefined) return undefined;
    return this.runtime.connection();
  }

  /** Connects (starting the agent when needed) and opens the session. Never rejects. */
  connect(fresh = false): Promise<void> {
    // An attempt that already decided (ready, stopped…) may not have unwound yet: a prompt sent right
    // after a failure must start a new attempt, not wait on the finished one.
    if (this.connecting && this.c.status.kind === 'starting') return this.connecting;
    const attempt: Promise<void> = this.connectOnce(fresh).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async connectOnce(fresh: boolean): Promise<void> {
    const c = this.c;
    const blocked = c.deps.blocked?.();
    if (blocked) return c.setStatus(blocked);
    const runtime = c.deps.runtimeFor(c.agentName);
    if (!runtime) {
      const gone = c.agentName ? l10n.t('{0} is not configured any more.', c.agentName) : l10n.t('The agent is not configured any more.');
      c.addError(`${gone} ${l10n.t('Pick another agent in the header; it starts a new session.')}`);
      c.queue.pause(l10n.t('The agent is not configured.'));
      return c.setStatus({ kind: 'stopped', agentName: c.agentName, reason: l10n.t('Not configured') });
    }
    const token = this.bind(runtime);
    c.setStatus({ kind: 'starting', agentName: c.agentName });
    try {
      await runtime.start();
      if (token !== this.token) return;
      await this.open(runtime, token, fresh);
    } catch (err) {
      if (token !== this.token) return;
      this.fail(err, runtime);
    }
  }

  private async open(runtime: AgentRuntime, token: number, fresh: boolean): Promise<void> {
    const c = this.c;
    const support = runtime.sessionSupport;
    const previous = fresh ? undefined : c.meta.sessionId;
    const mcp = offerMcpServers(c, runtime.initializeResult?.agentCapabilities?.mcpCapabilities ?? undefined, this.mcpNoted);
    this.permissions.reset();
    c.emit(c.info.clear());
    try {
      if (previous !== undefined && (support.resume || support.load)) {
        // Resume shows nothing of the past: a conversation Tandem has no transcript of (opened from
        // the agent's own list) is loaded, so its history becomes the thread.
        const resume = support.resume && !(support.load && c.thread.reducer.size === 0);
        c.setStatus({ kind: 'starting', agentName: c.agentName, detail: resume ? l10n.t('Resuming the conversation…') : l10n.t('Loading the conversation…') });
        if (resume) {
          const result = await runtime.resumeSession(previous, c.meta.cwd, this.endpoint(token), mcp);
          if (token !== this.token) return;
          c.emit(c.info.setSessionResult(result));
        } else {
          this.replay.begin();
          const result = await runtime.loadSession(previous, c.meta.cwd, this.endpoint(token), mcp);
          if (token !== this.token) return;
          c.emit(c.info.setSessionResult(result));
          this.replay.answered();
        }
        this.attached = previous;
      } else {
        const spoken = c.thread.entries().some((e) => e.kind === 'user' || e.kind === 'agent');
        c.setStatus({ kind: 'starting', agentName: c.agentName, detail: l10n.t('Opening a session…') });
        const result = await runtime.newSession(c.meta.cwd, this.endpoint(token), mcp);
        if (token !== this.token) return;
        this.attached = result.sessionId;
        c.setSessionId(result.sessionId);
        c.emit(c.info.setSessionResult(result));
        void this.settings.applyRemembered(token);
        if (spoken && !fresh) {
          c.emit(c.thread.reducer.addNotice('warning', l10n.t('{0} cannot restore earlier sessions, so it starts fresh: it does not remember the conversation above.', c.agentName)));
        }
      }
    } catch (err) {
      this.replay.abandon();
      if (token !== this.token) return;
      if (previous !== undefined && isUnknownSession(err) && errorCode(err) !== AUTH_REQUIRED) {
        c.addError(
          l10n.t('{0} no longer knows this conversation (session {1}). Start fresh to go on in a new session; the transcript above stays.', c.agentName, previous),
          errorMessage(err),
          'startFresh',
        );
        c.queue.pause(l10n.t('The agent lost this conversation.'));
        return c.setStatus({ kind: 'stopped', agentName: c.agentName, reason: l10n.t('Session not found') });
      }
      throw err;
    }
    c.setStatus({ kind: 'ready', agentName: c.agentName });
    c.turns.pump();
  }

  /** The user gave up on the lost session: a new one, with the transcript kept above. */
  async startFresh(): Promise<void> {
    this.c.setSessionId(undefined);
    this.c.emit(this.c.thread.reducer.addNotice('info', l10n.t('New session: {0} starts fresh and does not remember the conversation above.', this.c.agentName)));
    this.unbind();
    await this.connect(true);
  }

  /** Signs in with the agent's first method (the sign-in card offers them all), then opens the session again. */
  async signIn(): Promise<void> {
    const method = this.runtime?.authMethods[0];
    if (!this.runtime?.alive || !method) return this.connect();
    if (this.c.thread.entries().every((e) => e.kind !== 'auth')) this.showSignIn(this.runtime, l10n.t('Sign-in required'));
    await this.c.signIn.authenticate(method.id);
  }

  /** The agent needs the user to sign in: the card lists its methods; afterwards the session opens. */
  private showSignIn(runtime: AgentRuntime, message: string): void {
    this.c.signIn.show(runtime.authMethods, message, async () => {
      this.c.queue.resume();
      await this.connect();
    });
  }

  /** The current connect attempt; settings answers of an older one are ignored. */
  get attempt(): number {
    return this.token;
  }

  /** Settles a replay still streaming in: a turn is about to start. */
  finishReplay(): void {
    this.replay.finish();
  }

  /** The user's answer; false (and logged) when the prompt was already answered or is unknown. */
  respondPermission(requestId: string, optionId: string): boolean {
    return this.permissions.respond(requestId, optionId);
  }

  /** Answers every pending prompt `cancelled` (spec MUST on session/cancel). */
  cancelPermissions(): void {
    this.permissions.cancelAll();
  }

  /** Closes the agent's session (when it supports that) and lets go of the runtime. */
  async close(): Promise<void> {
    const runtime = this.runtime;
    const sessionId = this.attached;
    this.unbind();
    if (runtime && sessionId !== undefined) await runtime.closeSession(sessionId);
  }

  override dispose(): void {
    this.unbind();
    super.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private bind(runtime: AgentRuntime): number {
    this.unbind();
    this.runtime = runtime;
    this.exitSubscription = runtime.onExit((exit) => this.onExit(runtime, exit));
    return this.token;
  }

  /** Forgets the runtime and the session here (the agent is not told). */
  private unbind(): void {
    this.token++;
    this.replay.abandon();
    this.exitSubscription?.dispose();
    this.exitSubscription = undefined;
    if (this.runtime && this.attached !== undefined) this.runtime.detach(this.attached);
    this.runtime = undefined;
    this.attached = undefined;
    this.permissions.reset();
  }

  private endpoint(token: number): SessionEndpoint {
    const c = this.c;
    return {
      update: (update) => {
        if (token !== this.token) return;
        if (update.sessionUpdate === 'session_info_update') {
          if (typeof update.title === 'string') c.setTitle(update.title, 'agent');
          return;
        }
        const info = c.info.applyUpdate(update);
        if (info !== undefined) return c.emit(info);
        if (!this.replay.apply(update)) c.thread.applyUpdate(update);
      },
      requestPermission: async (params, signal) => (token === this.token ? this.permissions.request(params, signal) : { outcome: { outcome: 'cancelled' } }),
      terminal: (event) => {
        if (token === this.token) c.thread.applyTerminalEvent(event);
      },
      touched: (path, line) => {
        if (token === this.token && c.turns.active) c.deps.follow(c, path, line);
      },
      elicit: (params, signal) => (token === this.token ? c.questions.ask(params, signal) : Promise.resolve({ action: 'cancel' })),
      elicitationComplete: (params) => {
        if (token === this.token) c.questions.complete(params);
      },
      beforeWrite: async (path, before, after) => {
        if (token !== this.token) return;
        await c.review.beforeWrite(path);
        c.review.refreshSoon();
        if (c.deps.reviewEdits?.() === 'before') await this.permissions.reviewWrite(path, before, after);
      },
    };
  }

  private onExit(runtime: AgentRuntime, exit: RuntimeExit): void {
    if (runtime !== this.runtime) return;
    const c = this.c;
    const stopped = c.turns.active
      ? l10n.t('{0} {1} during the turn.', c.agentName, exit.description)
      : c.status.kind === 'starting'
        ? l10n.t('{0} {1} while starting.', c.agentName, exit.description)
        : l10n.t('{0} {1}.', c.agentName, exit.description);
    const wasRunning = c.turns.active;
    this.unbind();
    c.questions.cancelAll();
    c.emit(c.thread.reducer.markCancelling());
    c.turns.abandon();
    c.emit(c.info.clear());
    if (exit.intentional) {
      if (wasRunning) c.emit(c.thread.reducer.endTurn('cancelled'));
      return c.setStatus({ kind: 'idle', agentName: c.agentName });
    }
    c.addError(stopped, exit.stderrTail || undefined, 'restart');
    c.queue.pause(l10n.t('{0} stopped.', c.agentName));
    c.setStatus({ kind: 'stopped', agentName: c.agentName, reason: l10n.t('The agent {0}.', exit.description) });
  }

  private fail(err: unknown, runtime: AgentRuntime): void {
    const c = this.c;
    if (c.status.kind === 'stopped') return; // the exit handler already reported a process that died
    if (errorCode(err) === AUTH_REQUIRED) {
      if (runtime.authMethods.length > 0) this.showSignIn(runtime, errorMessage(err));
      else c.addError(l10n.t('{0} needs you to sign in, but offers no way to do it from the editor: {1}', c.agentName, errorMessage(err)), runtime.stderrTail() || undefined, 'showLog');
      c.queue.pause(l10n.t('Waiting for you to sign in.'));
      return c.setStatus({ kind: 'stopped', agentName: c.agentName, reason: l10n.t('Sign-in required') });
    }
    const failure = describeStartFailure(err, c.agentName, runtime.stderrTail());
    c.addError(failure.message, failure.detail, failure.action, true);
    c.queue.pause(l10n.t('{0} could not start.', c.agentName));
    c.setStatus({ kind: 'stopped', agentName: c.agentName, reason: failure.message });
    // A runtime that failed here is not reused: the next attempt spawns with the current settings.
    if (runtime.sessionCount === 0) void runtime.stop();
    this.unbind();
  }
}
