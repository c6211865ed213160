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
      const outcome = await registry.call(request.params.name, request.params.arguments, extra.signal, agentToolCallId(request.params._meta));
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

/**
 * The agent's own id of the tool call an MCP `tools/call` serves, where its MCP client tells it in
 * the request's `_meta`: Claude Code 2.1.318 `"claudecode/toolUseId"`, codex 0.166 `callId`. Both
 * equal the ACP `toolCallId` of the agent's tool call, so the host puts the call on that card (and
 * its permission) instead of showing a second one. Undefined when the client says nothing.
 */
export function agentToolCallId(meta: Record<string, unknown> | undefined): string | undefined {
  const id = meta?.['claudecode/toolUseId'] ?? meta?.callId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
