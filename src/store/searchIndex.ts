import type { Transcript } from './conversationFormat';
import { transcriptSegments, type SearchField } from './searchText';

/**
 * An in-memory index of the text of kept conversations, for `Tandem: Search Conversations…` and the
 * History picker. Pure: no vscode, no disk (ConversationSearch feeds it from the store).
 *
 * A query is one phrase, matched case-insensitively anywhere in a segment (an entry's text, a tool
 * call's title and paths); each space in it matches any one whitespace character. Each conversation
 * keeps its searchable text once, as written (snippets come from it), and a trigram bitset of the
 * folded text: a conversation lacking one of the query's trigrams cannot contain it and is skipped
 * without a scan, which keeps a query over a hundred megabytes of text in milliseconds. Only the
 * conversations that may contain the phrase are scanned, with a case-insensitive regular expression.
 */

/** A found phrase in context: `before` and `after` are cut to whole words and one line. */
export interface Snippet {
  before: string;
  match: string;
  after: string;
}

export interface SearchHit {
  conversationId: string;
  /** The entry to reveal; '' for a match in the title. */
  entryId: string;
  field: SearchField;
  snippet: Snippet;
}

export interface SearchOptions {
  /** Most hits in one conversation (one per entry); default 3. */
  perConversation?: number;
  /** Most hits in all; default 200. */
  limit?: number;
}

/** Shortest query searched (one character matches nearly everything). */
export const MIN_QUERY_LENGTH = 2;
const BEFORE_CHARS = 40;
const AFTER_CHARS = 80;
/** 2^17 bits (16 KB) per conversation: a 4 MB transcript's trigrams fill about a tenth of it. */
const GRAM_BITS = 17;
const GRAM_WORDS = 1 << (GRAM_BITS - 5);
/** Separates segments in a conversation's text: no whitespace, so no phrase matches across it (queries lose control characters). */
const SEPARATOR = '\u0000';

interface SearchDoc {
  title: string;
  /** The segments' texts as written, joined by SEPARATOR. */
  text: string;
  /** Where each segment starts in `text`. */
  starts: Int32Array;
  entryIds: string[];
  fields: SearchField[];
  grams: Uint32Array;
}

let foldTable: Uint16Array | undefined;

/**
 * Each UTF-16 unit folded for the trigram filter: whitespace to a space, then upper-cased and
 * lower-cased again (so σ and ς, which a case-insensitive expression equates, fold alike); a unit
 * that would become two stays as it is. Built once (65,536 entries) so that folding a 4 MB text is a
 * table lookup per character, with no folded copy made.
 */
function table(): Uint16Array {
  if (foldTable) return foldTable;
  foldTable = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    const folded = /\s/.test(ch) ? ' ' : ch.toUpperCase().toLowerCase();
    foldTable[c] = folded.length === 1 ? folded.charCodeAt(0) : c;
  }
  return foldTable;
}

/** Lower case with every whitespace a space, the same length as `text` (what the trigram filter sees). */
export function fold(text: string): string {
  const t = table();
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(t[text.charCodeAt(i)]);
  return out;
}

/** A query as it is matched: trimmed, control characters dropped, runs of whitespace one space. */
export function normaliseQuery(query: string): string {
  return query
    .replace(/[\u0000-\u0008\u000e-\u001f]/g, '')
    .trim()
    .replace(/\s+/g, ' ');
}

function gram(a: number, b: number, c: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) >>> (32 - GRAM_BITS);
}

function addGrams(bits: Uint32Array, text: string): void {
  const t = table();
  if (text.length < 3) return;
  let a = t[text.charCodeAt(0)];
  let b = t[text.charCodeAt(1)];
  for (let i = 2; i < text.length; i++) {
    const c = t[text.charCodeAt(i)];
    const g = gram(a, b, c);
    bits[g >>> 5] |= 1 << (g & 31);
    a = b;
    b = c;
  }
}

function queryGrams(query: string): number[] {
  const t = table();
  const grams = new Set<number>();
  for (let i = 2; i < query.length; i++) grams.add(gram(t[query.charCodeAt(i - 2)], t[query.charCodeAt(i - 1)], t[query.charCodeAt(i)]));
  return [...grams];
}

function mayContain(bits: Uint32Array, grams: readonly number[]): boolean {
  for (const g of grams) if ((bits[g >>> 5] & (1 << (g & 31))) === 0) return false;
  return true;
}

/** The phrase as a case-insensitive expression: its spaces match any one whitespace character. */
function phrasePattern(query: string): RegExp {
  const escaped = query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s');
  return new RegExp(escaped, 'gi');
}

/** The segment holding offset `pos` (binary search over the starts). */
function segmentAt(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

/** The match at `pos` with some words around it, inside [start, end). */
export function snippetAt(text: string, start: number, end: number, pos: number, length: number): Snippet {
  const from = Math.max(start, pos - BEFORE_CHARS);
  let before = text.slice(from, pos);
  // Cut to whole words: drop the partial word at a cut edge.
  if (from > start) {
    const space = before.search(/\s/);
    if (space >= 0 && space < before.length - 1) before = before.slice(space + 1);
  }
  const to = Math.min(end, pos + length + AFTER_CHARS);
  let after = text.slice(pos + length, to);
  if (to < end) {
    const space = after.search(/\s\S*$/);
    if (space > 0) after = after.slice(0, space);
  }
  return {
    before: (from > start ? '…' : '') + oneLine(before).trimStart(),
    match: oneLine(text.slice(pos, pos + length)),
    after: oneLine(after).trimEnd() + (to < end ? '…' : ''),
  };
}

export class SearchIndex {
  private readonly docs = new Map<string, SearchDoc>();

  /** (Re)indexes a conversation from its transcript. */
  set(id: string, title: string, transcript: Pick<Transcript, 'entries'> | undefined): void {
    const segments = transcriptSegments(transcript);
    const starts = new Int32Array(segments.length);
    const grams = new Uint32Array(GRAM_WORDS);
    let offset = 0;
    segments.forEach((segment, i) => {
      starts[i] = offset;
      addGrams(grams, segment.text);
      offset += segment.text.length + SEPARATOR.length;
    });
    this.docs.set(id, {
      title,
      text: segments.map((segment) => segment.text).join(SEPARATOR),
      starts,
      entryIds: segments.map((segment) => segment.entryId),
      fields: segments.map((segment) => segment.field),
      grams,
    });
  }

  /** A rename: the title is searched apart from the text, so no re-index is needed. */
  setTitle(id: string, title: string): void {
    const doc = this.docs.get(id);
    if (doc) doc.title = title;
  }

  remove(id: string): void {
    this.docs.delete(id);
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  ids(): string[] {
    return [...this.docs.keys()];
  }

  /** Characters of text indexed, for the bench and diagnostics. */
  get chars(): number {
    let n = 0;
    for (const doc of this.docs.values()) n += doc.text.length;
    return n;
  }

  /**
   * Hits for `query` in the conversations `order` names (newest first, say; default: every indexed
   * one), at most one per entry; a conversation's title hit comes first. Empty below MIN_QUERY_LENGTH.
   */
  search(query: string, order: readonly string[] = this.ids(), options: SearchOptions = {}): SearchHit[] {
    const q = normaliseQuery(query);
    if (q.length < MIN_QUERY_LENGTH) return [];
    const perConversation = options.perConversation ?? 3;
    const limit = options.limit ?? 200;
    const grams = queryGrams(q);
    const pattern = phrasePattern(q);
    const hits: SearchHit[] = [];
    for (const conversationId of order) {
      if (hits.length >= limit) break;
      const doc = this.docs.get(conversationId);
      if (!doc) continue;
      let found = 0;
      pattern.lastIndex = 0;
      const inTitle = pattern.exec(doc.title);
      if (inTitle) {
        hits.push({ conversationId, entryId: '', field: 'title', snippet: snippetAt(doc.title, 0, doc.title.length, inTitle.index, inTitle[0].length) });
        found++;
      }
      if (!mayContain(doc.grams, grams)) continue;
      pattern.lastIndex = 0;
      while (found < perConversation && hits.length < limit) {
        const match = pattern.exec(doc.text);
        if (!match) break;
        const segment = segmentAt(doc.starts, match.index);
        const end = segment + 1 < doc.starts.length ? doc.starts[segment + 1] - SEPARATOR.length : doc.text.length;
        hits.push({
          conversationId,
          entryId: doc.entryIds[segment],
          field: doc.fields[segment],
          snippet: snippetAt(doc.text, doc.starts[segment], end, match.index, match[0].length),
        });
        found++;
        // One hit per segment: go on after it (a tool call's title and paths share one).
        pattern.lastIndex = end + SEPARATOR.length;
      }
    }
    return hits;
  }
}
