import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import type { HostedEntry } from '../agents/agentEntry';
import type { ResolvedAgent } from './agentSettings';

/** The environment variable the bridge reads its configuration from (`--config-env`). */
export const HOSTED_CONFIG_ENV = 'TANDEM_HOSTED_CONFIG';

export interface LaunchContext {
  extensionPath: string;
  /** Tandem's global storage folder: the bridge keeps its conversations under it. */
  storageDir: string;
  /** The agent's working directory (the workspace folder). */
  cwd: string;
  /** Values the user entered through the sign-in card, by variable name (SecretStorage). */
  secrets: Record<string, string>;
  /** The editor's `http.proxy`: the bridge's requests go through it (it wins over HTTPS_PROXY). */
  proxy?: string;
}

/**
 * What the core starts for an agent entry. A command runs as it is; a hosted chat API runs as the
 * bundled bridge agent (dist/hostedAgent.js) with the entry handed over in an environment variable
 * (so headers and body never show in the process list); a remote ACP agent carries its address.
 * The secrets the user entered go into the agent's environment; env values count as secrets in
 * the logs.
 */
export function launchConfigFor(agent: ResolvedAgent, ctx: LaunchContext): AgentLaunchConfig {
  const { entry } = agent;
  switch (entry.kind) {
    case 'command':
      return { name: agent.name, command: entry.command, args: entry.args, env: { ...entry.env, ...ctx.secrets }, cwd: ctx.cwd };
    case 'hosted':
      return hostedLaunch(agent.name, entry, ctx);
    case 'remote':
      return {
        name: agent.name,
        command: '',
        args: [],
        env: { ...ctx.secrets },
        cwd: ctx.cwd,
        remote: { url: entry.url, headers: entry.headers, clientTools: entry.clientTools },
      };
  }
}

function hostedLaunch(name: string, entry: HostedEntry, ctx: LaunchContext): AgentLaunchConfig {
  const config = { url: entry.url, format: entry.format, model: entry.model, body: entry.body ?? {}, headers: entry.headers, stream: entry.stream };
  // One state folder per entry (its name and address): History and session/load find its conversations again.
  const stateDir = path.join(ctx.storageDir, 'hosted', createHash('sha256').update(`${name}\n${entry.url}`).digest('hex').slice(0, 16));
  return {
    name,
    command: process.execPath,
    args: [path.join(ctx.extensionPath, 'dist', 'hostedAgent.js'), '--config-env', HOSTED_CONFIG_ENV, '--state-dir', stateDir],
    // Desktop VS Code's execPath is Electron: this makes it behave as plain Node.
    env: { ELECTRON_RUN_AS_NODE: '1', [HOSTED_CONFIG_ENV]: JSON.stringify(config), ...proxyEnv(ctx.proxy), ...ctx.secrets },
    cwd: ctx.cwd,
  };
}

/** The bridge honours HTTPS_PROXY / HTTP_PROXY (src/util/proxyEnv.ts); the editor's setting is handed over as those. */
function proxyEnv(proxy: string | undefined): Record<string, string> {
  return proxy ? { HTTPS_PROXY: proxy, HTTP_PROXY: proxy } : {};
}

/** Values of an agent's configuration that must never reach a log. */
export function entrySecrets(agent: ResolvedAgent): string[] {
  const { entry } = agent;
  const values = entry.kind === 'command' ? Object.values(entry.env) : Object.values(entry.headers);
  // Values that are `${env:NAME}` templates are resolved by the agent; the template itself is no secret.
  return values.filter((v) => v.length >= 4 && !/^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/.test(v));
}
