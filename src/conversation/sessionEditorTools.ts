import type * as acp from '@agentclientprotocol/sdk';
import { FsHandler } from '../client/fsHandler';
import type { ProtocolLog } from '../acp/protocolLog';
import type { CommandResult, EditorToolsPort } from '../mcp/editorToolsPort';
import { displayPath } from '../mcp/toolPaths';
import { LoopbackMcpServer } from '../mcp/loopbackHttp';
import { McpWireLog } from '../mcp/mcpWireLog';
import { stdioDeclaration } from '../mcp/stdioDeclaration';
import { nameTaken, tandemTransportFor, type TandemMcpTransport } from '../mcp/mcpServerEntry';
import { EditorToolRegistry, type ObservedCall } from '../mcp/toolRegistry';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { SessionEndpoint } from '../runtime/sessionPort';
import type { Thread } from '../thread/thread';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { EditorToolCards } from './editorToolCards';
import { EditorToolConsent } from './editorToolConsent';
import type { PermissionDesk } from './permissionDesk';
import type { EditorPorts } from './ports';

/** What one session's `tandem` server uses of its conversation. */
export interface EditorToolsParts {
  editor: Pick<EditorPorts, 'editorTools' | 'files' | 'policy' | 'reviewEdits'>;
  thread: Pick<Thread, 'dispatch' | 'entries' | 'toolCallFacts' | 'findToolCall'>;
  permissions: Pick<PermissionDesk, 'request'>;
  /** The conversation's log: warnings, and the MCP messages (the inspector's rows). */
  log: ProtocolLog;
}

/** How the session's server was offered, for Check Agent and the log. */
export interface EditorToolsOffer {
  transport: TandemMcpTransport;
  entry: acp.McpServer;
}

/**
 * The `tandem` MCP server of one ACP session: made as the session opens, its entry handed to the
 * agent beside the user's servers, disposed with the session (the port closes, the token dies).
 * Every call runs against the editor (its queries) and this session's own paths, review, terminals
 * and permission desk, and shows on the thread as a tool card.
 */
export class SessionEditorTools implements IDisposable {
  private sessionId = '';
  private listed = false;
  private disposed = false;

  private constructor(
    private readonly server: IDisposable,
    readonly offer: EditorToolsOffer,
    private readonly onListed: () => void,
  ) {}

  /**
   * The server for a session about to open, or undefined when none is offered: the setting is off,
   * the workspace is untrusted, the agent is a sandboxed replay, or the user has a server named
   * `tandem` of their own. A failure to start it is logged and the session opens without it.
   */
  static async open(
    parts: EditorToolsParts,
    runtime: AgentRuntime,
    endpoint: SessionEndpoint,
    userServers: readonly acp.McpServer[],
  ): Promise<SessionEditorTools | undefined> {
    const host = parts.editor.editorTools;
    if (!host?.enabled() || runtime.sandboxed || nameTaken(userServers)) return undefined;
    const caps = runtime.initializeResult?.agentCapabilities?.mcpCapabilities ?? undefined;
    const transport = tandemTransportFor(caps);
    if (transport === 'stdio' && !host.stdioBridge) return undefined;
    let self: SessionEditorTools | undefined;
    const cwd = endpoint.scope?.cwd ?? parts.editor.policy.roots()[0] ?? process.cwd();
    const cards = new EditorToolCards(parts.thread, cwd);
    const consent = new EditorToolConsent(parts.permissions, parts.thread, () => parts.editor.reviewEdits());
    // The session's own roots (its worktree, when it has one), for the tools' paths and their writes alike.
    const policy = endpoint.scope?.policy ?? parts.editor.policy;
    const files = new FsHandler({
      files: parts.editor.files,
      policy,
      onTouched: (path, line) => endpoint.touched(path, line),
      beforeWrite: (path, before, after) => endpoint.beforeWrite(path, before, after),
    });
    const portFor = (call: ObservedCall): EditorToolsPort => {
      const shown = (path: string) => displayPath(policy.roots(), path);
      const q = host.queries;
      // Delegated one by one: a class's methods would not survive a spread.
      return {
        diagnostics: (path) => q.diagnostics(path),
        selection: () => q.selection(),
        openEditors: () => q.openEditors(),
        workspaceSymbols: (query) => q.workspaceSymbols(query),
        documentSymbols: (path) => q.documentSymbols(path),
        definition: (path, at) => q.definition(path, at),
        references: (path, at) => q.references(path, at),
        hover: (path, at) => q.hover(path, at),
        openFile: (path, line) => q.openFile(path, line),
        paths: policy,
        readText: async (path) => {
          const text = await host.queries.readText(path);
          if (call.name === 'read_file') endpoint.touched(path, undefined);
          return text;
        },
        writeText: async (path, text, signal) => {
          // The text the user sees now (unsaved edits included); none: a new file (a directory or a
          // binary file fails in the write itself, with the same message fs/write_text_file gives).
          const before = await host.queries.readText(path).catch(() => undefined);
          const tool = call.name === 'write_file' ? 'write_file' : 'edit_file';
          await consent.ask(cards.cardOf(call), { kind: 'edit', tool, path, shownPath: shown(path), before, after: text }, signal);
          cards.show(call, { type: 'diff', path, oldText: before ?? null, newText: text });
          await files.writeTextFile({ sessionId: self?.sessionId ?? '', path, content: text });
        },
        runCommand: async (command, signal) => {
          await consent.ask(cards.cardOf(call), { kind: 'execute', tool: 'run_in_terminal', command }, signal);
          return runToEnd(runtime, self?.sessionId ?? '', endpoint, command, signal, (terminalId) => cards.show(call, { type: 'terminal', terminalId }));
        },
      };
    };
    const registry = new EditorToolRegistry(portFor, {
      listed: () => self?.onListed(),
      started: (call) => cards.started(call),
      ended: (call, outcome) => cards.ended(call, outcome),
    });
    const markListed = () => {
      if (self && !self.listed) parts.log.info(`Editor tools: ${runtime.agentName} listed the tandem server's tools.`);
      if (self) self.listed = true;
    };
    try {
      const { server, entry } = await serve(transport, registry, runtime, parts.log, host.stdioBridge);
      self = new SessionEditorTools(server, { transport, entry }, markListed);
      return self;
    } catch (err) {
      parts.log.warn(`Editor tools: the tandem MCP server could not start (${errorMessage(err)}); ${runtime.agentName} works without it.`);
      return undefined;
    }
  }

  /** The session the agent opened (terminals and writes are this session's). */
  attach(sessionId: string): void {
    this.sessionId = sessionId;
  }

  /** The agent's MCP client asked for the tool list. */
  get toolsListed(): boolean {
    return this.listed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.server.dispose();
  }
}

/**
 * The server on the agent's best transport: its own ACP connection (no port, no token), else a
 * loopback HTTP endpoint, else the stdio bridge to one. The HTTP forms record their MCP messages in
 * the protocol log (the inspector shows them on a row of their own, `<agent> · tandem MCP`).
 */
async function serve(
  transport: TandemMcpTransport,
  registry: EditorToolRegistry,
  runtime: AgentRuntime,
  log: EditorToolsParts['log'],
  bridge: string | undefined,
): Promise<{ server: IDisposable; entry: acp.McpServer }> {
  const version = runtime.clientVersion;
  if (transport === 'acp') {
    const server = runtime.mcpOverAcp.open({ registry, version });
    // The stable SDK types have no `type: "acp"` entry yet; the agent said it takes them.
    return { server, entry: server.declaration() as unknown as acp.McpServer };
  }
  const wire = new McpWireLog(log, runtime.agentName);
  const server = await LoopbackMcpServer.start({ registry, version, log: (line) => log.warn(`Editor tools: ${line}`), wire });
  return { server, entry: transport === 'http' || !bridge ? server.declaration() : stdioDeclaration(server, bridge) };
}

/** `run_in_terminal`: the session's terminal manager, its card showing the terminal, to the exit. */
async function runToEnd(
  runtime: AgentRuntime,
  sessionId: string,
  endpoint: SessionEndpoint,
  command: string,
  signal: AbortSignal,
  shown: (terminalId: string) => void,
): Promise<CommandResult> {
  const terminals = runtime.terminalService;
  if (!terminals || !runtime.alive) throw new Error('the agent is not running any more; nothing was run');
  const scope = endpoint.scope;
  const { terminalId } = await terminals.create({ sessionId, command, args: [], ...(scope ? { cwd: scope.cwd } : {}) }, scope);
  shown(terminalId);
  const stop = () => void terminals.kill({ sessionId, terminalId }).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const exit = await terminals.waitForExit({ sessionId, terminalId });
    const out = await terminals.output({ sessionId, terminalId });
    return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output: out.output, truncated: out.truncated };
  } finally {
    signal.removeEventListener('abort', stop);
    // The card keeps the terminal's output: a release only frees the process's handle.
    void terminals.release({ sessionId, terminalId }).catch(() => undefined);
  }
}
