import type { DiagnosticSeverity, DocumentSymbol, EditorDiagnostic, EditorLocation, EditorRange, OpenEditor, WorkspaceSymbol } from '../../mcp/editorToolsPort';

/**
 * What VS Code's API and provider commands answer, turned into the `EditorQueries` shapes. Pure:
 * it reads only the fields it names (structural shapes of the `vscode` classes), so the unit tests
 * feed it plain objects and `editorQueries.ts` stays a thin layer of calls. Providers are other
 * extensions' code: every field that may be missing is checked, and anything not on disk (untitled,
 * git:, vscode-notebook-cell:…) is left out, so every path returned is an absolute file path.
 */

export interface UriLike {
  readonly scheme: string;
  readonly fsPath: string;
}
export interface PositionLike {
  readonly line: number;
  readonly character: number;
}
export interface RangeLike {
  readonly start: PositionLike;
  readonly end: PositionLike;
}
export interface DiagnosticLike {
  readonly range: RangeLike;
  readonly message: string;
  /** vscode.DiagnosticSeverity: Error 0, Warning 1, Information 2, Hint 3. */
  readonly severity: number;
  readonly source?: string;
  readonly code?: string | number | { readonly value: string | number };
}
export interface LocationLike {
  readonly uri: UriLike;
  readonly range: RangeLike;
}
export interface LocationLinkLike {
  readonly targetUri: UriLike;
  readonly targetRange: RangeLike;
  readonly targetSelectionRange?: RangeLike;
}
export interface SymbolInformationLike {
  readonly name: string;
  readonly kind: number;
  readonly containerName?: string;
  readonly location: { readonly uri: UriLike; readonly range?: RangeLike };
}
export interface DocumentSymbolLike {
  readonly name: string;
  readonly kind: number;
  readonly detail?: string;
  readonly range: RangeLike;
  readonly children?: readonly DocumentSymbolLike[];
}
/** A MarkedString (a string, or `{language, value}`) or a MarkdownString (`value`). */
export type HoverContentLike = string | { readonly value: string; readonly language?: string };
export interface HoverLike {
  readonly contents: readonly HoverContentLike[];
}
/** One tab, reduced to what open_editors says of it (`path`: its file, undefined when it shows none). */
export interface TabLike {
  readonly path: string | undefined;
  /** The active tab of the active group: the editor the user is in. */
  readonly active: boolean;
  readonly dirty: boolean;
  readonly languageId?: string;
}
/** `vscode.SymbolKind[kind]`, given by the caller (this file does not load `vscode`). */
export type KindName = (kind: number) => string;

const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'information', 'hint'];

/** An absolute file path for a URI on disk, undefined for any other scheme. */
export function filePath(uri: UriLike | undefined): string | undefined {
  return uri?.scheme === 'file' ? uri.fsPath : undefined;
}

export function toRange(range: RangeLike): EditorRange {
  return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}

export function severityName(severity: number): DiagnosticSeverity {
  return SEVERITIES[severity] ?? 'hint';
}

/** A diagnostic's code as text: providers give a string, a number, or `{value, target}`. */
export function codeText(code: DiagnosticLike['code']): string | undefined {
  const value = typeof code === 'object' && code !== null ? code.value : code;
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * The Problems of the files in `entries` (what `languages.getDiagnostics` answers). The whole
 * workspace's list leaves hints out ("unused", "could be simplified": noise at that scale), as the
 * `@problems` mention does; one file's list keeps them.
 */
export function toDiagnostics(entries: ReadonlyArray<readonly [UriLike, readonly DiagnosticLike[]]>, wholeWorkspace: boolean): EditorDiagnostic[] {
  const result: EditorDiagnostic[] = [];
  for (const [uri, diagnostics] of entries) {
    const path = filePath(uri);
    if (path === undefined) continue;
    for (const d of diagnostics) {
      const severity = severityName(d.severity);
      if (wholeWorkspace && severity === 'hint') continue;
      const diagnostic: EditorDiagnostic = { path, severity, range: toRange(d.range), message: d.message };
      if (d.source) diagnostic.source = d.source;
      const code = codeText(d.code);
      if (code !== undefined) diagnostic.code = code;
      result.push(diagnostic);
    }
  }
  return result;
}

function isLocationLink(value: LocationLike | LocationLinkLike): value is LocationLinkLike {
  return 'targetUri' in value && value.targetUri !== undefined;
}

/**
 * Locations from a definition or reference provider: `Location`s, or `LocationLink`s, whose
 * selection range (the symbol's name) is used when given, like a `Location`'s range. Duplicates
 * (two providers answering alike) are kept once.
 */
export function toLocations(answer: ReadonlyArray<LocationLike | LocationLinkLike> | undefined | null): EditorLocation[] {
  const seen = new Set<string>();
  const result: EditorLocation[] = [];
  for (const item of answer ?? []) {
    if (!item) continue;
    const [uri, range] = isLocationLink(item) ? [item.targetUri, item.targetSelectionRange ?? item.targetRange] : [item.uri, item.range];
    const path = filePath(uri);
    if (path === undefined || !range) continue;
    const location = { path, range: toRange(range) };
    const key = JSON.stringify(location);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(location);
  }
  return result;
}

export function toWorkspaceSymbols(answer: readonly SymbolInformationLike[] | undefined | null, kindName: KindName): WorkspaceSymbol[] {
  const result: WorkspaceSymbol[] = [];
  for (const s of answer ?? []) {
    const path = filePath(s?.location?.uri);
    if (path === undefined) continue;
    // A workspace symbol may come unresolved (no range yet): its file is still an answer.
    const range = s.location.range ? toRange(s.location.range) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const symbol: WorkspaceSymbol = { name: s.name, kind: kindName(s.kind), location: { path, range } };
    if (s.containerName) symbol.containerName = s.containerName;
    result.push(symbol);
  }
  return result;
}

function isDocumentSymbol(value: DocumentSymbolLike | SymbolInformationLike): value is DocumentSymbolLike {
  return 'range' in value && value.range !== undefined && 'selectionRange' in value;
}

/**
 * A file's outline: a provider answers `DocumentSymbol`s (a tree) or the older flat
 * `SymbolInformation`s (each with its own location; kept flat, `containerName` as the detail when
 * it has none).
 */
export function toDocumentSymbols(answer: ReadonlyArray<DocumentSymbolLike | SymbolInformationLike> | undefined | null, kindName: KindName): DocumentSymbol[] {
  const result: DocumentSymbol[] = [];
  for (const s of answer ?? []) {
    if (!s) continue;
    if (isDocumentSymbol(s)) {
      result.push(treeSymbol(s, kindName));
    } else if (s.location?.range) {
      const symbol: DocumentSymbol = { name: s.name, kind: kindName(s.kind), range: toRange(s.location.range) };
      if (s.containerName) symbol.detail = s.containerName;
      result.push(symbol);
    }
  }
  return result;
}

function treeSymbol(s: DocumentSymbolLike, kindName: KindName): DocumentSymbol {
  const symbol: DocumentSymbol = { name: s.name, kind: kindName(s.kind), range: toRange(s.range) };
  if (s.detail) symbol.detail = s.detail;
  const children = (s.children ?? []).map((c) => treeSymbol(c, kindName));
  if (children.length > 0) symbol.children = children;
  return symbol;
}

/** Hover texts as Markdown: a `{language, value}` MarkedString becomes a fenced code block; empty parts are dropped. */
export function hoverTexts(answer: readonly HoverLike[] | undefined | null): string[] {
  const texts: string[] = [];
  for (const hover of answer ?? []) {
    for (const part of hover?.contents ?? []) {
      const text = hoverPart(part).trim();
      if (text !== '') texts.push(text);
    }
  }
  return texts;
}

function hoverPart(part: HoverContentLike): string {
  if (typeof part === 'string') return part;
  if (typeof part?.value !== 'string') return '';
  return part.language !== undefined && part.value.trim() !== '' ? '```' + part.language + '\n' + part.value + '\n```' : part.value;
}

/**
 * The open editors from the tabs, one per file: a file open in two groups (or as a diff's modified
 * side and on its own) is active or dirty when any of its tabs is. Tabs showing no file are left out.
 */
export function toOpenEditors(tabs: readonly TabLike[]): OpenEditor[] {
  const byPath = new Map<string, OpenEditor>();
  for (const tab of tabs) {
    if (tab.path === undefined) continue;
    const known = byPath.get(tab.path);
    if (known) {
      known.active ||= tab.active;
      known.dirty ||= tab.dirty;
      known.languageId ??= tab.languageId;
      continue;
    }
    const editor: OpenEditor = { path: tab.path, active: tab.active, dirty: tab.dirty };
    if (tab.languageId !== undefined) editor.languageId = tab.languageId;
    byPath.set(tab.path, editor);
  }
  return [...byPath.values()];
}
