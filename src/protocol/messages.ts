/**
 * Host ⇄ webview protocol. With its neighbours in src/protocol, the only code both sides import
 * (the webview's TypeScript project sees nothing else of src/).
 *
 * Host → webview messages state facts (a snapshot, then keyed changes); webview → host messages are
 * commands. ACP types never cross this boundary: everything here is a plain, JSON-serialisable DTO.
 * Bump PROTOCOL_VERSION when a shape changes so a stale webview can tell.
 */

export const PROTOCOL_VERSION = 8;

export * from './agentViews';
export * from './quotaViews';
export * from './entryViews';
export * from './mentionViews';
export * from './toolCallViews';
export * from './webviewMessages';
export * from './worktreeViews';

import type { AccountView, AgentChoice, AgentPreset, CommandView, ConfigOptionView, ModesView, UsageView } from './agentViews';
import type { QuotaView } from './quotaViews';
import type { Entry } from './entryViews';
import type { MentionCandidate, MentionChip, PromptCapabilitiesView } from './mentionViews';
import type { DiffLineView, TerminalView } from './toolCallViews';
import type { ReviewNoteView, WorktreeOffer, WorktreeView } from './worktreeViews';

/** Where a conversation is in its life. */
export type ConversationStatus =
  | { kind: 'no_agent' }
  | { kind: 'untrusted' }
  /** Not connected to its agent (restored, or the agent was restarted for another conversation); connects when needed. */
  | { kind: 'idle'; agentName: string }
  /**
   * The agent starts, or the session is being opened or restored (`detail` says which);
   * `reconnecting` while the connection to an agent on another machine is being made again.
   */
  | { kind: 'starting'; agentName: string; detail?: string; reconnecting?: { attempt: number; attempts: number } }
  | { kind: 'ready'; agentName: string }
  | { kind: 'running'; agentName: string }
  | { kind: 'cancelling'; agentName: string }
  | { kind: 'stopped'; agentName: string; reason: string };

/** A prompt the user wrote that is not sent yet. */
export interface QueuedPromptView {
  id: string;
  text: string;
  /** Chips sent with it. */
  mentions?: MentionChip[];
}

/** Prompts waiting to be sent, in order, and why they wait. */
export interface QueueView {
  items: QueuedPromptView[];
  /**
   * Set when the queue does not send by itself (the last turn failed or was cancelled, or the agent
   * could not start): the user decides. Absent: the next item goes as soon as the agent is ready.
   */
  paused?: string;
}

/** One change of a file, as the review shows it (line numbers 1-based). */
export interface HunkView {
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** `-line` / `+line`, capped for the panel. */
  lines: string[];
}

/** A file changed since the conversation's review baseline. */
export interface ChangedFileView {
  /** Absolute path. */
  path: string;
  /** Workspace-relative, `/`-separated, for display. */
  relPath: string;
  status: 'added' | 'modified' | 'deleted';
  added: number;
  removed: number;
  /** No line counts or hunks (binary, too large, or its earlier content was not recorded). */
  binary: boolean;
  /** False when Undo cannot restore it (its earlier content was too large to record). */
  restorable: boolean;
  /**
   * It changed during a turn but not through the agent's edits Tandem saw (a command the agent ran,
   * another program): Keep all and Undo all leave it alone; only its own Keep or Undo act on it.
   */
  outside?: boolean;
  /** The file's hunks, when the user opened them. */
  hunks?: HunkView[];
}

/** The changed-files strip of a conversation. */
export interface ReviewView {
  files: ChangedFileView[];
  /** Set while an Undo, Keep or rewind runs, or when the review failed (the message says why). */
  busy?: boolean;
  error?: string;
}

/** One open conversation as its tab shows it. */
export interface TabView {
  id: string;
  title: string;
  agentName: string;
  status: ConversationStatus['kind'];
  /** A background conversation that needs the user: a permission prompt, a finished turn, an error. */
  attention?: 'permission' | 'finished' | 'error';
  /** What the agent says it does (codex's threadStatus): `waiting` for the user, `working`, `idle`; absent: it does not say. */
  activity?: 'working' | 'waiting' | 'idle';
  /** The branch of the conversation's worktree, when it works in one. */
  branch?: string;
}

/** Everything the panel shows of one conversation (sent whole when it becomes the shown one). */
export interface ConversationSnapshot {
  /** Tandem's id of the conversation (stable across restarts). */
  conversationId: string;
  /** The agent's ACP session id, once known. */
  sessionId?: string;
  title: string;
  status: ConversationStatus;
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  /**
   * How many entries come before `entries` and follow in an `olderEntries` message: a long thread's
   * first message carries only its last screens, so they paint before the rest has crossed over.
   */
  olderEntries?: number;
  /** The agent's latest slash commands; absent means none. */
  commands?: CommandView[];
  /** The session's modes; absent when the agent has none (no picker is shown). */
  modes?: ModesView;
  queue?: QueueView;
  review?: ReviewView;
  /** The session's settings (model, reasoning level, …); when present the legacy Mode picker hides. */
  configOptions?: ConfigOptionView[];
  usage?: UsageView;
  /** The next prompt the agent predicts, shown as ghost text in the empty composer. */
  promptSuggestion?: string;
  /** The account's limits (quota_update), the last snapshot the agent sent; absent: none reported. */
  quota?: QuotaView;
  /** Who the agent says it is signed in as; absent: it has not said. */
  account?: AccountView;
  /** The agent can sign out (`Tandem: Sign Out`): it advertised `logout`. */
  canSignOut?: boolean;
  /** What the agent accepts in a prompt besides text and links (the composer warns before sending). */
  promptCapabilities?: PromptCapabilitiesView;
  /** The git worktree the conversation works in; absent: it works in the workspace folder. */
  worktree?: WorktreeView;
  /** Review notes written so far, in the order written (pending ones go with the next prompt). */
  notes?: ReviewNoteView[];
}

/** The whole panel: the shown conversation plus what the header needs. */
export interface PanelSnapshot extends ConversationSnapshot {
  protocolVersion: number;
  agents: AgentChoice[];
  /** Name of the shown conversation's agent (or the default one), if any. */
  selectedAgent?: string;
  presets: AgentPreset[];
  followAgent: boolean;
  /** Open conversations, in tab order. */
  tabs?: TabView[];
  /** Whether a new conversation can have its own git worktree here. */
  worktrees?: WorktreeOffer;
}

/**
 * Changes to one conversation. `conversationId` names it; the panel ignores changes for a
 * conversation it is not showing (absent: the shown one).
 */
export type ConversationChange = { conversationId?: string } &
  /** Insert or replace one entry (keyed by id); new ids are appended at the end. */
  (
    | { type: 'entryUpserted'; entry: Entry }
    /** Streaming: append text to an agent/thought/user entry. */
    | { type: 'textAppended'; id: string; text: string }
    | { type: 'entriesCleared' }
    | { type: 'statusChanged'; status: ConversationStatus }
    /** Replace a terminal's view. */
    | { type: 'terminalChanged'; terminal: TerminalView }
    | { type: 'terminalAppended'; terminalId: string; text: string; truncated: boolean }
    /** The agent's slash commands, replaced whole. */
    | { type: 'commandsChanged'; commands: CommandView[] }
    /** The session's modes replaced whole; `modes` absent: the agent has none (or no session). */
    | { type: 'modesChanged'; modes?: ModesView }
    | { type: 'queueChanged'; queue: QueueView }
    | { type: 'reviewChanged'; review: ReviewView }
    | { type: 'configOptionsChanged'; options: ConfigOptionView[] }
    | { type: 'usageChanged'; usage?: UsageView }
    /** The next prompt the agent predicts (ghost text in the empty composer); absent: none. */
    | { type: 'promptSuggestionChanged'; suggestion?: string }
    /** The account's limits, replaced whole; absent: none known. */
    | { type: 'quotaChanged'; quota?: QuotaView }
    | { type: 'promptCapabilitiesChanged'; promptCapabilities?: PromptCapabilitiesView }
    /** Who the agent is signed in as (absent: not said) and whether Sign out can reach the agent. */
    | { type: 'accountChanged'; account?: AccountView; canSignOut: boolean }
    /** The conversation's worktree changed (state, counts, an action's outcome); absent: it has none. */
    | { type: 'worktreeChanged'; worktree?: WorktreeView }
    /** The review notes, replaced whole. */
    | { type: 'notesChanged'; notes: ReviewNoteView[] }
    /** The ACP session id or the title changed. */
    | { type: 'conversationChanged'; sessionId?: string; title: string }
  );

/** Host → webview. */
export type HostMessage =
  | { type: 'snapshot'; snapshot: PanelSnapshot }
  /** Another conversation is shown now (tab switch): replaces the thread, status, queue, … */
  | { type: 'conversationShown'; conversation: ConversationSnapshot }
  /**
   * The entries (and their terminals) a snapshot announced in `olderEntries`, sent when the panel
   * asks (`olderEntriesWanted`) so that its first screen is painted before they arrive; they go
   * before the snapshot's entries.
   */
  | { type: 'olderEntries'; conversationId: string; entries: Entry[]; terminals: Record<string, TerminalView> }
  | ConversationChange
  /** The open conversations (tabs) and which one is shown. */
  | { type: 'tabsChanged'; tabs: TabView[]; activeId: string }
  | { type: 'agentsChanged'; agents: AgentChoice[]; selectedAgent?: string; presets: AgentPreset[] }
  | { type: 'followChanged'; followAgent: boolean }
  /** Whether new conversations can have a worktree changed (the workspace became trusted, the setting changed). */
  | { type: 'worktreeOfferChanged'; worktrees: WorktreeOffer }
  /** Suggestions for the `@` picker, answering the webview's `mentionQuery` of the same id. */
  | { type: 'mentionResults'; requestId: number; items: MentionCandidate[] }
  /**
   * Lines of a diff the panel asked for (`fetchDiffLines` of the same id): `oldLine`/`newLine` number
   * the first of them. `error` instead when they cannot be had (the diff changed, or was not kept).
   */
  | { type: 'diffLines'; requestId: number; lines: DiffLineView[]; oldLine: number; newLine: number; error?: string }
  /** Chips to add to a conversation's composer (Add Selection / Add File commands, drops the host resolved). */
  | { type: 'mentionsAdded'; conversationId: string; chips: MentionChip[] }
  /** The message `entryId` is on the clipboard as Markdown (Copy as Markdown): the panel says so. */
  | { type: 'messageCopied'; conversationId: string; entryId: string }
  /** Several messages coalesced by the host; applied in order. */
  /**
   * Land on a waiting permission prompt (the user chose "Show" on its notification): the panel, once
   * it shows the conversation, scrolls to the prompt and focuses its first one-time option.
   */
  | { type: 'revealPrompt'; conversationId: string; requestId: string }
  /**
   * Land on an entry (the user chose a search match): the panel, once it shows the conversation,
   * scrolls the entry into view and highlights it, `query` marked in its text, until the next
   * interaction.
   */
  | { type: 'revealEntry'; conversationId: string; entryId: string; query?: string }
  | { type: 'batch'; messages: HostMessage[] };
