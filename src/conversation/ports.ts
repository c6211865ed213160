import type { AgentLaunchConfig } from '../acp/agentProcess';
import type { ProtocolLog } from '../acp/protocolLog';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { ContextSources } from '../context/mentionSpecs';
import type { RuleStore } from '../permissions/ruleStore';
import type { ConversationStatus, TabView } from '../protocol/messages';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { ConversationMeta } from '../store/conversationMeta';
import type { ReviewHost } from './conversationReview';
import type { Failure } from './failure';
import type { McpDropped, McpServerSpec } from './mcpServers';
import type { EditorQueries } from '../mcp/editorToolsPort';
import type { PromptContext } from './promptPreparer';
import type { BranchPorts } from './promptEditing';
import type { WorktreeHost } from './worktreeHost';

/** What the desk needs besides its conversation: the rules, and where they apply. */
export interface PermissionRules {
  store: RuleStore;
  /** Absolute root of the workspace folder (rules' globs are relative to it). */
  workspaceRoot: string | undefined;
  /** VS Code's workspace trust: in an untrusted workspace no rule allows anything. */
  trusted(): boolean;
}
/** A sign-in command run in a terminal the user sees (the agent's own login). */
export interface TerminalSignIn {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** Runs a sign-in command where the user can see and answer it; resolves with its exit code. */
export type RunSignInTerminal = (spec: TerminalSignIn) => Promise<number | undefined>;
/** What a permission prompt looks like to whoever tells the user about it (a notification). */
export interface PermissionNotice {
  requestId: string;
  title: string;
  options: Array<{ optionId: string; name: string; kind?: string }>;
}

/**
 * Everything the core needs from the editor, built once by the editor host (EditorHost) and handed
 * to the manager whole; tests start from null objects (test/support/editorPorts.ts). Every field is
 * required: "not available here" is a value (undefined, a no-op), never a forgotten field.
 */
export interface EditorPorts {
  files: FileAccess;
  policy: PathPolicy;
  /** The status every conversation shows instead of starting an agent (untrusted workspace). */
  blocked(): ConversationStatus | undefined;
  /** Follow-along: reveal a file the agent works on (the manager calls it for the shown conversation only). */
  follow(path: string, line: number | undefined): void;
  /** A permission prompt appeared in `conversationId` (notified when the panel is not in view). */
  permissionRequested(conversationId: string, notice: PermissionNotice): void;
  /** Saved permission rules; undefined: every request is asked. */
  rules: PermissionRules | undefined;
  /** Checkpoints and the editor for the review; undefined: no changed-files strip. */
  review: ReviewHost | undefined;
  /** `tandem.reviewEdits`: "before" holds each client write until the user accepts it. */
  reviewEdits(): 'after' | 'before';
  /** Runs an agent's terminal sign-in where the user sees it; undefined: not offered to agents. */
  runSignInTerminal: RunSignInTerminal | undefined;
  /**
   * Asks (a modal naming `commandLine`) before an agent's sign-in command first runs; true only
   * when the user chose to run it.
   */
  confirmSignInCommand(agentName: string, commandLine: string): Promise<boolean>;
  /**
   * Asks the user for the value a sign-in method names (an API key) and keeps it for the agent,
   * which gets it in that environment variable from its next start; false when they cancelled.
   */
  askSecret(agentName: string, variable: { name: string; label?: string }): Promise<boolean>;
  /** Opens a web link in the user's browser (a question's URL, after consent). */
  openExternal(url: string): void;
  /** The settings the user chose last for an agent (`tandem.rememberSessionOptions`), and recording one. */
  rememberedOptions(agentName: string): Record<string, string | boolean>;
  rememberOption(agentName: string, configId: string, value: string | boolean): void;
  /** MCP servers for the agents, and the configured ones that cannot be used (with why). */
  mcpServers(): McpServerSpec[];
  mcpProblems(): McpDropped[];
  /** Diagnostics, terminal output and the git diff for `@` mentions. */
  contextSources: ContextSources;
  /** Conversations in their own git worktree; undefined: not offered (no folder, tests). */
  worktrees: WorktreeHost | undefined;
  /** The editor's side of the `tandem` MCP server; undefined: not offered (tests without an editor). */
  editorTools: EditorToolsHost | undefined;
}

/** What the `tandem` MCP server asks of the editor, and whether it may be offered now. */
export interface EditorToolsHost {
  queries: EditorQueries;
  /** `tandem.editorTools` is on and the workspace is trusted: sessions opened now get the server. */
  enabled(): boolean;
  /** The bundled stdio bridge (dist/mcpStdioBridge.js) for agents that take only stdio servers; undefined: none offered to them. */
  stdioBridge?: string;
}

/** What the manager lends one conversation: the editor's ports, bound to it, and its own services. */
export interface ConversationPorts {
  editor: EditorPorts;
  /** The protocol log, with the agent's env values masked (warnings quote agent input). */
  log: ProtocolLog;
  /** A live runtime for the agent (started on demand), or undefined when it is not configured. */
  runtimeFor(agentName: string): AgentRuntime | undefined;
  /**
   * Stops the agent's process so the next connect starts a fresh one (after signing in, a
   * restart); `runtime`: the one the conversation is attached to, when the pool moved on.
   */
  restartAgent(agentName: string, runtime?: AgentRuntime): Promise<void>;
  /** The agent's launch configuration (terminal sign-in runs its own invocation). */
  agentLaunch(agentName: string): AgentLaunchConfig | undefined;
  /** Follow-along, only while this conversation is the shown one. */
  follow(path: string, line: number | undefined): void;
  /** Reads the composer's chips into prompt content. */
  promptContext: PromptContext;
  /** How long to wait for the agent to confirm a cancel before ending the turn ourselves. */
  cancelGraceMs: number;
  /** Why no agent may be started now (untrusted workspace, no agent chosen); undefined: it may. */
  blocked(): ConversationStatus | undefined;
  /** Branches of edited prompts (the manager's); undefined: prompts cannot be edited here. */
  branches?: BranchPorts;
}

/**
 * The conversation as its parts see it: who it is, where it is in its life, and the one way to
 * report a failure. The parts get this and the siblings they use — never the whole conversation.
 */
export interface ConversationState {
  readonly id: string;
  readonly agentName: string;
  readonly meta: Readonly<ConversationMeta>;
  readonly status: ConversationStatus;
  readonly log: ProtocolLog;
  setStatus(status: ConversationStatus): void;
  /** Writes a failure once, all its parts (see Failure). */
  fail(failure: Failure): void;
  /** Something happened here the user has not seen (a badge on a background tab). */
  flag(attention: NonNullable<TabView['attention']>): void;
  /** The conversation was used now (its place in History). */
  touch(): void;
}
