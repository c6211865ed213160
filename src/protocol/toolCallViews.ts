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
  readonly optionId: string;
  /** Label shown on the button (the agent's wording). */
  readonly name: string;
  /** Styling hint; unknown kinds from the agent are mapped to the nearest of these. */
  readonly kind: PermissionOptionKind;
}

/** A permission request attached to a tool call card. The reply handle stays on the host. */
export interface PermissionView {
  /** Host-side id of the request (unique per session). */
  readonly requestId: string;
  /** Options in the agent's order. */
  readonly options: readonly PermissionOptionView[];
  /** `pending` until answered; then which option was chosen, or `cancelled`. */
  readonly state: { readonly kind: 'pending' } | { readonly kind: 'selected'; readonly optionId: string } | { readonly kind: 'cancelled' };
  /** Set when a saved rule answered, not the user: the card says which rule. */
  readonly rule?: { readonly id: string; readonly label: string; readonly decision: 'allow' | 'reject' };
  /**
   * After the user picked an "always" option: the narrowest rule Tandem offers to save. Nothing is
   * remembered by Tandem until the user saves it (the agent keeps its own "always").
   */
  readonly proposal?: RuleProposalView;
}

/** A rule offered for saving, editable before it is saved. */
export interface RuleProposalView {
  readonly decision: 'allow' | 'reject';
  /** What the matcher compares (the panel names it: commands starting with, files matching, …). */
  readonly matcherType: 'commandPrefix' | 'pathGlob' | 'urlHost' | 'toolName';
  /** The proposed matcher value, e.g. `npm test` or `src/**\/*.ts`. */
  readonly value: string;
  readonly scope: 'conversation' | 'workspace' | 'global';
  /** Whom the rule is for (the agent's name). */
  readonly agent: string;
  /** e.g. "Allow `npm test` for Claude Code in this workspace". */
  readonly label: string;
  /** `offered` until saved or dismissed; `error` says why saving failed. */
  readonly state: 'offered' | 'saved' | 'dismissed';
  readonly ruleId?: string;
  readonly error?: string;
}

/** A file location a tool call touches (follow-along). */
export interface LocationView {
  /** Absolute path as the agent sent it. */
  readonly path: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** False when the path lies outside every workspace folder (shown, never auto-opened). */
  readonly inWorkspace: boolean;
  /** The path in the user's words: workspace-relative inside the workspace, absolute outside it. */
  readonly shown?: string;
  /** Not sent by the agent: Tandem took it from the call's input (rawInput). */
  readonly fromInput?: true;
}

/** Most characters of one output item sent to the panel; the whole text stays in Details. */
export const OUTPUT_VIEW_LIMIT_CHARS = 64 * 1024;

/**
 * Plain output of a tool (text without markdown, a command's output, a result the agent sent only
 * as rawOutput): shown preformatted and collapsible, never as markdown paragraphs.
 */
export interface OutputContentView {
  readonly type: 'output';
  /** The text as the tool produced it (model-only parts such as `<system-reminder>` removed). */
  readonly text: string;
  /** What the output is of, when a call has several (a file, a command, a query). */
  readonly label?: string;
  /** The stream, when the agent told them apart. */
  readonly stream?: 'stdout' | 'stderr';
  /** The command's exit code, when the agent reported one. */
  readonly exitCode?: number;
  /** The text was longer than OUTPUT_VIEW_LIMIT_CHARS: this is its start. */
  readonly truncated?: true;
  /** The item failed (a read that did not succeed, an error result). */
  readonly failed?: true;
}

/** One item of a tool call's `content`. */
export type ToolContentView =
  | {
      /** Text or embedded text resource, rendered as sanitised markdown. */
      readonly type: 'markdown';
      readonly text: string;
    }
  | {
      readonly type: 'image';
      /** e.g. image/png; only raster image types are rendered. */
      readonly mimeType: string;
      /** base64 data. */
      readonly data: string;
    }
  | {
      /** A link to a resource, opened in the editor when clicked. */
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
    }
  | DiffContentView
  | OutputContentView
  | {
      /** Live output of a terminal; the output itself lives in `PanelSnapshot.terminals`. */
      readonly type: 'terminal';
      readonly terminalId: string;
    };

/** One line of an inline diff. */
export interface DiffLineView {
  readonly kind: 'context' | 'add' | 'del';
  /** The line without its line ending; cut to DIFF_LINE_MAX_CHARS (then `cut` is set). */
  readonly text: string;
  /** The line was longer than DIFF_LINE_MAX_CHARS: `text` is its start ("Open diff" shows it whole). */
  readonly cut?: true;
  /** The last line of its file, which ends without a line break. */
  readonly noEol?: true;
}

/**
 * One hunk of an inline diff: changed lines with up to three unchanged lines around them. Rows are
 * the lines of the whole diff in order (an unchanged line counts once), numbered from 0; hidden
 * rows are fetched by row with `fetchDiffLines`.
 */
export interface DiffHunkView {
  /** 1-based number of the hunk's first line in the old file (with no old lines: of the line it comes before). */
  readonly oldStart: number;
  /** Old lines the hunk covers (context and removed). */
  readonly oldLines: number;
  /** 1-based number of the hunk's first line in the new file (with no new lines: of the line it comes before). */
  readonly newStart: number;
  /** New lines the hunk covers (context and added). */
  readonly newLines: number;
  /** Row of the hunk's first line in the whole diff. */
  readonly row: number;
  /** The hunk's first lines (all of them unless `more` > 0). */
  readonly lines: readonly DiffLineView[];
  /** Lines of the hunk after `lines` not sent (a long hunk, or one past the view's line budget). */
  readonly more: number;
  /** Unchanged lines between the previous hunk (or the top of the file) and this one, not sent. */
  readonly collapsedBefore: number;
}

/**
 * A file change in a tool call, as the panel shows it inline: hunks only, never the whole texts
 * (the host keeps those for "Open diff" and for the lines the panel fetches on demand).
 */
export interface DiffContentView {
  readonly type: 'diff';
  /** Absolute path of the file. */
  readonly path: string;
  /** Identifies this diff's content for the host's lifetime: the same id always means the same texts. */
  readonly diffId: number;
  /** A new file (the agent sent null, nothing or "" as the old text): every line is added. */
  readonly isNew: boolean;
  /** Lines added and removed in the whole file (0 when `tooLarge`). */
  readonly added: number;
  readonly removed: number;
  /** Hunks in file order (empty when nothing changed or when `tooLarge`). */
  readonly hunks: readonly DiffHunkView[];
  /** Unchanged lines after the last hunk, not sent. */
  readonly collapsedAfter: number;
  /**
   * Set when a side is over DIFF_INLINE_MAX_BYTES: no inline diff was computed; "Open diff" (VS
   * Code's diff editor) still shows it.
   */
  readonly tooLarge?: { readonly bytes: number; readonly limit: number };
  /**
   * Not sent by the agent: Tandem saw it — `disk`: what changed on disk while the call ran (agents
   * that write the disk themselves); `input`: the old and new text of the call's input.
   */
  readonly observed?: 'disk' | 'input';
}

/** Largest old or new text (UTF-8 bytes) diffed inline; bigger ones only offer "Open diff". */
export const DIFF_INLINE_MAX_BYTES = 5 * 1024 * 1024;

/** Longest line (UTF-16 units) sent to the panel; longer ones are cut. */
export const DIFF_LINE_MAX_CHARS = 2000;

/** Most lines `fetchDiffLines` answers at once. */
export const DIFF_FETCH_MAX_LINES = 1000;

/** Output of one terminal, shown inside every tool call card that embeds it. */
export interface TerminalView {
  readonly terminalId: string;
  /** The command line, for the header. */
  readonly command: string;
  /** Output so far (already bounded by the host). May contain ANSI escapes. */
  readonly output: string;
  /** True when earlier output was dropped to respect the byte limit. */
  readonly truncated: boolean;
  /** Set once the process has exited. */
  readonly exit?: TerminalExitView;
}

export interface TerminalExitView {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /**
   * The command was still running when the editor that ran it went away (closed, reloaded or
   * crashed), which ended it; how it would have ended is unknown. Set on restored transcripts.
   */
  readonly lost?: true;
}
