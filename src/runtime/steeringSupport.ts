/**
 * Whether an agent takes a message into its running turn ("steering"), from its untrusted
 * `initialize` answer. Two forms exist:
 * - the adapters' extension (claude-agent-acp 0.101, codex-acp 2.6): top-level
 *   `_meta.steering.supported: true`, then the request `_session/steering {sessionId, prompt}`
 *   answered `{outcome: injected | startedNewTurn | promptRequired}` (codex also `failed`);
 * - the ACP RFD *session-steering*: a `steering` object among the session capabilities
 *   (`agentCapabilities.session.steering` as the RFD writes it for v2, `sessionCapabilities.steering`
 *   in v1's spelling), then an ordinary `session/prompt` sent while the turn runs. `null` or absent:
 *   no steering.
 * An agent that advertises both is steered through the extension: its request has an answer that
 * says what happened, where a v1 `session/prompt` during a turn has no defined answer yet.
 */
import { isRecord } from '../protocol/guards';

/** How to steer this agent; undefined: it cannot be steered (a message typed during a turn is queued). */
export type SteeringSupport = 'extension' | 'prompt';

/** The adapters' steering request. */
export const STEERING_METHOD = '_session/steering';

export function readSteeringSupport(initialize: unknown): SteeringSupport | undefined {
  if (!isRecord(initialize)) return undefined;
  const meta = initialize._meta;
  if (isRecord(meta) && isRecord(meta.steering) && meta.steering.supported === true) return 'extension';
  const caps = initialize.agentCapabilities;
  if (!isRecord(caps)) return undefined;
  for (const session of [caps.session, caps.sessionCapabilities]) {
    if (isRecord(session) && isRecord(session.steering)) return 'prompt';
  }
  return undefined;
}
