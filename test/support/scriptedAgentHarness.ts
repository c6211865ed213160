import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { AgentProcess } from '../../src/acp/agentProcess';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';

const root = path.resolve(__dirname, '../..');
/** The built fixture, as `node scripts/build.mjs` writes it. */
export const SCRIPTED_AGENT_JS = path.join(root, 'out/fixtures/scriptedAgent.js');
const SOURCE = path.join(root, 'test/fixtures/scriptedAgent.ts');

/**
 * Builds the scripted agent when the bundle is missing or older than its source — the same
 * esbuild settings as scripts/build.mjs, but only this entry, so a half-written part of the tree
 * elsewhere cannot break these tests.
 */
export async function ensureScriptedAgentBuilt(): Promise<string> {
  // The entry and its parts folder: an edit to either makes the bundle stale.
  const parts = path.join(path.dirname(SOURCE), 'scriptedAgent');
  const sources = [SOURCE, ...(existsSync(parts) ? readdirSync(parts).map((f) => path.join(parts, f)) : [])];
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (existsSync(SCRIPTED_AGENT_JS) && statSync(SCRIPTED_AGENT_JS).mtimeMs >= newest) return SCRIPTED_AGENT_JS;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['test/fixtures/scriptedAgent.ts'],
    outfile: 'out/fixtures/scriptedAgent.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return SCRIPTED_AGENT_JS;
}

export interface ScriptedRun {
  dir: string;
  scriptPath: string;
  /** File the agent appends every received JSON-RPC line to. */
  receivedPath: string;
  cfg: AgentLaunchConfig;
  /** Messages the agent received so far, parsed. */
  received(): Array<Record<string, unknown>>;
}

const dirs: string[] = [];
const started: AgentProcess[] = [];

/** Writes the script to a fresh temp dir and returns a launch config for it. */
export function prepareScripted(script: AgentScript, env: Record<string, string> = {}): ScriptedRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-scripted-'));
  dirs.push(dir);
  const scriptPath = path.join(dir, 'script.json');
  const receivedPath = path.join(dir, 'received.jsonl');
  writeFileSync(scriptPath, JSON.stringify(script));
  const cfg: AgentLaunchConfig = {
    name: 'scripted',
    command: process.execPath,
    args: [SCRIPTED_AGENT_JS, scriptPath],
    env: { SCRIPTED_AGENT_LOG: receivedPath, ...env },
    cwd: dir,
  };
  const received = (): Array<Record<string, unknown>> => {
    if (!existsSync(receivedPath)) return [];
    return readFileSync(receivedPath, 'utf8')
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  return { dir, scriptPath, receivedPath, cfg, received };
}

/** Starts a process and remembers it so {@link cleanup} can kill it. */
export function startTracked(cfg: AgentLaunchConfig, log = new MemoryProtocolLog()): AgentProcess {
  const proc = AgentProcess.start(cfg, log);
  started.push(proc);
  return proc;
}

/** Kills every process started through this harness and removes temp dirs. */
export async function cleanup(): Promise<void> {
  await Promise.all(started.splice(0).map((p) => p.kill()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** True while a process exists and is not a zombie (containers may not reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Polls until `check` is true or the time is up. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Collects unhandled rejections of a test file so a test can assert there were none. */
export function trackUnhandledRejections(): { list: unknown[] } {
  const list: unknown[] = [];
  process.on('unhandledRejection', (reason) => list.push(reason));
  return { list };
}
