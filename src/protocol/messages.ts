/**
 * Host ⇄ webview protocol. The only module both sides import.
 *
 * Host → webview messages state facts (a snapshot, then keyed changes); webview → host messages are
 * commands. ACP types never cross this boundary: everything here is a plain, JSON-serialisable DTO.
 * Bump PROTOCOL_VERSION when a shape changes so a stale webview can tell.
 */

export const PROTOCOL_VERSION = 2;

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

export interface UserEntry {
  kind: 'user';
  id: string;
  /** Markdown text of the user's message. */
  text: string;
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
  action?: 'restart' | 'retry' | 'signIn' | 'showLog';
}

export interface TurnEndEntry {
  kind: 'turn_end';
  id: string;
  /** ACP stop reason (end_turn, max_tokens, max_turn_requests, refusal, cancelled) or another string. */
  stopReason: string;
}

export type Entry =
  | UserEntry
  | AgentMessageEntry
  | ThoughtEntry
  | PlanEntry
  | ToolCallEntry
  | ErrorEntry
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

/** Where the panel is in its life. */
export type SessionStatus =
  | { kind: 'no_agent' }
  | { kind: 'untrusted' }
  | { kind: 'starting'; agentName: string }
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

export interface SessionSnapshot {
  protocolVersion: number;
  status: SessionStatus;
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  agents: AgentChoice[];
  /** Name of the selected agent, if any. */
  selectedAgent?: string;
  presets: AgentPreset[];
  followAgent: boolean;
  /** The agent's latest slash commands; absent means none. */
  commands?: CommandView[];
  /** The session's modes; absent when the agent has none (no picker is shown). */
  modes?: ModesView;
}

/** Host → webview. */
export type HostMessage =
  | { type: 'snapshot'; snapshot: SessionSnapshot }
  /** Insert or replace one entry (keyed by id); new ids are appended at the end. */
  | { type: 'entryUpserted'; entry: Entry }
  /** Streaming: append text to an agent/thought entry. */
  | { type: 'textAppended'; id: string; text: string }
  | { type: 'entriesCleared' }
  | { type: 'statusChanged'; status: SessionStatus }
  /** Replace a terminal's view, or append output when `append` is set. */
  | { type: 'terminalChanged'; terminal: TerminalView }
  | { type: 'terminalAppended'; terminalId: string; text: string; truncated: boolean }
  | { type: 'agentsChanged'; agents: AgentChoice[]; selectedAgent?: string; presets: AgentPreset[] }
  | { type: 'followChanged'; followAgent: boolean }
  /** The agent's slash commands, replaced whole. */
  | { type: 'commandsChanged'; commands: CommandView[] }
  /** The session's modes replaced whole; `modes` absent: the agent has none (or no session). */
  | { type: 'modesChanged'; modes?: ModesView }
  /** Several messages coalesced by the host; applied in order. */
  | { type: 'batch'; messages: HostMessage[] };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'prompt'; text: string }
  | { type: 'cancel' }
  | { type: 'respondPermission'; requestId: string; optionId: string }
  | { type: 'newSession' }
  | { type: 'restart' }
  | { type: 'selectAgent'; name: string }
  | { type: 'addPreset'; presetId: string }
  | { type: 'openLocation'; path: string; line?: number }
  | { type: 'openDiff'; entryId: string; index: number }
  | { type: 'openTerminal'; terminalId: string }
  | { type: 'openLink'; href: string }
  | { type: 'showLog' }
  | { type: 'signIn' }
  /** The user picked a mode; the host asks the agent (`session/set_mode`). */
  | { type: 'setMode'; modeId: string }
  /** Whether the panel has keyboard focus (permission notifications are for when it has not). */
  | { type: 'focusChanged'; focused: boolean };

/** Exhaustiveness guard for switches over the unions above. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled message: ${JSON.stringify(value)}`);
}
