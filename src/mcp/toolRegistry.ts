import { errorMessage } from '../util/errors';
import { CHANGE_TOOLS } from './changeTools';
import { ToolContext, type EditorTool, type EditorToolKind } from './editorTool';
import type { EditorToolsPort } from './editorToolsPort';
import { NAVIGATION_TOOLS } from './navigationTools';
import { READ_TOOLS } from './readTools';
import { capText } from './toolResults';
import { ToolArgumentError, validate, type ObjectSchema } from './toolSchema';

/** The tool names, a contract with agents and their users' permission rules (`mcp__tandem__<name>`). */
export const EDITOR_TOOL_NAMES = [
  'diagnostics',
  'selection',
  'open_editors',
  'read_file',
  'symbols',
  'document_symbols',
  'definition',
  'references',
  'hover',
  'edit_file',
  'write_file',
  'open_file',
  'run_in_terminal',
] as const;

export type EditorToolName = (typeof EDITOR_TOOL_NAMES)[number];

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: false };
}

/** What one call answered, capped: text for the model, whether it failed, whether it was cut. */
export interface ToolCallOutcome {
  text: string;
  isError: boolean;
  truncated: boolean;
}

/** A call to a tool this server does not have (a protocol error, not a tool result). */
export class UnknownToolError extends Error {
  constructor(readonly tool: string) {
    super(`Unknown tool: ${tool}. The tandem server has: ${EDITOR_TOOL_NAMES.join(', ')}.`);
    this.name = 'UnknownToolError';
  }
}

/** One call as the host shows it (a tool card, the inspector): which tool, its card kind, its arguments. */
export interface ObservedCall {
  /** Counted per registry from 1. */
  readonly seq: number;
  readonly name: EditorToolName;
  readonly kind: EditorToolKind;
  readonly args: Record<string, unknown>;
  /** The agent's ACP `toolCallId` for this call, when its MCP client said it (mcpProtocol's agentToolCallId). */
  readonly agentToolCallId?: string;
}

/**
 * What the host hears of the server's use: the agent's MCP client listed the tools (Check Agent
 * reports it), and each call's start and end (its tool card). Called synchronously; must not throw.
 */
export interface RegistryObserver {
  listed?(): void;
  started?(call: ObservedCall): void;
  ended?(call: ObservedCall, outcome: ToolCallOutcome): void;
}

const ALL_TOOLS: readonly EditorTool[] = [...READ_TOOLS, ...NAVIGATION_TOOLS, ...CHANGE_TOOLS];

/**
 * The `tandem` server's tools over one session's editor port, independent of the MCP transport
 * (loopback HTTP, MCP over ACP, stdio): the transports only list and call through here, so the
 * checks — schema, path policy, size caps — are the same on every one.
 */
export class EditorToolRegistry {
  private readonly byName = new Map<string, EditorTool>(ALL_TOOLS.map((t) => [t.name, t]));

  private calls = 0;

  /**
   * `port`: one for every call, or one per call (the host's, which ties a call's writes and
   * commands to its tool card and permission prompt).
   */
  constructor(
    private readonly port: EditorToolsPort | ((call: ObservedCall) => EditorToolsPort),
    private readonly observer: RegistryObserver = {},
  ) {}

  /** The tools as `tools/list` answers (and the observer hears that the agent asked). */
  list(): ListedTool[] {
    this.observer.listed?.();
    return ALL_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: !t.readOnly, openWorldHint: false },
    }));
  }

  /** The card kind of a tool, for the host's tool card of an MCP call; undefined for an unknown name. */
  kindOf(name: string): EditorToolKind | undefined {
    return this.byName.get(name)?.kind;
  }

  /**
   * Runs one call. Bad arguments, refused paths and editor failures come back as an error result
   * whose message the model can act on (MCP's `isError`), never as a thrown error: the agent keeps
   * its turn. Only an unknown tool name throws (`UnknownToolError`).
   */
  async call(name: string, args: unknown, signal: AbortSignal, agentToolCallId?: string): Promise<ToolCallOutcome> {
    const tool = this.byName.get(name);
    if (!tool) throw new UnknownToolError(name);
    const given = args === undefined || args === null ? {} : args;
    const call: ObservedCall = {
      seq: ++this.calls,
      name: tool.name as EditorToolName,
      kind: tool.kind,
      // A call with arguments that are not an object still gets its card (with none shown).
      args: typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {},
      ...(agentToolCallId === undefined ? {} : { agentToolCallId }),
    };
    this.observer.started?.(call);
    let outcome: ToolCallOutcome;
    try {
      validate(tool.inputSchema, given);
      outcome = await this.run(tool, call, signal);
    } catch (err) {
      if (!(err instanceof ToolArgumentError)) throw err;
      // The tool does not run; the card and the model both read why.
      outcome = { text: `Invalid arguments for ${name}: ${err.message}.`, isError: true, truncated: false };
    }
    this.observer.ended?.(call, outcome);
    return outcome;
  }

  private async run(tool: EditorTool, call: ObservedCall, signal: AbortSignal): Promise<ToolCallOutcome> {
    let output;
    try {
      const port = typeof this.port === 'function' ? this.port(call) : this.port;
      output = await tool.run(call.args, new ToolContext(port, signal));
    } catch (err) {
      if (signal.aborted) return { text: `${tool.name} was cancelled.`, isError: true, truncated: false };
      return { text: `${tool.name} failed: ${errorMessage(err)}`, isError: true, truncated: false };
    }
    const { text, truncated } = capText(output.text);
    return { text, isError: output.isError === true, truncated: truncated || output.truncated === true };
  }
}
