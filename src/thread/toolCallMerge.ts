/**
 * Merging `tool_call` / `tool_call_update` fields into one tool call card. Both update kinds are
 * treated alike: agents repeat `tool_call` for a known id (an upsert) and send `tool_call_update` for ids
 * never announced, so only the fields an update carries change; `content` and `locations` replace the lists.
 */
import { describe, isAbsent, isRecord } from '../protocol/guards';
import * as l10n from '@vscode/l10n';
import type { ToolCallEntry, ToolStatus } from '../protocol/messages';
import { contentViews, restoredContentViews, type DiffRecord } from './diffContent';
import { inferToolKind } from '../acp/toolKindInference';
import { formatRaw, parseLocations, parseToolContent, type Warn } from './updateParsing';

/** Title of a card whose agent never sent one. */
export function fallbackToolTitle(): string {
  return l10n.t('Tool call');
}

/** A card plus what the reducer needs to re-infer its kind when a later update sharpens the title. */
export interface ToolCallRecord {
  entry: ToolCallEntry;
  /** The last `kind` the agent sent, unvalidated (undefined when never sent). */
  agentKind: unknown;
  /** The last rawInput the agent sent, kept for kind inference and permission rules. */
  rawInputValue: unknown;
  /** The last `_meta` the agent sent (tool names for permission rules); not shown. */
  metaValue?: unknown;
  /** By position in `entry.content`: the texts behind each diff view (undefined for other items). */
  diffs: (DiffRecord | undefined)[];
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
  };
}

export interface MergeContext {
  isInWorkspace(path: string): boolean;
  warn: Warn;
}

/**
 * Applies the fields an update carries to the card. Nested lists and objects are replaced, never
 * mutated, so shallow copies of the entry handed out earlier stay valid snapshots.
 */
export function mergeToolCallFields(record: ToolCallRecord, fields: Record<string, unknown>, ctx: MergeContext): void {
  const entry = record.entry;
  const where = `tool call ${describe(entry.toolCallId)}`;

  if (typeof fields.title === 'string') {
    if (fields.title.length > 0) entry.title = fields.title;
  } else if (!isAbsent(fields.title)) {
    ctx.warn(`Ignored title ${describe(fields.title)} of ${where}.`);
  }

  if (!isAbsent(fields.kind)) record.agentKind = fields.kind;

  if (!isAbsent(fields.status)) {
    if (typeof fields.status === 'string' && ACP_STATUSES.has(fields.status)) {
      entry.status = fields.status as ToolStatus;
    } else {
      ctx.warn(`Ignored status ${describe(fields.status)} of ${where}: not an ACP tool call status.`);
    }
  }

  if (!isAbsent(fields.content)) {
    const parsed = parseToolContent(fields.content, ctx.warn);
    if (parsed !== undefined) {
      const { content, diffs } = contentViews(parsed, record.diffs);
      entry.content = content;
      record.diffs = diffs;
    }
  }

  if (!isAbsent(fields.locations)) {
    const locations = parseLocations(fields.locations, ctx.isInWorkspace, ctx.warn);
    if (locations !== undefined) entry.locations = locations;
  }

  if (!isAbsent(fields.rawInput)) {
    record.rawInputValue = fields.rawInput;
    entry.rawInput = formatRaw(fields.rawInput);
  }
  if (!isAbsent(fields.rawOutput)) entry.rawOutput = formatRaw(fields.rawOutput);
  if (!isAbsent(fields._meta)) {
    record.metaValue = fields._meta;
    // Tandem's hosted bridge says where its tools ran (`_meta.tandem.ranOn`).
    const tandem = isRecord(fields._meta) && isRecord(fields._meta.tandem) ? fields._meta.tandem : undefined;
    if (tandem?.ranOn === 'server') entry.ranOn = 'server';
  }

  // Re-inferred on every update: a later title ("Edit" → "Edit a.ts") or kind may name the tool.
  entry.toolKind = inferToolKind(record.agentKind, entry.title, record.rawInputValue);
}

/**
 * A card rebuilt from a stored entry (a fresh copy, whose content is replaced here). Its kind stays
 * as shown (the agent's raw kind and input are not stored), so a later update that sharpens the
 * title may re-infer it from the title alone. Stored diffs carry their texts: the views are computed
 * again and the texts stay in the record.
 */
export function restoredRecord(entry: ToolCallEntry): ToolCallRecord {
  const { content, diffs } = restoredContentViews(entry.content);
  entry.content = content;
  return { entry, agentKind: entry.toolKind, rawInputValue: undefined, diffs };
}

/** The card as a stored transcript keeps it: diff items with their texts (see StoredDiffContent). */
export function storedToolCall(record: ToolCallRecord): ToolCallEntry {
  const { entry, diffs } = record;
  if (!diffs.some((d) => d !== undefined)) return { ...entry };
  return { ...entry, content: entry.content.map((item, i) => diffs[i]?.stored() ?? item) };
}
