/**
 * Row 13: search inside conversations at the store's limits — 100 kept conversations whose
 * transcripts are each at the 4 MB cap (prompts, markdown replies with code, tool calls with diffs,
 * raw input and output, terminal output), written by the real ConversationStore. Measured: building
 * the index from disk (what the first search of a window pays), a query for a word said once, a query
 * for a common phrase (capped at 200 hits), and the next search after one conversation was saved.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry, TerminalView } from '../../src/protocol/messages';
import { ConversationStore } from '../../src/store/conversationStore';
import { ConversationSearch } from '../../src/store/conversationSearch';
import type { Transcript } from '../../src/store/conversationFormat';
import { formatTable, row, type Row } from './stats';

const CONVERSATIONS = 100;
const TARGET_BYTES = 4 * 1024 * 1024;
/** Said once, in one reply of one conversation. */
const RARE = 'Quetzalcoatlus';
const COMMON = 'the parser';

let seed = 12345;
const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
const WORDS =
  'the a of to and in is it for on with as that this be by are from or at an not parser token render update value state error file function module test build config request response stream buffer index query cache thread panel agent session prompt reply tool diff terminal output input path line word text'.split(
    ' ',
  );
/** Identifiers make the vocabulary as varied as real code and prose (and the trigram filter's job as hard). */
const word = (): string => (rand(6) === 0 ? `${WORDS[rand(WORDS.length)]}${rand(5000)}` : WORDS[rand(WORDS.length)]);
const sentence = (n: number): string => Array.from({ length: n }, word).join(' ') + '.';
const paragraph = (): string => Array.from({ length: 3 + rand(4) }, () => sentence(8 + rand(10))).join(' ');
const code = (): string => Array.from({ length: 6 + rand(10) }, () => `  const ${word()} = ${word()}(${word()}, ${rand(100)});`).join('\n');

function reply(rare: boolean): string {
  const parts = [paragraph(), '```ts', code(), '```', paragraph(), `- ${sentence(6)}\n- ${sentence(7)}`];
  if (rare) parts.splice(2, 0, `The answer is a ${RARE}, and ${COMMON} agrees.`);
  return parts.join('\n\n');
}

function toolCall(id: string, terminals: Record<string, TerminalView>): Entry {
  const path = `/ws/src/${word()}/${word()}${rand(100)}.ts`;
  const lines = Array.from({ length: 20 }, () => ({ kind: rand(3) === 0 ? ('add' as const) : ('context' as const), text: `  ${sentence(6)}` }));
  const terminalId = `term-${id}`;
  terminals[terminalId] = { terminalId, command: 'npm test', output: Array.from({ length: 40 }, () => sentence(10)).join('\n'), truncated: false };
  return {
    kind: 'tool_call',
    id,
    toolCallId: id,
    title: `Edit ${path.slice(4)}`,
    toolKind: 'edit',
    status: 'completed',
    locations: [{ path, shown: path.slice(4), inWorkspace: true }],
    content: [
      {
        type: 'diff',
        path,
        diffId: 1,
        isNew: false,
        added: 7,
        removed: 0,
        hunks: [{ oldStart: 1, oldLines: 13, newStart: 1, newLines: 20, row: 0, lines, more: 0, collapsedBefore: 0 }],
        collapsedAfter: 0,
      },
      { type: 'terminal', terminalId },
    ],
    rawInput: JSON.stringify({ file_path: path, old_string: sentence(30), new_string: sentence(40) }, null, 2),
  };
}

/** One conversation's transcript, grown turn by turn to just under the cap (the store trims any excess). */
function conversation(n: number): Transcript {
  const entries: Entry[] = [];
  const terminals: Record<string, TerminalView> = {};
  let bytes = 0;
  for (let turn = 0; bytes < TARGET_BYTES * 0.97; turn++) {
    const before = entries.length;
    entries.push({ kind: 'user', id: `u${turn}`, text: sentence(12 + rand(20)) });
    entries.push({ kind: 'agent', id: `a${turn}`, text: reply(n === 37 && turn === 5) });
    entries.push(toolCall(`t${turn}`, terminals));
    entries.push({ kind: 'agent', id: `b${turn}`, text: reply(false) });
    entries.push({ kind: 'turn_end', id: `e${turn}`, stopReason: 'end_turn' });
    for (const entry of entries.slice(before)) bytes += JSON.stringify(entry).length;
    bytes += JSON.stringify(terminals[`term-t${turn}`]).length;
  }
  return { version: 1, entries, terminals };
}

export interface SearchBench {
  buildMs: number[];
  rareMs: number[];
  commonMs: number[];
  afterSaveMs: number[];
  rareHits: number;
  commonHits: number;
  storedMb: number;
  textMb: number;
  heapMb: number;
}

export async function runSearchBench(runs: number, log: (text: string) => void): Promise<SearchBench> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-search-'));
  const store = new ConversationStore({ dir, warn: (text) => log(`store: ${text}`) });
  try {
    log(`search: writing ${CONVERSATIONS} transcripts of ~4 MB…`);
    const list: Array<{ id: string; title: string }> = [];
    let stored = 0;
    for (let n = 0; n < CONVERSATIONS; n++) {
      const id = `conv-${n}`;
      await store.saveTranscript(id, conversation(n));
      stored += statSync(join(dir, 'transcripts', `${id}.json`)).size;
      list.push({ id, title: `Conversation ${n}` });
    }
    const out: SearchBench = {
      buildMs: [],
      rareMs: [],
      commonMs: [],
      afterSaveMs: [],
      rareHits: 0,
      commonHits: 0,
      storedMb: stored / 2 ** 20,
      textMb: 0,
      heapMb: 0,
    };
    for (let r = 0; r < runs; r++) {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      const search = new ConversationSearch({ load: (id) => store.loadTranscript(id), pause: () => Promise.resolve() });
      let t = performance.now();
      await search.prepare(list);
      out.buildMs.push(performance.now() - t);
      gc?.();
      out.heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      out.textMb = search.stats().chars / 2 ** 20;
      for (let q = 0; q < 5; q++) {
        t = performance.now();
        out.rareHits = (await search.search(list, RARE.toLowerCase())).length;
        out.rareMs.push(performance.now() - t);
        t = performance.now();
        out.commonHits = (await search.search(list, COMMON)).length;
        out.commonMs.push(performance.now() - t);
      }
      // A save marks one conversation stale: the next search reads and indexes it again.
      search.saved('conv-0');
      t = performance.now();
      await search.search(list, RARE);
      out.afterSaveMs.push(performance.now() - t);
      search.dispose();
      log(`search: run ${r + 1}/${runs}: build ${out.buildMs.at(-1)!.toFixed(0)} ms`);
    }
    return out;
  } finally {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function searchRows(runs: number, log: (text: string) => void): Promise<Row[]> {
  const b = await runSearchBench(runs, log);
  const size = `${CONVERSATIONS} conversations, ${b.storedMb.toFixed(0)} MB of transcripts on disk, ${b.textMb.toFixed(0)} MB of searchable text`;
  return [
    row(
      '13. Search: index built from the store (first search)',
      b.buildMs,
      'ms',
      { kind: 'max', value: 15000 },
      `${size}; read, parsed and indexed one conversation at a time (the event loop runs between them). Index heap ≈ ${b.heapMb.toFixed(0)} MB (text kept as written and folded, 16 KB of trigrams each); let go after 5 min without a search.`,
    ),
    row(
      '13b. Search: query for a word said once',
      b.rareMs,
      'ms',
      { kind: 'max', value: 50 },
      `${b.rareHits} hit(s); conversations whose trigrams lack the word are skipped without a scan.`,
    ),
    row(
      '13c. Search: query for a common phrase',
      b.commonMs,
      'ms',
      { kind: 'max', value: 50 },
      `${b.commonHits} hits (3 per conversation, 200 at most), snippets included.`,
    ),
    row(
      '13d. Search: next search after one conversation was saved',
      b.afterSaveMs,
      'ms',
      { kind: 'max', value: 300 },
      'the saved 4 MB transcript read and indexed again, then the query.',
    ),
  ];
}

if (process.argv[1]?.endsWith('search.ts')) {
  const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
  searchRows(Number(process.env.RUNS ?? 3), log).then(
    (rows) => console.log(formatTable(rows)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
