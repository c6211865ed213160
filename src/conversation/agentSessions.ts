/**
 * The agent's own bookkeeping of a conversation's session: deleting it with the conversation when
 * the agent advertised `sessionCapabilities.delete` (claude-agent-acp 0.101, codex-acp 2.6), and
 * giving it the title the user chose when it advertised `sessionCapabilities.title` (codex-acp 2.6:
 * `session/set_title`). Both are best effort: the conversation is Tandem's either way, and an agent
 * that refuses or is gone is logged, never an error for the user's own delete or rename.
 */
import { errorMessage } from '../util/errors';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { ConversationMeta } from '../store/conversationMeta';

export interface AgentSessionPorts {
  runtimeFor(agentName: string): AgentRuntime | undefined;
  warn(text: string): void;
}

/** The runtime, started, when it can delete the conversation's session; else undefined. */
async function deleting(ports: AgentSessionPorts, meta: Pick<ConversationMeta, 'agentName' | 'sessionId'>): Promise<AgentRuntime | undefined> {
  if (meta.sessionId === undefined || meta.agentName === '') return undefined;
  const runtime = ports.runtimeFor(meta.agentName);
  if (!runtime) return undefined;
  try {
    // History starts the agents to list their sessions; one that is not running yet is started so.
    await runtime.start();
  } catch {
    return undefined;
  }
  return runtime.alive && runtime.sessionSupport.delete ? runtime : undefined;
}

/** True when the agent of `meta` can delete its session (`session/delete`). */
export async function canDeleteAgentSession(ports: AgentSessionPorts, meta: Pick<ConversationMeta, 'agentName' | 'sessionId'>): Promise<boolean> {
  return (await deleting(ports, meta)) !== undefined;
}

/** Asks the agent to delete the session of `meta`; true when it did. */
export async function deleteAgentSession(ports: AgentSessionPorts, meta: Pick<ConversationMeta, 'agentName' | 'sessionId'>): Promise<boolean> {
  const runtime = await deleting(ports, meta);
  if (!runtime || meta.sessionId === undefined) return false;
  try {
    await runtime.connection().deleteSession(meta.sessionId);
    return true;
  } catch (err) {
    ports.warn(`session/delete of ${meta.sessionId} failed: ${errorMessage(err)}`);
    return false;
  }
}

/**
 * Gives the agent's session the user's title (`session/set_title`) when the agent is running and
 * supports it; an agent not running is not started for a title (its next session/list shows its own).
 */
export async function titleAgentSession(ports: AgentSessionPorts, meta: Pick<ConversationMeta, 'agentName' | 'sessionId'>, title: string): Promise<boolean> {
  if (meta.sessionId === undefined || meta.agentName === '') return false;
  const runtime = ports.runtimeFor(meta.agentName);
  if (!runtime?.alive || runtime.initializeResult === undefined || !runtime.sessionSupport.title) return false;
  try {
    await runtime.connection().setSessionTitle(meta.sessionId, title);
    return true;
  } catch (err) {
    ports.warn(`session/set_title of ${meta.sessionId} failed: ${errorMessage(err)}`);
    return false;
  }
}
