/**
 * Host ⇄ webview protocol: context the user attaches to a prompt (`@` mentions, chips, picker
 * suggestions) and what the agent accepts. Part of the protocol re-exported by messages.ts.
 */

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
