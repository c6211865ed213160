import * as nodePath from 'node:path';
import * as l10n from '@vscode/l10n';
import { assertNever } from '../protocol/guards';
import type { ObservedCall, ToolCallOutcome } from '../mcp/toolRegistry';
import { TANDEM_MCP_NAME } from '../mcp/mcpProtocol';
import type { Thread } from '../thread/thread';
import type { ToolCallEntry } from '../protocol/entryViews';

/** The start of the id of a card Tandem shows for a call of its own MCP server. */
export const EDITOR_TOOL_CARD_PREFIX = 'tandem-mcp-';

/** How much of a result the card of an unannounced call shows (the model got it whole). */
const CARD_TEXT_CHARS = 4000;

type CardThread = Pick<Thread, 'dispatch' | 'entries' | 'toolCallFacts'>;

/**
 * The tool card of each call to the `tandem` MCP server. Agents that run MCP tools themselves
 * announce the call as a tool call of their own first (Claude Code: title or
 * `_meta.claudeCode.toolName` `mcp__tandem__<tool>`; Codex: `tandem.<tool>`-style titles), usually
 * with kind `other`: that card is the one the user already sees, so it gets the tool's kind (read,
 * search, edit, execute) and stays the agent's to finish. A call no card announced gets a card of
 * Tandem's own, finished here with the call's result, so every call is on the thread either way.
 */
export class EditorToolCards {
  private readonly cards = new Map<number, { id: string; own: boolean; shown: Record<string, unknown>[] }>();
  /** Agent cards already taken by a call: two calls of one tool never share a card. */
  private readonly taken = new Set<string>();

  constructor(
    private readonly thread: CardThread,
    private readonly cwd: string,
  ) {}

  /** The card a running call shows on (its diff or terminal goes there). */
  cardOf(call: Pick<ObservedCall, 'seq'>): string | undefined {
    return this.cards.get(call.seq)?.id;
  }

  started(call: ObservedCall): void {
    const agentCard = this.agentCardFor(call);
    if (agentCard) {
      this.taken.add(agentCard.toolCallId);
      this.cards.set(call.seq, { id: agentCard.toolCallId, own: false, shown: [] });
      // The agent's own title stays (`mcp__tandem__diagnostics`: the name its permission rules use).
      if (call.kind !== 'other') this.thread.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: agentCard.toolCallId, kind: call.kind });
      return;
    }
    const id = `${EDITOR_TOOL_CARD_PREFIX}${call.seq}-${Date.now().toString(36)}`;
    this.cards.set(call.seq, { id, own: true, shown: [] });
    const where = this.location(call.args);
    this.thread.dispatch({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: titleOf(call),
      kind: call.kind,
      status: 'in_progress',
      rawInput: call.args,
      ...(where ? { locations: [where] } : {}),
      _meta: { tandem: { mcpTool: call.name } },
    });
  }

  ended(call: ObservedCall, outcome: ToolCallOutcome): void {
    const card = this.cards.get(call.seq);
    this.cards.delete(call.seq);
    if (!card?.own) return;
    const text = outcome.text.length > CARD_TEXT_CHARS ? `${outcome.text.slice(0, CARD_TEXT_CHARS)}…` : outcome.text;
    this.thread.dispatch({
      sessionUpdate: 'tool_call_update',
      toolCallId: card.id,
      status: outcome.isError ? 'failed' : 'completed',
      content: [...card.shown, { type: 'content', content: { type: 'text', text } }],
    });
  }

  /** Adds a diff or terminal to a running call's card (kept when the result is added). */
  show(call: Pick<ObservedCall, 'seq'>, content: Record<string, unknown>): void {
    const card = this.cards.get(call.seq);
    if (!card) return;
    // The thread keeps no copy of a diff's texts to add to (a tool_call_update replaces the content).
    card.shown.push(content);
    this.thread.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: card.id, content: [...card.shown] });
  }

  /**
   * The agent's card for the call: the one whose id its MCP client named (Claude Code, codex), else
   * the newest running card of the agent's that names this tool of the tandem server.
   */
  private agentCardFor(call: ObservedCall): ToolCallEntry | undefined {
    const tool = call.name;
    if (call.agentToolCallId !== undefined && !this.taken.has(call.agentToolCallId)) {
      const named = this.thread.entries().find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === call.agentToolCallId);
      if (named) return named;
    }
    const entries = this.thread.entries();
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (e.kind !== 'tool_call' || e.toolCallId.startsWith(EDITOR_TOOL_CARD_PREFIX) || this.taken.has(e.toolCallId)) continue;
      if (e.status !== 'pending' && e.status !== 'in_progress') continue;
      const meta = this.thread.toolCallFacts(e.toolCallId)?._meta as { claudeCode?: { toolName?: unknown } } | undefined;
      const names = [e.agentTitle, e.title, typeof meta?.claudeCode?.toolName === 'string' ? meta.claudeCode.toolName : undefined];
      if (names.some((n) => n !== undefined && namesTool(n, tool))) return e;
    }
    return undefined;
  }

  private location(args: Record<string, unknown>): { path: string; line?: number } | undefined {
    if (typeof args.path !== 'string' || args.path === '') return undefined;
    const path = nodePath.resolve(this.cwd, args.path);
    const line = typeof args.line === 'number' ? args.line : typeof args.startLine === 'number' ? args.startLine : undefined;
    return line === undefined ? { path } : { path, line };
  }
}

/** `mcp__tandem__edit_file`, `tandem.edit_file`, `tandem/edit_file`, `edit_file (tandem MCP server)`… */
export function namesTool(text: string, tool: string): boolean {
  const t = text.toLowerCase();
  if (!t.includes(TANDEM_MCP_NAME)) return false;
  return (
    new RegExp(`(^|[^a-z0-9_])(mcp__)?${TANDEM_MCP_NAME}(__|[./:_ -]+)${tool}($|[^a-z0-9_])`).test(t) ||
    new RegExp(`(^|[^a-z0-9_])${tool}($|[^a-z0-9_])`).test(t)
  );
}

/** What the call does, in the user's words ("Problems in src/app.ts", "Find references in x.ts"). */
export function titleOf(call: Pick<ObservedCall, 'name' | 'args'>): string {
  const a = call.args;
  const path = typeof a.path === 'string' ? a.path : '';
  switch (call.name) {
    case 'diagnostics':
      return path ? l10n.t('Problems in {0}', path) : l10n.t('Problems in the workspace');
    case 'selection':
      return l10n.t("Read the editor's selection");
    case 'open_editors':
      return l10n.t('List the open editors');
    case 'read_file':
      return l10n.t('Read {0}', path);
    case 'symbols':
      return l10n.t('Find symbols matching {0}', `"${typeof a.query === 'string' ? a.query : ''}"`);
    case 'document_symbols':
      return l10n.t('Outline of {0}', path);
    case 'definition':
      return l10n.t('Go to definition in {0}', path);
    case 'references':
      return l10n.t('Find references in {0}', path);
    case 'hover':
      return l10n.t('Hover in {0}', path);
    case 'edit_file':
      return l10n.t('Edit {0}', path);
    case 'write_file':
      return l10n.t('Write {0}', path);
    case 'open_file':
      return l10n.t('Open {0}', path);
    case 'run_in_terminal':
      return typeof a.command === 'string' ? a.command : call.name;
    default:
      return assertNever(call.name);
  }
}
