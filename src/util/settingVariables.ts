/**
 * `${…}` references in values the user writes in settings — agent headers, MCP server commands and
 * env — and the default bearer header. One reading of the syntax for every place that takes it:
 * `${env:NAME}` and the plain names each caller knows (`${apiKey}`, `${token}`, `${workspaceFolder}`).
 * Anything else (`${input:…}`, a name nobody knows) is left as written.
 */

const REFERENCE = /\$\{(env:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces each reference with what `lookup` gives for its name (`env:NAME` or a plain name);
 * undefined keeps the reference as written.
 */
export function expandVariables(text: string, lookup: (name: string) => string | undefined): string {
  return text.replace(REFERENCE, (whole, name: string) => lookup(name) ?? whole);
}

/** The variable an `env:NAME` reference names; undefined for a plain name. */
export function envVariable(name: string): string | undefined {
  return name.startsWith('env:') ? name.slice(4) : undefined;
}

/** Whether the headers already have an Authorization header (header names are case-insensitive). */
export function hasAuthorization(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((n) => n.toLowerCase() === 'authorization');
}

/**
 * Adds `Authorization: Bearer <credential>` unless the credential already went into a header through
 * its reference, or an Authorization header is configured (which then wins).
 */
export function addDefaultBearer(headers: Record<string, string>, credential: string | undefined, placed: boolean): void {
  if (credential && !placed && !hasAuthorization(headers)) headers.Authorization = `Bearer ${credential}`;
}
