import * as l10n from '@vscode/l10n';

/**
 * The transcript file (`Tandem: Export Transcript…`, read by the replay agent): JSON lines. The first
 * line is a header (who, which versions, the handshake); every other line is one JSON-RPC message
 * as it crossed the wire, with its time and direction. One message per line keeps the file
 * greppable, diffable, streamable, and a cut-off file still readable up to where it ends.
 */

export const TRANSCRIPT_TYPE = 'tandem-transcript';
export const TRANSCRIPT_VERSION = 1;

export interface TranscriptHeader {
  type: typeof TRANSCRIPT_TYPE;
  version: number;
  exportedAt: string;
  tandemVersion: string;
  /** The ACP protocol version Tandem speaks, and its SDK's version. */
  protocolVersion: number;
  sdkVersion?: string;
  editor?: string;
  platform?: string;
  /** The agent as configured (name) and as it introduced itself in `initialize`. */
  agent?: { name: string; info?: unknown; protocolVersion?: unknown };
  /** The first connection's `initialize` request params and answer result. */
  initialize?: { params?: unknown; result?: unknown };
  /** The conversation exported, when the export was of one. */
  session?: string;
  messages: number;
  /** Messages the recording had already dropped (its oldest) when this was exported. */
  dropped: number;
  /** Values masked by the export. */
  redactions: number;
}

/** One message line. */
export interface TranscriptLine {
  /** ISO time it crossed the wire. */
  at: string;
  /** `in`: from the agent; `out`: from the client. */
  dir: 'in' | 'out';
  /** Which connection of the agent (a restart opens another). */
  conn: number;
  msg: Record<string, unknown>;
  /** Conformance findings about it, as text. */
  warnings?: string[];
}

/** A message as read back, with the line it came from (for messages that point at the file). */
export interface TranscriptMessage {
  line: number;
  atMs: number;
  dir: 'in' | 'out';
  conn: number;
  msg: Record<string, unknown>;
}

export interface TranscriptProblem {
  line: number;
  text: string;
}

export interface ParsedTranscript {
  header?: TranscriptHeader;
  messages: TranscriptMessage[];
  /** What could not be read; the rest still is. */
  problems: TranscriptProblem[];
}

export function serializeTranscript(header: TranscriptHeader, lines: readonly TranscriptLine[]): string {
  return [header, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a transcript, tolerating what a hand edit or a cut-off copy leaves: lines that are not
 * JSON, unknown fields, a missing header, a last line cut short. Each is a problem with its line
 * number; every readable message is kept.
 */
export function parseTranscript(text: string): ParsedTranscript {
  const problems: TranscriptProblem[] = [];
  const messages: TranscriptMessage[] = [];
  let header: TranscriptHeader | undefined;
  const lines = text.split('\n');
  const endsCleanly = text.endsWith('\n');
  let lastAt = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const source = lines[i].trim();
    if (!source) continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      const cut = i === lines.length - 1 && !endsCleanly;
      problems.push({
        line: lineNo,
        text: cut
          ? l10n.t('Line {0} is cut short (the file ends in the middle of it); it is ignored.', lineNo)
          : l10n.t('Line {0} is not JSON; it is ignored.', lineNo),
      });
      continue;
    }
    if (!isObject(value)) {
      problems.push({ line: lineNo, text: l10n.t('Line {0} is not a JSON object; it is ignored.', lineNo) });
      continue;
    }
    if (value.type === TRANSCRIPT_TYPE) {
      if (header || messages.length > 0) problems.push({ line: lineNo, text: l10n.t('Line {0} is a second header; it is ignored.', lineNo) });
      else {
        header = value as unknown as TranscriptHeader;
        if (typeof value.version !== 'number' || value.version > TRANSCRIPT_VERSION) {
          problems.push({
            line: lineNo,
            text: l10n.t(
              'The transcript has format version {0}; this Tandem reads version {1} and reads what it understands.',
              String(value.version),
              TRANSCRIPT_VERSION,
            ),
          });
        }
      }
      continue;
    }
    const message = readMessage(value, lineNo, lastAt, problems);
    if (message) {
      lastAt = message.atMs;
      messages.push(message);
    }
  }
  if (!header && messages.length > 0) problems.unshift({ line: 1, text: l10n.t('The transcript has no header line; its messages are read without it.') });
  if (!header && messages.length === 0) problems.push({ line: 1, text: l10n.t('This file holds no Tandem transcript (no header and no messages).') });
  return { header, messages, problems };
}

function readMessage(value: Record<string, unknown>, line: number, lastAt: number, problems: TranscriptProblem[]): TranscriptMessage | undefined {
  if (value.dir !== 'in' && value.dir !== 'out') {
    problems.push({ line, text: l10n.t('Line {0} has no direction ("dir" must be "in" or "out"); it is ignored.', line) });
    return undefined;
  }
  if (!isObject(value.msg)) {
    problems.push({ line, text: l10n.t('Line {0} has no JSON-RPC message ("msg"); it is ignored.', line) });
    return undefined;
  }
  const parsed = typeof value.at === 'string' ? Date.parse(value.at) : Number.NaN;
  if (Number.isNaN(parsed) && value.at !== undefined)
    problems.push({ line, text: l10n.t('Line {0} has an unreadable time; the one before it is used.', line) });
  const conn = typeof value.conn === 'number' && Number.isFinite(value.conn) ? value.conn : 1;
  return { line, atMs: Number.isNaN(parsed) ? lastAt : parsed, dir: value.dir, conn, msg: value.msg };
}
