import type * as acp from '@agentclientprotocol/sdk';
import type { ConversationStatus, ErrorEntry } from '../protocol/messages';

/**
 * One failure, described once and applied in one place (Conversation.fail): an error entry in the
 * thread (with the action that helps) or the sign-in card, a badge on the tab, and — when it says so — a paused queue
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
  /** The agent wants the user to sign in: the sign-in card with these methods (and `message`) instead of an error entry. */
  signIn?: acp.AuthMethod[];
  /** The queue stops sending by itself, saying why (the user decides whether to go on). */
  pause?: string;
  /** The conversation stops: its status becomes `stopped` with this reason. */
  stop?: string;
}

export function stoppedStatus(agentName: string, failure: Failure): ConversationStatus | undefined {
  return failure.stop === undefined ? undefined : { kind: 'stopped', agentName, reason: failure.stop };
}
