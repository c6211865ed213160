/**
 * An agent's question form (`elicitation/create`, form mode): its `requestedSchema` (a flat object
 * of string / number / integer / boolean / enum / multi-select properties) as fields the panel can
 * render, and the validation of answers before they are sent back. Untrusted input: what cannot be
 * rendered makes the form declinable only, with the reason. Tandem never asks for secrets in a form.
 */
import * as l10n from '@vscode/l10n';
import type { QuestionFieldView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';
import { isRecord, describe } from '../protocol/guards';

export type AnswerValue = string | number | boolean | string[];

const MAX_FIELDS = 50;
const SECRET = /pass(word|phrase)?|secret|token|api[\s_-]?key|private[\s_-]?key|credential/i;

function text(value: unknown, max = 500): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function choicesOf(schema: Record<string, unknown>): QuestionFieldView['choices'] {
  if (Array.isArray(schema.oneOf)) {
    const choices = schema.oneOf
      .filter((o) => isRecord(o) && typeof o.const === 'string')
      .map((o) => ({ value: (o as { const: string }).const, title: text((o as { title?: unknown }).title) ?? (o as { const: string }).const }));
    if (choices.length > 0) return choices;
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    const choices = schema.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, title: text(names[i]) ?? v }));
    if (choices.length > 0) return choices;
  }
  return undefined;
}

/** The form's fields, or why it cannot be shown (then the user can only decline). */
export function parseRequestedSchema(schema: unknown): { fields: QuestionFieldView[] } | { unsupported: string } {
  if (!isRecord(schema) || !isRecord(schema.properties)) return { unsupported: l10n.t('The agent sent a question without fields Tandem can show.') };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: QuestionFieldView[] = [];
  for (const [name, raw] of Object.entries(schema.properties).slice(0, MAX_FIELDS)) {
    if (!isRecord(raw)) return { unsupported: l10n.t('The field {0} is not described.', describe(name)) };
    const title = text(raw.title, 200) ?? name;
    if (SECRET.test(name) || SECRET.test(title) || raw.format === 'password' || raw.writeOnly === true) {
      return {
        unsupported: l10n.t(
          'The agent asks for a secret ({0}). Tandem does not take secrets in the panel: provide it the way the agent documents (an environment variable or its own login).',
          title,
        ),
      };
    }
    const field: Draft<QuestionFieldView> = { name, title, type: 'string', required: required.has(name) };
    const description = text(raw.description, 1000);
    if (description) field.description = description;
    const choices = choicesOf(raw);
    switch (raw.type) {
      case 'string':
        field.type = choices ? 'choice' : 'string';
        if (choices) field.choices = choices;
        if (typeof raw.default === 'string') field.default = raw.default;
        if (num(raw.minLength) !== undefined) field.minLength = num(raw.minLength);
        if (num(raw.maxLength) !== undefined) field.maxLength = num(raw.maxLength);
        if (typeof raw.format === 'string') field.format = raw.format;
        if (typeof raw.pattern === 'string') field.pattern = raw.pattern;
        break;
      case 'number':
      case 'integer':
        field.type = raw.type;
        if (num(raw.default) !== undefined) field.default = num(raw.default);
        if (num(raw.minimum) !== undefined) field.minimum = num(raw.minimum);
        if (num(raw.maximum) !== undefined) field.maximum = num(raw.maximum);
        break;
      case 'boolean':
        field.type = 'boolean';
        if (typeof raw.default === 'boolean') field.default = raw.default;
        break;
      case 'array': {
        const items = isRecord(raw.items) ? choicesOf(raw.items) : undefined;
        if (!items) return { unsupported: l10n.t('The field {0} is a list Tandem cannot show.', title) };
        field.type = 'choices';
        field.choices = items;
        if (Array.isArray(raw.default)) field.default = raw.default.filter((v): v is string => typeof v === 'string');
        break;
      }
      default:
        return { unsupported: l10n.t('The field {0} has a type ({1}) Tandem cannot show.', title, describe(raw.type)) };
    }
    fields.push(field);
  }
  return { fields };
}

const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
};

function formatProblem(format: string | undefined, value: string): string | undefined {
  if (!format) return undefined;
  if (format === 'uri') {
    try {
      new URL(value);
      return undefined;
    } catch {
      return l10n.t('must be a full URL');
    }
  }
  const pattern = FORMATS[format];
  return pattern && !pattern.test(value) ? l10n.t('must be a valid {0}', format) : undefined;
}

function patternProblem(pattern: string | undefined, value: string): string | undefined {
  if (!pattern) return undefined;
  try {
    return new RegExp(pattern, 'u').test(value) ? undefined : l10n.t('does not have the expected form');
  } catch {
    return undefined; // an agent's broken pattern is not the user's problem
  }
}

function fieldProblem(field: QuestionFieldView, value: AnswerValue | undefined): string | undefined {
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return field.required ? l10n.t('is required') : undefined;
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return l10n.t('must be text');
      if (field.minLength !== undefined && value.length < field.minLength) return l10n.t('needs at least {0} characters', field.minLength);
      if (field.maxLength !== undefined && value.length > field.maxLength) return l10n.t('takes at most {0} characters', field.maxLength);
      return formatProblem(field.format, value) ?? patternProblem(field.pattern, value);
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return l10n.t('must be a number');
      if (field.type === 'integer' && !Number.isInteger(value)) return l10n.t('must be a whole number');
      if (field.minimum !== undefined && value < field.minimum) return l10n.t('must be at least {0}', field.minimum);
      if (field.maximum !== undefined && value > field.maximum) return l10n.t('must be at most {0}', field.maximum);
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : l10n.t('must be yes or no');
    case 'choice':
      return typeof value === 'string' && field.choices?.some((c) => c.value === value) ? undefined : l10n.t('must be one of the choices');
    case 'choices':
      return Array.isArray(value) && value.every((v) => field.choices?.some((c) => c.value === v)) ? undefined : l10n.t('must be among the choices');
  }
}

/** The answer to send (only known fields, empty optional ones left out), or the problems by field. */
export function validateAnswer(
  fields: readonly QuestionFieldView[],
  content: unknown,
): { content: Record<string, AnswerValue> } | { errors: Record<string, string> } {
  const given = isRecord(content) ? content : {};
  const out: Record<string, AnswerValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = given[field.name];
    const value = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' || Array.isArray(raw) ? (raw as AnswerValue) : undefined;
    const problem = fieldProblem(field, value);
    if (problem) errors[field.name] = l10n.t('{0} {1}.', field.title, problem);
    else if (value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)) out[field.name] = value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { content: out };
}

/** A url-mode question's link: only http(s); the host shown, punycode or mixed scripts flagged. */
export function inspectUrl(raw: unknown): { url: string; host: string; warning?: string } | { problem: string } {
  if (typeof raw !== 'string') return { problem: l10n.t('The agent asked to open a link but sent no URL.') };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: l10n.t('The agent asked to open a malformed link ({0}).', raw.slice(0, 200)) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: l10n.t('The agent asked to open a {0} link; only web links are opened.', url.protocol) };
  const host = url.hostname;
  const warning = host.split('.').some((label) => label.startsWith('xn--'))
    ? l10n.t('The host {0} is an internationalised name (punycode): check it is the site you expect, as it may imitate another.', host)
    : url.protocol === 'http:'
      ? l10n.t('This link is not encrypted (http).')
      : undefined;
  return warning ? { url: url.href, host, warning } : { url: url.href, host };
}
