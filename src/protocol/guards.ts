/**
 * The runtime guards every layer needs. They live beside the protocol because it is the one
 * place both the host and the webview may import from (the webview project sees only src/protocol),
 * so there is exactly one copy of each.
 */

/** A plain JSON-style object: not null and not an array, so its fields can be read safely. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Exhaustiveness guard for switches over unions: a new member fails to compile at the call site.
 * Reaching it at run time is a bug, so it throws.
 */
export function assertNever(value: never): never {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = typeof value;
  }
  throw new Error(`Unhandled value: ${shown}`);
}

/** ACP optional fields may be absent or `null`; both mean "not sent". */
export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** A short, never-throwing description of an untrusted value for log lines. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}
