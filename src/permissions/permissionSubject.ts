/**
 * The facts rules judge a permission request by, pulled out of the tool call's untrusted ACP fields.
 *
 * A `session/request_permission` often carries only the `toolCallId`; the client already knows the
 * call's title, kind, rawInput and locations from earlier `tool_call` updates. So the caller merges
 * what it knows with what the request carries (`mergeToolCallFacts`) and builds one normalised
 * `PermissionSubject` from that (`subjectFromToolCall`). Everything here is defensive: a field of
 * the wrong type is treated as missing, and a missing fact makes rules that need it not match.
 */
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolKind } from '../protocol/messages';
import { inferToolKind } from '../acp/toolKindInference';
import { isRecord, isAbsent } from '../protocol/guards';
import { commandFromArgv, quoteShellWord } from './commandLine';

/** What a permission request is about, in the form rules are matched against. */
export interface PermissionSubject {
  /** The call's ACP kind, inferred from its title and rawInput when the agent sent none or `other`. */
  toolKind: ToolKind;
  /** The title as the agent sent it ('' when none). */
  title: string;
  /** The raw tool input, unchanged (for display and future matchers). */
  rawInput?: unknown;
  /**
   * Every path the call touches: absolute and normalised. A path that could not be made absolute
   * (`~/x`, or relative without a cwd) is kept verbatim; it matches no allow rule.
   */
  paths: string[];
  /** The shell command line, for execute calls (from rawInput, else the title). */
  command?: string;
  /** The URL, for fetch calls (from rawInput, else a single URL in the title). */
  url?: string;
  /** The tool's name: Claude Code's `_meta.claudeCode.toolName`, else the title up to the first blank or colon. */
  toolName?: string;
}

/** The tool call fields subjects are built from, as received (all untrusted). */
export interface ToolCallFacts {
  title?: unknown;
  kind?: unknown;
  rawInput?: unknown;
  locations?: unknown;
  content?: unknown;
  _meta?: unknown;
}

const FACT_KEYS = ['title', 'kind', 'rawInput', 'locations', 'content', '_meta'] as const;

/**
 * The request's tool call fields over what earlier updates said: a field the request carries
 * (neither absent nor null) replaces the known one, like `tool_call_update` does.
 */
export function mergeToolCallFacts(known: ToolCallFacts | undefined, request: ToolCallFacts): ToolCallFacts {
  const merged: ToolCallFacts = {};
  for (const key of FACT_KEYS) {
    const value = isAbsent(request[key]) ? known?.[key] : request[key];
    if (!isAbsent(value)) merged[key] = value;
  }
  return merged;
}

/** rawInput keys agents put one path in (Claude Code, Gemini CLI, Codex, Cursor-style tools). */
const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'absolute_path', 'target_file', 'source', 'destination', 'old_path', 'new_path'];
/** rawInput keys holding a list of paths. */
const PATH_LIST_KEYS = ['paths', 'file_paths'];

/**
 * One path as an absolute, normalised path when it can be placed; verbatim otherwise. `~` is not
 * expanded (whether the agent expands it is unknown), and relative paths are taken from `cwd`.
 */
function placePath(path: string, cwd: string | undefined): string {
  if (path.startsWith('file://')) {
    try {
      return nodePath.normalize(fileURLToPath(path));
    } catch {
      return path;
    }
  }
  if (nodePath.isAbsolute(path)) return nodePath.normalize(path);
  if (path.startsWith('~') || cwd === undefined || !nodePath.isAbsolute(cwd)) return path;
  return nodePath.resolve(cwd, path);
}

/** Every path named by locations, diff content and rawInput; more paths only make allow rules stricter. */
function pathsOf(facts: ToolCallFacts, cwd: string | undefined): string[] {
  const found: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value === 'string' && value.length > 0) found.push(value);
  };
  if (Array.isArray(facts.locations)) {
    for (const location of facts.locations) if (isRecord(location)) add(location.path);
  }
  if (Array.isArray(facts.content)) {
    for (const item of facts.content) if (isRecord(item) && item.type === 'diff') add(item.path);
  }
  if (isRecord(facts.rawInput)) {
    const input = facts.rawInput;
    for (const key of PATH_KEYS) add(input[key]);
    for (const key of PATH_LIST_KEYS) {
      const list = input[key];
      if (Array.isArray(list)) list.forEach(add);
    }
  }
  return [...new Set(found.map((p) => placePath(p, cwd)))];
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * The command line of an execute call: rawInput `command` or `cmd` (a string, or an argv list),
 * followed by an `args` list when there is one; else the title, without the backticks Claude Code
 * puts around it. When rawInput has a command field of an unreadable shape, there is no command: the
 * title may describe something other than what runs.
 */
function commandOf(rawInput: unknown, toolKind: ToolKind, title: string): string | undefined {
  if (isRecord(rawInput)) {
    for (const key of ['command', 'cmd']) {
      const value = rawInput[key];
      if (isAbsent(value)) continue;
      let line: string | undefined;
      if (typeof value === 'string') line = value;
      else if (isStringList(value)) line = commandFromArgv(value);
      if (line === undefined) return undefined;
      const args = rawInput.args;
      if (isAbsent(args)) return line;
      return isStringList(args) ? [line, ...args.map(quoteShellWord)].join(' ') : undefined;
    }
  }
  if (toolKind !== 'execute') return undefined;
  const text = title.trim();
  if (text.length === 0) return undefined;
  // Claude Code titles a Bash call "`npm test`"; any backtick left inside makes it compound anyway.
  if (text.length >= 2 && text.startsWith('`') && text.endsWith('`')) return text.slice(1, -1);
  return text;
}

const URL_IN_TEXT = /https?:\/\/[^\s`'"<>]+/gi;

/** rawInput `url`; else, for fetch calls, the title's URL when it names exactly one. */
function urlOf(rawInput: unknown, toolKind: ToolKind, title: string): string | undefined {
  if (isRecord(rawInput) && !isAbsent(rawInput.url)) {
    return typeof rawInput.url === 'string' ? rawInput.url : undefined;
  }
  if (toolKind !== 'fetch') return undefined;
  const urls = title.match(URL_IN_TEXT) ?? [];
  return urls.length === 1 ? urls[0] : undefined;
}

/** Claude Code's own tool name when sent; else the title's first word (never from a command title). */
function toolNameOf(meta: unknown, title: string): string | undefined {
  if (isRecord(meta) && isRecord(meta.claudeCode)) {
    const name = meta.claudeCode.toolName;
    if (typeof name === 'string' && name.trim().length > 0) return name.trim();
  }
  const text = title.trim();
  if (text.startsWith('`')) return undefined;
  const first = text.split(/[\s:]/, 1)[0];
  return first.length > 0 ? first : undefined;
}

/**
 * The subject of a permission request, from the merged tool call fields. `cwd` is the session's
 * working directory (absolute), which relative paths in rawInput are taken from.
 */
export function subjectFromToolCall(facts: ToolCallFacts, cwd: string | undefined): PermissionSubject {
  const title = typeof facts.title === 'string' ? facts.title : '';
  const toolKind = inferToolKind(facts.kind, title, facts.rawInput);
  const subject: PermissionSubject = { toolKind, title, paths: pathsOf(facts, cwd) };
  if (!isAbsent(facts.rawInput)) subject.rawInput = facts.rawInput;
  const command = commandOf(facts.rawInput, toolKind, title);
  if (command !== undefined) subject.command = command;
  const url = urlOf(facts.rawInput, toolKind, title);
  if (url !== undefined) subject.url = url;
  const toolName = toolNameOf(facts._meta, title);
  if (toolName !== undefined) subject.toolName = toolName;
  return subject;
}
