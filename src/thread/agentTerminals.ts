/**
 * Terminals the agent owns: commands it ran itself, shown in a card through a `terminal` content
 * item with an id the client never created. Their state arrives in one of two shapes, both turned
 * into the same TerminalViewEvents the client's own terminals produce, so they render in the same
 * terminal view with the same bounded memory:
 *
 * - v1 `_meta` on tool_call / tool_call_update (Zed's convention, which Claude's and Codex's ACP
 *   adapters follow): `terminal_info {terminal_id, command?}`, `terminal_output_delta {terminal_id,
 *   data}` (appended), `terminal_output {terminal_id, data}` and `terminal_exit {terminal_id,
 *   exit_code, signal}`. `terminal_output` means two things: Zed's agents stream chunks under it
 *   (appended), while claude-agent-acp 0.101 sends under it a snapshot that replaces the output so
 *   far (a background command's output replacing its "running in background" placeholder; its v2
 *   surface turns it into `terminal_update.output`) and appends under `terminal_output_delta`.
 *   Tandem declares `terminal_output_delta`, so both adapters append under that key (codex-acp 2.6
 *   then never sends `terminal_output`); an agent that has sent a delta is taken to mean a
 *   snapshot by `terminal_output`, any other agent an append.
 * - the draft v2 session updates: `terminal_update {terminalId, command?, output?: {data},
 *   exitStatus?: {exitCode, signal}}` (an upsert; `output` is an authoritative snapshot) and
 *   `terminal_output_chunk {terminalId, data}` (appended); their `data` is base64 bytes.
 */
import { TextDecoder } from 'node:util';
import type { ConversationChange, TerminalView, ToolCallEntry } from '../protocol/messages';
import { outputFromRaw } from './presentation/toolOutput';
import type { TerminalViewEvent, TerminalViews } from './terminalViews';

type Known = (terminalId: string) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The v1 `_meta` terminal keys of a tool call update, as view events; creates the terminal when
 * unknown. `outputReplaces`: `terminal_output` is a snapshot, not an append (see above).
 */
export function terminalMetaEvents(update: Record<string, unknown>, fallbackCommand: () => string, known: Known, outputReplaces = false): TerminalViewEvent[] {
  const meta = update._meta;
  if (!isRecord(meta)) return [];
  const part = (key: string) => (isRecord(meta[key]) ? meta[key] : undefined);
  const info = part('terminal_info');
  const exit = part('terminal_exit');
  const events: TerminalViewEvent[] = [];
  const created = new Set<string>();
  const idOf = (v: Record<string, unknown> | undefined) => (typeof v?.terminal_id === 'string' && v.terminal_id !== '' ? v.terminal_id : undefined);
  const ensure = (terminalId: string) => {
    if (known(terminalId) || created.has(terminalId)) return;
    created.add(terminalId);
    events.push({ kind: 'created', terminalId, command: typeof info?.command === 'string' ? info.command : fallbackCommand() });
  };
  const infoId = idOf(info);
  if (infoId) ensure(infoId);
  // A snapshot first, then what is appended to it; an agent sends one of them per update.
  for (const key of ['terminal_output', 'terminal_output_delta']) {
    const output = part(key);
    const outputId = idOf(output);
    if (outputId && typeof output?.data === 'string') {
      ensure(outputId);
      // An empty snapshot still replaces (claude: a background command that printed nothing).
      if (key === 'terminal_output' && outputReplaces) events.push({ kind: 'snapshot', terminalId: outputId, text: output.data });
      else if (output.data !== '') events.push({ kind: 'output', terminalId: outputId, text: output.data, truncated: false });
    }
  }
  const exitId = idOf(exit);
  if (exitId) {
    ensure(exitId);
    events.push({ kind: 'exit', terminalId: exitId, exitCode: exitCodeOf(exit?.exit_code), signal: typeof exit?.signal === 'string' ? exit.signal : null });
  }
  return events;
}

function exitCodeOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Base64 bytes to text per terminal: a UTF-8 character split across two chunks must come out
 * whole, so each terminal keeps a streaming decoder until it exits.
 */
export class TerminalBytes {
  private readonly decoders = new Map<string, TextDecoder>();

  /** The text of one chunk of `terminalId`; undefined when `data` is not base64. */
  append(terminalId: string, data: string): string | undefined {
    const bytes = base64Bytes(data);
    if (bytes === undefined) return undefined;
    let decoder = this.decoders.get(terminalId);
    if (!decoder) {
      decoder = new TextDecoder('utf-8');
      this.decoders.set(terminalId, decoder);
    }
    return decoder.decode(bytes, { stream: true });
  }

  /** A whole snapshot: decoded on its own, and the stream of later chunks starts afresh. */
  snapshot(terminalId: string, data: string): string | undefined {
    const bytes = base64Bytes(data);
    if (bytes === undefined) return undefined;
    this.decoders.delete(terminalId);
    return new TextDecoder('utf-8').decode(bytes);
  }

  ended(terminalId: string): void {
    this.decoders.delete(terminalId);
  }

  clear(): void {
    this.decoders.clear();
  }
}

function base64Bytes(data: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) return undefined;
  return Buffer.from(data, 'base64');
}

/**
 * A v2 `terminal_update` or `terminal_output_chunk` as view events; undefined for any other kind.
 * `warn` names what was malformed; nothing here throws on bad input.
 */
export function terminalUpdateEvents(
  update: Record<string, unknown>,
  known: Known,
  bytes: TerminalBytes,
  warn: (text: string) => void,
): TerminalViewEvent[] | undefined {
  const kind = update.sessionUpdate;
  if (kind !== 'terminal_update' && kind !== 'terminal_output_chunk') return undefined;
  const terminalId = update.terminalId;
  if (typeof terminalId !== 'string' || terminalId === '') {
    warn(`Ignored a ${kind} without a terminalId.`);
    return [];
  }
  const events: TerminalViewEvent[] = [];
  const command = typeof update.command === 'string' ? update.command : '';
  if (!known(terminalId)) events.push({ kind: 'created', terminalId, command });
  if (kind === 'terminal_output_chunk') {
    const text = typeof update.data === 'string' ? bytes.append(terminalId, update.data) : undefined;
    if (text === undefined) warn(`Ignored a terminal_output_chunk for ${terminalId} whose data is not base64.`);
    else if (text !== '') events.push({ kind: 'output', terminalId, text, truncated: false });
    return events;
  }
  if (isRecord(update.output)) {
    const text = typeof update.output.data === 'string' ? bytes.snapshot(terminalId, update.output.data) : undefined;
    if (text === undefined) warn(`Ignored a terminal_update output for ${terminalId} whose data is not base64.`);
    else events.push({ kind: 'snapshot', terminalId, text });
  }
  if (isRecord(update.exitStatus)) {
    bytes.ended(terminalId);
    const signal = update.exitStatus.signal;
    events.push({ kind: 'exit', terminalId, exitCode: exitCodeOf(update.exitStatus.exitCode), signal: typeof signal === 'string' ? signal : null });
  }
  return events;
}

/**
 * A settled card's terminals that would show nothing although output existed: an agent may
 * announce a terminal and still put the command's output in `rawOutput` (or only there), and an
 * empty terminal saying "Exited with code 0" would hide it. An empty terminal gets that text; a
 * terminal the card names that nobody ever created (no stream at all) is created with it and
 * ended, instead of "Running…" forever. Terminals with any output are left alone, except that a
 * terminal only streamed to (`streamedOnly`: no content item, no exit ever sent, as codex-acp
 * streams a read) ends with its card.
 */
export function emptyTerminalFallback(
  update: Record<string, unknown>,
  card: ToolCallEntry | undefined,
  terminal: (terminalId: string) => TerminalView | undefined,
  streamedOnly: (terminalId: string) => boolean = () => false,
): TerminalViewEvent[] {
  if (card === undefined || (card.status !== 'completed' && card.status !== 'failed')) return [];
  const settlesNow = update.status === 'completed' || update.status === 'failed';
  const ids = card.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : []));
  const unknown = settlesNow ? ids.filter((id) => terminal(id) === undefined) : [];
  const empty = ids.filter((id) => terminal(id)?.output === '');
  // Claude's background commands outlive their card, so only terminals nobody named end here.
  const running = settlesNow ? ids.filter((id) => streamedOnly(id) && terminal(id) !== undefined && terminal(id)?.exit === undefined) : [];
  if (unknown.length === 0 && empty.length === 0 && running.length === 0) return [];
  const text = rawText(update.rawOutput);
  const output = (terminalId: string): TerminalViewEvent[] => (text === '' ? [] : [{ kind: 'output', terminalId, text, truncated: false }]);
  const events: TerminalViewEvent[] = empty.flatMap(output);
  const raw = isRecord(update.rawOutput) ? update.rawOutput : {};
  const exitCode = exitCodeOf(raw.exit_code ?? raw.exitCode);
  for (const terminalId of unknown) {
    events.push({ kind: 'created', terminalId, command: commandOf(update.rawInput) ?? card.title }, ...output(terminalId));
    events.push({ kind: 'exit', terminalId, exitCode, signal: null });
  }
  for (const terminalId of running) events.push({ kind: 'exit', terminalId, exitCode, signal: null });
  return events;
}

/** The terminals a tool call update's v1 `_meta` names (output, info or exit). */
function metaTerminalIds(update: Record<string, unknown>): string[] {
  const meta = update._meta;
  if (!isRecord(meta)) return [];
  const ids = ['terminal_info', 'terminal_output', 'terminal_output_delta', 'terminal_exit'].flatMap((key) => {
    const part = meta[key];
    return isRecord(part) && typeof part.terminal_id === 'string' && part.terminal_id !== '' ? [part.terminal_id] : [];
  });
  return [...new Set(ids)];
}

/** The text a rawOutput holds (strings, stdout / stderr, …), one line break at its end; '' when none. */
function rawText(rawOutput: unknown): string {
  if (rawOutput === undefined) return '';
  const text = outputFromRaw(rawOutput, (p) => p)
    .map((item) => (item.type === 'output' ? item.text : ''))
    .filter((t) => t !== '')
    .join('\n');
  if (text.trim() === '') return '';
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The agent-owned terminals of one thread: applies what an update says of them to `terminals`
 * and returns the panel's changes. A terminal announced before its command is known (Claude's
 * first tool_call is titled "Terminal") is named after its card, and renamed once the card's
 * input names the command.
 */
export class AgentTerminals {
  private readonly bytes = new TerminalBytes();
  /** Terminals named after their card for want of a command, by their card's id. */
  private readonly provisional = new Map<string, Set<string>>();
  /** Terminals shown in a card only because output was streamed to them under it (see attach). */
  private readonly streamedOnly = new Set<string>();
  /** The agent has sent `terminal_output_delta`: its `terminal_output` is a snapshot (see above). */
  private speaksDelta = false;

  constructor(private readonly warn: (text: string) => void) {}

  static isTerminalUpdate(update: Record<string, unknown>): boolean {
    return update.sessionUpdate === 'terminal_update' || update.sessionUpdate === 'terminal_output_chunk';
  }

  /**
   * `attach` makes the card of a tool call show a terminal its content does not name: output
   * streamed under a call is never kept out of sight.
   */
  apply(
    update: Record<string, unknown>,
    terminals: TerminalViews,
    card: (toolCallId: string) => ToolCallEntry | undefined,
    attach: (toolCallId: string, terminalId: string) => ConversationChange[] = () => [],
  ): ConversationChange[] {
    const changes: ConversationChange[] = [];
    const run = (events: TerminalViewEvent[]) => {
      for (const event of events) {
        const change = terminals.apply(event);
        if (change) changes.push(change);
      }
    };
    const known = (id: string) => terminals.has(id);
    const v2 = terminalUpdateEvents(update, known, this.bytes, this.warn);
    if (v2 !== undefined) {
      run(v2);
      return changes;
    }
    // The streaming path (message and thought chunks): nothing here names a tool call or a terminal.
    if (typeof update.toolCallId !== 'string' && !isRecord(update._meta)) return changes;
    const toolCallId = typeof update.toolCallId === 'string' ? update.toolCallId : '';
    const command = commandOf(update.rawInput);
    const meta = update._meta;
    if (isRecord(meta) && isRecord(meta.terminal_output_delta)) this.speaksDelta = true;
    const events = terminalMetaEvents(update, () => command ?? card(toolCallId)?.title ?? 'command', known, this.speaksDelta);
    for (const e of events) if (e.kind === 'created' && command === undefined) this.markProvisional(toolCallId, e.terminalId, update);
    run(events);
    if (command !== undefined) run(this.renamed(toolCallId, command));
    const entry = card(toolCallId);
    for (const terminalId of metaTerminalIds(update)) {
      if (entry === undefined || !terminals.has(terminalId) || entry.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) continue;
      this.streamedOnly.add(terminalId);
      changes.push(...attach(toolCallId, terminalId));
    }
    // A settled card whose terminal stayed empty shows the output the agent put elsewhere (rawOutput).
    run(
      emptyTerminalFallback(
        update,
        card(toolCallId),
        (id) => terminals.get(id),
        (id) => this.streamedOnly.has(id),
      ),
    );
    return changes;
  }

  clear(): void {
    this.bytes.clear();
    this.provisional.clear();
    this.streamedOnly.clear();
    this.speaksDelta = false;
  }

  private markProvisional(toolCallId: string, terminalId: string, update: Record<string, unknown>): void {
    const meta = update._meta as Record<string, unknown>;
    const info = isRecord(meta.terminal_info) ? meta.terminal_info : undefined;
    if (typeof info?.command === 'string' || toolCallId === '') return;
    const ids = this.provisional.get(toolCallId) ?? new Set<string>();
    ids.add(terminalId);
    this.provisional.set(toolCallId, ids);
  }

  private renamed(toolCallId: string, command: string): TerminalViewEvent[] {
    const ids = this.provisional.get(toolCallId);
    if (!ids) return [];
    this.provisional.delete(toolCallId);
    return [...ids].map((terminalId) => ({ kind: 'renamed', terminalId, command }));
  }
}

function commandOf(rawInput: unknown): string | undefined {
  if (!isRecord(rawInput)) return undefined;
  const command = rawInput.command ?? rawInput.cmd;
  if (typeof command === 'string' && command.trim() !== '') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string') && command.length > 0) return command.join(' ');
  return undefined;
}
