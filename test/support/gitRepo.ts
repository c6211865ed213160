/** Temp folders and git for tests that need a real repository (checkpoints, worktrees). */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

type T = { after: (fn: () => void) => void };

/** A temp folder (its real path), removed after the test. */
export function tempDir(t: T, prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The identity git commits with in tests (a test machine may have none configured). */
export const GIT_IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** git for a test's own setup and checks; optional locks off so `status` never rewrites the index. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', ...GIT_IDENTITY },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
