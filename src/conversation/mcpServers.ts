/**
 * MCP servers Tandem hands to agents (`mcpServers` of session/new, load and resume): from the
 * `tandem.mcpServers` setting and, when the user enables it, the workspace's `.vscode/mcp.json` —
 * both in VS Code's `servers` shape (stdio `{command, args, env}`, `{type: "http" | "sse", url,
 * headers}`). Untrusted JSON: a server that cannot be used is dropped with the reason, and so is one
 * of a transport the agent does not support (`mcpCapabilities.http` / `.sse`).
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord, describe } from '../protocol/guards';
import { envVariable, expandVariables } from '../util/settingVariables';
import { urlSecrets } from '../util/secretShapes';

export interface McpServerSpec {
  name: string;
  /** Where it was configured (for messages). */
  source: string;
  server: acp.McpServer;
}

export interface McpDropped {
  name: string;
  reason: string;
}

/** `${workspaceFolder}`, `${env:NAME}`; `${input:…}` needs a prompt Tandem cannot show, so it drops the server. */
export interface McpVariables {
  workspaceFolder: string | undefined;
  env: Record<string, string | undefined>;
}

function resolve(text: string, vars: McpVariables): string {
  return expandVariables(text, (name) => {
    if (name === 'workspaceFolder') return vars.workspaceFolder;
    const variable = envVariable(name);
    return variable === undefined ? undefined : (vars.env[variable] ?? '');
  });
}

function pairs(value: unknown, vars: McpVariables): Array<{ name: string; value: string }> | string {
  if (value === undefined) return [];
  if (!isRecord(value)) return l10n.t('must be an object of strings');
  const out: Array<{ name: string; value: string }> = [];
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') return l10n.t('{0} is not a string', name);
    out.push({ name, value: resolve(v, vars) });
  }
  return out;
}

function needsInput(raw: unknown): boolean {
  return JSON.stringify(raw ?? null).includes('${input:');
}

/** One `servers` object (name → config) as ACP servers, and the ones that could not be used. */
export function parseMcpServers(raw: unknown, source: string, vars: McpVariables): { servers: McpServerSpec[]; dropped: McpDropped[] } {
  const servers: McpServerSpec[] = [];
  const dropped: McpDropped[] = [];
  if (raw === undefined || raw === null) return { servers, dropped };
  if (!isRecord(raw)) return { servers, dropped: [{ name: source, reason: l10n.t('{0} is not an object of servers', source) }] };
  for (const [name, config] of Object.entries(raw)) {
    const drop = (reason: string): void => void dropped.push({ name, reason: l10n.t('{0} (in {1})', reason, source) });
    if (!isRecord(config)) {
      drop(l10n.t('its configuration is not an object (got {0})', describe(config)));
      continue;
    }
    if (needsInput(config)) {
      drop(l10n.t("it needs ${input:…} variables, which only VS Code's own MCP support can ask for"));
      continue;
    }
    const type = config.type ?? (typeof config.command === 'string' ? 'stdio' : undefined);
    if (type === 'stdio') {
      const env = pairs(config.env, vars);
      const args =
        Array.isArray(config.args) && config.args.every((a) => typeof a === 'string')
          ? (config.args as string[]).map((a) => resolve(a, vars))
          : config.args === undefined
            ? []
            : undefined;
      if (typeof config.command !== 'string' || config.command.trim() === '') drop(l10n.t('it has no command'));
      else if (args === undefined) drop(l10n.t('its args are not a list of strings'));
      else if (typeof env === 'string') drop(l10n.t('its env {0}', env));
      else servers.push({ name, source, server: { name, command: resolve(config.command, vars), args, env } });
    } else if (type === 'http' || type === 'sse') {
      const headers = pairs(config.headers, vars);
      const url = typeof config.url === 'string' ? resolve(config.url, vars) : '';
      if (!/^https?:\/\//i.test(url)) drop(l10n.t('its url is not an http(s) URL'));
      else if (typeof headers === 'string') drop(l10n.t('its headers {0}', headers));
      else servers.push({ name, source, server: { type, name, url, headers } as acp.McpServer });
    } else {
      drop(l10n.t('its type {0} is not stdio, http or sse', describe(type)));
    }
  }
  return { servers, dropped };
}

/** The servers this agent can use, by its `mcpCapabilities`; the others with why. Later sources win on names. */
export function serversForAgent(specs: readonly McpServerSpec[], caps: acp.McpCapabilities | undefined): { servers: acp.McpServer[]; dropped: McpDropped[] } {
  const byName = new Map<string, McpServerSpec>();
  for (const spec of specs) byName.set(spec.name, spec);
  const servers: acp.McpServer[] = [];
  const dropped: McpDropped[] = [];
  for (const spec of byName.values()) {
    const type = 'type' in spec.server ? spec.server.type : 'stdio';
    if ((type === 'http' && !caps?.http) || (type === 'sse' && !caps?.sse)) {
      dropped.push({ name: spec.name, reason: l10n.t('the agent does not support {0} MCP servers', type) });
      continue;
    }
    servers.push(spec.server);
  }
  return { servers, dropped };
}

/** Values that must never reach a log: header values, env values and the address's credentials (`?key=…`) of the servers. */
export function mcpSecrets(specs: readonly McpServerSpec[]): string[] {
  const out: string[] = [];
  for (const { server } of specs) {
    const list = 'headers' in server ? server.headers : 'env' in server ? server.env : [];
    for (const pair of list) if (pair.value.length >= 4) out.push(pair.value);
    if ('url' in server) out.push(...urlSecrets(server.url).filter((v) => v.length >= 4));
  }
  return out;
}

/**
 * The configured servers an agent can use; each one it cannot is reported through `note` once per
 * conversation (`noted` remembers which).
 */
export function offerMcpServers(
  config: { mcpServers(): McpServerSpec[]; mcpProblems(): McpDropped[] },
  caps: acp.McpCapabilities | undefined,
  noted: Set<string>,
  note: (name: string, reason: string) => void,
): acp.McpServer[] {
  const { servers, dropped } = serversForAgent(config.mcpServers(), caps);
  for (const { name, reason } of [...dropped, ...config.mcpProblems()]) {
    const key = `${name}\u0000${reason}`;
    if (noted.has(key)) continue;
    noted.add(key);
    note(name, reason);
  }
  return servers;
}
