/**
 * Masks secrets in what leaves the machine (exported transcripts, problem reports): the values of
 * the agents' configured env and of MCP servers' env and headers, fields named like credentials,
 * and strings that look like keys or tokens wherever they appear (a file the agent read, a
 * command's output). Works on parsed JSON, so the result is still valid JSON that replays: only
 * string values change.
 */

export const REDACTED = '[REDACTED]';

/** Field names whose value is a credential, whatever it looks like. */
const SECRET_FIELD =
  /^(authorization|proxy-authorization|x-api-key|x-auth-token|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|bearer[-_]?token|token|secret|client[-_]?secret|password|passwd|passphrase|cookie|set-cookie|private[-_]?key|credentials?)$/i;
/** Header names (`{name, value}` items of an MCP server's `headers`) whose value is masked. */
const SECRET_HEADER = /auth|token|key|secret|cookie|session|password|credential/i;

/** Strings that are keys or tokens on their own, by their well-known shapes. */
const TOKEN_PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
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
const SCHEME_TOKEN = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** `API_KEY=…`, `"password": "…"`, `token: …` in text (env files, configs, command output). */
const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:api[-_]?key|apikey|token|secret|password|passwd|credentials?|private[-_]?key)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)((?!\d+\b)[^\s"',;&]{6,})/gi;
/** `https://user:password@host`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi;

export interface Redactor {
  /** Masks secrets in a parsed JSON value (a new value; the input is not changed). */
  value(value: unknown): unknown;
  /** Masks secrets in free text (stderr lines). */
  text(text: string): string;
  /** How many values were masked so far. */
  readonly count: number;
}

/** `secrets`: exact values to mask wherever they appear (env values of the agents' settings). */
export function createRedactor(secrets: readonly string[]): Redactor {
  const exact = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4))].sort((a, b) => b.length - a.length);
  let count = 0;
  const mask = (): string => {
    count++;
    return REDACTED;
  };
  const text = (input: string): string => {
    let out = input;
    for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(mask());
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, mask);
    out = out.replace(SCHEME_TOKEN, (_m, scheme: string) => `${scheme} ${mask()}`);
    out = out.replace(ASSIGNMENT, (m, name: string, sep: string, val: string) => (val === REDACTED ? m : `${name}${sep}${mask()}`));
    out = out.replace(URL_CREDENTIALS, (_m, scheme: string) => `${scheme}${mask()}@`);
    return out;
  };
  const walk = (value: unknown, key: string | undefined, parentKey: string | undefined): unknown => {
    if (typeof value === 'string') return key !== undefined && SECRET_FIELD.test(key) && value !== '' ? mask() : text(value);
    if (typeof value === 'number' && key !== undefined && SECRET_FIELD.test(key)) return mask();
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined, key ?? parentKey));
    if (typeof value !== 'object' || value === null) return value;
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    // `{name, value}` items: MCP servers' env (every value) and headers (credential-like names).
    const pair = typeof obj.name === 'string' && typeof obj.value === 'string';
    const maskPair = pair && (parentKey === 'env' || (parentKey === 'headers' && SECRET_HEADER.test(obj.name as string)));
    // An env object (`{"API_KEY": "…"}`): every value.
    const envObject = key === 'env' && !pair;
    for (const [k, v] of Object.entries(obj)) {
      const masked = (maskPair && k === 'value') || (envObject && typeof v === 'string');
      out[k] = masked && v !== '' ? mask() : walk(v, k, key);
    }
    return out;
  };
  return {
    value: (value) => walk(value, undefined, undefined),
    text,
    get count() {
      return count;
    },
  };
}
