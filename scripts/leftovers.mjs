// After `npm test`: is anything the run started still alive? scripts/test.sh puts TANDEM_TEST_RUN=<id>
// into its environment, so every process the run starts carries it (test runners, code-server and
// its extension host, Chromium, agents, the commands they run, Tandem's supervisor). Whatever still
// carries it once a short grace has passed — after a run, only leaks do — is listed, then ended,
// and the exit status says so.
//
// Usage: node scripts/leftovers.mjs <run id> [pid to leave alone...]   (Linux: reads /proc)
import { readdirSync, readFileSync } from 'node:fs';

const [runId, ...keep] = process.argv.slice(2);
if (!runId) {
  console.error('usage: leftovers.mjs <run id> [pid...]');
  process.exit(2);
}
if (process.platform !== 'linux') {
  console.log('leftover check: skipped (needs /proc)');
  process.exit(0);
}
const spared = new Set([process.pid, ...keep.map(Number)]);
const needle = Buffer.from(`\0TANDEM_TEST_RUN=${runId}\0`);

function read(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Live (non-zombie) processes carrying the run's marker, with their command lines. */
function leftovers() {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || spared.has(Number(name))) continue;
    const environ = read(`/proc/${name}/environ`);
    if (!environ || !Buffer.concat([Buffer.from([0]), environ, Buffer.from([0])]).includes(needle)) continue;
    const stat = read(`/proc/${name}/stat`)?.toString() ?? '';
    if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
    const cmdline = (read(`/proc/${name}/cmdline`)?.toString() ?? '').split('\0').filter(Boolean).join(' ');
    found.push({ pid: Number(name), cmdline });
  }
  return found;
}

// Supervisors sweep for up to ~4 s after their host ends, and servers stop with a grace: wait for
// what is on its way out before calling anything a leak.
const deadline = Date.now() + 12_000;
let left = leftovers();
while (left.length > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 250));
  left = leftovers();
}
if (left.length === 0) {
  console.log('leftover check: no process of this run is still running');
  process.exit(0);
}
console.log(`leftover check: ${left.length} process(es) started by this run are still running:`);
for (const p of left) console.log(`  ${p.pid}  ${p.cmdline.slice(0, 300)}`);
for (const p of left) {
  try {
    process.kill(p.pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}
console.log('leftover check: they were ended (SIGKILL); the run counts as failed');
process.exit(1);
