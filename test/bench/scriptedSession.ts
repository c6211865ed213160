/** A real AgentSession driving the scripted agent process (out/fixtures/scriptedAgent.js) in a temp dir. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import { AgentSession } from '../../src/session/agentSession';

export const repoRoot = resolve(__dirname, '../..');
export const scriptedAgentJs = join(repoRoot, 'out', 'fixtures', 'scriptedAgent.js');

export interface ScriptedSession {
  session: AgentSession;
  dir: string;
  scriptPath: string;
  dispose(): void;
}

/** Writes the script, creates the session and starts it (initialize + session/new). */
export async function startScriptedSession(script: unknown): Promise<ScriptedSession> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
  const scriptPath = join(dir, 'script.json');
  writeFileSync(scriptPath, JSON.stringify(script));
  const session = new AgentSession({
    agent: { name: 'Bench Agent', command: process.execPath, args: [scriptedAgentJs, scriptPath], env: {}, cwd: dir },
    log: new MemoryProtocolLog(),
    clientInfo: { name: 'tandem-bench', version: '0' },
    files: new NodeFileAccess(),
    policy: new PathPolicy({ roots: () => [dir], allowOutside: () => false, askOutside: async () => false }),
    follow: () => undefined,
  });
  await session.start();
  if (session.status.kind !== 'ready') {
    session.dispose();
    throw new Error(`The scripted agent did not start: ${JSON.stringify(session.snapshotParts().entries)}`);
  }
  return {
    session,
    dir,
    scriptPath,
    dispose() {
      session.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves when `check` holds, polling every few ms. */
export async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
