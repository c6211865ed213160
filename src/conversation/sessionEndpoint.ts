import type { SessionEndpoint } from '../runtime/agentRuntime';
import type { LinkParts } from './sessionLink';

/**
 * Where one ACP session's traffic goes in its conversation: updates to the thread, permission
 * prompts and client writes to the permission desk and the review, questions to the question desk,
 * file touches to follow-along. Everything of a connect attempt that is over (`live` false) is
 * dropped, or answered `cancelled`.
 */
export function sessionEndpoint(parts: LinkParts, live: () => boolean, cwd: string): SessionEndpoint {
  return {
    // The conversation's own roots: its worktree, when it has one.
    scope: { policy: parts.ports.editor.policy, cwd },
    update: (update) => {
      if (live()) parts.thread.dispatch(update);
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
      if (!live()) return;
      await parts.review.beforeWrite(path);
      parts.review.refreshSoon();
      if (parts.ports.editor.reviewEdits() === 'before') await parts.permissions.reviewWrite(path, before, after);
    },
  };
}
