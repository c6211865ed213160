import type { ConversationStatus, ErrorEntry } from '../protocol/messages';

/**
 * One failure, described once and applied in one place (Conversation.fail): an error entry in the
 * thread (with the action that helps), a badge on the tab, and — when it says so — a paused queue
 * and a stopped conversation. Before, each site wrote the three parts itself.
 */
export interface Failure {
  message: string;
  /** More for the curious (the agent's stderr tail, the raw error). */
  detail?: string;
  /** The button the error entry offers. */
  action?: ErrorEntry['action'];
  /** Also offer Check Agent. */
  offerCheck?: boolean;
  /** The queue stops sending by itself, saying why (the user decides whether to go on). */
  pause?: string;
  /** The conversation stops: its status becomes `stopped` with this reason. */
  stop?: string;
}

export function stoppedStatus(agentName: string, failure: Failure): ConversationStatus | undefined {
  return failure.stop === undefined ? undefined : { kind: 'stopped', agentName, reason: failure.stop };
}
