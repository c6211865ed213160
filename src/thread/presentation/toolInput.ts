/**
 * What a tool call's input says, whatever the agent's dialect: the tool's name (from `_meta`, a
 * `tool: {…}` title or the input), the paths it touches, the command lines, the search queries, the
 * URLs, a subagent's task and the old/new texts of an edit. Claude Code (`file_path`, `command`,
 * `pattern`, `old_string`), Gemini CLI (`file_path`, `absolute_path`), Cline 3.x (`files[].path`,
 * `commands[]`, `queries[]`, `requests[].url`, `old_text`/`new_text`, `task`) and others. Reads any
 * value without throwing; lists and strings are bounded, so a huge or deep input costs little.
 */
import { isRecord } from '../../protocol/guards';

/** Most items taken from any list of the input. */
const MAX_ITEMS = 50;
/** Longest string taken from the input as a command, query or URL. */
const MAX_TEXT = 10_000;

export interface ToolInputFacts {
  /** The tool's own name (`Read`, `editor`, `run_commands`), when the agent said it. */
  toolName?: string;
  /** Paths as the input names them (not yet resolved), in order, without repeats. */
  paths: string[];
  /** First line numbers by path, when the input gives them (`start_line`, `offset`). */
  lines: Map<string, number>;
  commands: string[];
  queries: string[];
  urls: string[];
  /** A subagent's task or an operation's description (`description`, `task`, `prompt`). */
  task?: string;
  /** The edit operation the input names (`create`, `replace`, `insert`, `delete`, …). */
  operation?: string;
  /** The old and new text of an edit, when the input carries them. */
  edit?: { oldText?: string; newText: string };
}

const PATH_FIELDS = ['file_path', 'filePath', 'path', 'absolute_path', 'notebook_path', 'target_file', 'filename', 'file', 'source', 'destination', 'dir_path'];
const PATH_LIST_FIELDS = ['files', 'paths', 'file_paths', 'filePaths'];
const COMMAND_FIELDS = ['command', 'cmd', 'commands', 'script'];
const QUERY_FIELDS = ['pattern', 'query', 'queries', 'regex', 'search', 'glob'];
const URL_FIELDS = ['url', 'urls', 'requests', 'uri'];
const TASK_FIELDS = ['description', 'task', 'prompt', 'instruction'];
const NEW_TEXT_FIELDS = ['new_string', 'new_text', 'newText', 'content', 'text', 'file_text', 'new_str'];
const OLD_TEXT_FIELDS = ['old_string', 'old_text', 'oldText', 'old_str'];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= MAX_TEXT ? value : undefined;
}

/** Strings of a field that may hold one string, a list of strings, or a list of objects with `key`. */
function strings(value: unknown, key?: string): string[] {
  const list = Array.isArray(value) ? value.slice(0, MAX_ITEMS) : [value];
  const out: string[] = [];
  for (const item of list) {
    const found = text(item) ?? (key !== undefined && isRecord(item) ? text(item[key]) : undefined);
    if (found !== undefined) out.push(found);
  }
  return out;
}

function firstOf(input: Record<string, unknown>, fields: readonly string[], key?: string): string[] {
  for (const field of fields) {
    const found = strings(input[field], key);
    if (found.length > 0) return found;
  }
  return [];
}

/** The tool name an agent put in `_meta` (`claudeCode.toolName`, `codex.toolName`, …). */
export function metaToolName(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  for (const value of Object.values(meta)) {
    if (isRecord(value) && typeof value.toolName === 'string' && value.toolName.length > 0 && value.toolName.length <= 100) return value.toolName;
  }
  return undefined;
}

/** `editor: {"path":…` → `editor`: the tool name a raw-JSON title starts with. */
export function titleToolName(title: string | undefined): string | undefined {
  const match = title === undefined ? null : /^\s*([A-Za-z_][\w.-]{1,60})\s*:\s/.exec(title);
  return match ? match[1] : undefined;
}

/** Reads the facts of an input (any value); the tool name comes from `_meta`, the title, or the input. */
export function readToolInput(rawInput: unknown, meta: unknown, agentTitle: string | undefined): ToolInputFacts {
  const facts: ToolInputFacts = { paths: [], lines: new Map(), commands: [], queries: [], urls: [] };
  facts.toolName = metaToolName(meta) ?? titleToolName(agentTitle);
  if (!isRecord(rawInput)) return facts;
  const input = rawInput;
  if (facts.toolName === undefined) facts.toolName = text(input.tool) ?? text(input.toolName) ?? text(input.tool_name);
  const paths = [...firstOf(input, PATH_FIELDS), ...firstOf(input, PATH_LIST_FIELDS, 'path')];
  facts.paths = [...new Set(paths)].slice(0, MAX_ITEMS);
  for (const item of Array.isArray(input.files) ? input.files.slice(0, MAX_ITEMS) : [input]) {
    if (!isRecord(item)) continue;
    const path = text(item.path) ?? text(item.file_path);
    const line = [item.start_line, item.line, item.offset].find((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1);
    if (path !== undefined && typeof line === 'number') facts.lines.set(path, line);
  }
  facts.commands = firstOf(input, COMMAND_FIELDS);
  facts.queries = firstOf(input, QUERY_FIELDS);
  facts.urls = firstOf(input, URL_FIELDS, 'url');
  facts.task = firstOf(input, TASK_FIELDS)[0];
  facts.operation =
    text(input.command) !== undefined && facts.paths.length > 0 && /^[a-z_]{3,20}$/.test(String(input.command)) ? String(input.command) : undefined;
  // An operation word such as `create` in `command` is not a command line.
  if (facts.operation !== undefined) facts.commands = [];
  const newText = NEW_TEXT_FIELDS.map((f) => input[f]).find((v): v is string => typeof v === 'string');
  const oldText = OLD_TEXT_FIELDS.map((f) => input[f]).find((v): v is string => typeof v === 'string');
  if (newText !== undefined && facts.paths.length === 1 && newText !== facts.task) facts.edit = oldText === undefined ? { newText } : { oldText, newText };
  return facts;
}

/**
 * How an input's edit reads: `whole` — the new text is the whole file (a create, a write without an
 * old text); `replace` — an old text becomes the new one; undefined — a fragment put somewhere
 * (`insert`, `append`) that says nothing about the file around it, so no diff can be made from it.
 */
export function editShape(facts: Pick<ToolInputFacts, 'edit' | 'operation'>): 'whole' | 'replace' | undefined {
  if (facts.edit === undefined) return undefined;
  if (facts.operation === 'create') return 'whole';
  if (facts.edit.oldText !== undefined) return 'replace';
  return facts.operation === undefined || /^(write|overwrite|create_file|write_file)$/.test(facts.operation) ? 'whole' : undefined;
}

/** Normalised tool name: lower case, no separators, no MCP prefix (`mcp__acp__Read` → `read`). */
export function normalToolName(name: string | undefined): string {
  return (name ?? '')
    .replace(/^mcp__.*__/i, '')
    .toLowerCase()
    .replace(/[_\-\s]/g, '');
}

const SUBAGENT_TOOLS = new Set(['task', 'agent', 'spawnagent', 'usesubagent', 'usesubagents', 'subagent', 'subagentrun', 'invokesubagent', 'delegate']);

/** True for the tools that start a subagent (Claude's Task/Agent, Codex's Agent, Cline's spawn_agent, …). */
export function isSubagentTool(toolName: string | undefined): boolean {
  return SUBAGENT_TOOLS.has(normalToolName(toolName));
}
