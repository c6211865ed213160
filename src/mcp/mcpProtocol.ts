import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { EditorToolRegistry } from './toolRegistry';
import { UnknownToolError } from './toolRegistry';

/** The server name agents see; their tool names become `mcp__tandem__<tool>`. */
export const TANDEM_MCP_NAME = 'tandem';

const INSTRUCTIONS =
  "Tandem's tools answer from the user's editor: its Problems, selection, open tabs, unsaved text and the language servers' symbols, definitions, references and hovers. " +
  'Edits made with edit_file and write_file go through the editor: the user can review and undo them.';

/**
 * An MCP SDK server (the low-level `Server`: the tools declare plain JSON Schemas, which the
 * higher-level `McpServer` would want as zod) answering `tools/list` and `tools/call` from the
 * registry. One is made per HTTP request (stateless Streamable HTTP), so it holds no state.
 */
export function mcpServerFor(registry: EditorToolRegistry, version: string): Server {
  const server = new Server({ name: TANDEM_MCP_NAME, title: 'Tandem editor', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const outcome = await registry.call(request.params.name, request.params.arguments, extra.signal);
      return {
        content: [{ type: 'text' as const, text: outcome.text }],
        ...(outcome.isError ? { isError: true } : {}),
        ...(outcome.truncated ? { _meta: { 'tandem/truncated': true } } : {}),
      };
    } catch (err) {
      if (err instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}
