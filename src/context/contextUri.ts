/**
 * URIs for what the user points at: `file://` URIs for paths (with a line range in the fragment) and
 * `tandem://` URIs for context that has no file (problems, terminal output, git diff).
 *
 * No Node or VS Code import: the webview parses these too. Paths are encoded here rather than with
 * `url.pathToFileURL` so the path style is a parameter (the host may describe a Windows workspace
 * from any platform, and the tests check both styles on one machine). The output equals Node's
 * `pathToFileURL` for normalised absolute paths; paths are not normalised (`..` stays as given).
 *
 * Line ranges follow GitHub and VS Code: `#L10-L20`, one line `#L10`, with columns `#L10,5-L20,3`
 * (VS Code's opener syntax). Parsing also accepts Zed's `#L10:20`, `#L10-20` and GitHub's
 * `#L10C5-L20C3`, so ranges agents echo back from other clients still read.
 */

export type PathStyle = 'posix' | 'windows';

/** A range of lines in a file, as the user selected it. */
export interface LineRange {
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line, inclusive. */
  endLine: number;
  /** 1-based column (UTF-16 code units) where the range starts on its first line; absent: at the line start. */
  startColumn?: number;
  /** 1-based column just after the range's end on its last line (exclusive); absent: to the line end. */
  endColumn?: number;
}

/** A `file://` URI taken apart. */
export interface ParsedFileUri {
  /** Absolute path in the given style, decoded; a folder's without its trailing separator. */
  path: string;
  /** True when the URI ends with `/` (how Zed and Tandem link folders). */
  isFolder: boolean;
  /** The line range of a `#L…` fragment, when there is a valid one. */
  range?: LineRange;
}

export const TANDEM_SCHEME = 'tandem';

export { isAbsolutePath } from '../protocol/mentionChecks';

/** The last segment of a path (either separator on Windows), ignoring a trailing separator. */
export function baseName(path: string, style: PathStyle = 'posix'): string {
  const trimmed = path.replace(style === 'windows' ? /[\\/]+$/ : /\/+$/, '');
  const parts = trimmed.split(style === 'windows' ? /[\\/]/ : '/');
  return parts[parts.length - 1] || path;
}

/**
 * `path` relative to the first workspace root that contains it (with `/` separators, as VS Code
 * shows it), else the path as given. Windows roots compare case-insensitively.
 */
export function displayPath(path: string, roots: readonly string[], style: PathStyle = 'posix'): string {
  const fold = (p: string) => (style === 'windows' ? p.replace(/\//g, '\\').toLowerCase() : p);
  const sep = style === 'windows' ? '\\' : '/';
  const target = fold(path);
  for (const root of roots) {
    const r = fold(root).replace(/[\\/]+$/, '');
    if (r && target.startsWith(r + sep) && target.length > r.length + 1) {
      return path.slice(r.length + 1).replace(/\\/g, '/');
    }
  }
  return path;
}

/** `file://` URI of an absolute path (a folder's ends with `/`), percent-encoded like Node's. */
export function fileUri(path: string, style: PathStyle = 'posix', opts: { folder?: boolean } = {}): string {
  let uri: string;
  if (style === 'posix') {
    uri = 'file://' + encodePath(path);
  } else {
    const slashed = path.replace(/\\/g, '/');
    const unc = /^\/\/([^/]+)(\/.*)?$/s.exec(slashed);
    if (unc) {
      uri = 'file://' + unc[1].toLowerCase() + encodePath(unc[2] ?? '/');
    } else {
      // `C:/x` → `file:///C:/x`: the drive keeps its colon (RFC 8089), as Node writes it.
      const drive = /^([A-Za-z]:)(\/.*)?$/s.exec(slashed);
      uri = drive ? 'file:///' + drive[1] + encodePath(drive[2] ?? '/') : 'file://' + encodePath(slashed);
    }
  }
  if (opts.folder && !uri.endsWith('/')) uri += '/';
  return uri;
}

/** `uri` with a `#L…` fragment for `range` (replacing any fragment it had). */
export function withRange(uri: string, range: LineRange): string {
  const hash = uri.indexOf('#');
  return (hash === -1 ? uri : uri.slice(0, hash)) + '#' + formatRangeFragment(range);
}

/** `L10-L20`, `L10` for one whole line, `L10,5-L20,3` with columns. */
export function formatRangeFragment(range: LineRange): string {
  const start = `L${range.startLine}` + (range.startColumn !== undefined ? `,${range.startColumn}` : '');
  const end = `L${range.endLine}` + (range.endColumn !== undefined ? `,${range.endColumn}` : '');
  if (range.startLine === range.endLine && range.startColumn === undefined && range.endColumn === undefined) {
    return start;
  }
  return `${start}-${end}`;
}

/** The range of a `#L…` fragment (without the `#`), or undefined when it is not one. */
export function parseRangeFragment(fragment: string): LineRange | undefined {
  const pos = String.raw`L?(\d+)(?:[,C](\d+))?`;
  const m = new RegExp(`^${pos}(?:[-:]${pos})?$`).exec(fragment);
  if (!m) return undefined;
  const startLine = Number(m[1]);
  const endLine = m[3] !== undefined ? Number(m[3]) : startLine;
  if (startLine < 1 || endLine < startLine) return undefined;
  const range: LineRange = { startLine, endLine };
  if (m[2] !== undefined) range.startColumn = Number(m[2]);
  if (m[4] !== undefined) range.endColumn = Number(m[4]);
  return range;
}

/** Takes a `file://` URI apart; undefined for other schemes or a host the path style cannot hold. */
export function parseFileUri(uri: string, style: PathStyle = 'posix'): ParsedFileUri | undefined {
  const m = /^file:\/\/([^/?#]*)([^?#]*)(?:\?[^#]*)?(?:#(.*))?$/is.exec(uri);
  if (!m) return undefined;
  const host = m[1];
  const rawPath = m[2] || '/';
  const range = m[3] !== undefined ? parseRangeFragment(m[3]) : undefined;
  const isFolder = rawPath.length > 1 && rawPath.endsWith('/');
  let path = safeDecode(isFolder ? rawPath.slice(0, -1) : rawPath);
  if (style === 'posix') {
    if (host !== '' && host.toLowerCase() !== 'localhost') return undefined;
  } else if (host !== '' && host.toLowerCase() !== 'localhost') {
    path = '\\\\' + host + path.replace(/\//g, '\\');
  } else {
    // `/C:/x` (also VS Code's `/c%3A/x`, decoded above) → `C:\x`.
    path = path.replace(/^\/([A-Za-z]:)/, '$1').replace(/\//g, '\\');
    if (/^[A-Za-z]:$/.test(path)) path += '\\';
  }
  return range ? { path, isFolder, range } : { path, isFolder };
}

/** `tandem://problems` (all files) or `tandem://problems?file=<file URI>` (one file's). */
export function problemsUri(file?: string, style: PathStyle = 'posix'): string {
  return `${TANDEM_SCHEME}://problems` + (file ? `?file=${encodeURIComponent(fileUri(file, style))}` : '');
}

/** `tandem://terminal/<name>`: a terminal's recent output. */
export function terminalUri(name: string): string {
  return `${TANDEM_SCHEME}://terminal/${encodeSegment(name)}`;
}

/** `tandem://git/diff`, with `?root=<file URI>` when the repository is named. */
export function gitDiffUri(root?: string, style: PathStyle = 'posix'): string {
  return `${TANDEM_SCHEME}://git/diff` + (root ? `?root=${encodeURIComponent(fileUri(root, style, { folder: true }))}` : '');
}

/** `tandem://conversation/<id>`: another conversation, handed over as context. */
export function conversationUri(conversationId: string): string {
  return `${TANDEM_SCHEME}://conversation/${encodeSegment(conversationId)}`;
}

/** What a `tandem://` URI names; undefined for anything else. */
export type TandemTarget =
  | { kind: 'problems'; file?: string }
  | { kind: 'terminal'; name: string }
  | { kind: 'gitDiff'; root?: string }
  | { kind: 'conversation'; conversationId: string };

export function parseTandemUri(uri: string, style: PathStyle = 'posix'): TandemTarget | undefined {
  const m = /^tandem:\/\/([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?/i.exec(uri);
  if (!m) return undefined;
  const params = new URLSearchParams(m[3] ?? '');
  const pathOf = (key: string) => {
    const value = params.get(key);
    return value ? parseFileUri(value, style)?.path : undefined;
  };
  const host = m[1].toLowerCase();
  if (host === 'problems') {
    const file = pathOf('file');
    return file ? { kind: 'problems', file } : { kind: 'problems' };
  }
  if (host === 'terminal' && m[2] && m[2].length > 1) return { kind: 'terminal', name: safeDecode(m[2].slice(1)) };
  if (host === 'conversation' && m[2] && m[2].length > 1) return { kind: 'conversation', conversationId: safeDecode(m[2].slice(1)) };
  if (host === 'git' && m[2] === '/diff') {
    const root = pathOf('root');
    return root ? { kind: 'gitDiff', root } : { kind: 'gitDiff' };
  }
  return undefined;
}

/** Encodes each `/`-separated segment; the separators stay. */
function encodePath(path: string): string {
  return path.split('/').map(encodeSegment).join('/');
}

/**
 * Percent-encodes all but RFC 3986 path characters (unreserved but `~`, sub-delims, `:`, `@`),
 * UTF-8 for non-ASCII: the set Node's `pathToFileURL` leaves as is. `#`, `?`, `%`, space and `\` are encoded,
 * so a file named `a#b.ts` cannot be read as a fragment.
 */
function encodeSegment(segment: string): string {
  // encodeURIComponent throws on lone surrogates (possible in Windows file names).
  const wellFormed = segment.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return encodeURIComponent(wellFormed)
    .replace(/%(?:24|26|2B|2C|3B|3D|3A|40)/g, (e) => String.fromCharCode(parseInt(e.slice(1), 16)))
    .replace(/~/g, '%7E'); // as Node writes it
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
