/**
 * Session settings an agent offers, from untrusted JSON: ACP `configOptions` (select options, flat
 * or grouped, and boolean options) and the older `models {currentModelId, availableModels}` shape,
 * both as ConfigOptionView for the panel's pickers. Malformed parts are dropped and reported.
 */
import * as l10n from '@vscode/l10n';
import type { ConfigOptionView, UsageView } from '../protocol/messages';
import { isRecord, describe, isAbsent } from '../protocol/guards';
import { type Warn } from './updateParsing';
import type { Draft } from '../protocol/draft';

/** The id the older `models` shape gets as a picker (no agent's config option may shadow it). */
export const LEGACY_MODEL_ID = 'model';

const MAX_OPTIONS = 100;
const MAX_CHOICES = 500;
const MAX_TEXT = 500;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function choice(raw: unknown, group: string | undefined): NonNullable<ConfigOptionView['choices']>[number] | undefined {
  if (!isRecord(raw) || typeof raw.value !== 'string' || raw.value === '') return undefined;
  const result: Draft<NonNullable<ConfigOptionView['choices']>[number]> = {
    value: raw.value,
    name: typeof raw.name === 'string' && raw.name !== '' ? clip(raw.name) : raw.value,
  };
  if (typeof raw.description === 'string' && raw.description !== '') result.description = clip(raw.description);
  if (group !== undefined) result.group = group;
  return result;
}

/** Flat options, or groups of options (`{group, name, options}`), as one list with group names. */
function parseChoices(raw: unknown, warn: Warn, where: string): ConfigOptionView['choices'] {
  if (!Array.isArray(raw)) return undefined;
  const out: Draft<NonNullable<ConfigOptionView['choices']>> = [];
  const seen = new Set<string>();
  const add = (item: unknown, group: string | undefined): void => {
    const parsed = choice(item, group);
    if (!parsed || seen.has(parsed.value)) return warn(`Dropped a malformed or repeated choice of ${where} (got ${describe(item)}).`);
    seen.add(parsed.value);
    if (out.length < MAX_CHOICES) out.push(parsed);
  };
  for (const item of raw) {
    if (isRecord(item) && Array.isArray(item.options)) {
      const group = typeof item.name === 'string' && item.name !== '' ? clip(item.name) : typeof item.group === 'string' ? item.group : undefined;
      for (const inner of item.options) add(inner, group);
    } else add(item, undefined);
  }
  return out;
}

function parseOption(raw: unknown, warn: Warn): ConfigOptionView | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') return undefined;
  const where = `config option ${describe(raw.id)}`;
  const base = { id: raw.id, name: typeof raw.name === 'string' && raw.name !== '' ? clip(raw.name) : raw.id };
  const extra: Draft<Partial<ConfigOptionView>> = {};
  if (typeof raw.description === 'string' && raw.description !== '') extra.description = clip(raw.description);
  if (typeof raw.category === 'string' && raw.category !== '') extra.category = raw.category;
  if (raw.type === 'boolean') {
    if (typeof raw.currentValue !== 'boolean') return void warn(`Dropped ${where}: a boolean option without a boolean value.`);
    return { ...base, ...extra, type: 'boolean', currentValue: raw.currentValue };
  }
  if (raw.type !== 'select') return void warn(`Dropped ${where}: options of type ${describe(raw.type)} are not supported.`);
  const choices = parseChoices(raw.options, warn, where);
  if (!choices || choices.length === 0) return void warn(`Dropped ${where}: it offers no choices.`);
  let current = typeof raw.currentValue === 'string' ? raw.currentValue : '';
  if (!choices.some((c) => c.value === current)) {
    warn(`The current value ${describe(raw.currentValue)} of ${where} is not one of its choices; showing ${describe(choices[0].value)}.`);
    current = choices[0].value;
  }
  return { ...base, ...extra, type: 'select', currentValue: current, choices };
}

/** `configOptions` of a session result or update; undefined when absent (null / missing). */
export function parseConfigOptions(value: unknown, warn: Warn): ConfigOptionView[] | undefined {
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) {
    warn(`Ignored configOptions that are not a list (got ${describe(value)}).`);
    return undefined;
  }
  const options: ConfigOptionView[] = [];
  for (const item of value.slice(0, MAX_OPTIONS)) {
    const option = parseOption(item, warn);
    if (!option) continue;
    if (options.some((o) => o.id === option.id)) {
      warn(`Dropped a repeated config option ${describe(option.id)}.`);
      continue;
    }
    options.push(option);
  }
  return options;
}

/** The older `models {currentModelId, availableModels: [{modelId, name, description}]}` as a picker. */
export function parseLegacyModels(value: unknown, warn: Warn): ConfigOptionView | undefined {
  if (isAbsent(value)) return undefined;
  if (!isRecord(value) || !Array.isArray(value.availableModels)) {
    warn(`Ignored models that are not {currentModelId, availableModels} (got ${describe(value)}).`);
    return undefined;
  }
  const choices = parseChoices(
    value.availableModels.map((m) => (isRecord(m) ? { value: m.modelId, name: m.name, description: m.description } : m)),
    warn,
    'the models',
  );
  if (!choices || choices.length === 0) return undefined;
  const current = typeof value.currentModelId === 'string' && choices.some((c) => c.value === value.currentModelId) ? value.currentModelId : choices[0].value;
  return { id: LEGACY_MODEL_ID, name: l10n.t('Model'), category: 'model', type: 'select', currentValue: current, choices };
}

/** Why `value` cannot be set on `option`; undefined when it can. */
export function valueProblem(option: ConfigOptionView, value: unknown): string | undefined {
  if (option.type === 'boolean') return typeof value === 'boolean' ? undefined : `${option.name} takes on or off.`;
  if (typeof value !== 'string' || !option.choices?.some((c) => c.value === value)) return `${describe(value)} is not one of the choices of ${option.name}.`;
  return undefined;
}

/** `usage_update` fields; undefined when unusable. */
export function parseUsage(update: Record<string, unknown>, warn: Warn): UsageView | undefined {
  const { used, size, cost } = update;
  if (typeof used !== 'number' || typeof size !== 'number' || !Number.isFinite(used) || !Number.isFinite(size) || used < 0 || size <= 0) {
    warn(`Ignored a usage_update without usable numbers (used ${describe(used)}, size ${describe(size)}).`);
    return undefined;
  }
  const usage: Draft<UsageView> = { used, size };
  if (isRecord(cost) && typeof cost.amount === 'number' && Number.isFinite(cost.amount) && typeof cost.currency === 'string')
    usage.cost = { amount: cost.amount, currency: cost.currency.slice(0, 10) };
  return usage;
}

/** A prompt response's per-turn usage, when the agent sends one, as a short line ("12k in · 340 out"). */
export function describeTurnUsage(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const pick = (...keys: string[]): number | undefined => {
    for (const key of keys) if (typeof value[key] === 'number' && Number.isFinite(value[key])) return value[key] as number;
    return undefined;
  };
  const input = pick('inputTokens', 'input_tokens');
  const output = pick('outputTokens', 'output_tokens');
  const total = pick('totalTokens', 'total_tokens');
  const parts: string[] = [];
  if (input !== undefined) parts.push(l10n.t('{0} in', compactNumber(input)));
  if (output !== undefined) parts.push(l10n.t('{0} out', compactNumber(output)));
  if (parts.length === 0 && total !== undefined) parts.push(l10n.t('{0} tokens', compactNumber(total)));
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

export function compactNumber(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(Math.round(n));
}
