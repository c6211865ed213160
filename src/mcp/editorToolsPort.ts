import type { PathPolicy } from '../client/pathPolicy';

/**
 * What the editor itself knows, answered by the VS Code adapter (src/vscode/editor) over the
 * editor's API and provider commands — every language extension the user has answers. Paths given
 * have passed the session's `PathPolicy`; paths returned are absolute. Positions are 0-based, as in
 * VS Code; the tools speak 1-based to the model.
 */
export interface EditorQueries {
  /** The Problems of one file, or of the whole workspace when `path` is undefined. */
  diagnostics(path: string | undefined): Promise<EditorDiagnostic[]>;
  /** The active text editor's selection; undefined when no text editor is active. */
  selection(): Promise<EditorSelection | undefined>;
  /** The open tabs that show a file. */
  openEditors(): Promise<OpenEditor[]>;
  /**
   * The editor's text of a file: an open document's buffer (unsaved edits included), else the disk.
   * Rejects as `FileAccess.readText` does (a `FileAccessError`, or an error with an ENOENT-like code).
   */
  readText(path: string): Promise<string>;
  /** Workspace symbols matching `query` (the editor's "Go to Symbol in Workspace"). */
  workspaceSymbols(query: string): Promise<WorkspaceSymbol[]>;
  /** The outline of one file. */
  documentSymbols(path: string): Promise<DocumentSymbol[]>;
  definition(path: string, at: EditorPosition): Promise<EditorLocation[]>;
  references(path: string, at: EditorPosition): Promise<EditorLocation[]>;
  /** Hover texts (Markdown or plain) at a position; empty when no provider answers. */
  hover(path: string, at: EditorPosition): Promise<string[]>;
  /** Shows a file (follow-along), optionally at a 0-based line, without taking focus from the user. */
  openFile(path: string, line: number | undefined): Promise<void>;
}

/**
 * What the `tandem` MCP server's tools use: the editor's answers, plus what belongs to the one
 * session the server serves (its path policy, and writes and commands that go through its review
 * and permission path). The core (src/mcp) never imports `vscode`; the conversation builds this
 * per session, and the unit tests over a fake.
 */
export interface EditorToolsPort extends EditorQueries {
  /**
   * The session's own path policy — the one its `fs/*` handlers use: the workspace folders or the
   * conversation's worktree, the outside-access setting, and the consent prompt for a path outside
   * (its `askOutside` is the consent callback). Shared so a tool can reach no file an
   * `fs/read_text_file` could not.
   */
  readonly paths: PathPolicy;
  /**
   * Writes a whole file's new text through the path `fs/write_text_file` takes for this session
   * (the review's record, checkpoints, `reviewEdits: "before"`, then a `WorkspaceEdit`), after the
   * user's permission (or a rule), so an edit made through MCP is undoable, reviewed and asked
   * about like one made through ACP. Rejects (with a message for the model) when refused.
   */
  writeText(path: string, text: string, signal: AbortSignal): Promise<void>;
  /**
   * Runs a shell command to its end, after the user's permission (or a rule), in the session's
   * terminal manager and cwd (the card shows its output), and releases the terminal. Rejects when refused.
   */
  runCommand(command: string, signal: AbortSignal): Promise<CommandResult>;
}

export interface EditorPosition {
  line: number;
  character: number;
}

export interface EditorRange {
  start: EditorPosition;
  end: EditorPosition;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface EditorDiagnostic {
  path: string;
  severity: DiagnosticSeverity;
  range: EditorRange;
  message: string;
  source?: string;
  code?: string;
}

export interface EditorSelection {
  path: string;
  range: EditorRange;
  text: string;
}

export interface OpenEditor {
  path: string;
  active: boolean;
  dirty: boolean;
  languageId?: string;
}

export interface EditorLocation {
  path: string;
  range: EditorRange;
}

export interface WorkspaceSymbol {
  name: string;
  /** The symbol kind as VS Code names it (`Class`, `Function`, …). */
  kind: string;
  containerName?: string;
  location: EditorLocation;
}

export interface DocumentSymbol {
  name: string;
  kind: string;
  detail?: string;
  range: EditorRange;
  children?: DocumentSymbol[];
}

export interface CommandResult {
  /** Null when the process was ended by a signal. */
  exitCode: number | null;
  signal?: string | null;
  output: string;
  /** True when the terminal already dropped output from the start (its own byte limit). */
  truncated: boolean;
}
