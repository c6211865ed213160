/**
 * What the agent says it is doing, beyond Tandem's own view of the turn: codex-acp 2.6 sends its
 * app-server thread's status as `session_info_update._meta.codex.threadStatus` — `{type: "active",
 * activeFlags: ["waitingOnApproval" | "waitingOnUserInput"]}`, `{type: "idle"}`, `{type:
 * "systemError"}`, `{type: "notLoaded"}` — around approvals and turns. Read as one small state the
 * tab badge, the notification and the status bar use. Unknown shapes say nothing.
 */
import { isRecord } from '../protocol/guards';

/** `waiting`: the agent waits for the user (an approval, an answer); `working`: it works on its own. */
export type AgentActivity = 'working' | 'waiting' | 'idle';

const WAITING_FLAGS = new Set(['waitingOnApproval', 'waitingOnUserInput']);

/** The activity a `session_info_update` reports, or undefined when it reports none. */
export function activityOf(update: Record<string, unknown>): AgentActivity | undefined {
  const meta = isRecord(update._meta) ? update._meta : undefined;
  const codex = meta && isRecord(meta.codex) ? meta.codex : undefined;
  const status = codex && isRecord(codex.threadStatus) ? codex.threadStatus : undefined;
  if (status === undefined) return undefined;
  switch (status.type) {
    case 'active': {
      const flags = Array.isArray(status.activeFlags) ? status.activeFlags : [];
      return flags.some((f) => typeof f === 'string' && WAITING_FLAGS.has(f)) ? 'waiting' : 'working';
    }
    case 'idle':
    case 'systemError':
    case 'notLoaded':
      return 'idle';
    default:
      return undefined;
  }
}
