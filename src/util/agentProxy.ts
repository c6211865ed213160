/**
 * Which proxy variables a spawned agent gets. VS Code's `http.proxy` reaches only the editor's own
 * requests; an agent (Claude Code, Codex, Gemini…) is a separate process that finds its proxy in
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY, so the editor's settings are handed over as those. Pure and
 * vscode-free: the editor adapter reads the settings at each launch (a changed setting applies to the
 * next spawn) and the process, the logs and Check Agent read what this decides.
 *
 * The rules, each the usual one for proxies:
 * - The entry's own `env` wins: a proxy variable it sets (either case) is left as it is.
 * - The editor's `http.proxy` wins over the environment VS Code was started with; it goes into
 *   HTTPS_PROXY and HTTP_PROXY, and into any lower-case twin the environment has (curl and
 *   proxy-from-env read the lower-case one first, so a stale one would win otherwise).
 * - `http.noProxy` becomes NO_PROXY (comma-separated) the same way.
 * - Without a setting, the environment's variables reach the agent as they are (it inherits them).
 * - `http.proxyStrictSSL: false` is NOT turned into NODE_TLS_REJECT_UNAUTHORIZED=0: that would stop
 *   every TLS check of the agent (its model's API included), not just the proxy's, and no other
 *   client does it. A proxy with its own CA wants NODE_EXTRA_CA_CERTS (left untouched); Check Agent
 *   says so, and an entry may still set either variable in its `env`.
 * - An agent reached through `ssh` runs on another machine, where this machine's proxy rarely
 *   means anything (and ssh does not forward variables): nothing is added.
 */
import { proxyForDisplay, withScheme } from './proxyEnv';
import { urlSecrets } from './secretShapes';

/** The editor's proxy settings, as `http.*` holds them. */
export interface EditorProxySettings {
  /** `http.proxy`. */
  proxy?: string;
  /** `http.noProxy`: hosts and domains reached directly. */
  noProxy?: readonly string[];
  /** `http.proxyStrictSSL` (VS Code's default: true). */
  strictSSL?: boolean;
}

/** Where the agent's proxy comes from. */
export type ProxyOrigin = 'entry' | 'setting' | 'environment';

/** What one agent gets. */
export interface AgentProxy {
  /** Variables added to the agent's environment, under the entry's own `env` (which wins). */
  env: Record<string, string>;
  /** The proxy the agent ends up with for https (as it is: mask with `shownProxy` before showing), and from where. */
  url?: string;
  origin?: ProxyOrigin;
  /** The agent's NO_PROXY, when it has one. */
  noProxy?: string;
  /** `http.proxyStrictSSL` is off while a proxy is in use: Tandem does not turn TLS checks off (see above). */
  strictSSLOff?: boolean;
  /** The agent runs on another machine (ssh): nothing was added. */
  elsewhere?: boolean;
  /** The user names and passwords in the proxy addresses the agent gets: masked in every log. */
  secrets: string[];
}

const PROXY_NAMES = ['HTTPS_PROXY', 'HTTP_PROXY'];
const NO_PROXY = 'NO_PROXY';

export interface AgentProxyOptions {
  /** The entry's `env` (plus the sign-in values): what it sets wins. */
  entryEnv: Readonly<Record<string, string>>;
  /** The environment the agent inherits (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The agent is started through ssh: it runs elsewhere. */
  overSsh?: boolean;
}

export function agentProxy(settings: EditorProxySettings, opts: AgentProxyOptions): AgentProxy {
  const inherited = opts.env ?? process.env;
  const entrySets = (name: string): boolean => Object.keys(opts.entryEnv).some((k) => k.toUpperCase() === name);
  const inheritedSecrets = [...PROXY_NAMES.map((n) => lookup(inherited, n)), lookup(opts.entryEnv, 'HTTPS_PROXY'), lookup(opts.entryEnv, 'HTTP_PROXY')]
    .filter((v): v is string => v !== undefined)
    .flatMap(urlSecrets);
  if (opts.overSsh) return { env: {}, elsewhere: true, secrets: [...new Set(inheritedSecrets)] };

  const added: Record<string, string> = {};
  const set = (name: string, value: string): void => {
    added[name] = value;
    // The environment's twins of another case get the same value, so none contradicts it.
    for (const key of Object.keys(inherited)) if (key !== name && key.toUpperCase() === name) added[key] = value;
  };
  const proxy = withScheme(settings.proxy);
  const entryProxy = PROXY_NAMES.some(entrySets);
  if (proxy && !entryProxy) for (const name of PROXY_NAMES) set(name, proxy);
  const noProxy = (settings.noProxy ?? [])
    .map((h) => h.trim())
    .filter(Boolean)
    .join(',');
  if (noProxy && !entrySets(NO_PROXY)) set(NO_PROXY, noProxy);

  // What the agent ends up with: the environment, then what was added, then the entry's own.
  const final = { ...inherited, ...added, ...opts.entryEnv };
  const url = lookup(final, 'HTTPS_PROXY') ?? lookup(final, 'HTTP_PROXY');
  const origin: ProxyOrigin | undefined = url === undefined ? undefined : entryProxy ? 'entry' : proxy ? 'setting' : 'environment';
  const finalNoProxy = lookup(final, NO_PROXY);
  const secrets = [...new Set([...inheritedSecrets, ...(url ? urlSecrets(url) : []), ...(proxy ? urlSecrets(proxy) : [])])];
  return {
    env: added,
    ...(url !== undefined ? { url, origin } : {}),
    ...(finalNoProxy !== undefined ? { noProxy: finalNoProxy } : {}),
    ...(url !== undefined && settings.strictSSL === false ? { strictSSLOff: true } : {}),
    secrets,
  };
}

/** The proxy address for logs and reports: its user shown as `***`, its password dropped. */
export function shownProxy(value: string): string {
  // Not an address: it may be anything, a credential included.
  return proxyForDisplay(value) ?? '***';
}

/** A variable's non-empty value, the lower-case spelling first (as curl and proxy-from-env read it). */
function lookup(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name.toLowerCase()]?.trim() || env[name]?.trim();
  return value || undefined;
}
