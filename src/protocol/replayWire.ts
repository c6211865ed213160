/**
 * What the replay agent (src/replayAgent) and Tandem's replay sandbox (src/runtime/replaySandbox.ts)
 * say to each other beyond ACP. Both sides import it, so neither can drift from the other.
 */

/**
 * A replay's `terminal/create` carries the recorded output and exit code in
 * `_meta.tandem.replay`; the sandbox shows them on a terminal of its own and runs nothing.
 */
export interface ReplayTerminalMeta {
  output: string;
  exitCode: number | null;
}

/** The `data.reason` of the error the sandbox answers a file read with (the replay stays quiet about it). */
export const SANDBOX_READ_REFUSED = 'replaySandbox';

/** `_meta.tandem.replay` of a `terminal/create`'s params, when well formed. */
export function replayTerminalMeta(params: unknown): ReplayTerminalMeta | undefined {
  const meta = (params as { _meta?: { tandem?: { replay?: unknown } } } | null | undefined)?._meta?.tandem?.replay;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { output, exitCode } = meta as { output?: unknown; exitCode?: unknown };
  if (typeof output !== 'string') return undefined;
  return { output, exitCode: typeof exitCode === 'number' && Number.isInteger(exitCode) ? exitCode : null };
}
