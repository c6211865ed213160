import { RequestError } from '@agentclientprotocol/sdk';
import type { SessionEndpoint } from '../runtime/sessionPort';
import type { Thread } from '../thread/thread';
import type { ConversationReview } from './conversationReview';
import type { PermissionDesk } from './permissionDesk';
import type { ConversationPorts } from './ports';
import type { QuestionDesk } from './questionDesk';

/** The parts a session's traffic goes to (SessionLink's, narrowed: this file need not import the link). */
export interface EndpointParts {
  thread: Pick<Thread, 'dispatch' | 'dispatchChild' | 'terminalEvent'>;
  permissions: Pick<PermissionDesk, 'request' | 'reviewWrite'>;
  questions: Pick<QuestionDesk, 'ask' | 'complete'>;
  review: Pick<ConversationReview, 'beforeWrite' | 'refreshSoon'>;
  ports: Pick<ConversationPorts, 'editor'>;
  followLive(path: string, line: number | undefined): void;
}

/** A write that arrives (or is still pending) after its connect attempt ended: refused, never unrecorded. */
const over = (path: string): RequestError =>
  new RequestError(-32602, `This session is no longer open in Tandem; ${path} was not changed.`, { path, reason: 'sessionOver' });

/**
 * Where one ACP session's traffic goes in its conversation: updates to the thread, permission
 * prompts and client writes to the permission desk and the review, questions to the question desk,
 * file touches to follow-along. Everything of a connect attempt that is over (`live` false) is
 * dropped, answered `cancelled`, or (writes) refused.
 */
export function sessionEndpoint(parts: EndpointParts, live: () => boolean, cwd: string): SessionEndpoint {
  return {
    // The conversation's own roots: its worktree, when it has one.
    scope: { policy: parts.ports.editor.policy, cwd },
    live,
    update: (update) => {
      if (live()) parts.thread.dispatch(update);
    },
    childUpdate: (childSessionId, update) => {
      if (live()) parts.thread.dispatchChild(childSessionId, update);
    },
    requestPermission: async (params, signal) => (live() ? parts.permissions.request(params, signal) : { outcome: { outcome: 'cancelled' } }),
    terminal: (event) => {
      if (live()) parts.thread.terminalEvent(event);
    },
    touched: (path, line) => {
      if (live()) parts.followLive(path, line);
    },
    elicit: (params, signal) => (live() ? parts.questions.ask(params, signal) : Promise.resolve({ action: 'cancel' })),
    elicitationComplete: (params) => {
      if (live()) parts.questions.complete(params);
    },
    beforeWrite: async (path, before, after) => {
      if (!live()) throw over(path);
      await parts.review.beforeWrite(path);
      parts.review.refreshSoon();
      if (parts.ports.editor.reviewEdits() === 'before') await parts.permissions.reviewWrite(path, before, after);
      if (!live()) throw over(path);
    },
    proposeWrite: async (path, before, after) => {
      if (!live()) throw over(path);
      await parts.permissions.reviewWrite(path, before, after, 'proposal');
      if (!live()) throw over(path);
      await parts.review.beforeWrite(path);
      parts.review.refreshSoon();
    },
  };
}
