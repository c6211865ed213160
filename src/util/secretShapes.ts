/**
 * What a secret looks like where no one said it is one: names that mean a credential (`API_KEY`,
 * `--token`), key and token shapes, the credentials of an address. The rules the masker
 * (secretMask.ts) applies to free text, and what a command line or an address is shown as.
 */

/** Words that make a name a credential's wherever they are in it (`OPENAI_API_KEY`, `ghToken`). */
const CREDENTIAL_WORD = /api[-_]?key|apikey|token|secret|password|passwd|credentials?|private[-_]?key/i;
/** Parts of a name (split at `_`, `-`, `.` and camelCase) that make it a credential's on their own. */
const CREDENTIAL_PART = new Set(['key', 'auth', 'pass', 'pwd', 'pat', 'sig', 'signature']);
/** Query parameters that carry a credential besides the names above (`?code=` of Azure Functions, `?sig=`). */
const QUERY_CREDENTIAL = new Set(['code', 'sig', 'signature', 'key', 'auth', 'jwt', 'sas', 'hmac']);

/** True when a variable, flag, field or parameter of this name holds a credential. */
export function isCredentialName(name: string): boolean {
  if (CREDENTIAL_WORD.test(name)) return true;
  return name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).some((part) => CREDENTIAL_PART.has(part.toLowerCase()));
}

/**
 * The per-session bearer token of Tandem's own MCP server (src/mcp/loopbackHttp.ts). JSON-safe
 * characters only, so it is masked even in wire lines, which otherwise lose only exact values.
 */
export const TANDEM_MCP_TOKEN = /\btandem_mcp_[A-Za-z0-9_-]{20,}/g;

/** Strings that are keys or tokens on their own, by their well-known shapes. */
export const TOKEN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  TANDEM_MCP_TOKEN,
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
/** `Authorization: Bearer …` and the like, in text. */
export const SCHEME_TOKEN = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * `API_KEY=…`, `"password": "…"`, `token: …` in text (env files, configs, command output, args):
 * a name with a credential word in it, then the value (6+ characters, not a plain number). The
 * name is checked again with {@link isCredentialName} (`monkey=…` is not one).
 */
export const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:api[-_]?key|apikey|token|secret|password|passwd|credentials?|private[-_]?key|key|auth|pass|pwd|pat|sig)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)((?!\d+\b)[^\s"',;&]{6,})/gi;
/** `https://user:password@host`. */
export const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi;
/** A query parameter in text (`?code=…`, `&sig=…`). */
export const QUERY_VALUE = /([?&])([A-Za-z0-9_.-]+)=([^&\s"'#<>]+)/g;

/** True when a query parameter of this name carries a credential. */
export function isCredentialParameter(name: string): boolean {
  return QUERY_CREDENTIAL.has(name.toLowerCase()) || isCredentialName(name);
}

/** Random-looking enough to be a key even under an innocent name (`?x=AzFnKey0123…`). */
function looksRandom(value: string): boolean {
  return value.length >= 20 || (value.length >= 10 && /\d/.test(value) && /[A-Za-z]/.test(value));
}

/**
 * The credentials an address carries: its user name and password, and the query values that are
 * credentials by their parameter's name or their look (`?token=…`, `?code=…`), raw and encoded, with
 * the whole query when it holds one. Innocent values (`?format=json`) are not: masking "json"
 * editor-wide would shred every log line.
 */
export function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    const found: string[] = [];
    for (const [name, value] of parsed.searchParams) {
      if (value === '' || !(isCredentialParameter(name) || looksRandom(value))) continue;
      found.push(value, encodeURIComponent(value));
    }
    if (found.length > 0) found.push(parsed.search.slice(1));
    if (parsed.username) found.push(parsed.username, decodeURIComponent(parsed.username));
    if (parsed.password) found.push(parsed.password, decodeURIComponent(parsed.password));
    return [...new Set(found.filter((v) => v !== ''))];
  } catch {
    return [];
  }
}

/**
 * The address for logs, messages, pickers and reports: no user name or password, each query value
 * shown as `***` (tokens often ride there), no fragment. The parameter names stay: they say what is sent.
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const names = [...new Set(parsed.searchParams.keys())];
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    const query = names.map((name) => `${encodeURIComponent(name)}=***`).join('&');
    return query ? `${parsed.toString()}?${query}` : parsed.toString();
  } catch {
    return url;
  }
}

/** `--token`, `-api-key`: a flag whose next argument is a credential. */
const CREDENTIAL_FLAG = /^--?([A-Za-z][A-Za-z0-9_.-]*)$/;

/** The secret parts of command-line arguments, each with where it is (argument, start, end). */
function argSecretSpans(args: readonly string[]): Array<{ arg: number; start: number; end: number }> {
  const spans: Array<{ arg: number; start: number; end: number }> = [];
  args.forEach((arg, i) => {
    const previous = i > 0 ? CREDENTIAL_FLAG.exec(args[i - 1]) : null;
    if (previous && isCredentialName(previous[1]) && !arg.startsWith('-') && !/^\d+$/.test(arg) && arg !== '') {
      spans.push({ arg: i, start: 0, end: arg.length });
      return;
    }
    for (const m of arg.matchAll(ASSIGNMENT)) {
      if (!isCredentialName(m[1])) continue;
      const start = (m.index ?? 0) + m[1].length + m[2].length;
      spans.push({ arg: i, start, end: start + m[3].length });
    }
  });
  return spans;
}

/**
 * Values given on a command line under a credential's name: `env OPENAI_API_KEY=… codex-acp` (an ssh
 * tunnel's only way to pass the remote agent its variables), `--api-key …`, `--token=…`.
 */
export function argSecrets(args: readonly string[]): string[] {
  return argSecretSpans(args).map((s) => args[s.arg].slice(s.start, s.end));
}

/** The arguments with the values {@link argSecrets} finds replaced by `mask`. */
export function maskArgs(args: readonly string[], mask = '***'): string[] {
  const out = [...args];
  // From the end of each argument, so earlier offsets stay right.
  for (const s of argSecretSpans(args).reverse()) out[s.arg] = out[s.arg].slice(0, s.start) + mask + out[s.arg].slice(s.end);
  return out;
}
