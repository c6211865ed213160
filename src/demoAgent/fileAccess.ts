/**
 * File access for the demo: through the client's `fs/*` methods when the client advertises them
 * (so the editor sees unsaved content and the change lands as an edit), else straight on disk like
 * agents that edit files themselves. Paths stay inside the session's cwd.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import type { Turn } from './turn';

/** The folder the demo owns inside the workspace. */
export const DEMO_DIR = 'tandem-demo';

export function demoPath(turn: Turn, name: string): string {
  return join(turn.cwd, DEMO_DIR, name);
}

export function displayPath(turn: Turn, path: string): string {
  return relative(turn.cwd, path) || path;
}

/** Reads a text file; `undefined` when it does not exist. */
export async function readText(turn: Turn, path: string, line?: number, limit?: number): Promise<{ text: string | undefined; via: 'client' | 'disk' }> {
  if (turn.caps.fs?.readTextFile) {
    try {
      const res = await turn.race(
        turn.client.request(
          methods.client.fs.readTextFile,
          { sessionId: turn.session.id, path, line: line ?? null, limit: limit ?? null },
          { cancellationSignal: turn.cancellationSignal },
        ),
      );
      // Clients may answer a missing file with "" (Tandem and Zed do, so agents can create files):
      // the disk tells whether the file exists.
      if (res.content === '' && !existsSync(path)) return { text: undefined, via: 'client' };
      return { text: res.content, via: 'client' };
    } catch (err) {
      turn.check();
      // A missing file is an error by design in many clients; the disk tells whether it exists.
      if (!existsSync(path)) return { text: undefined, via: 'client' };
      throw err;
    }
  }
  if (!existsSync(path)) return { text: undefined, via: 'disk' };
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  return { text: lines.slice(start, limit === undefined ? undefined : start + limit).join('\n'), via: 'disk' };
}

export async function writeText(turn: Turn, path: string, content: string): Promise<'client' | 'disk'> {
  if (turn.caps.fs?.writeTextFile) {
    await turn.race(
      turn.client.request(methods.client.fs.writeTextFile, { sessionId: turn.session.id, path, content }, { cancellationSignal: turn.cancellationSignal }),
    );
    return 'client';
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return 'disk';
}

/** A small, real sample of the workspace: files (not folders) at the top level, sorted, at most `max`. */
export function workspaceFiles(turn: Turn, max: number): string[] {
  try {
    return readdirSync(turn.cwd)
      .filter((name) => !name.startsWith('.'))
      .map((name) => resolve(turn.cwd, name))
      .filter((p) => {
        try {
          return statSync(p).isFile();
        } catch {
          return false;
        }
      })
      .sort()
      .slice(0, max);
  } catch {
    return [];
  }
}

/** The file the read step shows: a README or package.json when there is one, else any file. */
export function pickReadTarget(turn: Turn): string | undefined {
  for (const name of ['README.md', 'readme.md', 'package.json']) {
    const p = join(turn.cwd, name);
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return workspaceFiles(turn, 1)[0];
}
