import * as l10n from '@vscode/l10n';
import type { AgentConnection } from '../acp/agentPort';
import { isWithin } from '../util/realPath';
import type { AgentRuntime, RuntimeExit } from '../runtime/agentRuntime';
import type { SessionEndpoint } from '../runtime/sessionPort';
import { RemoteConnectionError } from '../acp/remoteFailure';
import type { AccountView } from '../protocol/messages';
import type { Thread } from '../thread/thread';
import { Disposable, type IDisposable } from '../util/disposable';
import type { BranchStart } from './branchStart';
import type { ConversationReview } from './conversationReview';
import { exitMessage, isSessionLost, reportStartFailure, sessionLostFailure } from './linkFailures';
import { offerMcpServers } from './mcpServers';
import { Reconnect } from './reconnect';
import { SessionEditorTools } from './sessionEditorTools';
import { sessionEndpoint } from './sessionEndpoint';
import { openSession } from './sessionOpening';
import type { PermissionDesk } from './permissionDesk';
import type { ConversationPorts, ConversationState } from './ports';
import type { PromptQueue } from './promptQueue';
import type { QuestionDesk } from './questionDesk';

/** What the link uses besides the conversation's state: its siblings, and what it tells the conversation. */
export interface LinkParts {
  thread: Pick<
    Thread,
    | 'dispatch'
    | 'dispatchChild'
    | 'terminalEvent'
    | 'beginReplay'
    | 'replayAnswered'
    | 'abandonReplay'
    | 'sessionOpened'
    | 'sessionClosed'
    | 'addNotice'
    | 'addEntry'
    | 'replaceEntry'
    | 'markCancelling'
    | 'endTurn'
    | 'entries'
    | 'size'
    | 'toolCallFacts'
    | 'findToolCall'
  >;
  permissions: Pick<PermissionDesk, 'request' | 'reviewWrite' | 'reset'>;
  questions: Pick<QuestionDesk, 'ask' | 'complete' | 'cancelAll'>;
  review: Pick<ConversationReview, 'beforeWrite' | 'refreshSoon'>;
  queue: Pick<PromptQueue, 'size'>;
  ports: Pick<ConversationPorts, 'runtimeFor' | 'blocked' | 'editor' | 'log'>;
  /** True while a turn runs (an exit then ends it). */
  turnActive(): boolean;
  /**
   * The session is open and ready for prompts; `created` when it is a new one (not resumed or
   * loaded). `token` identifies this connect attempt.
   */
  opened(token: number, created: boolean): void;
  /** The process went away: whatever turn ran is over. */
  exited(): void;
  /** Who the agent says it is signed in as changed (undefined: unknown, or no agent any more). */
  accountChanged(account: AccountView | undefined): void;
  /** A file the agent read or wrote for this session (follow-along during live turns). */
  followLive(path: string, line: number | undefined): void;
  /** A branch's first session: how it starts (a fork, else a new session with the transcript), once. */
  branch?: Pick<BranchStart, 'opening'>;
}

/**
 * Binds a conversation to its agent: a runtime (shared process) and one ACP session in it. Opens
 * the session the best way the agent allows — `session/resume` (no replay), `session/load` (the
 * replay becomes the thread), or `session/new` (the agent starts fresh, and says so) — routes the
 * session's updates and requests to the conversation's parts, and reports the process going away.
 */
export class SessionLink extends Disposable {
  private runtime: AgentRuntime | undefined;
  private exitSubscription: IDisposable | undefined;
  private accountSubscription: IDisposable | undefined;
  private attached: string | undefined;
  /** Bumped per connect and per unbind: events of an older attempt are ignored. */
  private token = 0;
  /** The connect in progress (only while the conversation is `starting`: its outcome sets another status). */
  private connecting: Promise<void> | undefined;
  private readonly mcpNoted = new Set<string>();
  /** The session's `tandem` MCP server (editor tools); lives exactly as long as the session here. */
  private editorTools: SessionEditorTools | undefined;
  /** After a remote agent's connection dropped: the attempts to reattach the session. */
  private readonly reconnect: Reconnect;

  constructor(
    private readonly c: ConversationState & { setSessionId(sessionId: string | undefined): void },
    private readonly parts: LinkParts,
  ) {
    super();
    this.reconnect = this.register(
      new Reconnect({ c, thread: parts.thread, queue: parts.queue, attempt: () => void this.connectNow(false), showStatus: () => this.starting() }),
    );
  }

  /** The attached ACP session id in a live runtime. */
  get sessionId(): string | undefined {
    return this.attached;
  }

  /** How the open session's `tandem` MCP server was offered; undefined: none (off, or no session). */
  get editorToolsOffer(): SessionEditorTools['offer'] | undefined {
    return this.editorTools?.offer;
  }

  get agentRuntime(): AgentRuntime | undefined {
    return this.runtime;
  }

  /** The current connect attempt; answers of an older one are ignored. */
  get attempt(): number {
    return this.token;
  }

  connection(): AgentConnection | undefined {
    if (!this.runtime?.alive || this.attached === undefined) return undefined;
    return this.runtime.connection();
  }

  /** Connects (starting the agent when needed) and opens the session. Never rejects. */
  connect(fresh = false): Promise<void> {
    // Connecting on purpose (a prompt, Retry, Restart) ends the attempts after a drop.
    this.reconnect.stop();
    return this.connectNow(fresh);
  }

  private connectNow(fresh: boolean): Promise<void> {
    // An attempt that already decided (ready, stopped…) may not have unwound yet: a prompt sent right
    // after a failure must start a new attempt, not wait on the finished one.
    if (this.connecting && this.c.status.kind === 'starting') return this.connecting;
    const attempt: Promise<void> = this.connectOnce(fresh).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  /** The user gave up on the lost session: a new one, with the transcript kept above. */
  async startFresh(): Promise<void> {
    this.c.setSessionId(undefined);
    this.parts.thread.addNotice('info', l10n.t('New session: {0} starts fresh and does not remember the conversation above.', this.c.agentName));
    this.unbind();
    await this.connect(true);
  }

  /** Closes the agent's session (when it supports that) and lets go of the runtime. */
  async close(): Promise<void> {
    this.reconnect.stop();
    const runtime = this.runtime;
    const sessionId = this.attached;
    this.unbind();
    if (runtime && sessionId !== undefined) await runtime.closeSession(sessionId);
  }

  override dispose(): void {
    this.reconnect.stop();
    this.unbind();
    super.dispose();
  }

  // --- connecting ------------------------------------------------------------------------------

  private async connectOnce(fresh: boolean): Promise<void> {
    const c = this.c;
    const blocked = this.parts.ports.blocked();
    if (blocked) return c.setStatus(blocked);
    const runtime = this.parts.ports.runtimeFor(c.agentName);
    if (!runtime) {
      const gone = c.agentName ? l10n.t('{0} is not configured any more.', c.agentName) : l10n.t('The agent is not configured any more.');
      return c.fail({
        message: `${gone} ${l10n.t('Pick another agent in the header; it starts a new session.')}`,
        pause: l10n.t('The agent is not configured.'),
        stop: l10n.t('Not configured'),
      });
    }
    const token = this.bind(runtime);
    this.starting();
    try {
      await runtime.start();
      if (token !== this.token) return;
      await this.open(runtime, token, fresh);
    } catch (err) {
      if (token !== this.token) return;
      if (this.reconnect.failed(err)) return this.release(runtime);
      this.startFailed(err, runtime);
    }
  }

  /** `starting`, with the reconnect attempt while there is one. */
  private starting(detail?: string): void {
    this.c.setStatus(this.reconnect.startingStatus(this.c.agentName, detail));
  }

  private async open(runtime: AgentRuntime, token: number, fresh: boolean): Promise<void> {
    const { c, parts } = this;
    const { thread } = parts;
    const previous = fresh ? undefined : c.meta.sessionId;
    const mcp = offerMcpServers(parts.ports.editor, runtime.initializeResult?.agentCapabilities?.mcpCapabilities ?? undefined, this.mcpNoted, (name, reason) =>
      thread.addNotice('info', l10n.t('The MCP server "{0}" is not given to {1}: {2}.', name, c.agentName, reason)),
    );
    parts.permissions.reset();
    thread.sessionClosed();
    const endpoint = this.endpoint(token);
    const tools = await SessionEditorTools.open(
      { editor: parts.ports.editor, thread, permissions: parts.permissions, log: parts.ports.log },
      runtime,
      endpoint,
      mcp,
    );
    if (token !== this.token) return tools?.dispose();
    this.editorTools = tools;
    // Other roots of the conversation (a multi-root workspace) go as additionalDirectories, when the agent takes them.
    const roots = parts.ports.editor.policy.roots().filter((root) => !isWithin(root, c.meta.cwd));
    let created = true;
    try {
      const live = () => token === this.token;
      const opened = await openSession({
        c,
        thread,
        runtime,
        previous,
        fresh,
        endpoint,
        mcp: tools ? [...mcp, tools.offer.entry] : mcp,
        roots,
        live,
        // Only a session Tandem opens anew (no previous one to resume) may be a branch's fork.
        branch: previous === undefined ? parts.branch?.opening() : undefined,
        starting: (detail) => this.starting(detail),
        attached: (sessionId, isNew) => {
          this.attached = sessionId;
          tools?.attach(sessionId);
          if (isNew) c.setSessionId(sessionId);
        },
      });
      if (!opened) return;
      created = opened.created;
    } catch (err) {
      thread.abandonReplay();
      if (token !== this.token) return;
      if (previous !== undefined && isSessionLost(err)) {
        this.reconnect.stop();
        return c.fail(sessionLostFailure(c.agentName, previous, err));
      }
      throw err;
    }
    this.reconnect.succeeded();
    c.setStatus({ kind: 'ready', agentName: c.agentName });
    parts.opened(token, created);
  }

  private startFailed(err: unknown, runtime: AgentRuntime): void {
    if (this.c.status.kind === 'stopped') return; // the exit handler already reported a process that died
    // A sign-in keeps the runtime: its methods may need it (`authenticate`).
    if (reportStartFailure(this.c, err, runtime) === 'failed') this.release(runtime);
  }

  /** A runtime that failed here is not reused: the next attempt starts with the current settings. */
  private release(runtime: AgentRuntime): void {
    if (runtime.sessionCount === 0) void runtime.stop();
    this.unbind();
  }

  // --- the session's traffic -------------------------------------------------------------------

  private bind(runtime: AgentRuntime): number {
    this.unbind();
    this.runtime = runtime;
    this.exitSubscription = runtime.onExit((exit) => this.onExit(runtime, exit));
    this.accountSubscription = runtime.onAccount((account) => this.parts.accountChanged(account));
    this.parts.accountChanged(runtime.account);
    return this.token;
  }

  /** Forgets the runtime and the session here (the agent is not told). */
  private unbind(): void {
    this.token++;
    this.parts.thread.abandonReplay();
    this.exitSubscription?.dispose();
    this.exitSubscription = undefined;
    this.accountSubscription?.dispose();
    this.accountSubscription = undefined;
    if (this.runtime) this.parts.accountChanged(undefined);
    if (this.runtime && this.attached !== undefined) this.runtime.detach(this.attached);
    this.runtime = undefined;
    this.attached = undefined;
    this.editorTools?.dispose();
    this.editorTools = undefined;
    this.parts.permissions.reset();
  }

  private endpoint(token: number): SessionEndpoint {
    return sessionEndpoint(this.parts, () => token === this.token, this.c.meta.cwd);
  }

  private onExit(runtime: AgentRuntime, exit: RuntimeExit): void {
    if (runtime !== this.runtime) return;
    const { c, parts } = this;
    const wasRunning = parts.turnActive();
    const stopped = exitMessage(c.agentName, exit.description, wasRunning ? 'turn' : c.status.kind === 'starting' ? 'starting' : 'idle');
    this.unbind();
    parts.questions.cancelAll();
    parts.thread.markCancelling();
    parts.exited();
    parts.thread.sessionClosed();
    if (exit.intentional) {
      this.reconnect.abandon();
      if (wasRunning) parts.thread.endTurn('cancelled');
      return c.setStatus({ kind: 'idle', agentName: c.agentName });
    }
    if (exit.lost && c.meta.sessionId !== undefined) {
      // A drop while reattaching counts as a failed attempt, not a new drop.
      if (this.reconnect.active) return void this.reconnect.failed(new RemoteConnectionError('closed', exit.description));
      return this.reconnect.lost(exit.description, wasRunning);
    }
    // The turn it ran is over: its end says so (and offers Retry, which starts the agent again).
    if (wasRunning) parts.thread.endTurn('exited');
    c.fail({
      message: stopped,
      detail: exit.stderrTail || undefined,
      action: 'restart',
      pause: l10n.t('{0} stopped.', c.agentName),
      stop: l10n.t('The agent {0}.', exit.description),
    });
  }
}
