/**
 * A real conversation over the scripted agent process (out/fixtures/scriptedAgent.js), with plain
 * Node file access and a workspace policy rooted at `dir`: the one way tests build a session. The
 * core's ConversationManager runs as in the extension (one agent "Scripted"), optionally with a
 * real ConversationStore; `TestSession` gives tests the shapes they assert on.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CheckpointStore } from '../../src/review/checkpointStore';
import { applyPlanOnDisk } from '../../src/review/restorePlan';
import { Emitter } from '../../src/util/disposable';
import { join, resolve } from 'node:path';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { MemoryProtocolLog, type ProtocolLog } from '../../src/acp/protocolLog';
import type { ConversationSnapshot, HostMessage, ConversationStatus } from '../../src/protocol/messages';
import type { Conversation } from '../../src/conversation/conversation';
import { ConversationManager } from '../../src/conversation/conversationManager';
import type { EditorPorts } from '../../src/conversation/ports';
import { testEditorPorts } from './editorPorts';
import type { ConversationStore } from '../../src/store/conversationStore';
import type { PermissionRules } from '../../src/conversation/ports';
import type { ReviewHost } from '../../src/conversation/conversationReview';

export const repoRoot = resolve(__dirname, '../..');
export const scriptedAgentJs = join(repoRoot, 'out', 'fixtures', 'scriptedAgent.js');

export interface ScriptedSessionOptions {
  /** Agent name shown in messages. */
  name?: string;
  /** Replaces the node executable (e.g. a missing command). */
  command?: string;
  /** Node options put before the agent script (e.g. --require a preload). */
  nodeArgs?: string[];
  /** Agent env; SCRIPTED_AGENT_LOG is added so `received()` works. */
  env?: Record<string, string>;
  cancelGraceMs?: number;
  /** Keep every emitted message in `messages` (default true; benchmarks turn it off). */
  record?: boolean;
  /** A store to keep conversations in (restart tests); none by default. */
  store?: ConversationStore;
  /** Untrusted workspace: every conversation shows this status. */
  blocked?: ConversationStatus;
  /** Saved permission rules the conversations judge requests by. */
  rules?: PermissionRules;
  /** Review with checkpoints on the plain disk (see nodeReviewHost). */
  review?: ReviewHost;
  reviewEdits?: 'after' | 'before';
  /** The workspace the agent works in (default: `dir`, which also holds the script and logs). */
  cwd?: string;
  /** The protocol log the manager writes to (default: the MemoryProtocolLog returned as `log`). */
  log?: ProtocolLog;
  /** More of the editor's ports (sign-in terminal, browser, remembered settings…). */
  extra?: Partial<EditorPorts>;
}

/** The conversation shown by a manager with one scripted agent, in the shapes tests assert on. */
export class TestSession {
  constructor(
    readonly manager: ConversationManager,
    private agent: AgentLaunchConfig,
    private readonly setAgent: (agent: AgentLaunchConfig) => void,
  ) {}

  get conversation(): Conversation {
    const active = this.manager.active;
    if (!active) throw new Error('No conversation is shown (start() first).');
    return active;
  }

  get status(): ConversationStatus {
    return this.conversation.status;
  }

  get agentName(): string {
    return this.agent.name;
  }

  get onMessage(): ConversationManager['onMessage'] {
    return this.manager.onMessage;
  }

  /** The shown conversation's thread (diffs, terminal views). */
  get view(): Conversation['internals']['thread'] {
    return this.conversation.internals.thread;
  }

  snapshotParts(): ConversationSnapshot & Required<Pick<ConversationSnapshot, 'commands' | 'queue'>> {
    const snapshot = this.conversation.snapshot();
    return { ...snapshot, commands: snapshot.commands ?? [], queue: snapshot.queue ?? { items: [] } };
  }

  /** Loads (store) and connects the shown conversation; resolves once it settled. */
  async start(): Promise<void> {
    await this.manager.init();
    await this.conversation.connect();
  }

  /** Sends (queues) a prompt and resolves once nothing more will happen without the user. */
  async prompt(text: string): Promise<void> {
    const conversation = this.conversation;
    conversation.prompt(text);
    await this.settled(conversation);
  }

  /** Resolves when the conversation neither works nor has a prompt it is about to send. */
  async settled(conversation = this.conversation, ms = 20_000): Promise<void> {
    const busy = (): boolean => {
      const kind = conversation.status.kind;
      if (kind === 'starting' || conversation.internals.turns.busy) return true;
      return conversation.internals.queue.size > 0 && !conversation.internals.queue.paused && (kind === 'ready' || kind === 'idle');
    };
    await until(() => !busy(), 'the conversation to settle', ms);
  }

  cancel(): void {
    this.conversation.stop();
  }

  respondPermission(requestId: string, optionId: string): void {
    this.conversation.respondPermission(requestId, optionId);
  }

  async restart(): Promise<void> {
    await this.manager.restart();
    await this.settled();
  }

  /** A new conversation with the same agent (the old one keeps its tab). */
  async newSession(): Promise<void> {
    this.manager.newConversation(this.agent.name);
    await this.conversation.connect();
  }

  async signIn(): Promise<void> {
    await this.conversation.signIn();
  }

  async setMode(modeId: string): Promise<void> {
    await this.conversation.setMode(modeId);
  }

  /** Settings changed: the next start uses `agent`. */
  updateAgent(agent: AgentLaunchConfig): void {
    this.agent = agent;
    this.setAgent(agent);
  }

  dispose(): void {
    this.manager.dispose();
  }
}

export interface ScriptedSession {
  session: TestSession;
  log: MemoryProtocolLog;
  /** Every host → webview message the manager emitted. */
  messages: HostMessage[];
  /** Follow-along reveals, as "path:line". */
  followed: string[];
  scriptPath: string;
  /** What the session starts (its tandem.agents entry, resolved). */
  agent: AgentLaunchConfig;
  /** Messages the agent process received (its SCRIPTED_AGENT_LOG). */
  received(): Array<Record<string, unknown>>;
}

let counter = 0;

/** Writes `script` into `dir` and creates (does not start) a session running it. */
export function scriptedSession(dir: string, script: unknown, opts: ScriptedSessionOptions = {}): ScriptedSession {
  const n = ++counter;
  const scriptPath = join(dir, `script-${n}.json`);
  const agentLog = join(dir, `agent-${n}.log`);
  writeFileSync(scriptPath, JSON.stringify(script));
  const log = new MemoryProtocolLog();
  const messages: HostMessage[] = [];
  const followed: string[] = [];
  let agent: AgentLaunchConfig = {
    name: opts.name ?? 'Scripted',
    command: opts.command ?? process.execPath,
    args: [...(opts.nodeArgs ?? []), scriptedAgentJs, scriptPath],
    env: { ...opts.env, SCRIPTED_AGENT_LOG: agentLog },
    cwd: opts.cwd ?? dir,
  };
  const root = opts.cwd ?? dir;
  const manager = new ConversationManager({
    agents: { launchConfig: (name) => (name === agent.name ? agent : undefined), defaultName: () => agent.name },
    store: opts.store,
    cwd: root,
    log: opts.log ?? log,
    clientInfo: { name: 'tandem-test', version: '0' },
    cancelGraceMs: opts.cancelGraceMs,
    editor: testEditorPorts([root], {
      blocked: () => opts.blocked,
      follow: (path, line) => followed.push(`${path}:${line ?? ''}`),
      rules: opts.rules,
      review: opts.review,
      reviewEdits: () => opts.reviewEdits ?? 'after',
      ...opts.extra,
    }),
  });
  manager.setVisible(true);
  if (opts.record !== false) {
    // Recorded without the conversation tag: the tests have one conversation and compare shapes.
    manager.onMessage((m) => {
      if ('conversationId' in m) {
        const { conversationId: _id, ...rest } = m;
        messages.push(rest as HostMessage);
      } else messages.push(m);
    });
  }
  const session = new TestSession(manager, agent, (next) => (agent = next));
  const received = () =>
    existsSync(agentLog)
      ? readFileSync(agentLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { session, log, messages, followed, scriptPath, agent, received };
}

/** Resolves when `check` holds, polling every few ms. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The review's host on the plain disk: checkpoints of `root`, restores written straight to disk. */
export function nodeReviewHost(root: string, storageDir: string, confirm: () => boolean = () => true): ReviewHost & { userChanged(path: string): void } {
  let store: Promise<CheckpointStore> | undefined;
  const user = new Emitter<string>();
  return {
    checkpoints: () => (store ??= CheckpointStore.open({ root, storageDir, gitPath: false })),
    readCurrent: async (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
    apply: (plan) => applyPlanOnDisk(plan),
    confirmRewind: async () => confirm(),
    onUserChange: user.event,
    /** What the editor tells when the user saves a file (or Tandem exports one for them). */
    userChanged: (path) => user.fire(path),
  };
}

/**
 * A review host that forwards to one made later: the rig's folder (the review's root) exists only
 * once the rig does, yet the rig needs its review ports when it is made.
 */
export function lateReviewHost(get: () => ReviewHost | undefined): ReviewHost {
  const late = (): ReviewHost => get() ?? assert.fail('the review host is made with the rig');
  return {
    checkpoints: () => late().checkpoints(),
    readCurrent: (path) => late().readCurrent(path),
    apply: (plan, label) => late().apply(plan, label),
    confirmRewind: (plan) => late().confirmRewind(plan),
  };
}
