/**
 * Host ⇄ webview protocol. With its neighbours in src/protocol, the only code both sides import
 * (the webview's TypeScript project sees nothing else of src/).
 *
 * Host → webview messages state facts (a snapshot, then keyed changes); webview → host messages are
 * commands. ACP types never cross this boundary: everything here is a plain, JSON-serialisable DTO.
 * Bump PROTOCOL_VERSION when a shape changes so a stale webview can tell.
 */

export const PROTOCOL_VERSION = 9;

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
  | { readonly kind: 'no_agent' }
  | { readonly kind: 'untrusted' }
  /** Not connected to its agent (restored, or the agent was restarted for another conversation); connects when needed. */
  | { readonly kind: 'idle'; readonly agentName: string }
  /**
   * The agent starts, or the session is being opened or restored (`detail` says which);
   * `reconnecting` while the connection to an agent on another machine is being made again.
   */
  | {
      readonly kind: 'starting';
      readonly agentName: string;
      readonly detail?: string;
      readonly reconnecting?: { readonly attempt: number; readonly attempts: number };
    }
  | { readonly kind: 'ready'; readonly agentName: string }
  | { readonly kind: 'running'; readonly agentName: string }
  | { readonly kind: 'cancelling'; readonly agentName: string }
  | { readonly kind: 'stopped'; readonly agentName: string; readonly reason: string };

/** A prompt the user wrote that is not sent yet. */
export interface QueuedPromptView {
  readonly id: string;
  readonly text: string;
  /** Chips sent with it. */
  readonly mentions?: readonly MentionChip[];
}

/** Prompts waiting to be sent, in order, and why they wait. */
export interface QueueView {
  readonly items: readonly QueuedPromptView[];
  /**
   * Set when the queue does not send by itself (the last turn failed or was cancelled, or the agent
   * could not start): the user decides. Absent: the next item goes as soon as the agent is ready.
   */
  readonly paused?: string;
}

/** One change of a file, as the review shows it (line numbers 1-based). */
export interface HunkView {
  readonly index: number;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** `-line` / `+line`, capped for the panel. */
  readonly lines: readonly string[];
}

/** A file changed since the conversation's review baseline. */
export interface ChangedFileView {
  /** Absolute path. */
  readonly path: string;
  /** Workspace-relative, `/`-separated, for display. */
  readonly relPath: string;
  readonly status: 'added' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
  /** No line counts or hunks (binary, too large, or its earlier content was not recorded). */
  readonly binary: boolean;
  /** False when Undo cannot restore it (its earlier content was too large to record). */
  readonly restorable: boolean;
  /**
   * It changed during a turn but not through the agent's edits Tandem saw (a command the agent ran,
   * another program): Keep all and Undo all leave it alone; only its own Keep or Undo act on it.
   */
  readonly outside?: boolean;
  /** The file's hunks, when the user opened them. */
  readonly hunks?: readonly HunkView[];
}

/** The changed-files strip of a conversation. */
export interface ReviewView {
  readonly files: readonly ChangedFileView[];
  /** Set while an Undo, Keep or rewind runs, or when the review failed (the message says why). */
  readonly busy?: boolean;
  readonly error?: string;
}

/** One open conversation as its tab shows it. */
export interface TabView {
  readonly id: string;
  readonly title: string;
  readonly agentName: string;
  readonly status: ConversationStatus['kind'];
  /** A background conversation that needs the user: a permission prompt, a finished turn, an error. */
  readonly attention?: 'permission' | 'finished' | 'error';
  /** What the agent says it does (codex's threadStatus): `waiting` for the user, `working`, `idle`; absent: it does not say. */
  readonly activity?: 'working' | 'waiting' | 'idle';
  /** The branch of the conversation's worktree, when it works in one. */
  readonly branch?: string;
}

/** Everything the panel shows of one conversation (sent whole when it becomes the shown one). */
export interface ConversationSnapshot {
  /** Tandem's id of the conversation (stable across restarts). */
  readonly conversationId: string;
  /** The agent's ACP session id, once known. */
  readonly sessionId?: string;
  readonly title: string;
  readonly status: ConversationStatus;
  readonly entries: readonly Entry[];
  readonly terminals: Readonly<Record<string, TerminalView>>;
  /**
   * How many entries come before `entries` and follow in an `olderEntries` message: a long thread's
   * first message carries only its last screens, so they paint before the rest has crossed over.
   */
  readonly olderEntries?: number;
  /** The agent's latest slash commands; absent means none. */
  readonly commands?: readonly CommandView[];
  /** The session's modes; absent when the agent has none (no picker is shown). */
  readonly modes?: ModesView;
  readonly queue?: QueueView;
  readonly review?: ReviewView;
  /** The session's settings (model, reasoning level, …); when present the legacy Mode picker hides. */
  readonly configOptions?: readonly ConfigOptionView[];
  readonly usage?: UsageView;
  /** The next prompt the agent predicts, shown as ghost text in the empty composer. */
  readonly promptSuggestion?: string;
  /** The account's limits (quota_update), the last snapshot the agent sent; absent: none reported. */
  readonly quota?: QuotaView;
  /** Who the agent says it is signed in as; absent: it has not said. */
  readonly account?: AccountView;
  /** The agent can sign out (`Tandem: Sign Out`): it advertised `logout`. */
  readonly canSignOut?: boolean;
  /** What the agent accepts in a prompt besides text and links (the composer warns before sending). */
  readonly promptCapabilities?: PromptCapabilitiesView;
  /** The git worktree the conversation works in; absent: it works in the workspace folder. */
  readonly worktree?: WorktreeView;
  /** Review notes written so far, in the order written (pending ones go with the next prompt). */
  readonly notes?: readonly ReviewNoteView[];
}

/** The whole panel: the shown conversation plus what the header needs. */
export interface PanelSnapshot extends ConversationSnapshot {
  readonly protocolVersion: number;
  readonly agents: readonly AgentChoice[];
  /** Name of the shown conversation's agent (or the default one), if any. */
  readonly selectedAgent?: string;
  readonly presets: readonly AgentPreset[];
  readonly followAgent: boolean;
  /** Open conversations, in tab order. */
  readonly tabs?: readonly TabView[];
  /** Whether a new conversation can have its own git worktree here. */
  readonly worktrees?: WorktreeOffer;
}

/**
 * Changes to one conversation. `conversationId` names it; the panel ignores changes for a
 * conversation it is not showing (absent: the shown one).
 */
export type ConversationChange = { readonly conversationId?: string } &
  /** Insert or replace one entry (keyed by id); new ids are appended at the end. */
  (
    | { readonly type: 'entryUpserted'; readonly entry: Entry }
    /** Streaming: append text to an agent/thought/user entry. */
    | { readonly type: 'textAppended'; readonly id: string; readonly text: string }
    | { readonly type: 'entriesCleared' }
    | { readonly type: 'statusChanged'; readonly status: ConversationStatus }
    /** Replace a terminal's view. */
    | { readonly type: 'terminalChanged'; readonly terminal: TerminalView }
    | { readonly type: 'terminalAppended'; readonly terminalId: string; readonly text: string; readonly truncated: boolean }
    /** The agent's slash commands, replaced whole. */
    | { readonly type: 'commandsChanged'; readonly commands: readonly CommandView[] }
    /** The session's modes replaced whole; `modes` absent: the agent has none (or no session). */
    | { readonly type: 'modesChanged'; readonly modes?: ModesView }
    | { readonly type: 'queueChanged'; readonly queue: QueueView }
    | { readonly type: 'reviewChanged'; readonly review: ReviewView }
    | { readonly type: 'configOptionsChanged'; readonly options: readonly ConfigOptionView[] }
    | { readonly type: 'usageChanged'; readonly usage?: UsageView }
    /** The next prompt the agent predicts (ghost text in the empty composer); absent: none. */
    | { readonly type: 'promptSuggestionChanged'; readonly suggestion?: string }
    /** The account's limits, replaced whole; absent: none known. */
    | { readonly type: 'quotaChanged'; readonly quota?: QuotaView }
    | { readonly type: 'promptCapabilitiesChanged'; readonly promptCapabilities?: PromptCapabilitiesView }
    /** Who the agent is signed in as (absent: not said) and whether Sign out can reach the agent. */
    | { readonly type: 'accountChanged'; readonly account?: AccountView; readonly canSignOut: boolean }
    /** The conversation's worktree changed (state, counts, an action's outcome); absent: it has none. */
    | { readonly type: 'worktreeChanged'; readonly worktree?: WorktreeView }
    /** The review notes, replaced whole. */
    | { readonly type: 'notesChanged'; readonly notes: readonly ReviewNoteView[] }
    /** The ACP session id or the title changed. */
    | { readonly type: 'conversationChanged'; readonly sessionId?: string; readonly title: string }
  );

/** Host → webview. */
export type HostMessage =
  | { readonly type: 'snapshot'; readonly snapshot: PanelSnapshot }
  /** Another conversation is shown now (tab switch): replaces the thread, status, queue, … */
  | { readonly type: 'conversationShown'; readonly conversation: ConversationSnapshot }
  /**
   * The entries (and their terminals) a snapshot announced in `olderEntries`, sent when the panel
   * asks (`olderEntriesWanted`) so that its first screen is painted before they arrive; they go
   * before the snapshot's entries.
   */
  | {
      readonly type: 'olderEntries';
      readonly conversationId: string;
      readonly entries: readonly Entry[];
      readonly terminals: Readonly<Record<string, TerminalView>>;
    }
  | ConversationChange
  /** The open conversations (tabs) and which one is shown. */
  | { readonly type: 'tabsChanged'; readonly tabs: readonly TabView[]; readonly activeId: string }
  | { readonly type: 'agentsChanged'; readonly agents: readonly AgentChoice[]; readonly selectedAgent?: string; readonly presets: readonly AgentPreset[] }
  | { readonly type: 'followChanged'; readonly followAgent: boolean }
  /** Whether new conversations can have a worktree changed (the workspace became trusted, the setting changed). */
  | { readonly type: 'worktreeOfferChanged'; readonly worktrees: WorktreeOffer }
  /** Suggestions for the `@` picker, answering the webview's `mentionQuery` of the same id. */
  | { readonly type: 'mentionResults'; readonly requestId: number; readonly items: readonly MentionCandidate[] }
  /**
   * Lines of a diff the panel asked for (`fetchDiffLines` of the same id): `oldLine`/`newLine` number
   * the first of them. `error` instead when they cannot be had (the diff changed, or was not kept).
   */
  | {
      readonly type: 'diffLines';
      readonly requestId: number;
      readonly lines: readonly DiffLineView[];
      readonly oldLine: number;
      readonly newLine: number;
      readonly error?: string;
    }
  /** Chips to add to a conversation's composer (Add Selection / Add File commands, drops the host resolved). */
  | { readonly type: 'mentionsAdded'; readonly conversationId: string; readonly chips: readonly MentionChip[] }
  /** The message `entryId` is on the clipboard as Markdown (Copy as Markdown): the panel says so. */
  | { readonly type: 'messageCopied'; readonly conversationId: string; readonly entryId: string }
  /** Several messages coalesced by the host; applied in order. */
  /**
   * Land on a waiting permission prompt (the user chose "Show" on its notification): the panel, once
   * it shows the conversation, scrolls to the prompt and focuses its first one-time option.
   */
  | { readonly type: 'revealPrompt'; readonly conversationId: string; readonly requestId: string }
  /**
   * Land on an entry (the user chose a search match): the panel, once it shows the conversation,
   * scrolls the entry into view and highlights it, `query` marked in its text, until the next
   * interaction.
   */
  | { readonly type: 'revealEntry'; readonly conversationId: string; readonly entryId: string; readonly query?: string }
  | { readonly type: 'batch'; readonly messages: readonly HostMessage[] };
