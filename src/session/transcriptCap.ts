import type { Entry, TerminalView } from '../protocol/messages';
import type { Transcript } from './conversationFormat';

/**
 * Serialises a transcript within a byte budget.
 *
 * What is given up first is what matters least when reading a conversation back: the start of long
 * terminal outputs (the end holds the result), then the oldest entries. The count of dropped entries
 * is carried in the file so the panel can say that earlier entries were not kept.
 */

/** Characters of each terminal's output kept once a transcript is over its budget. */
export const TERMINAL_KEEP_CHARS = 64 * 1024;

/** The serialised transcript and what was given up to make it fit. */
export interface EncodedTranscript {
  /** The JSON to write. */
  json: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
  /** Entries dropped by this encoding (on top of any the transcript already counted). */
  droppedNow: number;
  /** True when terminal outputs were cut. */
  terminalsCut: boolean;
  /** True when even without entries and terminals the transcript does not fit (a huge prompt queue): written anyway. */
  overBudget: boolean;
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Terminal ids an entry shows (only tool calls embed terminals today; other kinds count as none). */
function terminalRefs(entry: Entry): string[] {
  if (entry.kind !== 'tool_call') return [];
  return entry.content.flatMap((item) => (item.type === 'terminal' ? [item.terminalId] : []));
}

/** The last `TERMINAL_KEEP_CHARS` of the output, never starting inside a surrogate pair. */
function cutTerminal(view: TerminalView): TerminalView {
  if (view.output.length <= TERMINAL_KEEP_CHARS) return view;
  let start = view.output.length - TERMINAL_KEEP_CHARS;
  const code = view.output.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return { ...view, output: view.output.slice(start), truncated: true };
}

/**
 * Encodes `transcript` as JSON of at most `maxBytes` (UTF-8). Never mutates its input: the caller
 * may hand over live session state.
 */
export function encodeTranscript(transcript: Transcript, maxBytes: number): EncodedTranscript {
  const json = JSON.stringify(transcript);
  const bytes = byteLength(json);
  if (bytes <= maxBytes) return { json, bytes, droppedNow: 0, terminalsCut: false, overBudget: false };

  // Step 1: keep only the tail of each terminal's output.
  const terminals: Record<string, TerminalView> = {};
  for (const [id, view] of Object.entries(transcript.terminals)) terminals[id] = cutTerminal(view);
  const cut: Transcript = { ...transcript, terminals };
  const cutJson = JSON.stringify(cut);
  const cutBytes = byteLength(cutJson);
  if (cutBytes <= maxBytes) return { json: cutJson, bytes: cutBytes, droppedNow: 0, terminalsCut: true, overBudget: false };

  // Step 2: drop the oldest entries. Sizes are measured per entry so one pass finds how many must go;
  // a terminal goes with the last entry that showed it. A final stringify checks the estimate (the
  // dropped-entries count itself grows by a few digits), dropping one more entry while still over.
  const { entries } = transcript;
  const refCount = new Map<string, number>();
  for (const entry of entries) for (const id of terminalRefs(entry)) refCount.set(id, (refCount.get(id) ?? 0) + 1);
  const terminalBytes = (id: string): number => byteLength(JSON.stringify(id)) + 1 + byteLength(JSON.stringify(terminals[id])) + 1;

  let excess = cutBytes - maxBytes;
  let drop = 0;
  const removedTerminals = new Set<string>();
  const dropOne = (): void => {
    const entry = entries[drop++];
    excess -= byteLength(JSON.stringify(entry)) + 1;
    for (const id of terminalRefs(entry)) {
      const left = (refCount.get(id) ?? 0) - 1;
      refCount.set(id, left);
      if (left === 0 && id in terminals && !removedTerminals.has(id)) {
        removedTerminals.add(id);
        excess -= terminalBytes(id);
      }
    }
  };
  while (excess > 0 && drop < entries.length) dropOne();

  const base = transcript.droppedEntries ?? 0;
  for (;;) {
    const keptTerminals: Record<string, TerminalView> = {};
    for (const [id, view] of Object.entries(terminals)) {
      // Once every entry is gone, nothing can show a terminal: drop them all.
      if (!removedTerminals.has(id) && drop < entries.length) keptTerminals[id] = view;
    }
    const candidate: Transcript = { ...transcript, entries: entries.slice(drop), terminals: keptTerminals };
    if (base + drop > 0) candidate.droppedEntries = base + drop;
    const candidateJson = JSON.stringify(candidate);
    const candidateBytes = byteLength(candidateJson);
    if (candidateBytes <= maxBytes || drop >= entries.length) {
      return { json: candidateJson, bytes: candidateBytes, droppedNow: drop, terminalsCut: true, overBudget: candidateBytes > maxBytes };
    }
    dropOne();
  }
}
