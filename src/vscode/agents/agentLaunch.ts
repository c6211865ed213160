import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { AgentLaunchConfig } from '../../acp/agentProcess';
import type { HostedEntry } from '../../agents/agentEntry';
import { isSsh } from '../../acp/agentProcess';
import { agentProxy } from '../../util/agentProxy';
import type { EditorProxySettings } from '../../util/agentProxy';
import { argSecrets, urlSecrets } from '../../util/secretShapes';
import type { ResolvedAgent } from './agentSettings';

/** The environment variable the bridge reads its configuration from (`--config-env`). */
export const HOSTED_CONFIG_ENV = 'TANDEM_HOSTED_CONFIG';

export interface LaunchContext {
  extensionPath: string;
  /** Tandem's global storage folder: the bridge keeps its conversations under it. */
  storageDir: string;
  /** The agent's working directory (the workspace folder). */
  cwd: string;
  /** Values the user entered through the sign-in card for this agent's destination, by variable name (SecretStorage). */
  secrets: Record<string, string>;
  /** Stored values not handed over: entered for another destination (see AgentLaunchConfig.withheld). */
  withheld?: AgentLaunchConfig['withheld'];
  /** The editor's `http.proxy`, `http.noProxy`, `http.proxyStrictSSL`: handed to every spawned agent (src/util/agentProxy.ts). */
  proxy?: EditorProxySettings;
  /** The environment the agent inherits (default process.env): where an existing HTTPS_PROXY is read. */
  env?: NodeJS.ProcessEnv;
}

/**
 * What the core starts for an agent entry. A command runs as it is; a hosted chat API runs as the
 * bundled bridge agent (dist/hostedAgent.js) with the entry handed over in an environment variable
 * (so headers and body never show in the process list); a remote ACP agent carries its address.
 * The secrets the user entered go into the agent's environment; env values count as secrets in
 * the logs.
 */
export function launchConfigFor(agent: ResolvedAgent, ctx: LaunchContext): AgentLaunchConfig {
  const config = entryLaunch(agent, ctx);
  const secrets = entrySecrets(agent);
  return { ...config, ...(secrets.length > 0 ? { secrets } : {}), ...(ctx.withheld ? { withheld: ctx.withheld } : {}) };
}

function entryLaunch(agent: ResolvedAgent, ctx: LaunchContext): AgentLaunchConfig {
  const { entry } = agent;
  switch (entry.kind) {
    case 'command': {
      const env = { ...entry.env, ...ctx.secrets };
      return {
        name: agent.name,
        command: entry.command,
        args: entry.args,
        env,
        cwd: ctx.cwd,
        // A replay plays a file: it reaches no network, and its sandbox wants nothing it did not ask for.
        ...(entry.sandbox
          ? { sandbox: entry.sandbox }
          : { proxy: agentProxy(ctx.proxy ?? {}, { entryEnv: env, env: ctx.env, overSsh: isSsh(entry.command) }) }),
      };
    }
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
    env: { ELECTRON_RUN_AS_NODE: '1', [HOSTED_CONFIG_ENV]: JSON.stringify(config), ...ctx.secrets },
    cwd: ctx.cwd,
    // The bridge honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (src/util/proxyEnv.ts), like any agent.
    proxy: agentProxy(ctx.proxy ?? {}, { entryEnv: ctx.secrets, env: ctx.env }),
  };
}

/**
 * Values of an agent's configuration that must never reach a log, the inspector, an export or a
 * picker (the one place that says what an entry's secrets are): env values and credential
 * arguments (`env OPENAI_API_KEY=… codex-acp` over ssh) of a command; header values and the
 * address's user, password and credential query values (`?code=…`) of a hosted or remote entry.
 */
export function entrySecrets(agent: ResolvedAgent): string[] {
  const { entry } = agent;
  const values =
    entry.kind === 'command' ? [...Object.values(entry.env), ...argSecrets(entry.args)] : [...Object.values(entry.headers), ...urlSecrets(entry.url)];
  // Values that are `${env:NAME}` templates are resolved by the agent; the template itself is no secret.
  return values.filter((v) => v.length >= 4 && !/^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/.test(v));
}
