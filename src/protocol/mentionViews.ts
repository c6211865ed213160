/**
 * Host ⇄ webview protocol: context the user attaches to a prompt (`@` mentions, chips, picker
 * suggestions) and what the agent accepts. Part of the protocol re-exported by messages.ts.
 */

/** Lines of a file, 1-based; end column exclusive (UTF-16 units). */
export interface LineRangeView {
  readonly startLine: number;
  readonly endLine: number;
  readonly startColumn?: number;
  readonly endColumn?: number;
}

/** Something the user points the agent at, as a chip shows it (composer and user entry). */
export interface MentionView {
  readonly kind: 'file' | 'folder' | 'selection' | 'symbol' | 'problems' | 'terminal' | 'gitDiff' | 'image' | 'audio' | 'conversation';
  /** Short text for the chip: `app.ts`, `app.ts:10-20`, `parse`, `Problems`, `bash`, `screenshot.png`. */
  readonly label: string;
  /** Longer text for a tooltip. */
  readonly detail?: string;
  /** The URI the agent sees (`file://…`, `tandem://…`); absent for pasted images and audio. */
  readonly uri?: string;
  readonly range?: LineRangeView;
  /** Codicon name without the `codicon-` prefix. */
  readonly icon: string;
}

/**
 * What the composer sends for a mention: the host reads the content at send time (the editor's
 * text with unsaved changes, the diagnostics then, the terminal's recent output, `git diff`).
 */
export type MentionSpec =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'folder'; readonly path: string }
  | { readonly kind: 'selection'; readonly path: string; readonly range: LineRangeView }
  | { readonly kind: 'symbol'; readonly path: string; readonly name: string; readonly range: LineRangeView; readonly symbolKind?: string }
  /** The problems of one file, or of the whole workspace when `file` is absent. */
  | { readonly kind: 'problems'; readonly file?: string }
  | { readonly kind: 'terminal'; readonly name: string }
  | { readonly kind: 'gitDiff' }
  /** Pasted or dropped media: base64 without a `data:` prefix. */
  | { readonly kind: 'image' | 'audio'; readonly name: string; readonly mimeType: string; readonly data: string }
  /**
   * Another conversation, handed over to this one's agent (Continue with Another Agent…): the host
   * writes it as Markdown when the prompt goes. `title` and `agentName` are for the chip.
   */
  | { readonly kind: 'conversation'; readonly conversationId: string; readonly title: string; readonly agentName: string };

/** What an agent takes in a prompt besides text and links (ACP `promptCapabilities`). */
export interface PromptCapabilitiesView {
  readonly image: boolean;
  readonly audio: boolean;
  readonly embeddedContext: boolean;
  /** A prompt written while a turn runs is steered into it (the agent advertises steering). */
  readonly steering?: true;
}

/** A chip: what to send, and how to show it. */
export interface MentionChip {
  readonly spec: MentionSpec;
  readonly view: MentionView;
}

/** A picker suggestion for `@`. */
export interface MentionCandidate extends MentionChip {
  /** Heading it is listed under: Files, Open editors, Symbols, Selection, Problems, Terminal, Git. */
  readonly group: string;
}
