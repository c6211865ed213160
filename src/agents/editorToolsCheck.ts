import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentConnection } from '../acp/agentPort';
import type { ProtocolLog } from '../acp/protocolLog';
import { errorMessage } from '../util/errors';
import { checkToolsPort } from '../mcp/checkToolsPort';
import { LoopbackMcpServer } from '../mcp/loopbackHttp';
import { nameTaken, tandemTransportFor, type TandemMcpTransport } from '../mcp/mcpServerEntry';
import { McpWireLog } from '../mcp/mcpWireLog';
import { EditorToolRegistry } from '../mcp/toolRegistry';

/**
 * Check Agent's part on the `tandem` MCP server: which transport the agent gets for it (as a
 * conversation would choose it from `initialize`), and — over loopback HTTP — whether the agent's
 * MCP client lists the tools when a session starts. For that the check opens one session with a
 * real server in its `mcpServers`, over a port that answers nothing of the user's: every query is
 * empty and writes and commands are refused, so an agent that does call a tool changes nothing.
 */

/** Why the server is not offered (a conversation would not offer it either). */
export type EditorToolsOff = 'setting' | 'untrusted' | 'nameTaken';

/**
 * Why a conversation started now would get no `tandem` server, as a conversation decides it: the
 * setting, then the workspace's trust, then a server of the user's with the same name.
 */
export function editorToolsOff(state: { enabled: boolean; trusted: boolean; servers: readonly { name: string }[] }): EditorToolsOff | undefined {
  if (!state.enabled) return 'setting';
  if (!state.trusted) return 'untrusted';
  return nameTaken(state.servers) ? 'nameTaken' : undefined;
}

export interface EditorToolsCheckOptions {
  /** Set: the server is not offered, and the check opens no session. */
  off?: EditorToolsOff;
  /** How long to wait for `tools/list` once session/new answered (default 5 s). */
  listWaitMs?: number;
  /** How long session/new may take (default 30 s: some agents start their model client there). */
  sessionTimeoutMs?: number;
}

export type ToolListing =
  /** `tools/list` came `afterMs` after session/new was sent. */
  | { state: 'listed'; afterMs: number }
  | { state: 'notListed'; waitedMs: number }
  /** session/new failed (sign-in needed, an error, no answer in time): nothing to list over. */
  | { state: 'noSession'; message: string }
  /** Not checked over this transport yet. */
  | { state: 'notChecked' };

export type EditorToolsFinding = { transport: 'off'; reason: EditorToolsOff } | { transport: TandemMcpTransport; listing: ToolListing };

export const DEFAULT_LIST_WAIT_MS = 5_000;
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 2_000;

export interface EditorToolsCheckContext {
  agentName: string;
  cwd: string;
  /** Tandem's version, told to the agent's MCP client. */
  version: string;
  /** Where the check's MCP traffic goes (the inspector's rows, tagged as MCP); absent: nowhere. */
  log?: ProtocolLog;
  signal?: AbortSignal;
}

/** Never throws: a failure is part of the finding. */
export async function checkEditorTools(
  conn: AgentConnection,
  init: acp.InitializeResponse,
  ctx: EditorToolsCheckContext,
  opts: EditorToolsCheckOptions,
): Promise<EditorToolsFinding> {
  if (opts.off) return { transport: 'off', reason: opts.off };
  const transport = tandemTransportFor(init.agentCapabilities?.mcpCapabilities);
  if (transport !== 'http') return { transport, listing: { state: 'notChecked' } };
  return { transport, listing: await listingOverHttp(conn, init, ctx, opts) };
}

async function listingOverHttp(
  conn: AgentConnection,
  init: acp.InitializeResponse,
  ctx: EditorToolsCheckContext,
  opts: EditorToolsCheckOptions,
): Promise<ToolListing> {
  let heard: (() => void) | undefined;
  const listed = new Promise<void>((resolve) => (heard = resolve));
  let listedAt: number | undefined;
  const registry = new EditorToolRegistry(checkToolsPort(ctx.cwd), {
    listed: () => {
      listedAt ??= Date.now();
      heard?.();
    },
  });
  let server: LoopbackMcpServer;
  try {
    server = await LoopbackMcpServer.start({ registry, version: ctx.version, ...(ctx.log ? { wire: new McpWireLog(ctx.log, ctx.agentName) } : {}) });
  } catch (err) {
    return { state: 'noSession', message: errorMessage(err) };
  }
  try {
    const began = Date.now();
    let sessionId: string;
    try {
      ({ sessionId } = await bounded(conn.newSession(ctx.cwd, [server.declaration()]), opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS, ctx.signal));
    } catch (err) {
      return { state: 'noSession', message: errorMessage(err) };
    }
    const waitMs = opts.listWaitMs ?? DEFAULT_LIST_WAIT_MS;
    await bounded(listed, waitMs, ctx.signal).catch(() => undefined);
    // Closed when the agent can (its process ends with the check anyway); never waited on for long.
    if (init.agentCapabilities?.sessionCapabilities?.close != null)
      await bounded(conn.closeSession(sessionId), CLOSE_TIMEOUT_MS, ctx.signal).catch(() => undefined);
    return listedAt !== undefined ? { state: 'listed', afterMs: listedAt - began } : { state: 'notListed', waitedMs: waitMs };
  } finally {
    server.dispose();
  }
}

/** `work`, or a rejection once `ms` pass or `signal` aborts. */
function bounded<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(l10n.t('No answer within {0} s.', Math.round(ms / 1000)))), ms);
    onAbort = () => reject(new Error(l10n.t('The check was cancelled.')));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}
