import type { Entry, TerminalView } from '../protocol/messages';
import type { Transcript } from './conversationFormat';

/**
 * Serialises a transcript within a byte budget without holding up the event loop.
 *
 * What is given up first is what matters least when reading a conversation back: the start of long
 * terminal outputs (the end holds the result), then the oldest entries; the count of dropped entries
 * is carried in the file so the panel can say that earlier entries were not kept.
 *
 * Saving a long conversation used to serialise all of it on every save, two to four times over when
 * it was over the budget, in one synchronous go: a hundred milliseconds and more during which the
 * stream being saved could not advance. Here every entry and terminal is serialised on its own and
 * the result kept, keyed by id, until the value changes; sizes are added up from the parts, and the
 * file is joined once. An unchanged entry is recognised cheaply: entries are copied shallowly and
 * their nested values are replaced, never mutated (see ThreadReducer), so equal references at the
 * top levels mean equal JSON. `encode` does it all at once (shutdown); `encodeAsync` yields to the
 * event loop whenever a slice of work used its time, so a first save of a long thread is spread out.
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

/** One serialised value, and the value it was serialised from. */
interface Part {
  value: unknown;
  json: string;
  bytes: number;
}

/** Levels compared by reference: an entry, its arrays and objects, their items' fields. */
const COMPARED_DEPTH = 3;
/** Longest stretch of work between two yields of `encodeAsync`. */
const SLICE_MS = 5;

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Encodes `transcript` as JSON of at most `maxBytes` (UTF-8), at once and with nothing cached. */
export function encodeTranscript(transcript: Transcript, maxBytes: number): EncodedTranscript {
  return new TranscriptEncoder().encode(transcript, maxBytes);
}

export class TranscriptEncoder {
  private entryParts = new Map<string, Part>();
  private terminalParts = new Map<string, Part>();
  private cutParts = new Map<string, Part>();

  /** Encodes at once (for shutdown, when nothing may be awaited). */
  encode(transcript: Transcript, maxBytes: number): EncodedTranscript {
    const steps = this.steps(transcript, maxBytes);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** Encodes in slices of a few milliseconds, yielding to the event loop in between. */
  async encodeAsync(transcript: Transcript, maxBytes: number): Promise<EncodedTranscript> {
    const steps = this.steps(transcript, maxBytes);
    let sliceStart = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  /** The encoding, yielding after each value it had to serialise anew. Never mutates its input. */
  private *steps(transcript: Transcript, maxBytes: number): Generator<void, EncodedTranscript> {
    const entries = transcript.entries;
    const terminalIds = Object.keys(transcript.terminals);
    const entryParts: Part[] = [];
    const nextEntries = new Map<string, Part>();
    for (const entry of entries) {
      const part = cached(this.entryParts, nextEntries, entry.id, entry);
      if (part.fresh) yield;
      entryParts.push(part.part);
    }
    this.entryParts = nextEntries;
    const terminals = new Map<string, Part>();
    const nextTerminals = new Map<string, Part>();
    for (const id of terminalIds) {
      const part = cached(this.terminalParts, nextTerminals, id, transcript.terminals[id]);
      if (part.fresh) yield;
      terminals.set(id, part.part);
    }
    this.terminalParts = nextTerminals;

    const layout = new Layout(transcript);
    const full = layout.bytes(entryParts, terminals);
    yield;
    if (full <= maxBytes) return { json: layout.join(entryParts, terminals), bytes: full, droppedNow: 0, terminalsCut: false, overBudget: false };

    // Step 1: keep only the tail of each terminal's output.
    const nextCut = new Map<string, Part>();
    const cut = new Map<string, Part>();
    for (const id of terminalIds) {
      const view = transcript.terminals[id];
      if (view.output.length <= TERMINAL_KEEP_CHARS) {
        cut.set(id, terminals.get(id)!);
        continue;
      }
      const previous = this.cutParts.get(id);
      let part: Part;
      if (previous && previous.value === view) part = previous;
      else {
        part = partOf(view, cutTerminal(view));
        yield;
      }
      nextCut.set(id, part);
      cut.set(id, part);
    }
    this.cutParts = nextCut;
    const cutBytes = layout.bytes(entryParts, cut);
    yield;
    if (cutBytes <= maxBytes) return { json: layout.join(entryParts, cut), bytes: cutBytes, droppedNow: 0, terminalsCut: true, overBudget: false };

    // Step 2: drop the oldest entries; a terminal goes with the last entry that showed it. The sizes
    // of the parts say how many must go; a final check drops one more while still over (the count
    // of dropped entries itself grows by a few digits).
    const refCount = new Map<string, number>();
    for (const entry of entries) for (const id of terminalRefs(entry)) refCount.set(id, (refCount.get(id) ?? 0) + 1);
    const removed = new Set<string>();
    let excess = cutBytes - maxBytes;
    let drop = 0;
    const dropOne = (): void => {
      excess -= entryParts[drop].bytes + 1;
      for (const id of terminalRefs(entries[drop])) {
        const left = (refCount.get(id) ?? 0) - 1;
        refCount.set(id, left);
        const part = cut.get(id);
        if (left === 0 && part && !removed.has(id)) {
          removed.add(id);
          excess -= byteLength(JSON.stringify(id)) + 1 + part.bytes + 1;
        }
      }
      drop++;
    };
    while (excess > 0 && drop < entries.length) dropOne();
    yield;
    const base = transcript.droppedEntries ?? 0;
    for (;;) {
      // Once every entry is gone, nothing can show a terminal: they all go.
      const kept = new Map([...cut].filter(([id]) => !removed.has(id) && drop < entries.length));
      const keptEntries = entryParts.slice(drop);
      const dropped = base + drop > 0 ? base + drop : transcript.droppedEntries;
      const bytes = layout.bytes(keptEntries, kept, dropped);
      yield;
      if (bytes <= maxBytes || drop >= entries.length) {
        return { json: layout.join(keptEntries, kept, dropped), bytes, droppedNow: drop, terminalsCut: true, overBudget: bytes > maxBytes };
      }
      dropOne();
    }
  }
}

/** The part for `value` under `key`: the previous one when the value did not change, else a new one. */
function cached(previous: Map<string, Part>, next: Map<string, Part>, key: string, value: unknown): { part: Part; fresh: boolean } {
  const old = previous.get(key);
  if (old && sameValue(old.value, value, COMPARED_DEPTH)) {
    next.set(key, old);
    return { part: old, fresh: false };
  }
  const part = partOf(value, value);
  next.set(key, part);
  return { part, fresh: true };
}

function partOf(value: unknown, serialised: unknown): Part {
  const json = JSON.stringify(serialised);
  return { value, json, bytes: byteLength(json) };
}

/** Equal references, or plain objects/arrays with the same keys in the same order whose values are, down to `depth` levels. */
function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth === 0 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i];
    if (key !== keysB[i] || !sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth - 1)) return false;
  }
  return true;
}

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
 * The transcript's JSON around its entries and terminals, in the order of its own keys (what
 * `JSON.stringify` would write); `droppedEntries`, when set, keeps its place or comes last.
 */
class Layout {
  private readonly keys: string[];

  constructor(private readonly transcript: Transcript) {
    this.keys = Object.keys(transcript);
    if (!this.keys.includes('droppedEntries')) this.keys.push('droppedEntries');
  }

  bytes(entries: Part[], terminals: Map<string, Part>, dropped = this.transcript.droppedEntries): number {
    let total = 2; // {}
    let fields = 0;
    for (const key of this.keys) {
      let value: number;
      if (key === 'entries') {
        value = 2 + Math.max(0, entries.length - 1);
        for (const part of entries) value += part.bytes;
      } else if (key === 'terminals') {
        value = 2 + Math.max(0, terminals.size - 1);
        for (const [id, part] of terminals) value += byteLength(JSON.stringify(id)) + 1 + part.bytes;
      } else {
        const json = this.field(key, dropped);
        if (json === undefined) continue;
        value = byteLength(json);
      }
      total += byteLength(JSON.stringify(key)) + 1 + value;
      fields++;
    }
    return total + Math.max(0, fields - 1);
  }

  join(entries: Part[], terminals: Map<string, Part>, dropped = this.transcript.droppedEntries): string {
    const fields: string[] = [];
    for (const key of this.keys) {
      let json: string | undefined;
      if (key === 'entries') json = `[${entries.map((part) => part.json).join(',')}]`;
      else if (key === 'terminals') json = `{${[...terminals].map(([id, part]) => `${JSON.stringify(id)}:${part.json}`).join(',')}}`;
      else json = this.field(key, dropped);
      if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
    }
    return `{${fields.join(',')}}`;
  }

  /** The JSON of another field, or undefined when JSON.stringify would leave the key out. */
  private field(key: string, dropped: number | undefined): string | undefined {
    const value = key === 'droppedEntries' ? dropped : (this.transcript as unknown as Record<string, unknown>)[key];
    return value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
  }
}
