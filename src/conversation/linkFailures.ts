import * as l10n from '@vscode/l10n';
import type { AgentRuntime } from '../runtime/agentRuntime';
import { AUTH_REQUIRED, describeStartFailure, isUnknownSession } from '../runtime/startFailure';
import { errorCode, errorMessage } from '../util/errors';
import type { Failure } from './failure';
import type { ConversationState } from './ports';

/**
 * How a SessionLink says what went wrong: a start that failed (a sign-in card when the agent wants
 * one, else the error with Check Agent), a session the agent no longer knows, an agent that went
 * away. Kept beside the link so that it reads as the lifecycle it is.
 */

/**
 * A start failed: `signIn` when the card (or the reason it cannot be shown) went up and the
 * runtime should be kept for it, `failed` when the error is written and the runtime may go.
 */
export function reportStartFailure(
  c: Pick<ConversationState, 'agentName' | 'fail'>,
  err: unknown,
  runtime: Pick<AgentRuntime, 'authMethods' | 'stderrTail'>,
): 'signIn' | 'failed' {
  if (errorCode(err) === AUTH_REQUIRED) {
    // One failure: the card (or why it cannot be shown), a paused queue, a stopped conversation.
    const waiting = { pause: l10n.t('Waiting for you to sign in.'), stop: l10n.t('Sign-in required') };
    if (runtime.authMethods.length > 0) c.fail({ message: errorMessage(err), signIn: runtime.authMethods, ...waiting });
    else
      c.fail({
        message: l10n.t('{0} needs you to sign in, but offers no way to do it from the editor: {1}', c.agentName, errorMessage(err)),
        detail: runtime.stderrTail() || undefined,
        action: 'showLog',
        ...waiting,
      });
    return 'signIn';
  }
  const failure = describeStartFailure(err, c.agentName, runtime.stderrTail());
  c.fail({ ...failure, offerCheck: true, pause: l10n.t('{0} could not start.', c.agentName), stop: failure.message });
  return 'failed';
}

/** A restore failed because the agent does not know the session (an auth error is not that). */
export function isSessionLost(err: unknown): boolean {
  return isUnknownSession(err) && errorCode(err) !== AUTH_REQUIRED;
}

/** The agent answered a restore with "no such session". */
export function sessionLostFailure(agentName: string, sessionId: string, err: unknown): Failure {
  return {
    message: l10n.t(
      '{0} no longer knows this conversation (session {1}). Start fresh to go on in a new session; the transcript above stays.',
      agentName,
      sessionId,
    ),
    detail: errorMessage(err),
    action: 'startFresh',
    pause: l10n.t('The agent lost this conversation.'),
    stop: l10n.t('Session not found'),
  };
}

/** "Claude exited with code 1 during the turn." */
export function exitMessage(agentName: string, description: string, when: 'turn' | 'starting' | 'idle'): string {
  switch (when) {
    case 'turn':
      return l10n.t('{0} {1} during the turn.', agentName, description);
    case 'starting':
      return l10n.t('{0} {1} while starting.', agentName, description);
    case 'idle':
      return l10n.t('{0} {1}.', agentName, description);
  }
}
