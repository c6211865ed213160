/**
 * A real AgentSession over the scripted agent process (out/fixtures/scriptedAgent.js), with plain
 * Node file access and a workspace policy rooted at `dir`: the one way tests build a session.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import type { HostMessage } from '../../src/protocol/messages';
import { AgentSession } from '../../src/session/agentSession';

export const repoRoot = resolve(__dirname, '../..');
export const scriptedAgentJs = join(repoRoot, 'out', 'fixtures', 'scriptedAgent.js');

export interface ScriptedSessionOptions {
  /** Agent name shown in messages. */
  name?: string;
  /** Replaces the node executable (e.g. a missing command). */
  command?: string;
  /** Node options put before the agent script (e.g. --require a preload). */
  nodeArgs?: string[];
  /** Agent env; SCRIPTED_AGENT_LOG is added so `received()` works. */
  env?: Record<string, string>;
  cancelGraceMs?: number;
  /** Keep every emitted message in `messages` (default true; benchmarks turn it off). */
  record?: boolean;
}

export interface ScriptedSession {
  session: AgentSession;
  log: MemoryProtocolLog;
  /** Every host → webview message the session emitted. */
  messages: HostMessage[];
  /** Follow-along reveals, as "path:line". */
  followed: string[];
  scriptPath: string;
  /** Messages the agent process received (its SCRIPTED_AGENT_LOG). */
  received(): Array<Record<string, unknown>>;
}

let counter = 0;

/** Writes `script` into `dir` and creates (does not start) a session running it. */
export function scriptedSession(dir: string, script: unknown, opts: ScriptedSessionOptions = {}): ScriptedSession {
  const n = ++counter;
  const scriptPath = join(dir, `script-${n}.json`);
  const agentLog = join(dir, `agent-${n}.log`);
  writeFileSync(scriptPath, JSON.stringify(script));
  const log = new MemoryProtocolLog();
  const messages: HostMessage[] = [];
  const followed: string[] = [];
  const session = new AgentSession({
    agent: {
      name: opts.name ?? 'Scripted',
      command: opts.command ?? process.execPath,
      args: [...(opts.nodeArgs ?? []), scriptedAgentJs, scriptPath],
      env: { ...opts.env, SCRIPTED_AGENT_LOG: agentLog },
      cwd: dir,
    },
    log,
    clientInfo: { name: 'tandem-test', version: '0' },
    files: new NodeFileAccess(),
    policy: new PathPolicy({ roots: () => [dir], allowOutside: () => false, askOutside: async () => false }),
    follow: (path, line) => followed.push(`${path}:${line ?? ''}`),
    cancelGraceMs: opts.cancelGraceMs,
  });
  if (opts.record !== false) session.onMessage((m) => messages.push(m));
  const received = () =>
    existsSync(agentLog) ? readFileSync(agentLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
  return { session, log, messages, followed, scriptPath, received };
}

/** Resolves when `check` holds, polling every few ms. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
