/**
 * URL hosts for fetch rules. Hosts are compared after the WHATWG URL parser has normalised them
 * (lower case, punycode, IPv4 forms), so `HTTPS://Example.COM` and `https://example.com` agree and
 * `https://example.com@evil.test/` is judged by its real host, `evil.test`.
 */
import * as l10n from '@vscode/l10n';

/** Host patterns: `example.com`, `*.example.com` (subdomains only), `127.0.0.1` or `[::1]`. */
const IPV6_PATTERN = /^\[[0-9A-Fa-f:.]+\]$/;
/** Characters that would make the URL parser read a different host than the one written. */
const HOST_CHARS = /^[^\s/\\@:?#[\]*%]+$/;

/**
 * The host of an http(s) URL, lower case, without a trailing dot and without the port.
 * Undefined for anything else (other schemes, relative or malformed URLs): such requests never match.
 */
export function hostOfUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.replace(/\.$/, '');
  return host.length > 0 ? host : undefined;
}

/** The host a bare host name stands for after URL normalisation, or undefined when it is not one. */
function normaliseHost(host: string): string | undefined {
  if (IPV6_PATTERN.test(host)) return hostOfUrl(`http://${host}/`);
  if (!HOST_CHARS.test(host)) return undefined;
  return hostOfUrl(`http://${host}/`);
}

/**
 * A host pattern in the form rules compare: `*.` kept, the rest normalised like a URL's host.
 * Undefined when `pattern` is not a host or a `*.`-prefixed host.
 */
export function normaliseHostPattern(pattern: string): string | undefined {
  const wildcard = pattern.startsWith('*.');
  const host = normaliseHost(wildcard ? pattern.slice(2) : pattern);
  if (host === undefined) return undefined;
  // A wildcard over an address or a single label (`*.com`) would cover far more than one site.
  if (wildcard && (host.startsWith('[') || /^[0-9.]+$/.test(host) || !host.includes('.'))) return undefined;
  return wildcard ? `*.${host}` : host;
}

/** Why `pattern` cannot be a URL-host rule, or undefined when it can. */
export function hostPatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return l10n.t('The host is empty.');
  if (pattern.length > 253 + 2) return l10n.t('The host is too long.');
  if (normaliseHostPattern(pattern) === undefined) {
    return l10n.t('Expected a host such as example.com, or *.example.com for its subdomains (no scheme, port or path).');
  }
  return undefined;
}

/**
 * True when `url` is an http(s) URL whose host is `pattern` exactly or, for `*.example.com`, a
 * subdomain of `example.com` at any depth (not `example.com` itself). The port is not compared.
 */
export function urlMatchesHost(pattern: string, url: string): boolean {
  const want = normaliseHostPattern(pattern);
  const host = hostOfUrl(url);
  if (want === undefined || host === undefined) return false;
  if (want.startsWith('*.')) return host.endsWith(want.slice(1)) && host.length > want.length - 1;
  return host === want;
}
