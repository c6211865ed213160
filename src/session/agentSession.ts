import type * as acp from '@agentclientprotocol/sdk';
import { AgentConnection } from '../acp/agentConnection';
import { AgentProcess, type AgentExit, type AgentLaunchConfig } from '../acp/agentProcess';
import { redactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { CommandView, Entry, HostMessage, ModesView, SessionStatus, TerminalView } from '../protocol/messages';
import { Disposable, Emitter } from '../util/disposable';
import { ClientServices } from './clientServices';
import { describeStartFailure } from './startFailure';
import { SessionThread } from './sessionThread';
import { errorCode, errorMessage } from '../util/errors';

/** What a session needs from its surroundings; the VS Code adapter provides the editor-aware parts. */
export interface AgentSessionDeps {
  agent: AgentLaunchConfig;
  log: ProtocolLog;
  clientInfo: { name: string; version: string };
  files: FileAccess;
  policy: PathPolicy;
  /** Follow-along: reveal a file the agent touches. */
  follow(path: string, line: number | undefined): void;
  /** Called when a permission prompt appears, so the host can notify a hidden panel. */
  onPermissionRequested?(info: { requestId: string; title: string; options: acp.PermissionOption[] }): void;
  /** How long to wait for the agent to confirm a cancel before ending the turn ourselves. */
  cancelGraceMs?: number;
}

/** The session's part of the panel snapshot; the host adds agents, presets and settings. */
export interface SessionSnapshotParts {
  status: SessionStatus;
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  commands: CommandView[];
  modes: ModesView | undefined;
}

/** Error code ACP agents use for "authentication required". */
const AUTH_REQUIRED = -32000;

/**
 * One agent process and its current ACP session: spawns the agent, runs turns, serves its requests
 * and turns everything into host → webview messages through a single reducer.
 */
export class AgentSession extends Disposable {
  private readonly thread: SessionThread;
  private readonly messages = this.register(new Emitter<HostMessage>());
  readonly onMessage = this.messages.event;

  private proc: AgentProcess | undefined;
  private conn: AgentConnection | undefined;
  private client: ClientServices | undefined;
  private sessionId: string | undefined;
  private authMethods: acp.AuthMethod[] = [];
  private statusValue: SessionStatus;
  /** Bumped per turn so a late answer to an abandoned turn cannot end a newer one. */
  private turnToken = 0;
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped per start so events of a replaced process are ignored. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  /** True while session/new is in flight. */
  private openingSession = false;

  /** deps.log with the agent's env values masked: warnings quote agent input, which may echo them. */
  private log: ProtocolLog;
  /** What to spawn; replaced by updateAgent() when the user edits the settings. */
  private agent: AgentLaunchConfig;

  constructor(private readonly deps: AgentSessionDeps) {
    super();
    this.agent = deps.agent;
    this.log = redactingLog(deps.log, Object.values(deps.agent.env));
    this.thread = new SessionThread({
      isInWorkspace: (p) => deps.policy.isInWorkspace(p),
      warn: (text) => this.log.warn(text),
      emit: (messages) => this.emitAll(messages),
      follow: (path, line) => deps.follow(path, line),
    });
    this.statusValue = { kind: 'starting', agentName: deps.agent.name };
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  get agentName(): string {
    return this.agent.name;
  }

  /** Terminal output, diffs and follow-along data the editor side needs (see SessionThread). */
  get view(): Pick<SessionThread, 'terminalView' | 'onTerminalOutput' | 'findDiff'> {
    return this.thread;
  }

  snapshotParts(): SessionSnapshotParts {
    return {
      status: this.statusValue,
      entries: this.thread.reducer.entries(),
      terminals: this.thread.terminals.all(),
      commands: this.thread.info.commands(),
      modes: this.thread.info.modes(),
    };
  }

  /** Spawns the agent, initializes and opens a session. Never rejects: failures become error entries. */
  start(): Promise<void> {
    this.starting = this.startOnce().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    const generation = ++this.generation;
    this.setStatus({ kind: 'starting', agentName: this.agentName });
    try {
      const proc = AgentProcess.start(this.agent, this.deps.log);
      this.proc = proc;
      proc.onExit((exit) => this.handleExit(generation, exit));
      const client = new ClientServices({
        cwd: this.agent.cwd,
        files: this.deps.files,
        policy: this.deps.policy,
        log: this.log,
        thread: this.thread,
        sessionId: () => this.sessionId,
        follow: (path, line) => this.deps.follow(path, line),
        emit: (messages) => this.emitAll(messages),
        onPermissionRequested: this.deps.onPermissionRequested,
      });
      this.client = client;
      const conn = await AgentConnection.open(proc, client.handlers(), {
        log: this.deps.log,
        clientInfo: this.deps.clientInfo,
        onUpdate: (sessionId, update) => this.handleUpdate(generation, sessionId, update),
      });
      this.conn = conn;
      const init = await conn.initialize();
      this.authMethods = init.authMethods ?? [];
      if (generation !== this.generation) return;
      await this.openSession(generation);
    } catch (err) {
      if (generation !== this.generation) return;
      this.failStart(err);
    }
  }

  private async openSession(generation: number): Promise<void> {
    try {
      await this.openSessionOnce(generation);
    } finally {
      this.openingSession = false;
    }
  }

  private async openSessionOnce(generation: number): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    this.openingSession = true;
    // The old session is over: updates the new one sends before session/new answers must not be
    // mistaken for another session's (handleUpdate accepts them while the id is unknown).
    this.sessionId = undefined;
    // Commands and modes of the previous session do not apply; the new one announces its own
    // (possibly before session/new answers, hence cleared first).
    this.emitAll(this.thread.info.clear());
    try {
      const result = await conn.newSession(this.agent.cwd);
      if (generation !== this.generation) return;
      this.sessionId = result.sessionId;
      this.emitAll(this.thread.info.setModes(result.modes));
      this.setStatus({ kind: 'ready', agentName: this.agentName });
    } catch (err) {
      if (generation !== this.generation) return;
      if (errorCode(err) === AUTH_REQUIRED && this.authMethods.length > 0) {
        const names = this.authMethods.map((m) => m.name).join(', ');
        this.emitAll(this.thread.reducer.addError(`${this.agentName} needs you to sign in (${names}).`, errorMessage(err), 'signIn'));
        this.setStatus({ kind: 'stopped', agentName: this.agentName, reason: 'Sign-in required' });
        return;
      }
      throw err;
    }
  }

  /** Runs the agent's first auth method, then opens the session again. */
  async signIn(): Promise<void> {
    const method = this.authMethods[0];
    if (!this.conn || !method) return this.restart();
    const generation = this.generation;
    this.setStatus({ kind: 'starting', agentName: this.agentName });
    try {
      await this.conn.authenticate(method.id);
      await this.openSession(generation);
    } catch (err) {
      this.failStart(err);
    }
  }

  async prompt(text: string): Promise<void> {
    // A message typed while the agent is still starting waits for it instead of being dropped.
    if (this.statusValue.kind === 'starting' && this.starting) await this.starting;
    const conn = this.conn;
    const sessionId = this.sessionId;
    if (!conn || !sessionId || this.statusValue.kind !== 'ready') {
      // Keep the text visible in the thread rather than dropping what the user wrote.
      this.emitAll(this.thread.reducer.addUserMessage(text));
      this.emitAll(this.thread.reducer.addError(`Not sent: ${this.agentName} is not ready (${this.statusValue.kind}). Restart it and send again.`, undefined, 'restart'));
      return;
    }
    const token = ++this.turnToken;
    this.emitAll(this.thread.reducer.addUserMessage(text));
    this.setStatus({ kind: 'running', agentName: this.agentName });
    try {
      const response = await conn.prompt(sessionId, text);
      this.finishTurn(token, response.stopReason);
    } catch (err) {
      if (token !== this.turnToken) return;
      if (this.isCancelling()) {
        // Spec: a cancelled turn is not an error, even when the agent answers with one.
        this.finishTurn(token, 'cancelled');
      } else if (await this.agentExited()) {
        // The exit handler reports the crash with the stderr tail.
      } else {
        this.emitAll(this.thread.reducer.addError(`The agent could not complete the turn: ${errorMessage(err)}`, undefined, 'showLog'));
        this.finishTurn(token, 'error');
      }
    }
  }

  /** Stop button: session/cancel, pending permissions answered `cancelled`, bounded wait for the agent. */
  cancel(): void {
    if (this.statusValue.kind !== 'running' || !this.conn || !this.sessionId) return;
    const token = this.turnToken;
    this.setStatus({ kind: 'cancelling', agentName: this.agentName });
    this.cancelPermissions();
    this.emitAll(this.thread.reducer.markCancelling());
    this.conn.cancel(this.sessionId).catch((err) => this.log.warn(`session/cancel failed: ${errorMessage(err)}`));
    const grace = this.deps.cancelGraceMs ?? 10_000;
    this.cancelTimer = setTimeout(() => {
      if (token !== this.turnToken || this.statusValue.kind !== 'cancelling') return;
      this.emitAll(
        this.thread.reducer.addError(
          `${this.agentName} did not confirm the cancellation within ${Math.round(grace / 1000)} s; the turn was ended here. Restart the agent if it keeps working.`,
          undefined,
          'restart',
        ),
      );
      this.finishTurn(token, 'cancelled');
    }, grace);
  }

  /**
   * The user picked a mode: `session/set_mode`, and the picker follows once the agent agreed (it may
   * also send current_mode_update). A refusal becomes an error entry and the picker reverts.
   */
  async setMode(modeId: string): Promise<void> {
    const conn = this.conn;
    const sessionId = this.sessionId;
    if (!conn || !sessionId) {
      this.log.warn(`Mode ${modeId} not set: there is no session.`);
      this.emitAll(this.thread.info.restate());
      return;
    }
    if (!this.thread.info.hasMode(modeId)) {
      this.log.warn(`Mode ${modeId} not set: ${this.agentName} does not offer it.`);
      this.emitAll(this.thread.info.restate());
      return;
    }
    const generation = this.generation;
    const stillCurrent = (): boolean => generation === this.generation && sessionId === this.sessionId;
    try {
      await conn.setMode(sessionId, modeId);
      if (stillCurrent()) this.emitAll(this.thread.info.setCurrentMode(modeId));
    } catch (err) {
      if (!stillCurrent()) return;
      const name = this.thread.info.modes()?.available.find((m) => m.id === modeId)?.name ?? modeId;
      this.emitAll(this.thread.reducer.addError(`${this.agentName} could not switch to the ${name} mode: ${errorMessage(err)}`, undefined, 'showLog'));
      this.emitAll(this.thread.info.restate());
    }
  }

  respondPermission(requestId: string, optionId: string): void {
    if (!this.client?.respondPermission(requestId, optionId)) {
      this.log.warn(`Permission ${requestId} was already answered or is unknown.`);
    }
  }

  /**
   * Takes a changed command line or environment for the next start (a Retry after the user fixed
   * the settings must not spawn the old command). The running process is not touched.
   */
  updateAgent(agent: AgentLaunchConfig): void {
    this.agent = agent;
    this.log = redactingLog(this.deps.log, Object.values(agent.env));
  }

  /** Kills the agent and starts it again; the thread stays. */
  async restart(): Promise<void> {
    await this.teardown();
    await this.start();
  }

  /** Clears the thread and opens a fresh session (restarting the agent if it is not running). */
  async newSession(): Promise<void> {
    this.thread.clear();
    if (this.conn && (this.statusValue.kind === 'ready' || this.statusValue.kind === 'running')) {
      if (this.statusValue.kind === 'running') this.cancel();
      this.clearCancelTimer();
      this.turnToken++;
      this.setStatus({ kind: 'starting', agentName: this.agentName });
      try {
        await this.openSession(this.generation);
      } catch (err) {
        this.failStart(err);
      }
      return;
    }
    await this.restart();
  }

  override dispose(): void {
    void this.teardown();
    super.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private handleUpdate(generation: number, sessionId: string, update: Record<string, unknown>): void {
    if (generation !== this.generation) return;
    // Agents may send updates (commands, modes, replayed history) before session/new has answered.
    const opening = this.sessionId === undefined && this.openingSession;
    if (sessionId !== this.sessionId && !opening) {
      this.log.warn(`Update for unknown session ${sessionId} ignored.`);
      return;
    }
    this.thread.applyUpdate(update);
  }

  /** Read through a method: TypeScript would otherwise keep the narrowing from before the await. */
  private isCancelling(): boolean {
    return this.statusValue.kind === 'cancelling';
  }

  /** A failed request may be the first sign of a crash: give the exit event a moment to arrive. */
  private async agentExited(): Promise<boolean> {
    const proc = this.proc;
    if (!proc) return true;
    const exited = await Promise.race([proc.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 500))]);
    return exited;
  }

  private finishTurn(token: number, stopReason: string): void {
    if (token !== this.turnToken) return;
    this.turnToken++;
    this.clearCancelTimer();
    this.cancelPermissions();
    this.emitAll(this.thread.reducer.endTurn(stopReason));
    if (this.statusValue.kind === 'running' || this.statusValue.kind === 'cancelling') {
      this.setStatus({ kind: 'ready', agentName: this.agentName });
    }
  }

  private handleExit(generation: number, exit: AgentExit): void {
    if (generation !== this.generation || this.isDisposed) return;
    const how = this.proc?.describeExit(exit) ?? `exited with code ${exit.code}`;
    const during =
      this.statusValue.kind === 'running' || this.statusValue.kind === 'cancelling'
        ? ' during the turn'
        : this.statusValue.kind === 'starting'
          ? ' while starting'
          : '';
    this.cancelPermissions();
    this.emitAll(this.thread.reducer.markCancelling());
    this.turnToken++;
    this.clearCancelTimer();
    const tail = this.proc?.stderrTail() ?? '';
    this.emitAll(this.thread.reducer.addError(`${this.agentName} ${how}${during}.`, tail || undefined, 'restart'));
    this.setStatus({ kind: 'stopped', agentName: this.agentName, reason: `The agent ${how}.` });
    void this.client?.dispose();
    this.client = undefined;
    this.conn?.dispose();
    this.conn = undefined;
    this.sessionId = undefined;
    this.emitAll(this.thread.info.clear());
  }

  private failStart(err: unknown): void {
    const failure = describeStartFailure(err, this.agentName, this.proc?.stderrTail() ?? '');
    // The exit handler already reported a process that died while starting.
    if (this.statusValue.kind === 'stopped') return;
    this.emitAll(this.thread.reducer.addError(failure.message, failure.detail, failure.action));
    this.setStatus({ kind: 'stopped', agentName: this.agentName, reason: failure.message });
    void this.teardown();
  }

  private cancelPermissions(): void {
    this.client?.cancelPermissions();
  }

  private clearCancelTimer(): void {
    if (this.cancelTimer) clearTimeout(this.cancelTimer);
    this.cancelTimer = undefined;
  }

  private async teardown(): Promise<void> {
    this.generation++;
    this.turnToken++;
    this.clearCancelTimer();
    const client = this.client;
    this.client = undefined;
    const conn = this.conn;
    this.conn = undefined;
    this.sessionId = undefined;
    const proc = this.proc;
    this.proc = undefined;
    this.emitAll(this.thread.info.clear());
    conn?.dispose();
    await Promise.allSettled([client?.dispose(), proc?.kill()]);
  }

  private setStatus(status: SessionStatus): void {
    this.statusValue = status;
    this.emit({ type: 'statusChanged', status });
  }

  private emit(message: HostMessage): void {
    this.messages.fire(message);
  }

  private emitAll(messages: HostMessage[]): void {
    for (const message of messages) this.messages.fire(message);
  }
}
