/**
 * The one masker of secrets for everything that leaves the process: the logs and the protocol
 * inspector (exact values only: their lines are JSON that is read back), free text (stderr, errors,
 * report rows, pickers: exact values and the shapes of secretShapes.ts) and parsed JSON (exported
 * transcripts: the text rules on every string, and fields, headers and env named like credentials).
 * Callers keep their own mask (`***` in logs, `[REDACTED]` in exports); the rules are these.
 */
import { ASSIGNMENT, isCredentialName, isCredentialParameter, maskArgs, QUERY_VALUE, SCHEME_TOKEN, TOKEN_PATTERNS, URL_CREDENTIALS } from './secretShapes';

/** Numbers and JSON's literals: masking "true" or "8080" protects nothing and breaks JSON lines. */
const JSON_LITERAL = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/;

export interface MaskOptions {
  /** What a secret becomes (default `***`). */
  mask?: string;
  /**
   * The text is JSON lines (the protocol log): values that are JSON literals or numbers are not
   * masked (default true). Text that is never parsed back (the bridge's stderr) masks them too.
   */
  jsonLines?: boolean;
}

/**
 * Each value as it may appear: as given, JSON-escaped (protocol messages carry quotes and
 * backslashes escaped) and in base64 (`Basic` auth), longest first so a secret containing another
 * is masked whole. Values under 4 characters are no secrets worth shredding the text for.
 */
export function secretForms(values: readonly string[], jsonLines = true): string[] {
  const usable = values.filter((v) => typeof v === 'string' && v.length >= 4 && !(jsonLines && JSON_LITERAL.test(v)));
  const forms = usable.flatMap((v) => [v, JSON.stringify(v).slice(1, -1), Buffer.from(v).toString('base64')]);
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** Masks the exact values only: safe inside JSON text (the mask is plain text in a string). */
export function exactMasker(values: readonly string[], opts: MaskOptions = {}): (text: string) => string {
  return createMasker(values, opts).exact;
}

export interface Masker {
  /** The exact values (safe on JSON text). */
  exact(text: string): string;
  /** Free text: the exact values, key and token shapes, credential assignments, URL credentials. */
  text(text: string): string;
  /** A parsed JSON value (a new value; the input is not changed): {@link text} on every string, plus credential fields. */
  value(value: unknown): unknown;
  /** How many values were masked so far. */
  readonly count: number;
}

/** Field names whose value is a credential, whatever it looks like. */
const SECRET_FIELD =
  /^(authorization|proxy-authorization|x-api-key|x-auth-token|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|bearer[-_]?token|token|secret|client[-_]?secret|password|passwd|passphrase|cookie|set-cookie|private[-_]?key|credentials?)$/i;
/** Header names (`{name, value}` items of an MCP server's `headers`) whose value is masked. */
const SECRET_HEADER = /auth|token|key|secret|cookie|session|password|credential/i;

export function createMasker(values: readonly string[], opts: MaskOptions = {}): Masker {
  const forms = secretForms(values, opts.jsonLines ?? true);
  const maskText = opts.mask ?? '***';
  let count = 0;
  const mask = (): string => {
    count++;
    return maskText;
  };
  const exact = (input: string): string => {
    let out = input;
    for (const secret of forms) if (out.includes(secret)) out = out.split(secret).join(mask());
    return out;
  };
  const text = (input: string): string => {
    let out = exact(input);
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, mask);
    out = out.replace(SCHEME_TOKEN, (_m, scheme: string) => `${scheme} ${mask()}`);
    out = out.replace(ASSIGNMENT, (m, name: string, sep: string, val: string) =>
      val.startsWith(maskText) || !isCredentialName(name) ? m : `${name}${sep}${mask()}`,
    );
    out = out.replace(URL_CREDENTIALS, (_m, scheme: string) => `${scheme}${mask()}@`);
    out = out.replace(QUERY_VALUE, (m, lead: string, name: string, val: string) =>
      val === maskText || !isCredentialParameter(name) ? m : `${lead}${name}=${mask()}`,
    );
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
    exact,
    text,
    value: (value) => walk(value, undefined, undefined),
    get count() {
      return count;
    },
  };
}

/** A JSON value with `f` applied to every string in it (keys stay). */
export function mapStrings(value: unknown, f: (text: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/**
 * A command line as it is shown (the log, pickers, reports): values under a credential's name
 * masked (`env OPENAI_API_KEY=*** codex-acp`, `--token ***`), and the text rules on the rest.
 */
export function shownCommandLine(command: string, args: readonly string[], mask = '***'): string {
  return createMasker([], { mask }).text([command, ...maskArgs(args, mask)].join(' '));
}
