/**
 * Merging `tool_call` / `tool_call_update` fields into one tool call card. Both update kinds are
 * treated alike: agents repeat `tool_call` for a known id (an upsert) and send `tool_call_update` for ids
 * never announced, so only the fields an update carries change; `content` and `locations` replace the lists.
 * What the agent sent is kept on the record; the shown card is derived from it (presentation/).
 */
import { describe, isAbsent, isRecord } from '../protocol/guards';
import * as l10n from '@vscode/l10n';
import type { ToolCallEntry, ToolStatus } from '../protocol/messages';
import { contentViews, restoredContentViews, type DiffRecord, type DiffSource, type ParsedToolContent } from './diffContent';
import { formatRaw, parseLocations, parseToolContent, type Warn } from './updateParsing';
import type { DisplayPaths } from './presentation/displayPaths';
import { presentToolCall, type InputReading, type SentToolCall } from './presentation/presentToolCall';

/** Title of a card whose agent never sent one. */
export function fallbackToolTitle(): string {
  return l10n.t('Tool call');
}

/** A card plus what the agent sent of it, from which the card is derived again on every update. */
export interface ToolCallRecord {
  entry: ToolCallEntry;
  /** The last `kind` the agent sent, unvalidated (undefined when never sent). */
  agentKind: unknown;
  /** The last rawInput the agent sent, kept for kind inference and permission rules. */
  rawInputValue: unknown;
  /** The last `_meta` the agent sent (tool names for permission rules, parent ids); not shown. */
  metaValue?: unknown;
  /** By position in `entry.content`: the texts behind each diff view (undefined for other items). */
  diffs: (DiffRecord | undefined)[];
  /** What the agent sent, as the presentation reads it. */
  sent: SentToolCall;
  /** The input's facts, cached until the input changes. */
  reading?: InputReading;
  /** The parent card's toolCallId, for a subagent's call (see SubagentLinks). */
  parentToolCallId?: string;
}

const ACP_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed', 'failed']);

/** Statuses that still show a spinner / waiting state: a turn may not end with one of these. */
export function isOpenStatus(status: ToolStatus): boolean {
  return status === 'pending' || status === 'in_progress';
}

/** The toolCallId of an update: a non-empty string (numbers are tolerated and stringified). */
export function toolCallIdOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A fresh card for an id first seen in `fields`; the fields themselves are merged afterwards. */
export function newToolCallRecord(entryId: string, toolCallId: string): ToolCallRecord {
  return {
    entry: {
      kind: 'tool_call',
      id: entryId,
      toolCallId,
      title: fallbackToolTitle(),
      toolKind: 'other',
      status: 'pending',
      content: [],
      locations: [],
    },
    agentKind: undefined,
    rawInputValue: undefined,
    diffs: [],
    sent: { kind: undefined, rawInput: undefined, rawOutput: undefined, meta: undefined, content: [], observed: [] },
  };
}

export interface MergeContext {
  isInWorkspace(path: string): boolean;
  warn: Warn;
  /** The workspace folders as the card's paths are shown against. */
  display(): DisplayPaths;
}

/**
 * Applies the fields an update carries to the card. Nested lists and objects are replaced, never
 * mutated, so shallow copies of the entry handed out earlier stay valid snapshots.
 */
export function mergeToolCallFields(record: ToolCallRecord, fields: Record<string, unknown>, ctx: MergeContext): void {
  const { entry, sent } = record;
  const where = `tool call ${describe(entry.toolCallId)}`;

  if (typeof fields.title === 'string') {
    if (fields.title.length > 0) sent.title = fields.title;
    if (fields.title.length > 0) delete sent.restored;
  } else if (!isAbsent(fields.title)) {
    ctx.warn(`Ignored title ${describe(fields.title)} of ${where}.`);
  }

  if (!isAbsent(fields.kind)) record.agentKind = sent.kind = fields.kind;

  if (!isAbsent(fields.status)) {
    if (typeof fields.status === 'string' && ACP_STATUSES.has(fields.status)) {
      // A late repeat of `tool_call` (pending) must not set a running call back (seen from Cline).
      const regress = fields.sessionUpdate === 'tool_call' && fields.status === 'pending' && entry.status !== 'pending';
      if (!regress) entry.status = fields.status as ToolStatus;
    } else {
      ctx.warn(`Ignored status ${describe(fields.status)} of ${where}: not an ACP tool call status.`);
    }
  }

  if (!isAbsent(fields.content)) {
    const parsed = parseToolContent(fields.content, ctx.warn);
    if (parsed !== undefined) sent.content = parsed;
  }

  if (!isAbsent(fields.locations)) {
    const locations = parseLocations(fields.locations, ctx.isInWorkspace, ctx.warn);
    if (locations !== undefined) sent.locations = locations;
  }

  if (!isAbsent(fields.rawInput)) {
    delete sent.restored;
    record.rawInputValue = sent.rawInput = fields.rawInput;
    entry.rawInput = formatRaw(fields.rawInput);
  }
  if (!isAbsent(fields.rawOutput)) {
    sent.rawOutput = fields.rawOutput;
    entry.rawOutput = formatRaw(fields.rawOutput);
  }
  if (!isAbsent(fields._meta)) {
    record.metaValue = sent.meta = fields._meta;
    // Tandem's hosted bridge says where its tools ran (`_meta.tandem.ranOn`).
    const tandem = isRecord(fields._meta) && isRecord(fields._meta.tandem) ? fields._meta.tandem : undefined;
    if (tandem?.ranOn === 'server') entry.ranOn = 'server';
  }
  present(record, ctx);
}

/** Adds the diffs seen on disk while the call ran (they show as long as the agent sends none). */
export function addObservedDiffs(record: ToolCallRecord, diffs: DiffSource[], ctx: MergeContext): void {
  record.sent.observed = diffs.map((d) => ({ ...d, observed: 'disk' as const }));
  if (record.sent.content === undefined) record.sent.content = restoredSentContent(record);
  present(record, ctx);
}

/** A terminal the agent streamed to under this call without naming it: the card shows it from now on. */
export function addStreamedTerminal(record: ToolCallRecord, terminalId: string, ctx: MergeContext): void {
  if (record.sent.terminals?.includes(terminalId)) return;
  record.sent.terminals = [...(record.sent.terminals ?? []), terminalId];
  if (record.sent.content === undefined) record.sent.content = restoredSentContent(record);
  present(record, ctx);
}

/** Derives the shown card from what was sent (title, kind, locations, content). */
function present(record: ToolCallRecord, ctx: MergeContext): void {
  const { content, reading } = presentToolCall(
    record.entry,
    record.sent,
    { display: ctx.display(), isInWorkspace: ctx.isInWorkspace, fallbackTitle: fallbackToolTitle() },
    record.reading,
  );
  record.reading = reading;
  if (content === undefined) return;
  const views = contentViews(content, record.diffs);
  record.entry.content = views.content;
  record.diffs = views.diffs;
}

/** A restored card's shown content, as sent content (its diffs as texts again), for a later update that adds to it. */
function restoredSentContent(record: ToolCallRecord): ParsedToolContent[] {
  return record.entry.content.flatMap((item, i): ParsedToolContent[] => {
    if (item.type !== 'diff') return [item];
    const source = record.diffs[i]?.source;
    return source && source.observed === undefined ? [source] : [];
  });
}

/**
 * A card rebuilt from a stored entry (a fresh copy, whose content is replaced here). Its kind and
 * title stay as shown (the agent's raw kind and input are not stored) until an update arrives.
 * Stored diffs carry their texts: the views are computed again and the texts stay in the record.
 */
export function restoredRecord(entry: ToolCallEntry): ToolCallRecord {
  const { content, diffs } = restoredContentViews(entry.content);
  entry.content = content;
  const title = typeof entry.agentTitle === 'string' ? entry.agentTitle : entry.title;
  const sent: SentToolCall = {
    title,
    kind: entry.toolKind,
    rawInput: undefined,
    rawOutput: undefined,
    meta: undefined,
    locations: entry.locations,
    observed: [],
    restored: true,
  };
  return { entry, agentKind: entry.toolKind, rawInputValue: undefined, diffs, sent };
}

/** The card as a stored transcript keeps it: diff items with their texts (see StoredDiffContent). */
export function storedToolCall(record: ToolCallRecord): ToolCallEntry {
  const { entry, diffs } = record;
  if (!diffs.some((d) => d !== undefined)) return { ...entry };
  return { ...entry, content: entry.content.map((item, i) => diffs[i]?.stored() ?? item) };
}
