/**
 * A server-side tool's ACP kind and card title, guessed from its name and input: hosted APIs only
 * give a name (`zhipin_reply_generator`, `bash`, `web_search`) and a JSON input.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';

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
const TELLING_KEYS = ['command', 'cmd', 'script', 'filepath', 'path', 'file', 'filename', 'paths', 'url', 'uri', 'href', 'query', 'q', 'pattern', 'search', 'keyword', 'keywords'];
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
