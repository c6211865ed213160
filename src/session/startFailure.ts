import type { ErrorEntry } from '../protocol/messages';

/**
 * Turns a failure while starting an agent into words a user can act on. Start failures are the most
 * common support question for ACP clients (wrong command, missing login, sandbox variables), so each
 * known cause gets its own sentence.
 */
export function describeStartFailure(
  err: unknown,
  agentName: string,
  stderrTail: string,
): { message: string; detail?: string; action: ErrorEntry['action'] } {
  const code = (err as { code?: unknown } | undefined)?.code;
  const text = err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err);
  if (code === 'not_found' || code === 'ENOENT') {
    return { message: text, detail: stderrTail || undefined, action: 'retry' };
  }
  if (code === 'EACCES') {
    return { message: `The command for ${agentName} is not executable: ${text}`, detail: stderrTail || undefined, action: 'retry' };
  }
  let hint = '';
  if (/IS_SANDBOX|--dangerously-skip-permissions|root/i.test(stderrTail)) {
    hint = ' The agent refused to run as root with sandbox settings; check its environment.';
  } else if (/auth|login|api key|unauthori[sz]ed/i.test(`${text} ${stderrTail}`)) {
    hint = ' It may need you to sign in or set an API key in your shell environment.';
  }
  return {
    message: `${agentName} failed to start: ${text}.${hint}`.replace(/\.\./g, '.'),
    detail: stderrTail || undefined,
    action: 'retry',
  };
}
