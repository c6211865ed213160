/**
 * A server-side tool part as an ACP tool card: `tool_call` when it appears, `tool_call_update`s as
 * it runs. Hosted APIs give only a tool name (`zhipin_reply_generator`, `bash`, `web_search`) and a
 * JSON input, so the card's kind and title are guessed from those. Every card carries
 * `_meta.tandem.ranOn = "server"` so a client can say where it ran (no follow-along, no local
 * review) and `_meta.tandem.toolName` with the server's own name.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';
import { toolNameOf, type ToolPart, type ToolState } from './types';

/**
 * Words of a tool name that decide its kind, in priority order (the first kind with a matching
 * word wins: `web_search` is a search, `read_file` a read). Whole words only, so `movie_db` is
 * not a move and `settings` is not an edit.
 */
const KIND_WORDS: ReadonlyArray<[acp.ToolKind, readonly string[]]> = [
  ['execute', ['bash', 'shell', 'sh', 'zsh', 'exec', 'execute', 'run', 'command', 'cmd', 'terminal', 'script', 'python', 'sandbox']],
  ['read', ['read', 'get', 'view', 'cat', 'load', 'show', 'retrieve', 'inspect']],
  ['edit', ['write', 'edit', 'update', 'patch', 'create', 'modify', 'replace', 'insert', 'append', 'save']],
  ['delete', ['delete', 'remove', 'rm', 'unlink', 'erase', 'destroy']],
  ['move', ['move', 'rename', 'mv']],
  ['search', ['search', 'grep', 'find', 'list', 'ls', 'glob', 'query', 'lookup', 'locate', 'rg']],
  ['fetch', ['fetch', 'web', 'http', 'https', 'browse', 'browser', 'url', 'curl', 'download', 'scrape', 'crawl']],
  ['think', ['think', 'thinking', 'reason', 'reasoning', 'reflect']],
];

/** `mcp__files__readFile` → ['mcp', 'files', 'read', 'file']. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

export function kindFor(toolName: string): acp.ToolKind {
  const words = new Set(nameWords(toolName));
  for (const [kind, list] of KIND_WORDS) if (list.some((w) => words.has(w))) return kind;
  return 'other';
}

/**
 * Input fields that say most about a call, best first (compared without case, `_` or `-`):
 * the command of a shell, the path of a file tool, the URL of a fetch, the query of a search.
 */
const TELLING_KEYS = [
  'command',
  'cmd',
  'script',
  'filepath',
  'path',
  'file',
  'filename',
  'paths',
  'url',
  'uri',
  'href',
  'query',
  'q',
  'pattern',
  'search',
  'keyword',
  'keywords',
];
/** Then fields whose name contains one of these (`candidate_message`, `user_question`). */
const TELLING_PARTS = ['message', 'question', 'prompt', 'text', 'title', 'name', 'topic', 'target'];

const MAX_TITLE_VALUE = 80;

function squash(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

function shown(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value.join(', ');
  return undefined;
}

/** The most telling input value, on one line and at most 80 characters; undefined when there is none. */
export function tellingValue(input: unknown): string | undefined {
  if (!isRecord(input)) return shown(input);
  const entries = Object.entries(input);
  const pick =
    TELLING_KEYS.map((k) => entries.find(([key, v]) => squash(key) === k && shown(v) !== undefined)).find((e) => e !== undefined) ??
    TELLING_PARTS.map((k) => entries.find(([key, v]) => squash(key).includes(k) && shown(v) !== undefined)).find((e) => e !== undefined) ??
    entries.find(([, v]) => typeof v === 'string' && shown(v) !== undefined);
  if (!pick) return undefined;
  const line = (shown(pick[1]) ?? '').replace(/\s+/g, ' ').trim();
  return line.length > MAX_TITLE_VALUE ? `${line.slice(0, MAX_TITLE_VALUE - 1)}…` : line;
}

/** `bash: ls -la`, `zhipin_reply_generator: 你们薪资待遇怎么样？`, or the name alone. */
export function titleFor(toolName: string, input: unknown, serverTitle?: string): string {
  if (serverTitle && serverTitle.trim() !== '') return serverTitle.trim().slice(0, 200);
  const value = tellingValue(input);
  return value ? `${toolName}: ${value}` : toolName;
}

/** What goes in `_meta` of every tool call and tool call update the bridge sends. */
export function serverToolMeta(part: ToolPart): Record<string, unknown> {
  return { tandem: { ranOn: 'server', toolName: toolNameOf(part) } };
}

export function statusOf(part: ToolPart): acp.ToolCallStatus {
  const state: ToolState = part.state;
  switch (state) {
    case 'input-streaming':
    case 'approval-requested':
      return 'pending';
    case 'input-available':
      return 'in_progress';
    case 'approval-responded':
      return part.approval?.approved === false ? 'failed' : 'in_progress';
    case 'output-available':
      return 'completed';
    case 'output-error':
    case 'output-denied':
      return 'failed';
  }
}

/** Cap on the text of one card (the raw output keeps everything). */
const MAX_CONTENT_CHARS = 200_000;

function capped(text: string): string {
  return text.length > MAX_CONTENT_CHARS
    ? `${text.slice(0, MAX_CONTENT_CHARS)}\n… (${text.length - MAX_CONTENT_CHARS} more characters in the raw output)`
    : text;
}

/** A tool's output as card text: strings as they are, anything else as a JSON block. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return capped(output);
  if (output === undefined) return '';
  let json: string;
  try {
    json = JSON.stringify(output, null, 2) ?? String(output);
  } catch {
    json = String(output);
  }
  return capped('```json\n' + json + '\n```');
}

function textContent(text: string): acp.ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text } }];
}

/** The card content a state shows, or undefined to leave what the card has (live output). */
function contentOf(part: ToolPart): acp.ToolCallContent[] | undefined {
  switch (part.state) {
    case 'output-available':
      return textContent(outputText(part.output));
    case 'output-error':
      return textContent(part.errorText && part.errorText !== '' ? part.errorText : 'The tool failed on the server.');
    case 'output-denied':
      return textContent(part.approval?.reason ? `Not run: ${part.approval.reason}` : 'Not run: the call was denied.');
    case 'approval-responded':
      return part.approval?.approved === false ? textContent(part.approval.reason ? `Not run: ${part.approval.reason}` : 'Not run: you denied it.') : undefined;
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
      return undefined;
  }
}

/** The fields a card shows for the part as it is now. */
function cardFields(part: ToolPart): Omit<acp.ToolCall, 'toolCallId' | 'title'> & { title: string } {
  const name = toolNameOf(part);
  const fields: Omit<acp.ToolCall, 'toolCallId' | 'title'> & { title: string } = {
    title: titleFor(name, part.input, part.title),
    kind: kindFor(name),
    status: statusOf(part),
    _meta: serverToolMeta(part),
  };
  if (part.input !== undefined) fields.rawInput = part.input;
  const content = contentOf(part);
  if (content) fields.content = content;
  if (part.state === 'output-available') fields.rawOutput = part.output;
  if (part.state === 'output-error') fields.rawOutput = { error: part.errorText ?? '' };
  return fields;
}

/** A new card for the part (also used to replay a finished call in its final state). */
export function toolCallFor(acpId: string, part: ToolPart): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call', toolCallId: acpId, ...cardFields(part) };
}

/**
 * The card of a call in a finished message (a JSON answer, a replayed history): nothing more will
 * come for it, so a call left without a result is shown as ended rather than running forever
 * (the seed's answers may hold `input-available` parts: "input only").
 */
export function settledCallFor(acpId: string, part: ToolPart): acp.SessionUpdate {
  const card = toolCallFor(acpId, part);
  if (card.sessionUpdate !== 'tool_call' || (card.status !== 'pending' && card.status !== 'in_progress')) return card;
  const unanswered = part.state === 'approval-requested';
  const text = unanswered ? 'Not run: the approval was never answered.' : 'The server reported no output for this call.';
  return { ...card, status: unanswered ? 'failed' : 'completed', content: textContent(text) };
}

/** The card brought up to date with the part (title and kind too: the input may have just arrived). */
export function toolUpdateFor(acpId: string, part: ToolPart): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId: acpId, ...cardFields(part) };
}

/** Live output while the tool runs (`tool.output`, preliminary AI SDK outputs). */
export function progressFor(acpId: string, part: ToolPart, live: string): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId: acpId, status: 'in_progress', content: textContent(capped(live)), _meta: serverToolMeta(part) };
}
