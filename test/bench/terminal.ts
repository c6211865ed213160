/** Item 4: runs terminalWorker.ts in fresh `node --expose-gc` processes and collects its figures. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './scriptedSession';

export interface TerminalRun {
  seconds: number;
  mb: number;
  limit: number;
  peakRssGrowth: number;
  peakHeapGrowth: number;
  retainedHeapGrowth: number;
  retainedRssGrowth: number;
  peakBufferedBytes: number;
  postedChars: number;
}

export async function runTerminal(mode: 'full' | 'manager'): Promise<TerminalRun> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'terminalWorker.ts'), mode], {
    cwd: repoRoot,
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as TerminalRun;
}
