import { BINARY_SNIFF_BYTES, classify, sliceLines } from '../client/fsHandler';
import type { DiagnosticSeverity, EditorDiagnostic } from './editorToolsPort';
import { modelRange, PATH_PROPERTY, type EditorTool, type ToolContext } from './editorTool';
import { capList, capText, jsonOutput, MAX_RESULT_CHARS } from './toolResults';

/** The tools that read what the editor knows: Problems, selection, tabs, buffers; and follow-along. */

const SEVERITY_ORDER: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

const diagnostics: EditorTool = {
  name: 'diagnostics',
  title: 'Problems',
  kind: 'read',
  readOnly: true,
  description:
    "The editor's Problems (errors and warnings from the language servers, linters and compilers the user has) for one file, or for the whole workspace when `path` is omitted. " +
    'Use it after an edit to see whether the code still compiles, or before one to find what is broken. Each problem has a severity, a 1-based range, its source (e.g. "ts", "eslint") and the message. ' +
    'Errors come first. Files that are not open may not be analysed by every language server.',
  inputSchema: {
    type: 'object',
    properties: { path: { ...PATH_PROPERTY, description: 'Only this file (relative to the workspace or absolute). Omit for the whole workspace.' } },
    additionalProperties: false,
  },
  async run(args, cx) {
    const path = args.path === undefined || args.path === null ? undefined : await cx.resolve(args.path as string, 'read');
    const found = await cx.port.diagnostics(path);
    // Said plainly: an empty JSON list reads to a model like "nothing was asked".
    if (found.length === 0) return { text: path === undefined ? 'No problems in the workspace.' : `No problems in ${cx.show(path)}.` };
    const sorted = [...found].sort(
      (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.path.localeCompare(b.path) || a.range.start.line - b.range.start.line,
    );
    const counts = { error: 0, warning: 0, information: 0, hint: 0 };
    for (const d of sorted) counts[d.severity]++;
    const { items, note } = capList(sorted, 'problems');
    return jsonOutput({ counts, problems: items.map((d) => shownDiagnostic(d, cx)) }, note);
  },
};

function shownDiagnostic(d: EditorDiagnostic, cx: ToolContext): Record<string, unknown> {
  return { path: cx.show(d.path), severity: d.severity, ...modelRange(d.range), source: d.source, code: d.code, message: d.message };
}

const selection: EditorTool = {
  name: 'selection',
  title: 'Selection',
  kind: 'read',
  readOnly: true,
  description:
    "What the user is looking at: the active editor's file, its selection range (1-based) and the selected text (empty when the cursor is only placed). " +
    'Use it when the user says "this", "here" or "the selected code".',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async run(_args, cx) {
    const current = await cx.port.selection();
    if (!current) return { text: 'No text editor is active.' };
    // The text is the file's content: it passes the same policy as read_file.
    const real = await cx.resolve(current.path, 'read');
    const { text, truncated } = capText(current.text, MAX_RESULT_CHARS - 1_000);
    const output = jsonOutput({ path: cx.show(real), ...modelRange(current.range), text, ...(truncated ? { truncated } : {}) });
    return truncated ? { ...output, truncated } : output;
  },
};

const openEditors: EditorTool = {
  name: 'open_editors',
  title: 'Open editors',
  kind: 'read',
  readOnly: true,
  description:
    'The files open in editor tabs: which one is active and which have unsaved changes ("dirty"). ' +
    'A dirty file differs from the disk; read it with read_file to see what the user is typing.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async run(_args, cx) {
    const editors = await cx.port.openEditors();
    if (editors.length === 0) return { text: 'No files are open in editor tabs.' };
    const { items, note } = capList(editors, 'editors');
    return jsonOutput({ editors: items.map((e) => ({ path: cx.show(e.path), active: e.active, dirty: e.dirty, languageId: e.languageId })) }, note);
  },
};

const readFile: EditorTool = {
  name: 'read_file',
  title: 'Read file',
  kind: 'read',
  readOnly: true,
  description:
    "A file's text as the editor has it, unsaved edits included (the disk may be older). " +
    'Optionally only lines startLine..endLine (1-based, inclusive). Long files are cut with a note; read them in ranges.',
  inputSchema: {
    type: 'object',
    properties: {
      path: PATH_PROPERTY,
      startLine: { type: 'integer', minimum: 1, description: 'First line to return (1-based). Default: 1.' },
      endLine: { type: 'integer', minimum: 1, description: 'Last line to return (1-based, inclusive). Default: the end of the file.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const startLine = (args.startLine as number | undefined) ?? 1;
    const endLine = args.endLine as number | undefined;
    if (endLine !== undefined && endLine < startLine) {
      return { text: `endLine (${endLine}) is before startLine (${startLine}).`, isError: true };
    }
    const real = await cx.resolve(args.path as string, 'read');
    const text = await readEditorText(cx, real);
    if (text.length === 0) return { text: `[${cx.show(real)} is empty]` };
    const lines = lineCount(text);
    if (startLine > lines) {
      return { text: `startLine ${startLine} is past the end: ${cx.show(real)} has ${lines} line${lines === 1 ? '' : 's'}.`, isError: true };
    }
    return { text: sliceLines(text, startLine, endLine === undefined ? undefined : endLine - startLine + 1) };
  },
};

/** Lines as the editor counts them, except that a final line break does not start one more. */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** The editor's text of a file the policy allowed, with the fs handler's wording for what cannot be read. */
export async function readEditorText(cx: ToolContext, real: string): Promise<string> {
  let text: string;
  try {
    text = await cx.port.readText(real);
  } catch (err) {
    const kind = classify(err);
    if (kind === 'notFound') throw new Error(`${cx.show(real)} does not exist.`);
    if (kind === 'isDirectory') throw new Error(`${cx.show(real)} is a directory, not a file.`);
    if (kind === 'binary') throw new Error(`${cx.show(real)} is a binary file; only text files can be read.`);
    throw err;
  }
  if (text.slice(0, BINARY_SNIFF_BYTES).includes('\u0000')) throw new Error(`${cx.show(real)} is a binary file; only text files can be read.`);
  return text;
}

const openFile: EditorTool = {
  name: 'open_file',
  title: 'Open file',
  kind: 'other',
  readOnly: true,
  description:
    "Opens a file in the user's editor, optionally scrolled to a 1-based line, to show the user what you are talking about. It changes nothing and returns nothing of the file; use read_file to read it.",
  inputSchema: {
    type: 'object',
    properties: { path: PATH_PROPERTY, line: { type: 'integer', minimum: 1, description: '1-based line to reveal.' } },
    required: ['path'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const real = await cx.resolve(args.path as string, 'read');
    const line = args.line as number | undefined;
    await cx.port.openFile(real, line === undefined ? undefined : line - 1);
    return { text: `Opened ${cx.show(real)}${line === undefined ? '' : ` at line ${line}`}.` };
  },
};

export const READ_TOOLS: readonly EditorTool[] = [diagnostics, selection, openEditors, readFile, openFile];
