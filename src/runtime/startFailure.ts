import * as l10n from '@vscode/l10n';
import type { ErrorEntry } from '../protocol/messages';
import { errorCode, errorMessage } from '../util/errors';

/**
 * Turns a failure while starting an agent into words a user can act on. Start failures are the most
 * common support question for ACP clients (wrong command, missing login, sandbox variables), so each
 * known cause gets its own sentence.
 */
export function describeStartFailure(err: unknown, agentName: string, stderrTail: string): { message: string; detail?: string; action: ErrorEntry['action'] } {
  const code = (err as { code?: unknown } | undefined)?.code;
  const text = err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err);
  if (code === 'not_found' || code === 'ENOENT') {
    return { message: text, detail: stderrTail || undefined, action: 'retry' };
  }
  if (code === 'EACCES') {
    return { message: l10n.t('The command for {0} is not executable: {1}', agentName, text), detail: stderrTail || undefined, action: 'retry' };
  }
  let hint = '';
  if (/IS_SANDBOX|--dangerously-skip-permissions|root/i.test(stderrTail)) {
    hint = ` ${l10n.t('The agent refused to run as root with sandbox settings; check its environment.')}`;
  } else if (/auth|login|api key|unauthori[sz]ed/i.test(`${text} ${stderrTail}`)) {
    hint = ` ${l10n.t('It may need you to sign in or set an API key in your shell environment.')}`;
  }
  return {
    message: `${l10n.t('{0} failed to start: {1}.', agentName, text)}${hint}`.replace(/\.\./g, '.'),
    detail: stderrTail || undefined,
    action: 'retry',
  };
}

/** Error code ACP agents use for "authentication required". */
export const AUTH_REQUIRED = -32000;
/** ACP/JSON-RPC "Resource not found": what agents answer for a session id they do not know. */
const RESOURCE_NOT_FOUND = -32002;

/** A restore failed because the agent no longer has the session (rather than for another reason). */
export function isUnknownSession(err: unknown): boolean {
  return errorCode(err) === RESOURCE_NOT_FOUND || /\b(not found|unknown session|no such session|does not exist)\b/i.test(errorMessage(err));
}
