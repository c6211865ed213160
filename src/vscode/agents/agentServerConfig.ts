// Its own side: agentSettings.ts reads and userAgentEntries.ts writes this shape, and neither imports the other back for it.

/** A command entry of `tandem.agents` as Tandem writes one (the shape of Zed's and JetBrains' `agent_servers`). */
export interface AgentServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /**
   * Set only by Tandem for agents it makes itself (a transcript replay), never read from settings:
   * the runtime serves such an agent as a sandbox (see AgentLaunchConfig.sandbox).
   */
  sandbox?: 'replay';
}
