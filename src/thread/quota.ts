/**
 * The account's limits from untrusted JSON, as one QuotaView: the ACP RFD's `quota_update` snapshot
 * (also accepted in a prompt result's `_meta.quota` when it has that shape), and Claude's
 * `usage_update._meta["_claude/rateLimit"]` (the Claude Agent SDK's `SDKRateLimitInfo`: one window
 * per event, a fraction used and a reset time in epoch seconds), mapped the way the RFD describes.
 * codex-acp 2.6 and claude-agent-acp 0.101 put token counts into `_meta.quota` (`token_count`,
 * `model_usage`): spend, not limits, so that shape is not a quota. Invalid pools and meters are
 * skipped one by one (the RFD's rule), never the whole snapshot.
 */
import * as l10n from '@vscode/l10n';
import type { QuotaMeterView, QuotaPoolView, QuotaQuantityView, QuotaView } from '../protocol/messages';
import { isRecord, describe } from '../protocol/guards';
import { type Warn } from './updateParsing';
import type { Draft } from '../protocol/draft';

/** Caps so a misbehaving agent cannot flood the header. */
const MAX_POOLS = 20;
const MAX_METERS = 10;
const MAX_TEXT = 120;

/** The Claude key on `usage_update._meta` that carries a rate-limit event. */
export const CLAUDE_RATE_LIMIT_KEY = '_claude/rateLimit';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_TEXT) : undefined;
}

function quantity(value: unknown): QuotaQuantityView | undefined {
  if (!isRecord(value)) return undefined;
  const amount = typeof value.value === 'number' && Number.isFinite(value.value) ? String(value.value) : value.value;
  if (typeof amount !== 'string' || !/^-?\d+(\.\d+)?$/.test(amount.trim())) return undefined;
  const unit = text(value.unit);
  return unit === undefined ? { value: amount.trim() } : { value: amount.trim(), unit: unit.slice(0, 20) };
}

function time(value: unknown): string | undefined {
  return typeof value === 'string' && Number.isFinite(Date.parse(value)) ? value : undefined;
}

function parseMeter(value: unknown): QuotaMeterView | undefined {
  if (!isRecord(value)) return undefined;
  const id = text(value.id);
  if (id === undefined) return undefined;
  const meter: Draft<QuotaMeterView> = { id };
  const label = text(value.label);
  if (label !== undefined) meter.label = label;
  if (typeof value.usedPercent === 'number' && Number.isFinite(value.usedPercent) && value.usedPercent >= 0) meter.usedPercent = value.usedPercent;
  for (const key of ['used', 'limit', 'remaining'] as const) {
    const q = quantity(value[key]);
    if (q !== undefined) meter[key] = q;
  }
  const window = text(value.window);
  if (window !== undefined && /^P/.test(window)) meter.window = window;
  const resetsAt = time(value.resetsAt);
  if (resetsAt !== undefined) meter.resetsAt = resetsAt;
  const status = text(value.status);
  if (status !== undefined) meter.status = status;
  // The RFD: a meter carries at least one of these; one without says nothing.
  const says = meter.usedPercent !== undefined || meter.used !== undefined || meter.remaining !== undefined || meter.status !== undefined;
  return says ? meter : undefined;
}

function parsePool(value: unknown, warn: Warn): QuotaPoolView | undefined {
  if (!isRecord(value) || text(value.id) === undefined || !Array.isArray(value.meters)) {
    warn(`Ignored a quota pool without an id and a meter list (got ${describe(value)}).`);
    return undefined;
  }
  const pool: Draft<QuotaPoolView> = { id: text(value.id) as string, meters: [] };
  const label = text(value.label);
  if (label !== undefined) pool.label = label;
  const state = text(value.state);
  if (state !== undefined) pool.state = state;
  for (const m of value.meters.slice(0, MAX_METERS)) {
    const meter = parseMeter(m);
    if (meter) pool.meters.push(meter);
    else warn(`Ignored a quota meter without an id or a value (got ${describe(m)}).`);
  }
  return pool;
}

/** A `quota_update` (or a snapshot of the same shape): undefined when it has no pool list. */
export function parseQuotaSnapshot(value: unknown, warn: Warn): QuotaView | undefined {
  if (!isRecord(value) || !Array.isArray(value.pools)) {
    warn(`Ignored a quota snapshot without a pool list (got ${describe(isRecord(value) ? value.pools : value)}).`);
    return undefined;
  }
  const quota: Draft<QuotaView> = { pools: [] };
  const updatedAt = time(value.updatedAt);
  if (updatedAt !== undefined) quota.updatedAt = updatedAt;
  const ids = new Set<string>();
  for (const p of value.pools.slice(0, MAX_POOLS)) {
    const pool = parsePool(p, warn);
    if (pool && !ids.has(pool.id)) {
      ids.add(pool.id);
      quota.pools.push(pool);
    }
  }
  return quota;
}

/** A prompt result's `_meta.quota`, when it is a snapshot; the token-count shape both adapters send is not. */
export function quotaFromPromptMeta(meta: unknown, warn: Warn): QuotaView | undefined {
  if (!isRecord(meta) || !isRecord(meta.quota) || !Array.isArray(meta.quota.pools)) return undefined;
  return parseQuotaSnapshot(meta.quota, warn);
}

/** Keeps the newer of two snapshots by `updatedAt` (RFD "Freshness"); without both times the new one wins. */
export function newerQuota(previous: QuotaView | undefined, next: QuotaView): QuotaView {
  if (previous?.updatedAt === undefined || next.updatedAt === undefined) return next;
  return Date.parse(next.updatedAt) < Date.parse(previous.updatedAt) ? previous : next;
}

const CLAUDE_STATUS: Record<string, string> = { allowed: 'ok', allowed_warning: 'warning', rejected: 'exceeded' };

/** Where each Claude window goes: the plan's two windows, one pool per model-scoped weekly window, extra usage. */
function claudeWindow(type: string): { pool: string; poolLabel: string; meter: string; label: string; window?: string } | undefined {
  switch (type) {
    case 'five_hour':
      return { pool: 'plan', poolLabel: l10n.t('Plan usage'), meter: 'five_hour', label: l10n.t('5-hour limit'), window: 'PT5H' };
    case 'seven_day':
      return { pool: 'plan', poolLabel: l10n.t('Plan usage'), meter: 'seven_day', label: l10n.t('Weekly limit'), window: 'P7D' };
    case 'seven_day_opus':
      return { pool: 'seven_day_opus', poolLabel: 'Opus', meter: 'seven_day', label: l10n.t('Weekly limit · {0}', 'Opus'), window: 'P7D' };
    case 'seven_day_sonnet':
      return { pool: 'seven_day_sonnet', poolLabel: 'Sonnet', meter: 'seven_day', label: l10n.t('Weekly limit · {0}', 'Sonnet'), window: 'P7D' };
    case 'seven_day_overage_included':
      return { pool: 'plan', poolLabel: l10n.t('Plan usage'), meter: 'seven_day_overage_included', label: l10n.t('Weekly limit'), window: 'P7D' };
    case 'overage':
      return { pool: 'extra_usage', poolLabel: l10n.t('Extra usage'), meter: 'overage', label: l10n.t('Extra usage') };
    default:
      return undefined;
  }
}

function epochTime(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? new Date(value * 1000).toISOString() : undefined;
}

/** One window's reading from Claude into a meter; undefined when it says nothing. */
function claudeMeter(
  type: string,
  reading: Record<string, unknown>,
): { place: NonNullable<ReturnType<typeof claudeWindow>>; meter: QuotaMeterView } | undefined {
  const place = claudeWindow(type);
  if (place === undefined) return undefined;
  const meter: Draft<QuotaMeterView> = { id: place.meter, label: place.label };
  if (place.window) meter.window = place.window;
  // Claude Code reads `utilization` as a fraction (its warning thresholds are 0.75, 0.9).
  if (typeof reading.utilization === 'number' && Number.isFinite(reading.utilization) && reading.utilization >= 0)
    meter.usedPercent = Math.round(reading.utilization * 1000) / 10;
  const resetsAt = epochTime(reading.resetsAt);
  if (resetsAt !== undefined) meter.resetsAt = resetsAt;
  const status = typeof reading.status === 'string' ? CLAUDE_STATUS[reading.status] : undefined;
  if (status !== undefined) meter.status = status;
  return meter.usedPercent !== undefined || meter.status !== undefined ? { place, meter } : undefined;
}

/**
 * Claude's rate-limit event merged into what is known: each event reports the window that applies
 * (`rateLimitType`) and, in newer CLIs, `unifiedWindows` with the others; windows not in this event
 * keep their last reading.
 */
export function quotaFromClaudeRateLimit(info: unknown, previous: QuotaView | undefined, now = Date.now()): QuotaView | undefined {
  if (!isRecord(info)) return undefined;
  const readings: Array<[string, Record<string, unknown>]> = [];
  if (isRecord(info.unifiedWindows)) for (const [type, reading] of Object.entries(info.unifiedWindows)) if (isRecord(reading)) readings.push([type, reading]);
  if (typeof info.rateLimitType === 'string' && !readings.some(([type]) => type === info.rateLimitType)) readings.push([info.rateLimitType, info]);
  if (typeof info.overageStatus === 'string' && !readings.some(([type]) => type === 'overage'))
    readings.push(['overage', { status: info.overageStatus, resetsAt: info.overageResetsAt }]);
  // A deep copy of the last views, so this one may be changed in place before it is handed out.
  const pools = structuredClone(previous?.pools ?? []) as Array<Draft<QuotaPoolView>>;
  let changed = false;
  for (const [type, reading] of readings) {
    const found = claudeMeter(type, reading);
    if (!found) continue;
    changed = true;
    let pool = pools.find((p) => p.id === found.place.pool);
    if (!pool) {
      pool = { id: found.place.pool, label: found.place.poolLabel, meters: [] };
      pools.push(pool);
    }
    const at = pool.meters.findIndex((m) => m.id === found.meter.id);
    if (at >= 0) pool.meters[at] = found.meter;
    else pool.meters.push(found.meter);
  }
  if (!changed) return undefined;
  for (const pool of pools) {
    if (pool.id === 'extra_usage') continue;
    pool.state = pool.meters.some((m) => m.status === 'exceeded') ? 'exhausted' : 'available';
  }
  // Claude sends no time of its own: the event is as fresh as its arrival.
  return { updatedAt: new Date(now).toISOString(), pools };
}

/** Every meter with the pool it belongs to, in the agent's order. */
export function quotaMeters(quota: QuotaView | undefined): Array<{ pool: QuotaPoolView; meter: QuotaMeterView }> {
  return (quota?.pools ?? []).flatMap((pool) => pool.meters.map((meter) => ({ pool, meter })));
}
