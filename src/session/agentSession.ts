import type * as acp from '@agentclientprotocol/sdk';
import { AgentConnection } from '../acp/agentConnection';
import { AgentProcess, type AgentExit, type AgentLaunchConfig } from '../acp/agentProcess';
import { redactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { HostMessage, SessionStatus, TerminalView } from '../protocol/messages';
import { Disposable, Emitter } from '../util/disposable';
import { ClientServices } from './clientServices';
import { describeStartFailure } from './startFailure';
import { SessionReducer } from './sessionReducer';
import { terminalMetaEvents, TerminalViews } from './terminalViews';

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

/** Error code ACP agents use for "authentication required". */
const AUTH_REQUIRED = -32000;

/**
 * One agent process and its current ACP session: spawns the agent, runs turns, serves its requests
 * and turns everything into host → webview messages through a single reducer.
 */
export class AgentSession extends Disposable {
  private readonly reducer: SessionReducer;
  private readonly terminals = new TerminalViews();
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
    this.reducer = new SessionReducer({
      isInWorkspace: (p) => deps.policy.isInWorkspace(p),
      warn: (text) => this.log.warn(text),
    });
    this.statusValue = { kind: 'starting', agentName: deps.agent.name };
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  get agentName(): string {
    return this.agent.name;
  }

  snapshotParts(): { status: SessionStatus; entries: ReturnType<SessionReducer['entries']>; terminals: Record<string, TerminalView> } {
    return { status: this.statusValue, entries: this.reducer.entries(), terminals: this.terminals.all() };
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
        reducer: this.reducer,
        terminals: this.terminals,
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
    try {
      const result = await conn.newSession(this.agent.cwd);
      if (generation !== this.generation) return;
      this.sessionId = result.sessionId;
      this.setStatus({ kind: 'ready', agentName: this.agentName });
    } catch (err) {
      if (generation !== this.generation) return;
      if (errorCode(err) === AUTH_REQUIRED && this.authMethods.length > 0) {
        const names = this.authMethods.map((m) => m.name).join(', ');
        this.emitAll(this.reducer.addError(`${this.agentName} needs you to sign in (${names}).`, errorMessage(err), 'signIn'));
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
      this.emitAll(this.reducer.addUserMessage(text));
      this.emitAll(this.reducer.addError(`Not sent: ${this.agentName} is not ready (${this.statusValue.kind}). Restart it and send again.`, undefined, 'restart'));
      return;
    }
    const token = ++this.turnToken;
    this.emitAll(this.reducer.addUserMessage(text));
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
        this.emitAll(this.reducer.addError(`The agent could not complete the turn: ${errorMessage(err)}`, undefined, 'showLog'));
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
    this.emitAll(this.reducer.markCancelling());
    this.conn.cancel(this.sessionId).catch((err) => this.log.warn(`session/cancel failed: ${errorMessage(err)}`));
    const grace = this.deps.cancelGraceMs ?? 10_000;
    this.cancelTimer = setTimeout(() => {
      if (token !== this.turnToken || this.statusValue.kind !== 'cancelling') return;
      this.emitAll(
        this.reducer.addError(
          `${this.agentName} did not confirm the cancellation within ${Math.round(grace / 1000)} s; the turn was ended here. Restart the agent if it keeps working.`,
          undefined,
          'restart',
        ),
      );
      this.finishTurn(token, 'cancelled');
    }, grace);
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
    this.emitAll(this.reducer.clear());
    this.terminals.clear();
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

  /** The host keeps terminal output for the webview and for "Open in terminal". */
  terminalView(terminalId: string): TerminalView | undefined {
    return this.terminals.get(terminalId);
  }

  onTerminalOutput(listener: (terminalId: string, text: string) => void): { dispose(): void } {
    return this.terminals.onAppend(listener);
  }

  findDiff(entryId: string, index: number): { path: string; oldText: string | null; newText: string; title: string } | undefined {
    const entry = this.reducer.entries().find((e) => e.id === entryId);
    if (!entry || entry.kind !== 'tool_call') return undefined;
    const item = entry.content[index];
    if (!item || item.type !== 'diff') return undefined;
    return { path: item.path, oldText: item.oldText, newText: item.newText, title: entry.title };
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
    this.emitAll(this.reducer.applyUpdate(update));
    this.applyTerminalMeta(update);
    this.followLocations(update);
  }

  /** Output of commands the agent ran itself, carried in `_meta` (see terminalMetaEvents). */
  private applyTerminalMeta(update: Record<string, unknown>): void {
    const title = this.reducer.findToolCall(String(update.toolCallId))?.title ?? 'command';
    for (const event of terminalMetaEvents(update, title, (id) => this.terminals.get(id) !== undefined)) {
      this.emitMaybe(this.terminals.apply(event));
    }
  }

  private emitMaybe(message: HostMessage | undefined): void {
    if (message) this.emit(message);
  }

  /** Follow-along from tool call locations: agents that edit the disk themselves only report these. */
  private followLocations(update: Record<string, unknown>): void {
    const locations = update.locations;
    if (!Array.isArray(locations) || locations.length === 0) return;
    const last = locations[locations.length - 1] as { path?: unknown; line?: unknown };
    if (typeof last?.path !== 'string' || !this.deps.policy.isInWorkspace(last.path)) return;
    this.deps.follow(last.path, typeof last.line === 'number' ? last.line : undefined);
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
    this.emitAll(this.reducer.endTurn(stopReason));
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
    this.emitAll(this.reducer.markCancelling());
    this.turnToken++;
    this.clearCancelTimer();
    const tail = this.proc?.stderrTail() ?? '';
    this.emitAll(this.reducer.addError(`${this.agentName} ${how}${during}.`, tail || undefined, 'restart'));
    this.setStatus({ kind: 'stopped', agentName: this.agentName, reason: `The agent ${how}.` });
    void this.client?.dispose();
    this.client = undefined;
    this.conn?.dispose();
    this.conn = undefined;
    this.sessionId = undefined;
  }

  private failStart(err: unknown): void {
    const failure = describeStartFailure(err, this.agentName, this.proc?.stderrTail() ?? '');
    // The exit handler already reported a process that died while starting.
    if (this.statusValue.kind === 'stopped') return;
    this.emitAll(this.reducer.addError(failure.message, failure.detail, failure.action));
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

function errorCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err && 'message' in err) return String((err as { message: unknown }).message);
  return String(err);
}
