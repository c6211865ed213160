/**
 * Secrets never leave the bridge in text: the API key and every header value that came from the
 * environment are registered here, and every stderr line and every error sent to the client goes
 * through `redact` (a server that echoes the key in an error body cannot leak it either).
 * stderr is the agent's log in Tandem (and in most ACP clients).
 */

const secrets = new Set<string>();
const MASK = '***';

/** Registers a value that must never be printed (values under 4 characters would mask too much). */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
  // `Bearer <key>` is masked whole by the key itself; base64 of `user:key` (Basic auth) too.
  if (value && value.length >= 4) secrets.add(Buffer.from(value).toString('base64'));
}

export function redact(text: string): string {
  let out = text;
  // Longest first, so a secret containing another is masked whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(MASK);
  return out;
}

/** A JSON value with every string redacted (error data sent to the client). */
export function redactDeep(value: unknown): unknown {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
}

/** One line on stderr, redacted. */
export function log(text: string): void {
  process.stderr.write(`[hosted-agent] ${redact(text)}\n`);
}

export function warn(text: string): void {
  log(`warning: ${text}`);
}
