import type { AgentProxy } from '../util/agentProxy';

/** One entry of `tandem.agents`, resolved for launching. Same shape as Zed's `agent_servers`. */
export interface AgentLaunchConfig {
  /** Display name (the key in `tandem.agents`). */
  name: string;
  /** Executable name (looked up on PATH) or path. Never run through a shell. */
  command: string;
  args: string[];
  /** Merged over the editor's environment. Values count as secrets: never logged. */
  env: Record<string, string>;
  /** More values never logged or shown (an address's credentials, header values): see launchSecrets.ts. */
  secrets?: string[];
  /**
   * The proxy variables Tandem adds (src/util/agentProxy.ts: the editor's `http.proxy`), kept apart
   * from `env` so only the address's credentials count as secrets and the log can say which proxy.
   */
  proxy?: AgentProxy;
  /**
   * Stored sign-in values of this name not handed over: entered for `enteredFor`, not `destination` (undefined:
   * stored before Tandem kept where, and the entry is the workspace's). The sign-in card says so.
   */
  withheld?: { enteredFor?: string; destination: string };
  /** Working directory of the agent (the first workspace folder). */
  cwd: string;
  /**
   * Set for an agent on another machine, reached over ACP's WebSocket or HTTP transport instead of
   * a process (`command` and `args` are then empty).
   */
  remote?: RemoteAgentTarget;
  /**
   * `replay`: the agent plays a transcript (a file that may come from anyone), so it is served as
   * a sandbox — nothing it sends runs a command, writes a file or starts a sign-in unasked. Set only
   * by Tandem itself, never from settings.
   */
  sandbox?: 'replay';
}

/** Where a remote ACP agent is reached. Header values count as secrets: never logged. */
export interface RemoteAgentTarget {
  /** `ws://`, `wss://`, `http://` or `https://`. */
  url: string;
  headers: Record<string, string>;
  /** Whether this workspace serves the agent's fs and terminal requests. */
  clientTools: boolean;
}
