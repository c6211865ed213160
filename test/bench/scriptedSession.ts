/** A started conversation over the scripted agent process in a temp dir, for the benchmarks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedSession, type TestSession } from '../support/scriptedSession';

export { repoRoot, scriptedAgentJs } from '../support/scriptedSession';

export interface ScriptedSession {
  session: TestSession;
  dir: string;
  scriptPath: string;
  dispose(): void;
}

/** Writes the script, creates the session and starts it (initialize + session/new). */
export async function startScriptedSession(script: unknown): Promise<ScriptedSession> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
  const { session, scriptPath } = scriptedSession(dir, script, { name: 'Bench Agent', record: false });
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

/** Resolves when `check` holds, polling every 2 ms (timing matters here, unlike in the tests). */
export async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
