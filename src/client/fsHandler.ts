import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { AccessOp, PathPolicy } from './pathPolicy';
import { errorMessage } from '../util/errors';
import { assertNever } from '../protocol/guards';

/**
 * Where file text comes from and goes to. The VS Code adapter reads open documents (so unsaved
 * edits are what the agent sees) and writes through a `WorkspaceEdit`; `NodeFileAccess` is the plain
 * disk implementation. Contract for implementations:
 * - `readText` rejects with a `FileAccessError` (or an error whose `code` is `ENOENT`/`EISDIR` or
 *   VS Code's `FileNotFound`/`FileIsADirectory`) for a missing file or a directory, and with
 *   `FileAccessError('binary')` when the bytes are not text.
 * - `writeText` creates missing parent folders and writes `text` exactly as given (line endings are
 *   already adjusted by `FsHandler`).
 */
export interface FileAccess {
  readText(path: string): Promise<string>;
  writeText(path: string, text: string): Promise<void>;
}

export type FileAccessErrorKind = 'notFound' | 'isDirectory' | 'binary';

/** Typed failure of a `FileAccess`, mapped by `FsHandler` onto ACP errors. */
export class FileAccessError extends Error {
  constructor(
    readonly kind: FileAccessErrorKind,
    readonly path: string,
  ) {
    super(`${kind}: ${path}`);
    this.name = 'FileAccessError';
  }
}

/** ACP/JSON-RPC "Resource not found". */
export const RESOURCE_NOT_FOUND = -32002;
/** How much of the start of a file is searched for a NUL byte/char to call it binary (as git does). */
export const BINARY_SNIFF_BYTES = 8192;

export interface FsHandlerOptions {
  files: FileAccess;
  policy: PathPolicy;
  /**
   * Called before a write, with the real path, the text on disk (undefined: a new file) and the text
   * to write: records what will change, and may refuse the write by throwing (a `RequestError` the
   * agent can read), e.g. when the user reviews writes before they happen.
   */
  beforeWrite?: (path: string, before: string | undefined, after: string) => Promise<void>;
  /** Called after a successful read/write with the real path and the 1-based line read from. */
  onTouched?: (path: string, line: number | undefined, op: AccessOp) => void;
}

/**
 * Serves `fs/read_text_file` and `fs/write_text_file`.
 *
 * A file that does not exist yet (deliberate; agents act on the answer):
 * - whole-file read (no `line`, no `limit`) of a missing file inside the workspace → `""`, as an
 *   editor opens a path that does not exist yet as a new, empty document (Zed answers the same).
 *   Agents read the whole file right before writing it, to diff against and keep its line endings.
 *   Gemini CLI's write_file (its way to create files) fails on *any* error to that read: version
 *   0.61 bundles an ACP SDK that rejects with the plain JSON-RPC error object, so its own check for
 *   "Resource not found"/ENOENT in the message never sees it. No error shape works, only content.
 *   Creating the file is then the `fs/write_text_file` that follows.
 * - read with `line` or `limit` of a missing file → `-32002`, message `Resource not found: <path>
 *   (the file does not exist)`, data `{ path }`. A line window asks to *view* lines; saying the file
 *   is not there beats an empty view the model would take for an empty file. Claude Code's Read
 *   tool always sends both and relays the error to the model.
 * - missing file outside the workspace (where the user allowed access) → the same `-32002`: the
 *   agent is not creating a project file there, and the answer should tell the truth.
 * The message starts with the SDK's own wording for -32002, which agents that match on messages
 * recognise (Gemini CLI will, once its SDK hands it the message).
 *
 * Other errors:
 * - directory → `-32602 Invalid params`, `<path> is a directory` (the agent should list it instead).
 * - binary (NUL in the first 8 KB) → `-32602`, `<path> is a binary file` (returning mojibake would
 *   waste the agent's context and corrupt the file if it wrote it back).
 * - `line < 1`, non-integer `line`/`limit`, negative `limit` → `-32602`.
 */
export class FsHandler {
  constructor(private readonly opts: FsHandlerOptions) {}

  async readTextFile(p: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const line = p.line ?? undefined;
    const limit = p.limit ?? undefined;
    if (line !== undefined && (!Number.isInteger(line) || line < 1)) {
      throw new RequestError(-32602, `Invalid params: line must be an integer ≥ 1 (1-based), got ${line}`, { line });
    }
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
      throw new RequestError(-32602, `Invalid params: limit must be an integer ≥ 0, got ${limit}`, { limit });
    }
    const real = await this.opts.policy.check(p.path, 'read');
    let text: string;
    try {
      text = await this.read(real, p.path);
    } catch (err) {
      const wholeFile = line === undefined && limit === undefined;
      if (wholeFile && isNotFound(err) && this.opts.policy.isInWorkspace(real)) {
        // A new, empty document (see the class comment). No onTouched: there is nothing to show yet.
        return { content: '' };
      }
      throw err;
    }
    const content = sliceLines(text, line ?? 1, limit);
    this.opts.onTouched?.(real, line, 'read');
    return { content };
  }

  async writeTextFile(p: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    if (typeof p.content !== 'string') {
      throw new RequestError(-32602, 'Invalid params: content must be a string', { path: p.path });
    }
    const real = await this.opts.policy.check(p.path, 'write');
    let existing: string | undefined;
    try {
      existing = await this.read(real, p.path);
    } catch (err) {
      // A new file is fine; a binary file is overwritten as the agent asked (no line endings to keep).
      const isBinary = err instanceof RequestError && (err.data as { reason?: string } | undefined)?.reason === 'binary';
      if (!isNotFound(err) && !isBinary) throw err;
    }
    const eol = existing === undefined ? undefined : dominantEol(existing);
    const text = eol === undefined ? p.content : p.content.replace(/\r?\n/g, eol);
    await this.opts.beforeWrite?.(real, existing, text);
    await this.opts.files.writeText(real, text);
    this.opts.onTouched?.(real, undefined, 'write');
    return {};
  }

  /** Reads through `FileAccess`, mapping its failures onto the documented ACP errors. */
  private async read(real: string, asked: string): Promise<string> {
    let text: string;
    try {
      text = await this.opts.files.readText(real);
    } catch (err) {
      throw toRequestError(err, asked);
    }
    // The editor adapter hands us decoded text, so sniff here too, on characters.
    if (text.slice(0, BINARY_SNIFF_BYTES).includes('\u0000')) {
      throw binaryError(asked);
    }
    return text;
  }
}

/** True for the `-32002` that `read` throws for a missing file. */
function isNotFound(err: unknown): boolean {
  return err instanceof RequestError && err.code === RESOURCE_NOT_FOUND;
}

function toRequestError(err: unknown, path: string): Error {
  if (err instanceof RequestError) return err;
  const kind = classify(err);
  switch (kind) {
    case 'notFound':
      return new RequestError(RESOURCE_NOT_FOUND, `Resource not found: ${path} (the file does not exist)`, { path });
    case 'isDirectory':
      return new RequestError(-32602, `${path} is a directory, not a file`, { path, reason: 'directory' });
    case 'binary':
      return binaryError(path);
    case undefined:
      return new RequestError(-32603, `Cannot read ${path}: ${errorMessage(err)}`, { path });
    default:
      return assertNever(kind);
  }
}

function binaryError(path: string): RequestError {
  return new RequestError(-32602, `${path} is a binary file; only text files can be read`, { path, reason: 'binary' });
}

/** What a `FileAccess` rejection means, whichever form it took (typed, Node's code, VS Code's code). */
export function classify(err: unknown): FileAccessErrorKind | undefined {
  if (err instanceof FileAccessError) return err.kind;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'FileNotFound' || code === 'ENOTDIR') return 'notFound';
  if (code === 'EISDIR' || code === 'FileIsADirectory') return 'isDirectory';
  return undefined;
}

/**
 * Lines `line`..`line+limit-1` (1-based) of `text`, with their original terminators. Scans for
 * newlines instead of splitting so a small window of a huge file costs no big array.
 */
export function sliceLines(text: string, line: number, limit: number | undefined): string {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return '';
    start = nl + 1;
  }
  if (limit === undefined) return text.slice(start);
  let end = start;
  for (let i = 0; i < limit; i++) {
    const nl = text.indexOf('\n', end);
    if (nl === -1) return text.slice(start);
    end = nl + 1;
  }
  return text.slice(start, end);
}

/** `\r\n` when most line breaks of `text` are CRLF, `\n` when most are LF, undefined with none. */
export function dominantEol(text: string): '\r\n' | '\n' | undefined {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return undefined;
  return crlf > lf ? '\r\n' : '\n';
}
