/**
 * Host ⇄ webview protocol: what a tool call card shows — kinds and statuses, permission requests and
 * rule proposals, locations, content (text, diffs as hunks, terminals) and the limits both sides share.
 * Part of the one protocol both sides import (see messages.ts, which re-exports it).
 */

/**
 * Characters of output the panel keeps per terminal (the tail). Host and panel use the same figure
 * so a reload shows exactly what was on screen, and the host never posts more than this at once.
 */
export const TERMINAL_VIEW_LIMIT_CHARS = 512 * 1024;

/** ACP tool kinds plus `other`; unknown kinds from agents are normalised to `other`. */
export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

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
  /** The path in the user's words: workspace-relative inside the workspace, absolute outside it. */
  shown?: string;
  /** Not sent by the agent: Tandem took it from the call's input (rawInput). */
  fromInput?: true;
}

/** Most characters of one output item sent to the panel; the whole text stays in Details. */
export const OUTPUT_VIEW_LIMIT_CHARS = 64 * 1024;

/**
 * Plain output of a tool (text without markdown, a command's output, a result the agent sent only
 * as rawOutput): shown preformatted and collapsible, never as markdown paragraphs.
 */
export interface OutputContentView {
  type: 'output';
  /** The text as the tool produced it (model-only parts such as `<system-reminder>` removed). */
  text: string;
  /** What the output is of, when a call has several (a file, a command, a query). */
  label?: string;
  /** The stream, when the agent told them apart. */
  stream?: 'stdout' | 'stderr';
  /** The command's exit code, when the agent reported one. */
  exitCode?: number;
  /** The text was longer than OUTPUT_VIEW_LIMIT_CHARS: this is its start. */
  truncated?: true;
  /** The item failed (a read that did not succeed, an error result). */
  failed?: true;
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
  | DiffContentView
  | OutputContentView
  | {
      /** Live output of a terminal; the output itself lives in `PanelSnapshot.terminals`. */
      type: 'terminal';
      terminalId: string;
    };

/** One line of an inline diff. */
export interface DiffLineView {
  kind: 'context' | 'add' | 'del';
  /** The line without its line ending; cut to DIFF_LINE_MAX_CHARS (then `cut` is set). */
  text: string;
  /** The line was longer than DIFF_LINE_MAX_CHARS: `text` is its start ("Open diff" shows it whole). */
  cut?: true;
  /** The last line of its file, which ends without a line break. */
  noEol?: true;
}

/**
 * One hunk of an inline diff: changed lines with up to three unchanged lines around them. Rows are
 * the lines of the whole diff in order (an unchanged line counts once), numbered from 0; hidden
 * rows are fetched by row with `fetchDiffLines`.
 */
export interface DiffHunkView {
  /** 1-based number of the hunk's first line in the old file (with no old lines: of the line it comes before). */
  oldStart: number;
  /** Old lines the hunk covers (context and removed). */
  oldLines: number;
  /** 1-based number of the hunk's first line in the new file (with no new lines: of the line it comes before). */
  newStart: number;
  /** New lines the hunk covers (context and added). */
  newLines: number;
  /** Row of the hunk's first line in the whole diff. */
  row: number;
  /** The hunk's first lines (all of them unless `more` > 0). */
  lines: DiffLineView[];
  /** Lines of the hunk after `lines` not sent (a long hunk, or one past the view's line budget). */
  more: number;
  /** Unchanged lines between the previous hunk (or the top of the file) and this one, not sent. */
  collapsedBefore: number;
}

/**
 * A file change in a tool call, as the panel shows it inline: hunks only, never the whole texts
 * (the host keeps those for "Open diff" and for the lines the panel fetches on demand).
 */
export interface DiffContentView {
  type: 'diff';
  /** Absolute path of the file. */
  path: string;
  /** Identifies this diff's content for the host's lifetime: the same id always means the same texts. */
  diffId: number;
  /** A new file (the agent sent null, nothing or "" as the old text): every line is added. */
  isNew: boolean;
  /** Lines added and removed in the whole file (0 when `tooLarge`). */
  added: number;
  removed: number;
  /** Hunks in file order (empty when nothing changed or when `tooLarge`). */
  hunks: DiffHunkView[];
  /** Unchanged lines after the last hunk, not sent. */
  collapsedAfter: number;
  /**
   * Set when a side is over DIFF_INLINE_MAX_BYTES: no inline diff was computed; "Open diff" (VS
   * Code's diff editor) still shows it.
   */
  tooLarge?: { bytes: number; limit: number };
  /**
   * Not sent by the agent: Tandem saw it — `disk`: what changed on disk while the call ran (agents
   * that write the disk themselves); `input`: the old and new text of the call's input.
   */
  observed?: 'disk' | 'input';
}

/** Largest old or new text (UTF-8 bytes) diffed inline; bigger ones only offer "Open diff". */
export const DIFF_INLINE_MAX_BYTES = 5 * 1024 * 1024;

/** Longest line (UTF-16 units) sent to the panel; longer ones are cut. */
export const DIFF_LINE_MAX_CHARS = 2000;

/** Most lines `fetchDiffLines` answers at once. */
export const DIFF_FETCH_MAX_LINES = 1000;

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
  exit?: TerminalExitView;
}

export interface TerminalExitView {
  exitCode: number | null;
  signal: string | null;
  /**
   * The command was still running when the editor that ran it went away (closed, reloaded or
   * crashed), which ended it; how it would have ended is unknown. Set on restored transcripts.
   */
  lost?: true;
}
