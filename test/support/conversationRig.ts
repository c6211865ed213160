import { after, afterEach, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureScriptedAgentBuilt } from './scriptedAgentHarness';
import { scriptedSession, type ScriptedSession, type ScriptedSessionOptions } from './scriptedSession';

/** The unit tests' conversations over the scripted agent process, one folder per test file. */
export interface ConversationRig {
  /** The file's temporary folder (set once its `before` ran). */
  readonly dir: string;
  /** A conversation with its own scripted agent; disposed after the test that made it. */
  session(script: unknown, opts?: ScriptedSessionOptions): ScriptedSession;
  /** Has something made elsewhere (a second "VS Code run") disposed after the test too. */
  track(session: ScriptedSession): ScriptedSession;
}

/**
 * The one rig the unit tests start real conversations with (before, each file had its own copy):
 * builds the scripted agent once, makes a temporary folder named `prefix…`, disposes every session
 * after its test and removes the folder after the file; `prepare` writes what the file's tests share into it. Call it at the top of a test file: it
 * registers the node:test hooks.
 */
export function conversationRig(prefix: string, prepare?: (dir: string) => void): ConversationRig {
  let dir: string | undefined;
  const open: ScriptedSession[] = [];
  before(async () => {
    await ensureScriptedAgentBuilt();
    dir = mkdtempSync(join(tmpdir(), prefix));
    prepare?.(dir);
  });
  afterEach(() => {
    for (const r of open.splice(0)) r.session.dispose();
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const rig: ConversationRig = {
    get dir(): string {
      if (dir === undefined) throw new Error('conversationRig: the folder is made in `before`; use it inside a test');
      return dir;
    },
    session: (script, opts = {}) => rig.track(scriptedSession(rig.dir, script, opts)),
    track: (session) => {
      open.push(session);
      return session;
    },
  };
  return rig;
}
