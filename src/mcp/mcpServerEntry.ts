import type * as acpUnstable from '@agentclientprotocol/sdk/unstable';
import { TANDEM_MCP_NAME } from './mcpProtocol';

/**
 * Which way the `tandem` server reaches an agent, best first: MCP over the ACP connection itself
 * when the agent says it takes `type: "acp"` servers (nothing to listen on, nothing to leak), else
 * a loopback HTTP endpoint when it takes HTTP servers, else stdio (every ACP agent must take those:
 * a small bundled process that connects back to the host; not built yet, so the host offers none).
 */
export type TandemMcpTransport = 'acp' | 'http' | 'stdio';

export function tandemTransportFor(capabilities: acpUnstable.McpCapabilities | null | undefined): TandemMcpTransport {
  if (capabilities?.acp === true) return 'acp';
  if (capabilities?.http === true) return 'http';
  return 'stdio';
}

/** The `mcpServers` entry of the MCP-over-ACP form (ACP's unstable `McpServerAcp`). */
export type McpServerAcpEntry = acpUnstable.McpServerAcp & { type: 'acp' };

/**
 * The entry for a server registered on the agent's connection (`McpOverAcpProvider.registerServer`
 * from `@agentclientprotocol/sdk/unstable`, whose registration's `serverId` this takes): the agent
 * then sends `mcp/message` with that id over the same connection.
 */
export function acpDeclaration(serverId: string): McpServerAcpEntry {
  return { type: 'acp', name: TANDEM_MCP_NAME, serverId };
}

/**
 * True when the user already configured a server named `tandem` (their `tandem.mcpServers` or a
 * workspace `.mcp.json`): theirs is kept and ours is not added, since two servers with one name
 * would make the agent's tool names (`mcp__tandem__…`) ambiguous.
 */
export function nameTaken(servers: readonly { name: string }[]): boolean {
  return servers.some((s) => s.name === TANDEM_MCP_NAME);
}
