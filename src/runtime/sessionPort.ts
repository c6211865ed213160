import type * as acp from '@agentclientprotocol/sdk';
import type { PathPolicy } from '../client/pathPolicy';
import type { TerminalViewEvent } from '../thread/terminalViews';

/**
 * Where one session works when that is not the runtime's folder (a conversation in its own git
 * worktree): its file requests pass this policy, its terminals start in `cwd`.
 */
export interface SessionScope {
  policy: PathPolicy;
  cwd: string;
}

/** What one ACP session of a runtime receives: its updates and the agent's requests about it. */
export interface SessionEndpoint {
  /** The session's own workspace roots; absent: the runtime's. */
  readonly scope?: SessionScope;
  /** False once the connect attempt that opened it is over: the agent's requests for it are refused. */
  live(): boolean;
  /** One `session/update` of this session, in arrival order. */
  update(update: Record<string, unknown>): void;
  /** One `session/update` of a child session this session announced (`subagent_update`), in arrival order. */
  childUpdate?(childSessionId: string, update: Record<string, unknown>): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** A terminal this session's agent created changed. */
  terminal(event: TerminalViewEvent): void;
  /** The agent read or wrote a file for this session (follow-along). */
  touched(path: string, line: number | undefined): void;
  /** The agent is about to write a file for this session: record it, or refuse by throwing. */
  beforeWrite(path: string, before: string | undefined, after: string): Promise<void>;
  /**
   * A sandboxed agent (a replay) is about to write: the user sees the write as a proposed edit and
   * accepts or rejects it, always (no setting or saved allow rule answers for them); then it is
   * recorded like beforeWrite. Throws, and nothing is written, unless accepted.
   */
  proposeWrite(path: string, before: string | undefined, after: string): Promise<void>;
  /** The agent asks the user something (`elicitation/create`). */
  elicit(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete` (every session hears it; the one that asked acts on it). */
  elicitationComplete(params: acp.CompleteElicitationNotification): void;
}
