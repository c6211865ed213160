import { describe } from '../protocol/guards';
import type { CompactionEntry, NoticeEntry } from '../protocol/messages';
import { contentBlockToMarkdown } from './updateParsing';

type Warn = (text: string) => void;

/**
 * An agent's `notice` update as a banner: its severity, and title — description (bounded), or
 * undefined (warned) when it says nothing.
 */
export function parseNotice(update: Record<string, unknown>, warn: Warn): Pick<NoticeEntry, 'level' | 'message'> | undefined {
  const title = typeof update.title === 'string' ? update.title.trim() : '';
  const description = typeof update.description === 'string' ? update.description.trim() : '';
  if (title === '' && description === '') {
    warn('Ignored a notice without a title or description.');
    return undefined;
  }
  const level = update.severity === 'error' ? 'error' : update.severity === 'warning' ? 'warning' : 'info';
  return {
    level,
    message: [title, description]
      .filter((t) => t !== '')
      .join(' — ')
      .slice(0, 4000),
  };
}

/**
 * Compaction: one divider per compactionId, its status from `compaction_update` and its summary
 * from the update's `summary` blocks or streamed `compaction_summary_chunk`s. The divider to show
 * (`created` when it is new), or undefined (warned) for an update without a compactionId.
 */
export function compactionFor(
  known: Map<string, CompactionEntry>,
  update: Record<string, unknown>,
  newId: () => string,
  warn: Warn,
): { entry: CompactionEntry; created: boolean } | undefined {
  const compactionId = typeof update.compactionId === 'string' ? update.compactionId : undefined;
  if (compactionId === undefined) {
    warn(`Ignored a ${describe(update.sessionUpdate)} without a compactionId.`);
    return undefined;
  }
  let entry = known.get(compactionId);
  const created = entry === undefined;
  entry ??= { kind: 'compaction', id: newId(), compactionId, status: 'in_progress', summary: '' };
  applyCompactionUpdate(entry, update, warn);
  known.set(compactionId, entry);
  return { entry, created };
}

/** Applies `compaction_update` (status, whole summary, error) or `compaction_summary_chunk` (streamed summary). */
export function applyCompactionUpdate(entry: CompactionEntry, update: Record<string, unknown>, warn: Warn): void {
  if (update.sessionUpdate === 'compaction_summary_chunk') {
    entry.summary += contentBlockToMarkdown(update.content, warn) ?? '';
    return;
  }
  if (typeof update.status === 'string') entry.status = update.status;
  if (Array.isArray(update.summary)) entry.summary = update.summary.map((b) => contentBlockToMarkdown(b, warn) ?? '').join('');
  if (typeof update.error === 'string') entry.error = update.error;
}
