/**
 * A ConversationManager whose agent is the in-memory StubAgent: the fast tier's rig. Everything but
 * the agent is real (conversation, thread, runtime routing, queue, permissions, sign-in); the
 * manager's messages are recorded without their conversation tag.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { Conversation } from '../../src/conversation/conversation';
import { ConversationManager } from '../../src/conversation/conversationManager';
import type { EditorPorts } from '../../src/conversation/ports';
import type { HostMessage } from '../../src/protocol/messages';
import { testEditorPorts } from './editorPorts';
import { StubAgent } from './stubAgent';

export interface StubRig {
  agent: StubAgent;
  manager: ConversationManager;
  log: MemoryProtocolLog;
  messages: HostMessage[];
  /** The workspace folder (a fresh temp folder). */
  dir: string;
  /** The shown conversation. */
  readonly conversation: Conversation;
}

export function stubSession(
  opts: { cancelGraceMs?: number; editor?: Partial<EditorPorts>; launch?: Partial<AgentLaunchConfig>; otherAgents?: readonly string[] } = {},
): StubRig {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-stub-'));
  const agent = new StubAgent();
  const log = new MemoryProtocolLog();
  const messages: HostMessage[] = [];
  // `launch` changes how the agent is configured (a replay's sandbox flag, a remote target, its args).
  const launch: AgentLaunchConfig = { name: 'Stub', command: 'stub', args: [], env: {}, cwd: dir, ...opts.launch };
  const manager = new ConversationManager({
    // `otherAgents`: more configured agents, each its own runtime, all answered by the one stub.
    agents: {
      launchConfig: (name) => (name === 'Stub' ? launch : opts.otherAgents?.includes(name) ? { ...launch, name } : undefined),
      defaultName: () => 'Stub',
    },
    store: undefined,
    cwd: dir,
    log,
    clientInfo: { name: 'tandem-test', version: '0' },
    cancelGraceMs: opts.cancelGraceMs,
    connector: () => agent.connector,
    editor: testEditorPorts([dir], opts.editor),
  });
  manager.setVisible(true);
  manager.onMessage((m) => {
    if ('conversationId' in m) {
      const { conversationId: _id, ...rest } = m;
      messages.push(rest as HostMessage);
    } else messages.push(m);
  });
  return {
    agent,
    manager,
    log,
    messages,
    dir,
    get conversation(): Conversation {
      const active = manager.active;
      if (!active) throw new Error('no conversation is shown');
      return active;
    },
  };
}

/** Lets every queued promise callback and immediate run (several rounds: handlers chain). */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}
