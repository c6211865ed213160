import * as l10n from '@vscode/l10n';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveCommand } from '../acp/commandResolver';

/**
 * Which runtimes an agent's command needs (Node for npx, uv for uvx, Python, …) and whether they
 * are there, with their versions: "npx: command not found" is the most common reason an agent
 * installed from the registry does not start, and the fix is to install the runtime, not the agent.
 */

export interface RuntimeCheck {
  /** "Node.js", "npx", "uv", "Python". */
  name: string;
  /** The executable looked up on PATH. */
  command: string;
  /** False for runtimes that help but are not needed (Python for uvx: uv can fetch one). */
  required: boolean;
  path?: string;
  /** First line of `--version`. */
  version?: string;
  problem?: string;
  /** Where to get it. */
  hint: string;
}

interface RuntimeSpec {
  name: string;
  commands: string[];
  required: boolean;
  hint: string;
}

// Functions, not constants: the hints are read in the display language when a check runs.
const NODE = (): RuntimeSpec => ({
  name: 'Node.js',
  commands: ['node'],
  required: true,
  hint: l10n.t('Install Node.js 20 or newer from https://nodejs.org (it brings npm and npx).'),
});
const UV = (): RuntimeSpec => ({
  name: 'uv',
  commands: ['uv'],
  required: true,
  hint: l10n.t('Install uv: https://docs.astral.sh/uv/getting-started/installation/ (it brings uvx).'),
});
const VERSION_TIMEOUT_MS = 15_000;

function python(required: boolean): RuntimeSpec {
  const hint = required
    ? l10n.t('Install Python 3 from https://www.python.org/downloads/.')
    : l10n.t('Optional: uv downloads a Python itself when none is found.');
  return { name: 'Python', commands: process.platform === 'win32' ? ['python', 'py'] : ['python3', 'python'], required, hint };
}

function runner(name: string): RuntimeSpec {
  return { name, commands: [name], required: true, hint: name === 'npx' ? NODE().hint : UV().hint };
}

/** The runtimes `command` depends on, from its name or, for scripts, their `#!` line. */
export function runtimesFor(command: string, resolved: string | undefined): RuntimeSpec[] {
  // win32's basename splits on both separators, so Windows paths work on any host.
  const base = path.win32
    .basename(command)
    .toLowerCase()
    .replace(/\.(cmd|exe|bat|ps1)$/, '');
  switch (base) {
    case 'npx':
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return [NODE(), runner(base)];
    case 'node':
      return [NODE()];
    case 'uvx':
    case 'uv':
      return [UV(), python(false)];
    case 'python':
    case 'python3':
    case 'py':
      return [python(true)];
    case 'bun':
    case 'bunx':
      return [{ name: 'Bun', commands: ['bun'], required: true, hint: l10n.t('Install Bun from https://bun.sh.') }];
  }
  const shebang = resolved ? readShebang(resolved) : '';
  if (/\bnode\b/.test(shebang)) return [NODE()];
  if (/\bpython3?\b/.test(shebang)) return [python(true)];
  return [];
}

/** Looks each runtime up on the agent's PATH and asks its version. Never throws. */
export async function checkRuntimes(command: string, resolved: string | undefined, env: NodeJS.ProcessEnv): Promise<RuntimeCheck[]> {
  // The built-in demo runs on the editor's own runtime: nothing to look up.
  if (resolved === process.execPath || command === process.execPath) {
    return [
      { name: l10n.t('Node.js (the editor’s own)'), command: process.execPath, required: true, path: process.execPath, version: process.version, hint: '' },
    ];
  }
  return Promise.all(runtimesFor(command, resolved).map((spec) => checkOne(spec, env)));
}

async function checkOne(spec: RuntimeSpec, env: NodeJS.ProcessEnv): Promise<RuntimeCheck> {
  for (const command of spec.commands) {
    const found = resolveCommand(command, env);
    if (!found) continue;
    const check: RuntimeCheck = { name: spec.name, command, required: spec.required, path: found, hint: spec.hint };
    try {
      check.version = await versionOf(found, env);
    } catch (err) {
      check.problem = l10n.t('`{0} --version` failed: {1}', command, (err as Error).message.split('\n')[0]);
    }
    return check;
  }
  return { name: spec.name, command: spec.commands[0], required: spec.required, problem: l10n.t('not found on PATH'), hint: spec.hint };
}

function versionOf(file: string, env: NodeJS.ProcessEnv): Promise<string> {
  // npm's Windows shims are .cmd files, which only run through a shell; the arguments are fixed here.
  const shell = process.platform === 'win32' && /\.(cmd|bat)$/i.test(file);
  return new Promise((resolve, reject) => {
    execFile(shell ? `"${file}"` : file, ['--version'], { env, timeout: VERSION_TIMEOUT_MS, windowsHide: true, shell }, (err, stdout, stderr) => {
      if (err) return reject(err);
      resolve((`${stdout}`.trim() || `${stderr}`.trim()).split(/\r?\n/)[0] ?? '');
    });
  });
}

function readShebang(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(128);
      const n = fs.readSync(fd, head, 0, 128, 0);
      const line = head.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
      return line.startsWith('#!') ? line : '';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
