import { stat } from 'node:fs/promises';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { lazyRedactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { ContextSources } from '../context/mentionSpecs';
import type { ConversationStatus } from '../protocol/messages';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { Conversation, ConversationDeps } from './conversation';
import type { ConversationMeta } from '../store/conversationMeta';
import type { ReviewHost } from './conversationReview';
import type { ConversationStore } from '../store/conversationStore';
import type { McpDropped, McpServerSpec } from './mcpServers';
import type { PermissionRules } from './permissionDesk';
import { NO_CONTEXT_SOURCES, type PromptContext } from './promptPreparer';
import type { RunSignInTerminal } from './signIn';

/** The agents Tandem can start (settings), as the core needs them. */
export interface AgentCatalog {
  /** The launch configuration of a configured agent, or undefined. */
  launchConfig(name: string): AgentLaunchConfig | undefined;
  /** The agent new conversations use. */
  defaultName(): string | undefined;
}

export interface ConversationManagerDeps {
  agents: AgentCatalog;
  /** Where conversations are kept; undefined: in memory only (no folder to store them for). */
  store: ConversationStore | undefined;
  cwd: string;
  log: ProtocolLog;
  clientInfo: { name: string; version: string };
  files: FileAccess;
  policy: PathPolicy;
  /** The status every conversation shows instead of starting an agent (untrusted workspace). */
  blocked(): ConversationStatus | undefined;
  /** Follow-along for the shown conversation. */
  follow(path: string, line: number | undefined): void;
  onPermissionRequested?(conversation: Conversation, info: { requestId: string; title: string; options: Array<{ optionId: string; name: string; kind?: string }> }): void;
  cancelGraceMs?: number;
  /** Saved permission rules (every conversation judges requests by them). */
  rules?: PermissionRules;
  /** Checkpoints and the editor for reviewing what agents changed. */
  review?: ReviewHost;
  /** `tandem.reviewEdits`. */
  reviewEdits?(): 'after' | 'before';
  /** Terminal sign-in (advertised to agents only when given). */
  runSignInTerminal?: RunSignInTerminal;
  openExternal?(url: string): void;
  /** Remembered session settings per agent (`tandem.rememberSessionOptions`). */
  rememberedOptions?(agentName: string): Record<string, string | boolean>;
  rememberOption?(agentName: string, configId: string, value: string | boolean): void;
  /** MCP servers for the agents (`tandem.mcpServers`, `.vscode/mcp.json`), and the unusable ones. */
  mcpServers?(): McpServerSpec[];
  mcpProblems?(): McpDropped[];
  /** Diagnostics, terminal output and the git diff for `@` mentions (none: those are sent empty). */
  contextSources?: ContextSources;
}

/** What the manager lends each conversation of its own. */
export interface ManagerHooks {
  runtimeFor(agentName: string): AgentRuntime | undefined;
  /** Only the shown conversation moves the editor (follow-along). */
  isShown(conversation: Conversation): boolean;
  stopRuntime(agentName: string): Promise<void>;
  promptContext: PromptContext;
}

/** A conversation's dependencies: the editor's (through the manager's deps) and the manager's own. */
export function conversationDeps(meta: ConversationMeta, deps: ConversationManagerDeps, hooks: ManagerHooks): ConversationDeps {
  return {
    // Warnings quote agent input, which may echo env values: masked with the agent's current ones.
    log: lazyRedactingLog(deps.log, () => Object.values(deps.agents.launchConfig(meta.agentName)?.env ?? {})),
    isInWorkspace: (p) => deps.policy.isInWorkspace(p),
    runtimeFor: hooks.runtimeFor,
    follow: (c, path, line) => {
      if (hooks.isShown(c)) deps.follow(path, line);
    },
    onPermissionRequested: (c, info) => deps.onPermissionRequested?.(c, info),
    cancelGraceMs: deps.cancelGraceMs,
    rules: deps.rules,
    review: deps.review,
    reviewEdits: () => deps.reviewEdits?.() ?? 'after',
    runSignInTerminal: deps.runSignInTerminal,
    openExternal: deps.openExternal,
    rememberedOptions: deps.rememberedOptions,
    rememberOption: deps.rememberOption,
    mcpServers: deps.mcpServers,
    mcpProblems: deps.mcpProblems,
    promptContext: hooks.promptContext,
    agentLaunch: (name) => deps.agents.launchConfig(name),
    restartAgent: hooks.stopRuntime,
    blocked: () => (meta.agentName === '' ? (deps.blocked() ?? { kind: 'no_agent' }) : deps.blocked()),
  };
}

/**
 * How chips become prompt content in the editor: mentioned files are read like the agent's own
 * reads (the editor's text, within the workspace unless the user allows more).
 */
export function editorPromptContext(deps: Pick<ConversationManagerDeps, 'files' | 'policy' | 'contextSources'>): PromptContext {
  const { files, policy } = deps;
  return {
    reader: {
      readText: async (path) => files.readText(await policy.check(path, 'read')),
      fileSize: async (path) => (policy.isInWorkspace(path) ? (await stat(path).catch(() => undefined))?.size : undefined),
    },
    sources: deps.contextSources ?? NO_CONTEXT_SOURCES,
    workspaceRoots: () => policy.roots(),
    pathStyle: process.platform === 'win32' ? 'windows' : 'posix',
  };
}

/**
 * Client capabilities beyond the handlers, advertised only because each works: boolean options,
 * notices and compaction render in the panel; terminal sign-in needs a terminal to run in.
 */
export function clientCapabilities(terminalSignIn: boolean): { session: Record<string, unknown>; auth: { terminal: boolean } } {
  return { session: { configOptions: { boolean: {} }, notices: {}, compaction: {} }, auth: { terminal: terminalSignIn } };
}
