/**
 * Item 4, run in a child `node --expose-gc` so memory figures are this process's alone: a command
 * printing 50 MB through TerminalManager (outputByteLimit 1 MB) and the session's TerminalViews,
 * with host messages gathered and coalesced per 16 ms and serialised as postMessage would.
 * Prints one JSON line: { seconds, mb, peakRssGrowth, peakHeapGrowth, retainedHeapGrowth, ... } (bytes).
 */
import { TerminalManager } from '../../src/client/terminalManager';
import { TerminalViews } from '../../src/thread/terminalViews';
import { BatchedPoster } from '../../src/views/batchedPoster';

const TOTAL = 50 * 1024 * 1024;
const LIMIT = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

// 64 KiB of printable lines, written 800 times with back-pressure.
const PRODUCER = `const line='0123456789abcdefghijklmnopqrstuvwxyz'.repeat(3)+'\\n';const b=Buffer.from(line.repeat(Math.ceil(65536/line.length))).subarray(0,65536);let n=${TOTAL / 65536};const w=()=>{while(n>0){n--;if(!process.stdout.write(b))return process.stdout.once('drain',w);}};w();`;

function memory(): { rss: number; heap: number } {
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
}

/** `full`: manager + TerminalViews + 16 ms batching (the host path); `manager`: TerminalManager alone. */
const mode = process.argv[2] === 'manager' ? 'manager' : 'full';

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const manager = new TerminalManager({ defaultCwd: process.cwd(), baseEnv: process.env });
  const views = new TerminalViews();
  let postedChars = 0;
  const poster = new BatchedPoster((message) => {
    postedChars += JSON.stringify(message).length;
  });
  manager.onDidChange((event) => {
    if (mode === 'manager') return;
    const message = views.apply(event);
    if (!message) return;
    poster.push(message);
  });
  gc();
  gc();
  const base = memory();
  let peak = { ...base };
  const sampler = setInterval(() => {
    const m = memory();
    peak = { rss: Math.max(peak.rss, m.rss), heap: Math.max(peak.heap, m.heap) };
  }, 2);
  const start = performance.now();
  const { terminalId } = await manager.create({ sessionId: 's', command: process.execPath, args: ['-e', PRODUCER], outputByteLimit: LIMIT });
  const exit = await manager.waitForExit({ sessionId: 's', terminalId });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  poster.flush();
  const peakBufferedBytes = manager.get(terminalId)?.peakBufferedBytes ?? -1;
  const viewChars = views.get(terminalId)?.output.length ?? -1;
  // Checked inside a function so the 1 MB output string is garbage before the retained measurement.
  await (async () => {
    const { output, truncated } = await manager.output({ sessionId: 's', terminalId });
    const kept = Buffer.byteLength(output);
    if (exit.exitCode !== 0 || !truncated || kept > LIMIT || kept < LIMIT - 1024) {
      throw new Error(`unexpected terminal result: exit ${exit.exitCode}, truncated ${truncated}, ${kept} bytes kept`);
    }
  })();
  gc();
  gc();
  const after = memory();
  process.stdout.write(
    JSON.stringify({
      seconds,
      mb: TOTAL / (1024 * 1024),
      limit: LIMIT,
      peakRssGrowth: peak.rss - base.rss,
      peakHeapGrowth: peak.heap - base.heap,
      retainedHeapGrowth: after.heap - base.heap,
      retainedRssGrowth: after.rss - base.rss,
      mode,
      peakBufferedBytes,
      viewChars,
      postedChars,
    }) + '\n',
  );
  await manager.disposeAll();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
