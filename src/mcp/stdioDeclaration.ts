import type * as acp from '@agentclientprotocol/sdk';
import type { LoopbackMcpServer } from './loopbackHttp';
import { TANDEM_MCP_NAME } from './mcpProtocol';
import { TANDEM_MCP_TOKEN_ENV, TANDEM_MCP_URL_ENV } from './stdioBridgeEnv';

/** The `mcpServers` entry of the stdio form (ACP's `McpServerStdio`: no `type`). */
export type McpServerStdioEntry = acp.McpServerStdio;

/** The bundled bridge, relative to the extension's root (scripts/build.mjs writes it). */
export const STDIO_BRIDGE_FILE = 'dist/mcpStdioBridge.js';

/**
 * The entry for an agent that takes neither `acp` nor `http` MCP servers: the agent starts the
 * bundled bridge (src/mcp/stdioBridge.ts) with the editor's own Node, and the bridge relays stdio
 * to the session's loopback server — so one server, one token, one set of checks serve both forms.
 *
 * `nodePath` is `process.execPath`: inside VS Code's extension host that is the editor's binary
 * (Electron), which runs as plain Node with `ELECTRON_RUN_AS_NODE=1`; outside (tests, a plain Node
 * host) the variable is ignored. The entry's env holds the bearer token: hand it only to the agent,
 * and redact it wherever the entry is shown or logged (src/conversation/mcpServers.ts `mcpSecrets`
 * over `{ server: entry }` covers env values, and it is the same token as the HTTP entry's header).
 */
export function stdioDeclaration(server: LoopbackMcpServer, bridgePath: string, nodePath: string = process.execPath): McpServerStdioEntry {
  const http = server.declaration();
  const authorization = http.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value ?? '';
  const token = authorization.replace(/^Bearer +/i, '');
  return {
    name: TANDEM_MCP_NAME,
    command: nodePath,
    args: [bridgePath],
    env: [
      { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
      { name: TANDEM_MCP_URL_ENV, value: http.url },
      { name: TANDEM_MCP_TOKEN_ENV, value: token },
    ],
  };
}
