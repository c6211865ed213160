import { dominantEol } from '../client/fsHandler';
import { PATH_PROPERTY, type EditorTool } from './editorTool';
import { readEditorText } from './readTools';
import { MAX_RESULT_CHARS, tailText } from './toolResults';

/**
 * The tools that change something: files (through the port's `writeText`, which the adapter routes
 * to `fs/write_text_file`'s own path — review record, checkpoint, `reviewEdits`, a `WorkspaceEdit`
 * the user can undo) and commands (through `runCommand`, `terminal/create`'s path).
 */

/** The most replacements one edit_file call may carry. */
export const MAX_EDITS = 100;

interface TextEdit {
  oldText: string;
  newText: string;
}

const editFile: EditorTool = {
  name: 'edit_file',
  title: 'Edit file',
  kind: 'edit',
  readOnly: false,
  description:
    "Changes part of a file in the user's editor: each edit replaces `oldText`, which must occur exactly once in the file as it is then (include a few lines of context to make it unique), with `newText`. " +
    "Edits apply in order, on the editor's text (unsaved changes included). The change is undoable, shown to the user for review, and may need their permission; if they refuse, nothing changes. " +
    'To create a file or replace all of it, use write_file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: PATH_PROPERTY,
      edits: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_EDITS,
        description: 'The replacements, applied one after another.',
        items: {
          type: 'object',
          properties: {
            oldText: { type: 'string', minLength: 1, description: 'Text to replace, exactly as it is in the file; it must occur once.' },
            newText: { type: 'string', description: 'The text to put in its place (empty to delete).' },
          },
          required: ['oldText', 'newText'],
          additionalProperties: false,
        },
      },
    },
    required: ['path', 'edits'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const real = await cx.resolve(args.path as string, 'write');
    const before = await readEditorText(cx, real).catch((err: unknown) => {
      if (err instanceof Error && err.message.endsWith('does not exist.')) throw new Error(`${err.message} Use write_file to create it.`);
      throw err;
    });
    const after = applyEdits(before, args.edits as TextEdit[]);
    if (after === before) return { text: `No change: the edits leave ${cx.show(real)} as it is.` };
    await cx.port.writeText(real, after, cx.signal);
    const count = (args.edits as TextEdit[]).length;
    return { text: `Edited ${cx.show(real)} (${count} replacement${count === 1 ? '' : 's'}).` };
  },
};

/**
 * `text` with each edit applied in turn. An `oldText` written with `\n` matches a CRLF file too
 * (models rarely reproduce `\r`); its `newText` then gets the file's line ending.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const eol = dominantEol(text);
  let current = text;
  edits.forEach((edit, i) => {
    const which = edits.length === 1 ? 'oldText' : `edits[${i}].oldText`;
    let oldText = edit.oldText;
    let newText = edit.newText;
    if (!current.includes(oldText) && eol === '\r\n') {
      oldText = oldText.replace(/\r?\n/g, '\r\n');
      newText = newText.replace(/\r?\n/g, '\r\n');
    }
    const first = current.indexOf(oldText);
    if (first === -1)
      throw new Error(`${which} was not found in the file${i > 0 ? ' (after the earlier edits)' : ''}. Read the file again and copy the text exactly.`);
    if (current.indexOf(oldText, first + 1) !== -1) {
      throw new Error(`${which} occurs ${occurrences(current, oldText)} times in the file; include more surrounding lines so it occurs once.`);
    }
    current = current.slice(0, first) + newText + current.slice(first + oldText.length);
  });
  return current;
}

/**
 * How many places `needle` starts at, overlapping ones included: "aa" in "aaa" is two candidate
 * places (the check above refuses it), and `split` would count one.
 */
function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

const writeFile: EditorTool = {
  name: 'write_file',
  title: 'Write file',
  kind: 'edit',
  readOnly: false,
  description:
    "Creates a file, or replaces all of its content, in the user's editor (missing folders are created). The change is undoable, shown to the user for review, and may need their permission. " +
    "A file's existing line endings are kept. To change part of a file, prefer edit_file.",
  inputSchema: {
    type: 'object',
    properties: { path: PATH_PROPERTY, content: { type: 'string', description: 'The whole new content of the file.' } },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const real = await cx.resolve(args.path as string, 'write');
    const content = args.content as string;
    await cx.port.writeText(real, content, cx.signal);
    return { text: `Wrote ${cx.show(real)} (${content.length} characters).` };
  },
};

const runInTerminal: EditorTool = {
  name: 'run_in_terminal',
  title: 'Run in terminal',
  kind: 'execute',
  readOnly: false,
  description:
    "Runs a shell command in the workspace, in a terminal the user can watch, and returns its exit code and output (the end of it, when long). It may need the user's permission. " +
    'Use it for builds, tests and other commands that finish; not for servers or watchers that run until stopped.',
  inputSchema: {
    type: 'object',
    properties: { command: { type: 'string', minLength: 1, description: 'The command line, run by the shell in the workspace folder.' } },
    required: ['command'],
    additionalProperties: false,
  },
  async run(args, cx) {
    const result = await cx.port.runCommand(args.command as string, cx.signal);
    const status = result.exitCode === null ? `ended by signal ${result.signal ?? 'unknown'}` : `exit code ${result.exitCode}`;
    // A command's verdict is at its end: keep the tail, say what was dropped.
    const { text: output, cut } = tailText(result.output, MAX_RESULT_CHARS - 500);
    const truncated = cut || result.truncated;
    const dropped = truncated ? `[truncated: the start of the output was dropped; showing the last ${output.length} characters]\n` : '';
    // A failing command is an answer, not a failed tool call: the exit code says it.
    return { text: `${status}\n${dropped}${output}`, ...(truncated ? { truncated } : {}) };
  },
};

export const CHANGE_TOOLS: readonly EditorTool[] = [editFile, writeFile, runInTerminal];
