import * as l10n from '@vscode/l10n';
import { stat } from 'node:fs/promises';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { launchSecrets } from '../acp/launchSecrets';
import { lazyRedactingLog, type ProtocolLog } from '../acp/protocolLog';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { RuntimePoolDeps } from '../runtime/runtimePool';
import type { ConversationStatus, MentionSpec } from '../protocol/messages';
import type { ConversationMeta } from '../store/conversationMeta';
import type { ConversationStore } from '../store/conversationStore';
import type { ConversationPorts, EditorPorts } from './ports';
import type { PromptContext } from './promptPreparer';
import type { BranchPorts } from './promptEditing';
import { terminalSignInOffered } from './terminalSignIn';
import { conversationEditor } from './worktreePorts';

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
  /** Everything from the editor, built once. */
  editor: EditorPorts;
  /** How long a cancel may go unconfirmed before the turn is ended here; default 10 s. */
  cancelGraceMs?: number;
  /** How agents are started and reached; default: processes over stdio (fast tests pass a stub). */
  connector?: RuntimePoolDeps['connector'];
}

/** What the manager adds for each conversation of its own. */
export interface ManagerHooks {
  runtimeFor(agentName: string): AgentRuntime | undefined;
  /** Only the shown conversation moves the editor (follow-along). */
  isShown(conversationId: string): boolean;
  /** Stops the agent's process (`runtime`: the one a conversation is attached to, else the pool's). */
  stopRuntime(agentName: string, runtime?: AgentRuntime): Promise<void>;
  promptContext: PromptContext;
  /** Branches of edited prompts. */
  branches?: BranchPorts;
}

/** One conversation's ports: the editor's, bound to it, and the manager's own services. */
export function conversationPorts(meta: ConversationMeta, deps: ConversationManagerDeps, hooks: ManagerHooks): ConversationPorts {
  // A conversation in its own worktree sees the editor rooted there.
  const { editor, rebase } = conversationEditor(deps.editor, meta);
  return {
    editor,
    // Warnings quote agent input, which may echo env values: masked with the agent's current ones.
    log: lazyRedactingLog(deps.log, () => {
      const agent = deps.agents.launchConfig(meta.agentName);
      return agent ? launchSecrets(agent) : [];
    }),
    runtimeFor: hooks.runtimeFor,
    restartAgent: hooks.stopRuntime,
    agentLaunch: (name) => deps.agents.launchConfig(name),
    follow: (path, line) => {
      if (hooks.isShown(meta.id)) editor.follow(path, line);
    },
    promptContext: rebase ? worktreePromptContext(editorPromptContext(editor), rebase, hooks.promptContext) : hooks.promptContext,
    cancelGraceMs: deps.cancelGraceMs ?? 10_000,
    branches: hooks.branches,
    blocked: () => (meta.agentName === '' ? (editor.blocked() ?? { kind: 'no_agent' }) : (editor.blocked() ?? worktreeMissing(meta, editor))),
  };
}

/** A worktree's prompt context: its own files and git diff, the manager's handed-over conversations. */
function worktreePromptContext(own: PromptContext, rebase: (spec: MentionSpec) => MentionSpec, manager: PromptContext): PromptContext {
  return { ...own, rebase, sources: { ...own.sources, conversation: manager.sources.conversation } };
}

/** A conversation whose worktree was deleted by hand cannot start its agent there: stopped, saying why. */
function worktreeMissing(meta: ConversationMeta, editor: EditorPorts): ConversationStatus | undefined {
  if (!meta.worktree || !editor.worktrees || editor.worktrees.service.exists(meta.worktree)) return undefined;
  return { kind: 'stopped', agentName: meta.agentName, reason: l10n.t('The worktree is missing') };
}

/**
 * How chips become prompt content in the editor: mentioned files are read like the agent's own
 * reads (the editor's text, within the workspace unless the user allows more).
 */
export function editorPromptContext(editor: Pick<EditorPorts, 'files' | 'policy' | 'contextSources'>): PromptContext {
  const { files, policy } = editor;
  return {
    reader: {
      readText: async (path) => files.readText(await policy.check(path, 'read')),
      fileSize: async (path) => (policy.isInWorkspace(path) ? (await stat(path).catch(() => undefined))?.size : undefined),
    },
    sources: editor.contextSources,
    workspaceRoots: () => policy.roots(),
    pathStyle: process.platform === 'win32' ? 'windows' : 'posix',
  };
}

/** Client capabilities beyond the handlers, which may differ by agent. */
export type ExtraCapabilities = (agent: AgentLaunchConfig) => {
  session: Record<string, unknown>;
  auth: { terminal: boolean };
  _meta: Record<string, unknown>;
  subagents: Record<string, never>;
};

/**
 * Client capabilities beyond the handlers, advertised only because each works: boolean options,
 * notices, compaction and quota updates render in the panel; terminal sign-in needs a terminal to run in, and
 * is for agents it would be offered to (not a replay, not an agent on another machine).
 * `_meta.terminal_output` (Zed's convention): commands the agent runs itself stream into a terminal
 * view of theirs (agentTerminals.ts); without it claude-agent-acp sends Bash output as a text block
 * instead of a terminal. `_meta.terminal_output_delta`: both adapters then append under that key
 * only, which leaves `terminal_output` one meaning, claude's snapshot that replaces a background
 * command's placeholder (codex-acp 2.6 streams its reads' output as deltas too; they show in a
 * terminal of their card).
 */
export function clientCapabilities(terminalSignIn: boolean): ExtraCapabilities {
  return (agent) => ({
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {}, quota: {} },
    auth: { terminal: terminalSignIn && terminalSignInOffered(agent) },
    _meta: { terminal_output: true, terminal_output_delta: true },
    // The subagents RFD: child sessions are routed to a nested child thread (SessionRouter, Thread).
    subagents: {},
  });
}
