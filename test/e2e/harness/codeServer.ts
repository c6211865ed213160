// Starts and stops code-server (VS Code 1.100.3 in the browser) the way
// ../shared/recipes/E2E-CODE-SERVER.md describes: scratch user-data and extensions dirs, user
// settings without welcome pages or trust prompts, the .vsix installed, its own process group.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { codeServerBin, requireFile } from './paths';
import { spawnGroup, stopGroup } from './processes';

const execFileAsync = promisify(execFile);

/** Settings that remove the trust dialog, welcome pages, telemetry footer and built-in chat. */
export const baseUserSettings: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export interface CodeServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Leader of the server's process group; 0 when attached to a server another process owns. */
  readonly pid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The server's stdout+stderr; extension host logs are under `${userDataDir}/logs`. */
  readonly logFile: string;
  /** Kills the whole process group (no-op for an attached server). */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Port to bind on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Scratch folder for user data, extensions and logs; a new temp folder when omitted. */
  dir?: string;
  /** Merged over baseUserSettings into the user settings.json. */
  userSettings?: Record<string, unknown>;
  /** .vsix files to install before the server starts. */
  vsix?: string[];
  /** Folder to open when the URL carries no `folder`. */
  workspace?: string;
  /** Extra environment for the server and so for the extension host and the agents it spawns. */
  env?: Record<string, string>;
  /**
   * Keep VS Code's workspace trust on (default off: no trust dialog). For tests of restricted mode;
   * `security.workspace.trust.enabled` is then true unless userSettings says otherwise.
   */
  workspaceTrust?: boolean;
}

/** Environment variable through which scripts/test.sh hands one server to every e2e test file. */
export const sharedServerEnv = 'TANDEM_E2E_SERVER';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function serverEnv(dir: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // The test runner's options must not leak into VS Code's node processes or the agents.
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  env.XDG_CONFIG_HOME = join(dir, 'xdg', 'config');
  env.XDG_DATA_HOME = join(dir, 'xdg', 'data');
  env.XDG_CACHE_HOME = join(dir, 'xdg', 'cache');
  return env;
}

export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...baseUserSettings, ...settings }, null, 2));
}

export async function installVsix(server: { userDataDir: string; extensionsDir: string }, vsix: string, env: NodeJS.ProcessEnv): Promise<void> {
  requireFile(vsix, 'run `npm run package`');
  const args = [
    '--config',
    '/dev/null',
    '--user-data-dir',
    server.userDataDir,
    '--extensions-dir',
    server.extensionsDir,
    '--install-extension',
    vsix,
    '--force',
  ];
  const { stdout, stderr } = await execFileAsync(codeServerBin, args, { env, timeout: 120_000 });
  if (!/successfully installed/i.test(stdout + stderr)) throw new Error(`installing ${vsix} failed:\n${stdout}\n${stderr}`);
}

async function waitHealthy(url: string, child: { exitCode: number | null }, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within 60 s; see ${logFile}`);
}

export async function startCodeServer(options: StartOptions = {}): Promise<CodeServer> {
  requireFile(codeServerBin, 'run `bash scripts/setupE2e.sh`');
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tandem-code-server-'));
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  const trust = options.workspaceTrust === true;
  writeUserSettings(userDataDir, { ...(trust ? { 'security.workspace.trust.enabled': true } : {}), ...options.userSettings });
  const env = serverEnv(dir, options.env);
  for (const vsix of options.vsix ?? []) await installVsix({ userDataDir, extensionsDir }, vsix, env);

  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(dir, 'code-server.log');
  const fd = openSync(logFile, 'a');
  const args = [
    '--config',
    '/dev/null',
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(trust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (options.workspace) args.push(options.workspace);
  const child = spawnGroup(codeServerBin, args, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const pid = child.pid ?? 0;
  try {
    await waitHealthy(url, child, logFile);
  } catch (err) {
    await stopGroup(pid);
    throw err;
  }
  return {
    url,
    port,
    pid,
    userDataDir,
    extensionsDir,
    logFile,
    stop: async () => {
      await stopGroup(pid);
      // A folder this function made up is removed; one the caller passed is the caller's.
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The server scripts/test.sh started for the whole e2e run, if any. */
export function attachedCodeServer(): CodeServer | undefined {
  const raw = process.env[sharedServerEnv];
  if (!raw) return undefined;
  const s = JSON.parse(raw) as Omit<CodeServer, 'stop' | 'pid'>;
  return { ...s, pid: 0, stop: async () => {} };
}

export function describeServer(s: CodeServer): string {
  return JSON.stringify({ url: s.url, port: s.port, userDataDir: s.userDataDir, extensionsDir: s.extensionsDir, logFile: s.logFile });
}
