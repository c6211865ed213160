/**
 * Inferring a tool call's kind when the agent's `kind` is missing or `other`: from a recognisable
 * tool name in the title or in rawInput, else from the shape of rawInput's arguments.
 */
import type { ToolKind } from '../protocol/messages';
import { isRecord } from '../protocol/guards';
import { isToolKind } from '../protocol/toolKinds';

/**
 * Tool names agents put in titles and raw inputs, keyed by their normalised form (lower case, no
 * `_`/`-`), so `read_file`, `ReadFile` and `read-file` all match. Sources: the coding agent tool
 * reference (read_file, replace_in_file, execute_command, …) and Claude Code's tools (Read, Edit, Bash, …).
 */
const NAME_KINDS: ReadonlyMap<string, ToolKind> = new Map<string, ToolKind>(
  (
    [
      ['read', ['read_file', 'read', 'view', 'cat', 'notebook_read', 'list_code_definition_names', 'access_mcp_resource']],
      [
        'edit',
        [
          'write_to_file',
          'write',
          'replace_in_file',
          'edit',
          'multi_edit',
          'notebook_edit',
          'apply_patch',
          'replace_text',
          'rename',
          'str_replace',
          'str_replace_editor',
          'create_file',
          'edit_file',
          'write_file',
        ],
      ],
      ['delete', ['delete', 'delete_file', 'remove_file', 'rm']],
      ['move', ['move', 'move_file', 'rename_file', 'mv']],
      ['search', ['search_files', 'search', 'grep', 'glob', 'ls', 'list_files', 'list_directory', 'find_references', 'find_files', 'codebase_search']],
      [
        'execute',
        ['execute_command', 'kill_command', 'bash', 'bash_output', 'kill_shell', 'kill_bash', 'shell', 'run_command', 'run_terminal_cmd', 'terminal', 'exec'],
      ],
      ['think', ['think', 'task', 'todo_write', 'make_plan', 'change_todo_list', 'use_subagent', 'use_subagents', 'sequential_thinking']],
      ['fetch', ['web_fetch', 'fetch', 'web_search', 'browser_action', 'fetch_url']],
      ['switch_mode', ['switch_mode', 'exit_plan_mode', 'enter_plan_mode']],
    ] as const
  ).flatMap(([kind, names]) => names.map((name): [string, ToolKind] => [normaliseName(name), kind])),
);

/** Lower case without separators; strips an MCP prefix such as `mcp__acp__` so `mcp__acp__Read` → `read`. */
function normaliseName(name: string): string {
  const withoutMcp = name.replace(/^mcp__.*__/i, '');
  return withoutMcp.toLowerCase().replace(/[_\-\s]/g, '');
}

function kindForName(name: string): ToolKind | undefined {
  if (name.length === 0 || name.length > 100) return undefined;
  return NAME_KINDS.get(normaliseName(name));
}

/**
 * Kind named by a title: its first word ("Read src/a.ts", "Edit", "mcp__acp__Write"), else any
 * identifier-looking word in it ("Tool: replace_in_file") — never prose words in the middle of a sentence.
 */
function kindFromTitle(title: string): ToolKind | undefined {
  // A title in backticks is a command line (Claude Code titles Bash calls "`ls -la`"): its first word
  // names a program, not a tool, so leave the decision to rawInput.
  if (title.trimStart().startsWith('`')) return undefined;
  const words = title
    .slice(0, 500)
    .split(/[\s:()[\]`'",]+/)
    .filter((w) => w.length > 0);
  if (words.length === 0) return undefined;
  const first = kindForName(words[0]);
  if (first !== undefined) return first;
  for (const word of words) {
    if (word.includes('_')) {
      const kind = kindForName(word);
      if (kind !== undefined) return kind;
    }
  }
  return undefined;
}

/** Fields agents use to name the tool inside rawInput. */
const NAME_FIELDS = ['tool', 'toolName', 'tool_name', 'name', 'function'] as const;

/** Kind implied by rawInput: an explicit tool name field, else the shape of the arguments. */
function kindFromRawInput(rawInput: unknown): ToolKind | undefined {
  if (!isRecord(rawInput)) return undefined;
  const input = rawInput;
  for (const field of NAME_FIELDS) {
    const value = input[field];
    if (typeof value === 'string') {
      const kind = kindForName(value);
      if (kind !== undefined) return kind;
    }
  }
  // Argument shapes that only one family of tools uses.
  if (typeof input.command === 'string' || typeof input.cmd === 'string') return 'execute';
  if ('old_string' in input || 'new_string' in input || 'patch' in input || 'diff' in input) return 'edit';
  if (typeof input.url === 'string') return 'fetch';
  if (typeof input.pattern === 'string' || typeof input.regex === 'string') return 'search';
  return undefined;
}

/**
 * The icon kind for a tool call: the agent's ACP kind when it is specific; when it is missing,
 * `other` or not an ACP kind, the kind a recognisable tool name in the title or rawInput implies;
 * else `other`.
 */
export function inferToolKind(kind: unknown, title: string | undefined, rawInput: unknown): ToolKind {
  if (isToolKind(kind) && kind !== 'other') return kind;
  if (typeof title === 'string') {
    const fromTitle = kindFromTitle(title);
    if (fromTitle !== undefined) return fromTitle;
  }
  return kindFromRawInput(rawInput) ?? 'other';
}
