/**
 * How the stdio bridge (src/mcp/stdioBridge.ts, a process of its own) learns where the session's
 * loopback server is: environment variables of its `mcpServers` entry (src/mcp/stdioDeclaration.ts).
 * A file of its own so the bridge's bundle pulls in nothing else.
 */
export const TANDEM_MCP_URL_ENV = 'TANDEM_MCP_URL';
/** The loopback server's bearer token: a secret, redacted wherever the entry is logged. */
export const TANDEM_MCP_TOKEN_ENV = 'TANDEM_MCP_TOKEN';
