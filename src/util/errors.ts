/** The message of anything thrown: Errors, JSON-RPC error objects ({ message }), or other values. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && 'message' in err) return String((err as { message: unknown }).message);
  return String(err);
}

/** The `data` of a JSON-RPC error, when the thrown value carries one. */
export function errorData(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'data' in err ? (err as { data: unknown }).data : undefined;
}

/** A numeric JSON-RPC error code, when the thrown value carries one. */
export function errorCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}
