/**
 * The remote agent server fixture (test/fixtures/remoteAgentServer.ts) as a real process of its
 * own, in its own process group: a test can kill it (SIGKILL, agents and all, as a machine going
 * down) and start it again on the same port with the same sessions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { ensureScriptedAgentBuilt } from './scriptedAgentHarness';

const root = path.resolve(__dirname, '../..');
export const REMOTE_SERVER_JS = path.join(root, 'out/fixtures/remoteAgentServer.js');
const SOURCE = path.join(root, 'test/fixtures/remoteAgentServer.ts');

/** Builds the server (and the scripted agent it runs) when missing or older than the source. */
export async function ensureRemoteServerBuilt(): Promise<void> {
  await ensureScriptedAgentBuilt();
  if (existsSync(REMOTE_SERVER_JS) && statSync(REMOTE_SERVER_JS).mtimeMs >= statSync(SOURCE).mtimeMs) return;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['test/fixtures/remoteAgentServer.ts'],
    outfile: 'out/fixtures/remoteAgentServer.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['bufferutil', 'utf-8-validate'],
    logLevel: 'warning',
  });
}

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  upgrade: boolean;
  cookie: string | null;
  authorized: boolean;
}

export interface RemoteServerOptions {
  script: AgentScript;
  /** Every request and upgrade needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Record each prompt's arrival and answer at the server (see {@link RemoteServer.timings}). */
  timings?: boolean;
  /** Sessions in memory only (no state file to rewrite per update: the bench). */
  stateless?: boolean;
}

export class RemoteServer {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'tandem-remote-'));
  readonly scriptPath = path.join(this.dir, 'script.json');
  readonly statePath = path.join(this.dir, 'state.json');
  readonly requestLog = path.join(this.dir, 'requests.jsonl');
  /** What the scripted agents received (every connection's agent appends here). */
  readonly agentLog = path.join(this.dir, 'agent.jsonl');
  readonly timingsPath = path.join(this.dir, 'timings.jsonl');
  port = 0;
  private child: ChildProcess | undefined;

  constructor(private readonly opts: RemoteServerOptions) {
    writeFileSync(this.scriptPath, JSON.stringify(opts.script));
  }

  url(kind: 'ws' | 'http'): string {
    return `${kind}://127.0.0.1:${this.port}/acp`;
  }

  /** Starts the server (on its last port after a kill, so clients find it again). */
  async start(): Promise<void> {
    const args = [REMOTE_SERVER_JS, '--script', this.scriptPath, '--port', String(this.port), '--log', this.requestLog];
    if (!this.opts.stateless) args.push('--state', this.statePath);
    if (this.opts.token) args.push('--token', this.opts.token);
    if (this.opts.timings) args.push('--timings', this.timingsPath);
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SCRIPTED_AGENT_LOG: this.agentLog },
    });
    this.child = child;
    this.port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /LISTENING (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the remote agent server exited with ${code} before listening`)));
    });
  }

  /** SIGKILL to the whole group: the server and its agents vanish mid-whatever. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  }

  /** Per prompt: when it reached the server and when the agent's answer left it (wall-clock ms). */
  timings(): Array<{ receivedAt: number; answeredAt: number }> {
    return lines(this.timingsPath) as unknown as Array<{ receivedAt: number; answeredAt: number }>;
  }

  requests(): SeenRequest[] {
    return lines(this.requestLog) as unknown as SeenRequest[];
  }

  /** Messages the agents received, parsed. */
  received(): Array<Record<string, unknown>> {
    return lines(this.agentLog);
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function lines(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
