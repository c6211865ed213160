/**
 * Host ⇄ webview protocol: the entries of a thread (user and agent messages, thoughts, plans, tool
 * calls, errors, notices, sign-in, questions, compaction, turn ends). Part of the protocol
 * re-exported by messages.ts.
 */

import type { MentionView } from './mentionViews';
import type { LocationView, PermissionView, ToolContentView, ToolKind, ToolStatus } from './toolCallViews';

// Mutable: the thread reducer updates its stored entries in place while they stream.
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
  /** Sent into the running turn (steering) rather than as a turn of its own. */
  steered?: true;
  /**
   * This prompt was edited (or is an edit): which of its versions this is, 1-based, of how many.
   * Each version is a branch of the conversation; `switchBranch` shows another.
   */
  branch?: { index: number; count: number };
}

// Mutable: the thread reducer updates its stored entries in place while they stream.
export interface AgentMessageEntry {
  kind: 'agent';
  id: string;
  /** Accumulated markdown; grows through `textAppended`. */
  text: string;
  /** The agent's own id of the message (ACP `messageId`), when it sends one: where a fork can start. */
  messageId?: string;
  /** Said by a subagent: the entry id of its parent tool call card (the panel shows it inside). */
  parentId?: string;
}

// Mutable: the thread reducer updates its stored entries in place while they stream.
export interface ThoughtEntry {
  kind: 'thought';
  id: string;
  /** Accumulated markdown; grows through `textAppended`. */
  text: string;
  /** Thought by a subagent: the entry id of its parent tool call card. */
  parentId?: string;
}

export interface PlanItemView {
  readonly content: string;
  readonly priority: 'high' | 'medium' | 'low';
  readonly status: 'pending' | 'in_progress' | 'completed';
}

// Mutable: the thread reducer updates its stored entries in place while they stream.
export interface PlanEntry {
  kind: 'plan';
  id: string;
  /** The latest plan: each plan update replaces the whole list. */
  items: PlanItemView[];
}

/**
 * A subagent the agent runs as a child session (the ACP subagents RFD): shown on its card, whose
 * nested entries are the child's own messages and tool calls.
 */
// Mutable: the thread reducer updates its stored entries in place while they stream.
export interface ChildSessionView {
  /** The child's ACP session id (Stop sends `session/cancel` with it). */
  sessionId: string;
  /** Its work state as the parent last reported it. */
  state: 'running' | 'requires_action' | 'idle' | 'unknown';
  /** Why its work stopped (idle only): end_turn, cancelled, error, … */
  stopReason?: string;
  /** The agent lets the client cancel the child's work (`capabilities.cancel`). */
  cancel: boolean;
}

// Mutable: the thread reducer updates its stored entries in place while they stream.
export interface ToolCallEntry {
  kind: 'tool_call';
  id: string;
  /** The agent's toolCallId. */
  toolCallId: string;
  /** What the card says it did, in the user's words (derived from the input when the agent's title says little). */
  title: string;
  /** The agent's own title, when it differs from `title` (shown as the title's tooltip and in Details). */
  agentTitle?: string;
  /**
   * A subagent's call: the entry id of the parent card (a Task/Agent/spawn_agent call), which shows
   * it inside, collapsed. Set when the parent was known as the call arrived; never a cycle.
   */
  parentId?: string;
  /** The call starts subagents (its children nest under it). */
  subagent?: true;
  /** The card is a child session's (subagents RFD): its state and whether it can be stopped. */
  childSession?: ChildSessionView;
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
  /** `server`: the tool ran on a hosted agent's server, not in this workspace (nothing here to follow or review). */
  ranOn?: 'server';
}

export interface ErrorEntry {
  readonly kind: 'error';
  readonly id: string;
  /** One sentence saying what happened. */
  readonly message: string;
  /** Extra detail such as the agent's stderr tail. */
  readonly detail?: string;
  /** What the user can do about it; rendered as a button. */
  readonly action?: 'restart' | 'retry' | 'signIn' | 'showLog' | 'startFresh' | 'openAgentSettings';
  /** The agent could not start: also offer `Tandem: Check Agent` (what is wrong and what to do). */
  readonly offerCheck?: boolean;
}

/** Something the user should know about the conversation itself (e.g. the agent starts fresh). */
export interface NoticeEntry {
  readonly kind: 'notice';
  readonly id: string;
  readonly level: 'info' | 'warning' | 'error';
  /** One or two sentences (an agent's notice: its title, then its description). */
  readonly message: string;
  /** Set for notices the agent sent (`notice` updates), as opposed to Tandem's own. */
  readonly fromAgent?: boolean;
}

/** A way to sign in to an agent (`authMethods` of `initialize`). */
export interface AuthMethodView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /**
   * `agent`: the agent signs in itself (`authenticate`); `terminal`: Tandem runs the agent's own
   * command in a terminal; `envVar`: the user sets an environment variable (named in `envVar`).
   */
  readonly kind: 'agent' | 'terminal' | 'envVar';
  readonly envVar?: string;
  /** terminal: the command line the button runs (the agent's own command and the method's args). */
  readonly commandLine?: string;
}

/** The agent needs the user to sign in before it can go on. */
export interface AuthEntry {
  readonly kind: 'auth';
  readonly id: string;
  readonly agentName: string;
  /** What the agent said (its auth-required message). */
  readonly message: string;
  readonly methods: readonly AuthMethodView[];
  readonly state:
    | { readonly kind: 'waiting' }
    | { readonly kind: 'working'; readonly methodId: string }
    | { readonly kind: 'done'; readonly methodId: string }
    | { readonly kind: 'failed'; readonly methodId: string; readonly error: string };
}

/** One field of an agent's question (elicitation form mode). */
export interface QuestionFieldView {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  readonly required: boolean;
  readonly default?: string | number | boolean | readonly string[];
  /** `choice` / `choices`: the allowed values and their labels. */
  readonly choices?: ReadonlyArray<{ readonly value: string; readonly title: string }>;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  /** `string`: email, uri, date or date-time (checked before sending). */
  readonly format?: string;
  readonly pattern?: string;
}

/** A question the agent asks (`elicitation/create`), answered in the thread. */
export interface QuestionEntry {
  readonly kind: 'question';
  readonly id: string;
  readonly message: string;
  readonly mode: 'form' | 'url';
  readonly fields?: readonly QuestionFieldView[];
  /** url mode: the full URL, its host, and a warning when the host looks deceptive (punycode). */
  readonly url?: string;
  readonly host?: string;
  readonly hostWarning?: string;
  /** Why the form cannot be filled in here (then it can only be declined). */
  readonly unsupported?: string;
  readonly state:
    { readonly kind: 'pending' } | { readonly kind: 'answered'; readonly action: 'accept' | 'decline' | 'cancel' } | { readonly kind: 'completed' };
  /** Validation problems of the last attempt, by field name. */
  readonly errors?: Readonly<Record<string, string>>;
}

/** The agent compacted its context: a divider with the summary. */
// Mutable: the thread reducer updates its stored entries in place while they stream.
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
  readonly kind: 'turn_end';
  readonly id: string;
  /** ACP stop reason (end_turn, max_tokens, max_turn_requests, refusal, cancelled) or another string. */
  readonly stopReason: string;
  /** The turn's token usage, when the agent reported it with its answer ("1.2k in · 300 out"). */
  readonly usage?: string;
  /**
   * Retry is offered here (`retryTurn`): the turn was cancelled, refused, failed or cut off by the
   * agent going away, and the host still keeps its prompt as it was sent. Only the last such turn
   * end of a thread has it; a new turn withdraws it.
   */
  readonly retry?: boolean;
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
