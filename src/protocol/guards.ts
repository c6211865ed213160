/**
 * The two runtime guards every layer needs. They live beside the protocol because it is the one
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
