import * as l10n from '@vscode/l10n';
import type { Entry, HostMessage, WebviewMessage } from '../protocol/messages';
import type { DiffLinesResult, DiffRecord } from './diffContent';

/** What a diff is looked up in (the Thread). */
interface DiffSource {
  diffRecord(entryId: string, index: number): DiffRecord | undefined;
  entries(): Entry[];
}

export interface DiffTexts {
  path: string;
  oldText: string | null;
  newText: string;
  title: string;
}

/** The whole texts of a diff the panel shows, for "Open diff" (whatever their size). */
export function findDiff(thread: DiffSource, entryId: string, index: number): DiffTexts | undefined {
  const record = thread.diffRecord(entryId, index);
  if (!record) return undefined;
  const { path, oldText, newText } = record.source;
  const entry = thread.entries().find((e) => e.id === entryId);
  return { path, oldText, newText, title: entry?.kind === 'tool_call' ? entry.title : path };
}

/** Answers the panel's request for lines of a diff that were not sent with it. */
export function diffLines(
  record: DiffRecord | undefined,
  request: Extract<WebviewMessage, { type: 'fetchDiffLines' }>,
  warn: (text: string) => void,
): Extract<HostMessage, { type: 'diffLines' }> {
  let result: DiffLinesResult;
  try {
    result = record ? record.lines(request.diffId, request.row, request.count) : { error: l10n.t('The lines of this diff were not kept.') };
  } catch (error) {
    // The panel waits for an answer: a bug here must still give it one.
    warn(`Reading lines of a diff failed: ${error instanceof Error ? error.message : String(error)}`);
    result = { error: l10n.t('The lines could not be read.') };
  }
  return 'error' in result
    ? { type: 'diffLines', requestId: request.requestId, lines: [], oldLine: 0, newLine: 0, error: result.error }
    : { type: 'diffLines', requestId: request.requestId, ...result };
}
