/**
 * Masks secrets in what leaves the machine (exported transcripts, problem reports): the values of
 * the agents' configured env and of MCP servers' env and headers, fields named like credentials,
 * and strings that look like keys or tokens wherever they appear (a file the agent read, a
 * command's output). Works on parsed JSON, so the result is still valid JSON that replays: only
 * string values change. The rules are the editor's one masker's (src/util/secretMask.ts); this is
 * its export flavour, with the mask `[REDACTED]`.
 */
import { createMasker } from '../util/secretMask';

export const REDACTED = '[REDACTED]';

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
  // Parsed values, not JSON lines: a secret that looks like a number is masked in its strings too.
  return createMasker(secrets, { mask: REDACTED, jsonLines: false });
}
