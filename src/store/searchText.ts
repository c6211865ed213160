import type { Entry } from '../protocol/messages';
import type { Transcript } from './conversationFormat';

/**
 * What of a kept conversation is searchable, entry by entry: what people remember having said or
 * seen — prompts, replies, thoughts, plans, tool call titles and the files they touched, compaction
 * summaries. Tool output, raw JSON and terminal text are left out: they are large, mostly noise to a
 * person looking for a conversation, and would make every common word match everywhere.
 */

/** Where a match was found, for the result's label. */
export type SearchField = 'title' | 'prompt' | 'reply' | 'thought' | 'plan' | 'tool' | 'summary';

/** One searchable piece of text and the entry it belongs to ('' for the conversation's title). */
export interface SearchSegment {
  entryId: string;
  field: SearchField;
  text: string;
}

/** The searchable segments of one entry (none for entries that say nothing worth finding). */
export function entrySegments(entry: Entry): SearchSegment[] {
  const of = (field: SearchField, text: string): SearchSegment[] => (text.trim() === '' ? [] : [{ entryId: entry.id, field, text }]);
  switch (entry.kind) {
    case 'user':
      return of('prompt', entry.text);
    case 'agent':
      return of('reply', entry.text);
    case 'thought':
      return of('thought', entry.text);
    case 'plan':
      return of('plan', entry.items.map((item) => item.content).join('\n'));
    case 'tool_call':
      return of('tool', toolText(entry));
    case 'compaction':
      return of('summary', entry.summary);
    case 'error':
    case 'notice':
    case 'auth':
    case 'question':
    case 'turn_end':
      return [];
    default: {
      const unknownEntry: never = entry;
      return unknownEntry;
    }
  }
}

/** A tool call's title (and the agent's own, when it differs) and every path it names, one per line. */
function toolText(entry: Extract<Entry, { kind: 'tool_call' }>): string {
  const lines = [entry.title];
  if (entry.agentTitle && entry.agentTitle !== entry.title) lines.push(entry.agentTitle);
  const paths = new Set<string>();
  for (const location of entry.locations ?? []) paths.add(location.shown ?? location.path);
  for (const item of entry.content ?? []) if (item.type === 'diff') paths.add(item.path);
  lines.push(...paths);
  return lines.join('\n');
}

/** Every searchable segment of a transcript, in the thread's order (the title is kept apart: it changes without a save). */
export function transcriptSegments(transcript: Pick<Transcript, 'entries'> | undefined): SearchSegment[] {
  const segments: SearchSegment[] = [];
  for (const entry of transcript?.entries ?? []) {
    // A stored transcript is read from disk: a damaged entry must not stop the rest being found.
    try {
      segments.push(...entrySegments(entry));
    } catch {
      continue;
    }
  }
  return segments;
}
