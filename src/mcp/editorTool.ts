import type { EditorRange, EditorToolsPort } from './editorToolsPort';
import type { ObjectSchema } from './toolSchema';
import type { ToolOutput } from './toolResults';
import { displayPath, resolveToolPath } from './toolPaths';
import type { AccessOp } from '../client/pathPolicy';

/**
 * What a tool's card shows it as (ACP's `ToolKind` values the tools use), so a later slice can give
 * each MCP call the same card as the agent's own tools.
 */
export type EditorToolKind = 'read' | 'search' | 'edit' | 'execute' | 'other';

/** One tool of the `tandem` server. Its name is a contract (agents see `mcp__tandem__<name>`). */
export interface EditorTool {
  readonly name: string;
  readonly title: string;
  /** Written for the model: what it answers, when to use it, what the arguments mean. */
  readonly description: string;
  readonly kind: EditorToolKind;
  /** True when it changes nothing (MCP's `readOnlyHint`). */
  readonly readOnly: boolean;
  readonly inputSchema: ObjectSchema;
  /** Runs with arguments already validated against `inputSchema`. Throws for a failure the model should read. */
  run(args: Record<string, unknown>, cx: ToolContext): Promise<ToolOutput>;
}

/** What a running tool may use: the editor, the call's cancellation, and the path helpers. */
export class ToolContext {
  constructor(
    readonly port: EditorToolsPort,
    readonly signal: AbortSignal,
  ) {}

  /** The real path for a `path` argument, through the session's path policy (may ask the user). */
  resolve(path: string, op: AccessOp): Promise<string> {
    return resolveToolPath(this.port.paths, path, op);
  }

  /** A path as the model should see it (workspace-relative inside the roots). */
  show(path: string): string {
    return displayPath(this.port.paths.roots(), path);
  }
}

/** A 0-based editor range as the model reads it: 1-based lines and characters, end exclusive. */
export function modelRange(range: EditorRange): { line: number; character: number; endLine: number; endCharacter: number } {
  return {
    line: range.start.line + 1,
    character: range.start.character + 1,
    endLine: range.end.line + 1,
    endCharacter: range.end.character + 1,
  };
}

/** The shared `path` property. */
export const PATH_PROPERTY = {
  type: 'string',
  minLength: 1,
  description: 'A file path, relative to the workspace folder (for example "src/index.ts") or absolute.',
} as const;

/** The `{path, line, character}` arguments of the position tools (definition, references, hover). */
export const POSITION_SCHEMA: ObjectSchema = {
  type: 'object',
  properties: {
    path: PATH_PROPERTY,
    line: { type: 'integer', minimum: 1, description: '1-based line number, as the editor shows it.' },
    character: { type: 'integer', minimum: 1, description: '1-based column of a character inside the symbol on that line.' },
  },
  required: ['path', 'line', 'character'],
  additionalProperties: false,
};
