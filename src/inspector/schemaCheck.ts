import * as l10n from '@vscode/l10n';
import type { Schema, SchemaIssue } from './acpSchemas';

/** One conformance finding, before it is attached to a message. */
export interface Finding {
  rule: string;
  severity: 'warning' | 'error';
  text: string;
}

/** Findings listed per message at most; the rest are counted in the last one. */
const MAX_FINDINGS = 6;

/**
 * Checks a value against one of the SDK's schemas. A failed parse is an error: the SDK rejects the
 * message (a request is answered with an error, an update is dropped). A successful parse can still
 * hide problems, because the generated schemas are lenient: an invalid optional field is replaced by
 * its default, an invalid array item is skipped, an unknown field is stripped. Those show up as
 * differences between what was sent and what the SDK read, and each becomes a warning.
 */
export function checkSchema(schema: Schema, value: unknown, where: string): Finding[] {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => deepest(issue)).slice(0, 3);
    return issues.map((issue) => ({
      rule: 'schema',
      severity: 'error' as const,
      text: l10n.t('{0} does not match the ACP schema: {1}', at(where, issue.path), issue.message),
    }));
  }
  const notes: string[] = [];
  compare(value, result.data, where, notes);
  const findings = notes.slice(0, MAX_FINDINGS).map((text) => ({ rule: 'schema-dropped', severity: 'warning' as const, text }));
  if (notes.length > MAX_FINDINGS)
    findings.push({ rule: 'schema-dropped', severity: 'warning', text: l10n.t('… and {0} more fields the SDK drops.', notes.length - MAX_FINDINGS) });
  return findings;
}

/** `params.update` + `['content', 0]` → `params.update.content[0]`. */
function at(where: string, path: ReadonlyArray<PropertyKey>): string {
  let out = where;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return `\`${out}\``;
}

/**
 * The most telling issue of a failed union: the branch that got furthest (longest path) — for a
 * tagged union that is the variant whose tag matched.
 */
function deepest(issue: SchemaIssue): SchemaIssue {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  let best: SchemaIssue | undefined;
  for (const branch of issue.errors) {
    for (const candidate of branch) {
      const inner = deepest(candidate);
      const full = { ...inner, path: [...issue.path, ...inner.path] };
      if (!best || full.path.length > best.path.length) best = full;
    }
  }
  return best ?? issue;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Notes every place where `output` (what the SDK read) lost or changed something of `input`. */
function compare(input: unknown, output: unknown, path: string, notes: string[]): void {
  if (input === output || input === null || input === undefined || notes.length > MAX_FINDINGS) return;
  if (Array.isArray(input)) {
    if (!Array.isArray(output)) notes.push(l10n.t('`{0}` is not valid here: the SDK drops it.', path));
    else if (output.length < input.length)
      notes.push(l10n.t('`{0}`: {1} of {2} items are not valid: the SDK skips them.', path, input.length - output.length, input.length));
    else input.forEach((item, i) => compare(item, output[i], `${path}[${i}]`, notes));
    return;
  }
  if (isObject(input)) {
    if (!isObject(output)) {
      notes.push(l10n.t('`{0}` is not valid here: the SDK drops it.', path));
      return;
    }
    for (const [key, value] of Object.entries(input)) {
      if (value === null || value === undefined) continue;
      if (output[key] === undefined) notes.push(l10n.t('`{0}` ({1}) is not in the schema or not valid: the SDK drops it.', `${path}.${key}`, preview(value)));
      else compare(value, output[key], `${path}.${key}`, notes);
    }
    return;
  }
  if (input !== output) notes.push(l10n.t('`{0}` = {1} is not valid: the SDK reads {2}.', path, preview(input), preview(output)));
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
