/**
 * Panel → host messages, each declared once: its fields (as typed checks, so the type and the
 * validator are the same thing), whether it is about one conversation (`scope`), and who serves it
 * (`by`). From this table derive the `WebviewMessage` union, the host's validator, the panel's
 * scoping (it adds the shown conversation's id) and the two dispatch tables the compiler checks for
 * completeness (the core's in src/conversation/panelCommands.ts, the editor's in
 * src/vscode/host/editorCommands.ts; the panel connection serves its own).
 *
 * Adding a message: a row here, and its handler in the table `by` names. Messages are commands; the
 * panel renders agent content, so the host treats every one as untrusted input.
 */
import { bool, count, either, int, listOf, object, oneOf, optional, shortStr, str, unchecked, type DeclaredMessage, type Fields } from './fieldChecks';
import { isMentionSpec } from './mentionChecks';
import type { MentionSpec } from './mentionViews';

/** `conversation`: about one conversation; carries its `conversationId` (the panel adds the shown one). */
type Scope = 'conversation' | 'panel';
/** Who serves it: the panel connection itself, the vscode-free core, or the editor side. */
type Server = 'connection' | 'core' | 'editor';

interface Declaration {
  readonly scope: Scope;
  readonly by: Server;
  readonly fields: Fields;
}

/** Most chips one prompt may carry, and most URIs one drop may name. */
const MAX_MENTIONS = 100;
const mentions = listOf<MentionSpec>((v): v is MentionSpec => isMentionSpec(v), MAX_MENTIONS);
const paths = optional(listOf(str));
/** Longest code block the panel may hand the editor (characters). */
const MAX_CODE = 10_000_000;

const conversation = <B extends Server, F extends Fields>(by: B, fields: F) => ({ scope: 'conversation', by, fields }) as const;
const panel = <B extends Server, F extends Fields>(by: B, fields: F) => ({ scope: 'panel', by, fields }) as const;

export const WEBVIEW_MESSAGES = {
  /** The panel loaded: send the snapshot. Any `ready` passes, so a panel of another version still gets the reload notice. */
  ready: panel('connection', { protocolVersion: unchecked<number>() }),
  /** The Reload button of the version notice: the host loads the panel afresh. Its shape never changes. */
  reloadView: panel('connection', {}),
  /** The snapshot's last screens are painted: send the older entries it announced (`olderEntries`). */
  olderEntriesWanted: panel('connection', { conversationId: str }),
  /** Whether the panel has keyboard focus (permission notifications are for when it has not). */
  focusChanged: panel('connection', { focused: bool }),

  prompt: conversation('core', { text: str, mentions: optional(mentions) }),
  cancel: conversation('core', {}),
  /** Stop on a subagent's card (a child session the agent lets the client cancel). */
  stopSubagent: conversation('core', { sessionId: shortStr(500) }),
  respondPermission: conversation('core', { requestId: str, optionId: str }),
  /** The New Conversation button: in a worktree when `tandem.newConversationsInWorktree` is on. */
  newConversation: panel('editor', {}),
  selectConversation: panel('core', { conversationId: str }),
  closeConversation: panel('core', { conversationId: str }),
  restart: conversation('core', {}),
  /** Retry after a failure: restart the agent if needed and send the queue. */
  retry: conversation('core', {}),
  /** Give up on the agent's lost session: a new one, the transcript stays above. */
  startFresh: conversation('core', {}),
  signIn: conversation('core', {}),
  /** The signed-in row's Sign out: as `Tandem: Sign Out of the Agent`, for this conversation's agent. */
  signOut: conversation('editor', {}),
  /** The user picked a mode; the host asks the agent (`session/set_mode`). */
  setMode: conversation('core', { modeId: str }),
  /** Queue editing: change, remove, move (by `offset` places), send now (stops the running turn first). */
  queueEdit: conversation('core', { itemId: str, text: str }),
  queueRemove: conversation('core', { itemId: str }),
  queueMove: conversation('core', { itemId: str, offset: int }),
  queueSendNow: conversation('core', { itemId: str }),
  /** Let a paused queue send again, or drop everything in it. */
  queueResume: conversation('core', {}),
  queueClear: conversation('core', {}),
  /** Save the rule proposed on a card, with the matcher value and scope the user left in the form. */
  saveRule: conversation('core', { requestId: str, value: str, scope: oneOf('conversation', 'workspace', 'global') }),
  dismissRule: conversation('core', { requestId: str }),
  /** Review: keep or undo changed files (all when `paths` is absent), open a file's hunks, keep or undo one. */
  reviewKeep: conversation('core', { paths }),
  reviewUndo: conversation('core', { paths }),
  reviewHunks: conversation('core', { path: str, open: bool }),
  reviewHunk: conversation('core', { path: str, index: int, action: oneOf('accept', 'reject') }),
  /**
   * A review note on lines `startLine`–`endLine` of `path` (as changed), with the diff hunk it is
   * about: it goes with the next prompt. Remove one, or drop every note not sent yet.
   */
  reviewNoteAdd: conversation('core', { path: str, startLine: int, endLine: int, text: shortStr(20_000), hunk: optional(shortStr(40_000)) }),
  reviewNoteRemove: conversation('core', { noteId: str }),
  reviewNotesClear: conversation('core', {}),
  /**
   * The conversation's worktree: bring its changes into the workspace (after a preview), commit them
   * on its branch, discard them (after a confirmation), or recreate a worktree deleted by hand.
   */
  worktreeApply: conversation('core', {}),
  worktreeCommit: conversation('core', {}),
  worktreeDiscard: conversation('core', {}),
  worktreeRecreate: conversation('core', {}),
  /** Restore the files to before the turn of this user entry (after a preview). */
  rewind: conversation('core', { entryId: str }),
  /** Retry on a turn end: the same prompt and context again, in the same session (the agent restarted first if it went away). */
  retryTurn: conversation('core', { entryId: str }),
  /**
   * Send an earlier prompt again, edited: the files go back to before its turn (after a preview), and
   * the conversation goes on from there in a new branch; the old branch is kept.
   */
  editPrompt: conversation('core', { entryId: str, text: str }),
  /** The `‹ 1/2 ›` of an edited prompt: show the branch `offset` places away (its thread and session). */
  switchBranch: conversation('core', { entryId: str, offset: int }),
  /** Change a session setting (config option, or the older model / mode). */
  setConfigOption: conversation('core', { configId: str, value: either(str, bool) }),
  /** Sign in with one of the agent's methods (from the sign-in card). */
  authenticate: conversation('core', { methodId: str }),
  /** Answer an agent's question: `content` for accept (form mode). */
  answerQuestion: conversation('core', { entryId: str, action: oneOf('accept', 'decline', 'cancel'), content: optional(object) }),
  /** Open the link of a url-mode question in the browser (after the user's consent in the card). */
  openQuestionUrl: conversation('core', { entryId: str }),
  /**
   * Lines of a diff not sent with it (collapsed regions, the rest of a long hunk): `count` rows from
   * `row` of the diff `diffId`, item `index` of the tool call entry `entryId`. Answered by `diffLines`.
   */
  fetchDiffLines: conversation('core', { requestId: int, entryId: str, index: int, diffId: int, row: count, count }),

  /** The `@` picker's query (typed after `@`); answered by `mentionResults`. */
  mentionQuery: panel('editor', { requestId: int, query: str }),
  /** URIs dropped on the composer (files, editor tabs): the host answers with `mentionsAdded`. */
  dropUris: conversation('editor', { uris: listOf(shortStr(8192), MAX_MENTIONS) }),
  /** A chip was clicked: open what it points at (a file at its range). */
  openMention: panel('editor', { uri: str, line: optional(int) }),
  showHistory: panel('editor', {}),
  /** `Tandem: New Conversation in Worktree` from the panel: a new conversation on its own branch. */
  newConversationInWorktree: panel('editor', {}),
  /** Open the conversation's worktree in a new window. */
  worktreeOpen: conversation('editor', {}),
  selectAgent: panel('editor', { name: str }),
  addPreset: panel('editor', { presetId: str }),
  openLocation: panel('editor', { path: str, line: optional(int) }),
  openDiff: panel('editor', { entryId: str, index: int }),
  reviewOpenDiff: conversation('editor', { path: str }),
  openTerminal: panel('editor', { terminalId: str }),
  openLink: panel('editor', { href: str }),
  /**
   * A code block's buttons: put its code at the active editor's cursor (one undoable edit), in a new
   * untitled editor (`language`: the fence's info word), or on the clipboard (when the panel's own
   * clipboard access failed).
   */
  insertCode: panel('editor', { code: shortStr(MAX_CODE) }),
  newCodeFile: panel('editor', { code: shortStr(MAX_CODE), language: optional(shortStr(100)) }),
  copyCode: panel('editor', { code: shortStr(MAX_CODE) }),
  showLog: panel('editor', {}),
  /** Open the settings at `tandem.agents` (an agent whose entry lacks something it needs). */
  openAgentSettings: panel('editor', {}),
  /** Run `Tandem: Check Agent` for the shown conversation's agent. */
  checkAgent: panel('editor', {}),
  /** Copy as Markdown: one message of the conversation onto the clipboard, masked; answered by `messageCopied`. */
  copyMessageMarkdown: conversation('editor', { entryId: str }),
  /** A subagent card's Open: its history as a read-only Markdown document in an editor tab. */
  openSubagent: conversation('editor', { entryId: str }),
  /** Open `Tandem: Manage Permission Rules` (at one rule). */
  manageRules: panel('editor', { ruleId: optional(str) }),
} as const satisfies Record<string, Declaration>;

type Declared = typeof WEBVIEW_MESSAGES;
export type WebviewMessageType = keyof Declared;

/** One message of the table, as a type: `type`, its fields (readonly), and `conversationId` where scoped. */
export type WebviewMessageOf<K extends WebviewMessageType> = DeclaredMessage<Declared, K> &
  (Declared[K]['scope'] extends 'conversation' ? { readonly conversationId?: string } : unknown);

/** Webview → host. */
export type WebviewMessage = { [K in WebviewMessageType]: WebviewMessageOf<K> }[WebviewMessageType];

/** The message types a server serves. */
export type ServedBy<S extends Server> = { [K in WebviewMessageType]: Declared[K]['by'] extends S ? K : never }[WebviewMessageType];

/** Messages about one conversation: the panel adds the shown conversation's id to them. */
export function isScoped(type: WebviewMessageType): boolean {
  return WEBVIEW_MESSAGES[type].scope === 'conversation';
}

export function servedBy(type: WebviewMessageType): Server {
  return WEBVIEW_MESSAGES[type].by;
}
