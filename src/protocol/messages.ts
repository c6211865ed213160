/**
 * Host ⇄ webview protocol. The only module both sides import.
 *
 * Host → webview messages state facts (a snapshot, then keyed changes); webview → host messages are
 * commands. ACP types never cross this boundary: everything here is a plain, JSON-serialisable DTO.
 * Bump PROTOCOL_VERSION when a shape changes so a stale webview can tell.
 */

export const PROTOCOL_VERSION = 3;

/**
 * Characters of output the panel keeps per terminal (the tail). Host and panel use the same figure
 * so a reload shows exactly what was on screen, and the host never posts more than this at once.
 */
export const TERMINAL_VIEW_LIMIT_CHARS = 512 * 1024;

/** ACP tool kinds plus `other`; unknown kinds from agents are normalised to `other`. */
export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';

/** ACP statuses plus `cancelled`, which the client sets itself when a turn ends with a call unfinished. */
export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

/** One option of a permission request, as the agent named it. */
export interface PermissionOptionView {
  /** The agent's option id, sent back verbatim. */
  optionId: string;
  /** Label shown on the button (the agent's wording). */
  name: string;
  /** Styling hint; unknown kinds from the agent are mapped to the nearest of these. */
  kind: PermissionOptionKind;
}

/** A permission request attached to a tool call card. The reply handle stays on the host. */
export interface PermissionView {
  /** Host-side id of the request (unique per session). */
  requestId: string;
  /** Options in the agent's order. */
  options: PermissionOptionView[];
  /** `pending` until answered; then which option was chosen, or `cancelled`. */
  state: { kind: 'pending' } | { kind: 'selected'; optionId: string } | { kind: 'cancelled' };
  /** Set when a saved rule answered, not the user: the card says which rule. */
  rule?: { id: string; label: string; decision: 'allow' | 'reject' };
  /**
   * After the user picked an "always" option: the narrowest rule Tandem offers to save. Nothing is
   * remembered by Tandem until the user saves it (the agent keeps its own "always").
   */
  proposal?: RuleProposalView;
}

/** A rule offered for saving, editable before it is saved. */
export interface RuleProposalView {
  decision: 'allow' | 'reject';
  /** What the matcher compares (the panel names it: commands starting with, files matching, …). */
  matcherType: 'commandPrefix' | 'pathGlob' | 'urlHost' | 'toolName';
  /** The proposed matcher value, e.g. `npm test` or `src/**\/*.ts`. */
  value: string;
  scope: 'conversation' | 'workspace' | 'global';
  /** Whom the rule is for (the agent's name). */
  agent: string;
  /** e.g. "Allow `npm test` for Claude Code in this workspace". */
  label: string;
  /** `offered` until saved or dismissed; `error` says why saving failed. */
  state: 'offered' | 'saved' | 'dismissed';
  ruleId?: string;
  error?: string;
}

/** A file location a tool call touches (follow-along). */
export interface LocationView {
  /** Absolute path as the agent sent it. */
  path: string;
  /** 1-based line, when known. */
  line?: number;
  /** False when the path lies outside every workspace folder (shown, never auto-opened). */
  inWorkspace: boolean;
}

/** One item of a tool call's `content`. */
export type ToolContentView =
  | {
      /** Text or embedded text resource, rendered as sanitised markdown. */
      type: 'markdown';
      text: string;
    }
  | {
      type: 'image';
      /** e.g. image/png; only raster image types are rendered. */
      mimeType: string;
      /** base64 data. */
      data: string;
    }
  | {
      /** A link to a resource, opened in the editor when clicked. */
      type: 'resource_link';
      uri: string;
      name: string;
    }
  | {
      type: 'diff';
      /** Absolute path of the file. */
      path: string;
      /** null for a new file (the agent sent null, nothing or ""). */
      oldText: string | null;
      newText: string;
    }
  | {
      /** Live output of a terminal; the output itself lives in `SessionSnapshot.terminals`. */
      type: 'terminal';
      terminalId: string;
    };

/** Lines of a file, 1-based; end column exclusive (UTF-16 units). */
export interface LineRangeView {
  startLine: number;
  endLine: number;
  startColumn?: number;
  endColumn?: number;
}

/** Something the user points the agent at, as a chip shows it (composer and user entry). */
export interface MentionView {
  kind: 'file' | 'folder' | 'selection' | 'symbol' | 'problems' | 'terminal' | 'gitDiff' | 'image' | 'audio';
  /** Short text for the chip: `app.ts`, `app.ts:10-20`, `parse`, `Problems`, `bash`, `screenshot.png`. */
  label: string;
  /** Longer text for a tooltip. */
  detail?: string;
  /** The URI the agent sees (`file://…`, `tandem://…`); absent for pasted images and audio. */
  uri?: string;
  range?: LineRangeView;
  /** Codicon name without the `codicon-` prefix. */
  icon: string;
}

/**
 * What the composer sends for a mention: the host reads the content at send time (the editor's
 * text with unsaved changes, the diagnostics then, the terminal's recent output, `git diff`).
 */
export type MentionSpec =
  | { kind: 'file'; path: string }
  | { kind: 'folder'; path: string }
  | { kind: 'selection'; path: string; range: LineRangeView }
  | { kind: 'symbol'; path: string; name: string; range: LineRangeView; symbolKind?: string }
  /** The problems of one file, or of the whole workspace when `file` is absent. */
  | { kind: 'problems'; file?: string }
  | { kind: 'terminal'; name: string }
  | { kind: 'gitDiff' }
  /** Pasted or dropped media: base64 without a `data:` prefix. */
  | { kind: 'image' | 'audio'; name: string; mimeType: string; data: string };

/** What an agent takes in a prompt besides text and links (ACP `promptCapabilities`). */
export interface PromptCapabilitiesView {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

/** A chip: what to send, and how to show it. */
export interface MentionChip {
  spec: MentionSpec;
  view: MentionView;
}

/** A picker suggestion for `@`. */
export interface MentionCandidate extends MentionChip {
  /** Heading it is listed under: Files, Open editors, Symbols, Selection, Problems, Terminal, Git. */
  group: string;
}

export interface UserEntry {
  kind: 'user';
  id: string;
  /** Markdown text of the user's message. */
  text: string;
  /** The chips sent with it. */
  mentions?: MentionView[];
  /** What happened to context that could not be sent whole ("src/big.ts was cut to its first 200 KB"). */
  contextNotes?: string[];
  /** The checkpoint taken before this turn: its files can be restored ("rewind"). */
  checkpoint?: string;
  /** What Tandem told the agent along with this prompt (rejected hunks, restored files). */
  note?: string;
}

export interface AgentMessageEntry {
  kind: 'agent';
  id: string;
  /** Accumulated markdown; grows through `textAppended`. */
  text: string;
}

export interface ThoughtEntry {
  kind: 'thought';
  id: string;
  /** Accumulated markdown; grows through `textAppended`. */
  text: string;
}

export interface PlanItemView {
  content: string;
  priority: 'high' | 'medium' | 'low';
  status: 'pending' | 'in_progress' | 'completed';
}

export interface PlanEntry {
  kind: 'plan';
  id: string;
  /** The latest plan: each plan update replaces the whole list. */
  items: PlanItemView[];
}

export interface ToolCallEntry {
  kind: 'tool_call';
  id: string;
  /** The agent's toolCallId. */
  toolCallId: string;
  title: string;
  /** Icon kind: the ACP kind, or one inferred from a recognisable tool name, else `other`. */
  toolKind: ToolKind;
  status: ToolStatus;
  content: ToolContentView[];
  locations: LocationView[];
  /** rawInput as formatted JSON, when sent. */
  rawInput?: string;
  /** rawOutput as formatted JSON, when sent. */
  rawOutput?: string;
  /** The latest permission request for this call, if any. */
  permission?: PermissionView;
}

export interface ErrorEntry {
  kind: 'error';
  id: string;
  /** One sentence saying what happened. */
  message: string;
  /** Extra detail such as the agent's stderr tail. */
  detail?: string;
  /** What the user can do about it; rendered as a button. */
  action?: 'restart' | 'retry' | 'signIn' | 'showLog' | 'startFresh';
  /** The agent could not start: also offer `Tandem: Check Agent` (what is wrong and what to do). */
  offerCheck?: boolean;
}

/** Something the user should know about the conversation itself (e.g. the agent starts fresh). */
export interface NoticeEntry {
  kind: 'notice';
  id: string;
  level: 'info' | 'warning' | 'error';
  /** One or two sentences (an agent's notice: its title, then its description). */
  message: string;
  /** Set for notices the agent sent (`notice` updates), as opposed to Tandem's own. */
  fromAgent?: boolean;
}

/** A way to sign in to an agent (`authMethods` of `initialize`). */
export interface AuthMethodView {
  id: string;
  name: string;
  description?: string;
  /**
   * `agent`: the agent signs in itself (`authenticate`); `terminal`: Tandem runs the agent's own
   * command in a terminal; `envVar`: the user sets an environment variable (named in `envVar`).
   */
  kind: 'agent' | 'terminal' | 'envVar';
  envVar?: string;
}

/** The agent needs the user to sign in before it can go on. */
export interface AuthEntry {
  kind: 'auth';
  id: string;
  agentName: string;
  /** What the agent said (its auth-required message). */
  message: string;
  methods: AuthMethodView[];
  state: { kind: 'waiting' } | { kind: 'working'; methodId: string } | { kind: 'done'; methodId: string } | { kind: 'failed'; methodId: string; error: string };
}

/** One field of an agent's question (elicitation form mode). */
export interface QuestionFieldView {
  name: string;
  title: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  default?: string | number | boolean | string[];
  /** `choice` / `choices`: the allowed values and their labels. */
  choices?: Array<{ value: string; title: string }>;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** `string`: email, uri, date or date-time (checked before sending). */
  format?: string;
  pattern?: string;
}

/** A question the agent asks (`elicitation/create`), answered in the thread. */
export interface QuestionEntry {
  kind: 'question';
  id: string;
  message: string;
  mode: 'form' | 'url';
  fields?: QuestionFieldView[];
  /** url mode: the full URL, its host, and a warning when the host looks deceptive (punycode). */
  url?: string;
  host?: string;
  hostWarning?: string;
  /** Why the form cannot be filled in here (then it can only be declined). */
  unsupported?: string;
  state: { kind: 'pending' } | { kind: 'answered'; action: 'accept' | 'decline' | 'cancel' } | { kind: 'completed' };
  /** Validation problems of the last attempt, by field name. */
  errors?: Record<string, string>;
}

/** The agent compacted its context: a divider with the summary. */
export interface CompactionEntry {
  kind: 'compaction';
  id: string;
  compactionId: string;
  status: string;
  /** Markdown summary (grows through compaction_summary_chunk). */
  summary: string;
  error?: string;
}

export interface TurnEndEntry {
  kind: 'turn_end';
  id: string;
  /** ACP stop reason (end_turn, max_tokens, max_turn_requests, refusal, cancelled) or another string. */
  stopReason: string;
  /** The turn's token usage, when the agent reported it with its answer ("1.2k in · 300 out"). */
  usage?: string;
}

/** A session setting the agent offers: ACP config options, or the older `models`. */
export interface ConfigOptionView {
  id: string;
  name: string;
  description?: string;
  /** `mode`, `model` and `thought_level` get pickers in the header; the rest go in the options menu. */
  category?: string;
  type: 'select' | 'boolean';
  currentValue: string | boolean;
  /** select: the choices in order; `group` names the group of grouped choices. */
  choices?: Array<{ value: string; name: string; description?: string; group?: string }>;
}

/** How full the agent's context is (`usage_update`). */
export interface UsageView {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

export type Entry =
  | UserEntry
  | AgentMessageEntry
  | ThoughtEntry
  | PlanEntry
  | ToolCallEntry
  | ErrorEntry
  | NoticeEntry
  | AuthEntry
  | QuestionEntry
  | CompactionEntry
  | TurnEndEntry;

export type EntryKind = Entry['kind'];

/** Output of one terminal, shown inside every tool call card that embeds it. */
export interface TerminalView {
  terminalId: string;
  /** The command line, for the header. */
  command: string;
  /** Output so far (already bounded by the host). May contain ANSI escapes. */
  output: string;
  /** True when earlier output was dropped to respect the byte limit. */
  truncated: boolean;
  /** Set once the process has exited. */
  exit?: { exitCode: number | null; signal: string | null };
}

/** Where a conversation is in its life. */
export type SessionStatus =
  | { kind: 'no_agent' }
  | { kind: 'untrusted' }
  /** Not connected to its agent (restored, or the agent was restarted for another conversation); connects when needed. */
  | { kind: 'idle'; agentName: string }
  /** The agent starts, or the session is being opened or restored (`detail` says which). */
  | { kind: 'starting'; agentName: string; detail?: string }
  | { kind: 'ready'; agentName: string }
  | { kind: 'running'; agentName: string }
  | { kind: 'cancelling'; agentName: string }
  | { kind: 'stopped'; agentName: string; reason: string };

/** An agent the user can pick: configured in `tandem.agents`, or built in. */
export interface AgentChoice {
  name: string;
  /** Command line for display (no env values: they may hold secrets). */
  commandLine: string;
  builtIn: boolean;
}

/** A well-known agent that can be added to `tandem.agents` with one click. */
export interface AgentPreset {
  id: string;
  name: string;
  commandLine: string;
}

/** A slash command the agent offers (`available_commands_update`); typed as `/name args`. */
export interface CommandView {
  /** Without the leading slash. */
  name: string;
  description: string;
  /** What to type after the name, when the command takes input. */
  hint?: string;
}

/** A mode the agent can run in (ACP session modes, e.g. "Ask", "Code", "Plan"). */
export interface ModeView {
  id: string;
  name: string;
  description?: string;
}

/** The agent's modes and the current one; absent when the agent has none. */
export interface ModesView {
  currentModeId: string;
  available: ModeView[];
}

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
  status: SessionStatus['kind'];
  /** A background conversation that needs the user: a permission prompt, a finished turn, an error. */
  attention?: 'permission' | 'finished' | 'error';
}

/** Everything the panel shows of one conversation (sent whole when it becomes the shown one). */
export interface ConversationSnapshot {
  /** Tandem's id of the conversation (stable across restarts). */
  conversationId: string;
  /** The agent's ACP session id, once known. */
  sessionId?: string;
  title: string;
  status: SessionStatus;
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  /** The agent's latest slash commands; absent means none. */
  commands?: CommandView[];
  /** The session's modes; absent when the agent has none (no picker is shown). */
  modes?: ModesView;
  queue?: QueueView;
  review?: ReviewView;
  /** The session's settings (model, reasoning level, …); when present the legacy Mode picker hides. */
  configOptions?: ConfigOptionView[];
  usage?: UsageView;
  /** The agent can sign out (`Tandem: Sign Out`). */
  canSignOut?: boolean;
  /** What the agent accepts in a prompt besides text and links (the composer warns before sending). */
  promptCapabilities?: PromptCapabilitiesView;
}

/** The whole panel: the shown conversation plus what the header needs. */
export interface SessionSnapshot extends ConversationSnapshot {
  protocolVersion: number;
  agents: AgentChoice[];
  /** Name of the shown conversation's agent (or the default one), if any. */
  selectedAgent?: string;
  presets: AgentPreset[];
  followAgent: boolean;
  /** Open conversations, in tab order. */
  tabs?: TabView[];
}

/**
 * Changes to one conversation. `conversationId` names it; the panel ignores changes for a
 * conversation it is not showing (absent: the shown one).
 */
export type ConversationChange = { conversationId?: string } & (
  /** Insert or replace one entry (keyed by id); new ids are appended at the end. */
  | { type: 'entryUpserted'; entry: Entry }
  /** Streaming: append text to an agent/thought/user entry. */
  | { type: 'textAppended'; id: string; text: string }
  | { type: 'entriesCleared' }
  | { type: 'statusChanged'; status: SessionStatus }
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
  | { type: 'promptCapabilitiesChanged'; promptCapabilities?: PromptCapabilitiesView }
  /** The ACP session id or the title changed. */
  | { type: 'conversationChanged'; sessionId?: string; title: string }
);

/** Host → webview. */
export type HostMessage =
  | { type: 'snapshot'; snapshot: SessionSnapshot }
  /** Another conversation is shown now (tab switch): replaces the thread, status, queue, … */
  | { type: 'conversationShown'; conversation: ConversationSnapshot }
  | ConversationChange
  /** The open conversations (tabs) and which one is shown. */
  | { type: 'tabsChanged'; tabs: TabView[]; activeId: string }
  | { type: 'agentsChanged'; agents: AgentChoice[]; selectedAgent?: string; presets: AgentPreset[] }
  | { type: 'followChanged'; followAgent: boolean }
  /** Suggestions for the `@` picker, answering the webview's `mentionQuery` of the same id. */
  | { type: 'mentionResults'; requestId: number; items: MentionCandidate[] }
  /** Chips to add to a conversation's composer (Add Selection / Add File commands, drops the host resolved). */
  | { type: 'mentionsAdded'; conversationId: string; chips: MentionChip[] }
  /** Several messages coalesced by the host; applied in order. */
  | { type: 'batch'; messages: HostMessage[] };

/**
 * Webview → host. Commands about one conversation carry its `conversationId` (absent: the shown
 * one), so a click that races with a tab switch still reaches the conversation it was made in.
 */
export type WebviewMessage =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'prompt'; text: string; mentions?: MentionSpec[]; conversationId?: string }
  /** The `@` picker's query (typed after `@`); answered by `mentionResults`. */
  | { type: 'mentionQuery'; requestId: number; query: string }
  /** URIs dropped on the composer (files, editor tabs): the host answers with `mentionsAdded`. */
  | { type: 'dropUris'; uris: string[]; conversationId?: string }
  /** A chip was clicked: open what it points at (a file at its range). */
  | { type: 'openMention'; uri: string; line?: number }
  | { type: 'cancel'; conversationId?: string }
  | { type: 'respondPermission'; requestId: string; optionId: string; conversationId?: string }
  | { type: 'newConversation' }
  | { type: 'selectConversation'; conversationId: string }
  | { type: 'closeConversation'; conversationId: string }
  | { type: 'showHistory' }
  | { type: 'restart'; conversationId?: string }
  /** Retry after a failure: restart the agent if needed and send the queue. */
  | { type: 'retry'; conversationId?: string }
  /** Give up on the agent's lost session: a new one, the transcript stays above. */
  | { type: 'startFresh'; conversationId?: string }
  | { type: 'selectAgent'; name: string }
  | { type: 'addPreset'; presetId: string }
  | { type: 'openLocation'; path: string; line?: number }
  | { type: 'openDiff'; entryId: string; index: number }
  | { type: 'openTerminal'; terminalId: string }
  | { type: 'openLink'; href: string }
  | { type: 'showLog' }
  | { type: 'signIn'; conversationId?: string }
  /** The user picked a mode; the host asks the agent (`session/set_mode`). */
  | { type: 'setMode'; modeId: string; conversationId?: string }
  /** Queue editing: change, remove, move (by `offset` places), send now (stops the running turn first). */
  | { type: 'queueEdit'; itemId: string; text: string; conversationId?: string }
  | { type: 'queueRemove'; itemId: string; conversationId?: string }
  | { type: 'queueMove'; itemId: string; offset: number; conversationId?: string }
  | { type: 'queueSendNow'; itemId: string; conversationId?: string }
  /** Let a paused queue send again, or drop everything in it. */
  | { type: 'queueResume'; conversationId?: string }
  | { type: 'queueClear'; conversationId?: string }
  /** Save the rule proposed on a card, with the matcher value and scope the user left in the form. */
  | { type: 'saveRule'; requestId: string; value: string; scope: 'conversation' | 'workspace' | 'global'; conversationId?: string }
  | { type: 'dismissRule'; requestId: string; conversationId?: string }
  /** Review: keep or undo changed files (all when `paths` is absent), open a file's diff or hunks. */
  | { type: 'reviewKeep'; paths?: string[]; conversationId?: string }
  | { type: 'reviewUndo'; paths?: string[]; conversationId?: string }
  | { type: 'reviewOpenDiff'; path: string; conversationId?: string }
  | { type: 'reviewHunks'; path: string; open: boolean; conversationId?: string }
  | { type: 'reviewHunk'; path: string; index: number; action: 'accept' | 'reject'; conversationId?: string }
  /** Restore the files to before the turn of this user entry (after a preview). */
  | { type: 'rewind'; entryId: string; conversationId?: string }
  /** Change a session setting (config option, or the older model / mode). */
  | { type: 'setConfigOption'; configId: string; value: string | boolean; conversationId?: string }
  /** Sign in with one of the agent's methods (from the sign-in card). */
  | { type: 'authenticate'; methodId: string; conversationId?: string }
  /** Answer an agent's question: `content` for accept (form mode). */
  | { type: 'answerQuestion'; entryId: string; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]>; conversationId?: string }
  /** Open the link of a url-mode question in the browser (after the user's consent in the card). */
  | { type: 'openQuestionUrl'; entryId: string; conversationId?: string }
  /** Run `Tandem: Check Agent` for the shown conversation's agent. */
  | { type: 'checkAgent' }
  /** Open `Tandem: Manage Permission Rules` (at one rule). */
  | { type: 'manageRules'; ruleId?: string }
  /** Whether the panel has keyboard focus (permission notifications are for when it has not). */
  | { type: 'focusChanged'; focused: boolean };

/** Exhaustiveness guard for switches over the unions above. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled message: ${JSON.stringify(value)}`);
}
