import type { AgentLaunchConfig } from './agentLaunchConfig';
import { argSecrets } from '../util/secretShapes';

/**
 * Everything of a launch that is never logged or shown: its env values (stored sign-in values
 * included), the entry's listed secrets (an address's credentials, header values) and the values
 * of credential arguments (`ssh box env OPENAI_API_KEY=… codex-acp`: an ssh tunnel's only way to
 * pass the remote agent a variable), and the user and password of the agent's proxy. The process, the runtime and the conversation's log mask these.
 */
export function launchSecrets(cfg: Pick<AgentLaunchConfig, 'env' | 'secrets' | 'args' | 'proxy'>): string[] {
  return [...Object.values(cfg.env), ...(cfg.secrets ?? []), ...argSecrets(cfg.args), ...(cfg.proxy?.secrets ?? [])];
}
