/**
 * Which proxy a request should go through, from an explicit setting or the usual environment
 * variables (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, either case). Pure and Node-only, so both the
 * extension (registry downloads) and the bundled hosted-agent bridge use the same rules.
 */

/** Where the proxy comes from: an editor setting (wins) and the environment. */
export interface ProxySource {
  /** Proxy URL from the editor (`http.proxy`); wins over the environment when set. */
  proxy?: string;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** The proxy to use for `url`, or undefined for a direct connection. */
export function proxyFor(url: string, opts: ProxySource = {}): string | undefined {
  const env = opts.env ?? process.env;
  const target = new URL(url);
  if (bypassesProxy(target, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  const fromEnv = target.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return withScheme(opts.proxy) ?? withScheme(fromEnv);
}

/** A proxy address, trimmed, with `http://` when it has no scheme (`host:port`, common in settings and variables, means http); undefined when blank. */
export function withScheme(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/** NO_PROXY: `*`, or hosts / domain suffixes (`.corp`, `*.corp`, `corp`), optionally with `:port`. */
function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const [, name = '', entryPort] = /^(.+?)(?::(\d+))?$/.exec(entry) ?? [];
    if (entryPort && entryPort !== port) continue;
    const domain = name.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** A proxy URL without its credentials, for messages; undefined when it does not parse. */
export function proxyForDisplay(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '';
    }
    return url.toString().replace(/\/$/, '');
  } catch {
    return undefined;
  }
}
