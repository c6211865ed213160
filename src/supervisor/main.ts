/**
 * Tandem's process supervisor (bundled to dist/supervisor.js): a tiny process the extension host
 * starts once, in a process group of its own, with a pipe on its stdin. The host writes `+<pid>`
 * for every process group it starts (agents, terminals) and `-<pid>` when one has ended. When the
 * pipe closes — the host deactivated, crashed, was SIGKILLed, or its whole process group was
 * SIGTERMed — the kernel closes the host's end whatever happened, so this process learns it even
 * when no code of the host runs again. It then ends every registered group and every process
 * carrying the host's marker (see sweep.ts), and exits.
 *
 * Usage: node supervisor.js <marker>. Imports only Node built-ins so the bundle stands alone.
 */
import { groupAlive, sweep } from './sweep';

const marker = process.argv[2];
const groups = new Set<number>();
/** Groups that ended are dropped from time to time, so a pid reused much later is never signalled. */
const PRUNE_MS = 10_000;
let sweeping = false;

function onLine(line: string): void {
  const match = /^([+-])(\d+)$/.exec(line.trim());
  if (!match) return;
  const pid = Number(match[2]);
  if (match[1] === '+') groups.add(pid);
  else groups.delete(pid);
}

async function end(): Promise<void> {
  if (sweeping) return;
  sweeping = true;
  clearInterval(pruner);
  await sweep({ groups, marker }).catch(() => []);
  process.exit(0);
}

let partial = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) onLine(line);
});
process.stdin.on('end', () => void end());
process.stdin.on('close', () => void end());
process.stdin.on('error', () => void end());

const pruner = setInterval(() => {
  if (process.platform === 'win32') return;
  for (const pid of groups) if (!groupAlive(pid)) groups.delete(pid);
}, PRUNE_MS);

// A terminal's hangup or Ctrl+C reaches a whole session or group, not this one (it leads its own),
// but the signals are ignored anyway: only the pipe says when the host is gone. A deliberate
// SIGTERM ends the host's processes like a closed pipe does.
process.on('SIGHUP', () => undefined);
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => void end());
