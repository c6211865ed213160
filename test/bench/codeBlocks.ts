/**
 * Row 13: what highlighting costs while a reply streams. In the real panel (Chromium), one agent
 * message grows by 600 chunks, one chunk per frame, three ways: prose, a code block in a language
 * the highlighter does not know (plain code: the block's bar, no highlighting), and a TypeScript
 * block (highlighted as it grows). Per chunk the panel's render work is timed inside the frame:
 * from an animation-frame callback queued before the panel's own to one queued after it, which
 * also forces style and layout, so the figure is the panel's JS plus layout for that chunk, not the
 * frame's idle time. Runs standalone too: `node --import tsx test/bench/codeBlocks.ts`.
 */
import type { Harness, Panel } from '../webview/harness/harness';
import { launchHarness } from '../webview/harness/harness';
import { agent, running, snapshot } from '../webview/harness/fixtures';
import { formatTable, median, row, type Row } from './stats';

const LINES = 300;

type Kind = 'prose' | 'plain' | 'ts';

function chunks(kind: Kind): string[] {
  const out: string[] = [kind === 'prose' ? 'Some prose first.\n\n' : `Some code first.\n\n\`\`\`${kind === 'plain' ? 'brainfuck' : 'ts'}\n`];
  for (let i = 0; i < LINES; i++) {
    const line =
      kind === 'prose' ? `word${i} and more words here, then a few more words. ` : `  const value${i}: number = compute(${i}, "s${i}"); // note ${i}\n`;
    out.push(line.slice(0, 20), line.slice(20));
  }
  return out;
}

/** The panel's work (ms) for each chunk posted, one chunk per frame. */
async function perChunk(panel: Panel, pieces: string[]): Promise<number[]> {
  // A string, not a function: the runner's transpiler would wrap named functions in helpers the page lacks.
  return (await panel.page.evaluate(`(async (pieces) => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const task = () => new Promise((r) => setTimeout(r, 0));
    const times = [];
    for (const text of pieces) {
      await frame();
      let start = 0;
      requestAnimationFrame(() => { start = performance.now(); });
      window.postMessage({ type: 'textAppended', id: 'm1', text }, '*');
      await task();
      const end = await new Promise((r) => requestAnimationFrame(() => { void document.body.offsetHeight; r(performance.now()); }));
      times.push(end - start);
    }
    return times;
  })(${JSON.stringify(pieces)})`)) as number[];
}

export interface CodeBlockRun {
  prose: number;
  plain: number;
  ts: number;
}

export async function runCodeBlocks(harness: Harness): Promise<CodeBlockRun> {
  const result: Partial<CodeBlockRun> = {};
  for (const kind of ['prose', 'plain', 'ts'] as const) {
    const panel = await harness.open();
    try {
      // A highlighted block first: the highlighter's bundle is loaded before anything is timed.
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [agent('warm', '```ts\nconst a = 1;\n```\n'), agent('m1', '')] }) });
      await panel.page.waitForFunction(() => document.querySelector('.hljs-keyword') !== null);
      const times = await perChunk(panel, chunks(kind));
      result[kind] = median(times);
    } finally {
      await panel.page.close();
    }
  }
  return result as CodeBlockRun;
}

export function codeBlockRows(runs: CodeBlockRun[]): Row[] {
  return [
    row(
      '14. Streaming a TypeScript block: panel work per chunk',
      runs.map((r) => r.ts),
      'ms',
      { kind: 'max', value: 8 },
      `target: half a 60 Hz frame. Median over ${LINES * 2} chunks (one per frame) of the render work inside the frame, JS + forced layout. Same text as prose: ${median(runs.map((r) => r.prose)).toFixed(2)} ms; ` +
        `as a block in a language without highlighting: ${median(runs.map((r) => r.plain)).toFixed(2)} ms.`,
    ),
    row(
      '14b. Highlighting cost while streaming: TypeScript block / prose',
      runs.map((r) => r.ts / r.prose),
      '×',
      { kind: 'max', value: 2 },
      'per-chunk panel work of the highlighted block divided by the same text streamed as prose (each run its own pair).',
    ),
  ];
}

if (require.main === module) {
  void (async () => {
    const harness = await launchHarness();
    const runs: CodeBlockRun[] = [];
    try {
      for (let i = 0; i < 3; i++) runs.push(await runCodeBlocks(harness));
    } finally {
      await harness.close();
    }
    console.log(formatTable(codeBlockRows(runs)));
    process.exit(0);
  })();
}
