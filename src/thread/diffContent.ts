import * as l10n from '@vscode/l10n';
import type { DiffContentView, DiffHunkView, DiffLineView, ToolContentView } from '../protocol/messages';
import type { FieldDraft } from '../protocol/draft';
import { DIFF_FETCH_MAX_LINES, DIFF_INLINE_MAX_BYTES } from '../protocol/messages';
import { diffLineRuns, LineReader, positionOf, readRows, type LineDiff } from './lineDiff';

/**
 * The diffs of tool calls, host side. The agent sends both whole texts; the panel gets only hunks
 * with three lines of context and fetches the rest by row (`fetchDiffLines`). The texts stay here,
 * for "Open diff", for those fetches and for stored transcripts.
 */

/** A diff as parsed from an update: both whole texts (null old text: a new file). */
export interface DiffSource {
  type: 'diff';
  path: string;
  oldText: string | null;
  newText: string;
  /** Not sent by the agent (see DiffContentView.observed). */
  observed?: 'disk' | 'input';
}

/** Tool call content as parsed from an update: the panel's views, except that diffs are still texts. */
export type ParsedToolContent = Exclude<ToolContentView, { type: 'diff' }> | DiffSource;

/**
 * A diff item of a stored transcript: the view plus both texts, so "Open diff" and collapsed lines
 * still work after a restart. Only transcripts hold this; restoring strips the texts again.
 */
export type StoredDiffContent = DiffContentView & Pick<DiffSource, 'oldText' | 'newText'> & { viewFormat: number };

/**
 * Version of the view computation (line diff, context, budgets). A stored view of this version is
 * shown again as it is, without diffing again (restoring a long thread stays cheap); any other is
 * computed anew from the texts, so rows the panel fetches always match the view it shows. Bump it
 * when anything that decides rows or hunks changes.
 */
export const VIEW_FORMAT = 1;

/** Unchanged lines shown around each change. */
export const CONTEXT_LINES = 3;
/** Lines sent with one view over all its hunks; hunks past it are sent collapsed. */
export const VIEW_LINE_BUDGET = 1000;
/** Lines sent of one hunk; the rest of a long hunk (a new 10,000-line file) is fetched on demand. */
export const HUNK_LINES_SENT = 200;

/** Ids are unique for the process: the panel tells diffs apart by them. */
let nextDiffId = 1;

/** What a fetch of diff lines gets: the lines and the numbers of the first, or why there are none. */
export type DiffLinesResult = { lines: DiffLineView[]; oldLine: number; newLine: number } | { error: string };

/** One diff item of a tool call: its texts, its view, and (once computed) its line diff. */
export class DiffRecord {
  readonly view: FieldDraft<DiffContentView>;
  private diff: LineDiff | undefined;

  /** `stored`: this diff's view as a transcript kept it (same texts and VIEW_FORMAT), shown again under a new id. */
  constructor(
    readonly source: DiffSource,
    stored?: Omit<DiffContentView, 'diffId'>,
  ) {
    if (stored) {
      const { type, path, isNew, added, removed, hunks, collapsedAfter, tooLarge } = stored;
      this.view = { type, path, diffId: nextDiffId++, isNew, added, removed, hunks, collapsedAfter };
      if (tooLarge) this.view.tooLarge = tooLarge;
      if (source.observed) this.view.observed = source.observed;
      return;
    }
    const bytes = Math.max(utf8Bytes(source.oldText ?? ''), utf8Bytes(source.newText));
    const base = {
      type: 'diff' as const,
      path: source.path,
      diffId: nextDiffId++,
      isNew: source.oldText === null,
      ...(source.observed ? { observed: source.observed } : {}),
    };
    if (bytes > DIFF_INLINE_MAX_BYTES) {
      this.view = { ...base, added: 0, removed: 0, hunks: [], collapsedAfter: 0, tooLarge: { bytes, limit: DIFF_INLINE_MAX_BYTES } };
      return;
    }
    this.diff = diffLineRuns(source.oldText, source.newText);
    this.view = { ...base, ...hunkView(this.diff, source) };
  }

  /** True when `source` has the same path and texts (an agent resending a diff with a status change). */
  sameAs(source: DiffSource): boolean {
    return (
      this.source.path === source.path &&
      this.source.oldText === source.oldText &&
      this.source.newText === source.newText &&
      this.source.observed === source.observed
    );
  }

  /** `count` rows from `row` (both clamped to the diff), for a panel that asked for diff `diffId`. */
  lines(diffId: number, row: number, count: number): DiffLinesResult {
    if (diffId !== this.view.diffId) return { error: l10n.t('This diff changed since it was shown.') };
    if (this.view.tooLarge) return { error: l10n.t('This diff is too large to show here.') };
    const diff = (this.diff ??= diffLineRuns(this.source.oldText, this.source.newText));
    const from = Math.max(0, Math.min(Math.trunc(row) || 0, diff.rows));
    const take = Math.max(0, Math.min(Math.trunc(count) || 0, DIFF_FETCH_MAX_LINES, diff.rows - from));
    const readers = { old: new LineReader(this.source.oldText ?? ''), new: new LineReader(this.source.newText) };
    const position = positionOf(diff, from);
    return { lines: readRows(diff, readers, from, take), oldLine: position.oldIndex + 1, newLine: position.newIndex + 1 };
  }

  /** The item as a stored transcript keeps it. */
  stored(): StoredDiffContent {
    return { ...this.view, viewFormat: VIEW_FORMAT, oldText: this.source.oldText, newText: this.source.newText };
  }
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A run of rows holding changes plus their context, before it becomes a DiffHunkView. */
interface HunkRange {
  row: number;
  rows: number;
  oldIndex: number;
  newIndex: number;
  added: number;
  removed: number;
}

/** Changed stretches widened by CONTEXT_LINES; stretches at most 2 × CONTEXT_LINES apart share a hunk. */
export function hunkRanges(diff: LineDiff, context = CONTEXT_LINES): HunkRange[] {
  const stretches: HunkRange[] = [];
  let row = 0;
  let oldIndex = 0;
  let newIndex = 0;
  for (const run of diff.runs) {
    if (run.kind !== 'same') {
      const last = stretches[stretches.length - 1];
      const stretch = last && last.row + last.rows === row ? last : { row, rows: 0, oldIndex, newIndex, added: 0, removed: 0 };
      if (stretch !== last) stretches.push(stretch);
      stretch.rows += run.count;
      if (run.kind === 'add') stretch.added += run.count;
      else stretch.removed += run.count;
    }
    row += run.count;
    if (run.kind !== 'add') oldIndex += run.count;
    if (run.kind !== 'del') newIndex += run.count;
  }
  const hunks: HunkRange[] = [];
  let current: HunkRange | undefined;
  let previousEnd = 0;
  for (const stretch of stretches) {
    const gap = stretch.row - previousEnd;
    if (current && gap <= 2 * context) {
      current.rows = stretch.row + stretch.rows - current.row;
      current.added += stretch.added;
      current.removed += stretch.removed;
    } else {
      if (current) current.rows += Math.min(context, gap);
      const lead = Math.min(context, gap);
      current = { ...stretch, row: stretch.row - lead, rows: stretch.rows + lead, oldIndex: stretch.oldIndex - lead, newIndex: stretch.newIndex - lead };
      hunks.push(current);
    }
    previousEnd = stretch.row + stretch.rows;
  }
  if (current) current.rows += Math.min(context, diff.rows - previousEnd);
  return hunks;
}

/** The view fields of a computed diff: hunks with their first lines, within the line budgets. */
function hunkView(diff: LineDiff, source: DiffSource): Omit<DiffContentView, 'type' | 'path' | 'diffId' | 'isNew'> {
  const readers = { old: new LineReader(source.oldText ?? ''), new: new LineReader(source.newText) };
  const hunks: DiffHunkView[] = [];
  let budget = VIEW_LINE_BUDGET;
  let previousEnd = 0;
  for (const range of hunkRanges(diff)) {
    const take = Math.min(range.rows, HUNK_LINES_SENT, budget);
    budget -= take;
    hunks.push({
      oldStart: range.oldIndex + 1,
      oldLines: range.rows - range.added,
      newStart: range.newIndex + 1,
      newLines: range.rows - range.removed,
      row: range.row,
      lines: take > 0 ? readRows(diff, readers, range.row, take) : [],
      more: range.rows - take,
      collapsedBefore: range.row - previousEnd,
    });
    previousEnd = range.row + range.rows;
  }
  return { added: diff.added, removed: diff.removed, hunks, collapsedAfter: hunks.length > 0 ? diff.rows - previousEnd : 0 };
}

/**
 * The views of parsed content, reusing the records of `previous` (the card's former diffs) whose
 * texts did not change: agents resend the whole content with every status update.
 */
export function contentViews(
  parsed: readonly ParsedToolContent[],
  previous: readonly (DiffRecord | undefined)[],
): { content: ToolContentView[]; diffs: (DiffRecord | undefined)[] } {
  const content: ToolContentView[] = [];
  const diffs: (DiffRecord | undefined)[] = [];
  for (const item of parsed) {
    if (item.type !== 'diff') {
      content.push(item);
      diffs.push(undefined);
      continue;
    }
    const record = previous.find((d) => d?.sameAs(item)) ?? new DiffRecord(item);
    content.push(record.view);
    diffs.push(record);
  }
  return { content, diffs };
}

/** A stored view of this VIEW_FORMAT whose shape can be shown again (the panel checks the details). */
function reusableView(raw: Record<string, unknown>): Omit<DiffContentView, 'diffId'> | undefined {
  if (raw.viewFormat !== VIEW_FORMAT || typeof raw.isNew !== 'boolean' || !Array.isArray(raw.hunks)) return undefined;
  if (![raw.added, raw.removed, raw.collapsedAfter].every((n) => Number.isInteger(n))) return undefined;
  return raw as unknown as Omit<DiffContentView, 'diffId'>;
}

/**
 * The views of a stored card's content (untrusted: read from disk). A diff with its texts gets its
 * stored view back when it is of this VIEW_FORMAT, else one computed from the texts (older
 * transcripts held only the texts); a diff view without texts is kept as shown, with a fresh id,
 * and cannot fetch lines; anything else unusable is dropped.
 */
export function restoredContentViews(stored: unknown): { content: ToolContentView[]; diffs: (DiffRecord | undefined)[] } {
  const content: ToolContentView[] = [];
  const diffs: (DiffRecord | undefined)[] = [];
  for (const item of Array.isArray(stored) ? (stored as unknown[]) : []) {
    if (typeof item !== 'object' || item === null) continue;
    const raw = item as Record<string, unknown>;
    if (raw.type !== 'diff') {
      content.push(item as ToolContentView);
      diffs.push(undefined);
      continue;
    }
    if (
      typeof raw.path === 'string' &&
      typeof raw.newText === 'string' &&
      (raw.oldText === null || raw.oldText === undefined || typeof raw.oldText === 'string')
    ) {
      const source: DiffSource = {
        type: 'diff',
        path: raw.path,
        oldText: typeof raw.oldText === 'string' && raw.oldText !== '' ? raw.oldText : null,
        newText: raw.newText,
      };
      if (raw.observed === 'disk' || raw.observed === 'input') source.observed = raw.observed;
      const record = new DiffRecord(source, reusableView(raw));
      content.push(record.view);
      diffs.push(record);
    } else if (typeof raw.path === 'string' && Array.isArray(raw.hunks)) {
      content.push({ ...(raw as unknown as DiffContentView), diffId: nextDiffId++ });
      diffs.push(undefined);
    }
  }
  return { content, diffs };
}
