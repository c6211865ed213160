/**
 * The account's limits in the header, beside the context meter (which it never replaces): the most
 * used window in the row ("5-hour limit 42% · resets in 3 hours"), every pool and meter the agent
 * reported in its tooltip and its accessible value, in the agent's order. Warning colours at 80 %
 * and 95 % used, or sooner when the agent grades a meter `warning` / `exceeded` or a pool exhausted.
 * Values the agent did not report are left out, never shown as zero.
 */
import * as l10n from '@vscode/l10n';
import { displayLanguage, formatDateTime, formatNumber, relativeTime } from '../../src/protocol/displayLanguage';
import type { QuotaMeterView, QuotaPoolView, QuotaQuantityView, QuotaView } from '../../src/protocol/messages';
import { h } from '../core/dom';

export type QuotaLevel = 'ok' | 'warning' | 'critical';

/** The relative reset time goes stale as time passes: written again this often while shown. */
const REFRESH_MS = 60_000;

function meterLabel(pool: QuotaPoolView, meter: QuotaMeterView): string {
  if (meter.label) return meter.label;
  if (meter.window === 'PT5H') return l10n.t('5-hour limit');
  if (meter.window === 'P7D') return pool.label ? l10n.t('Weekly limit · {0}', pool.label) : l10n.t('Weekly limit');
  return pool.label ?? meter.id;
}

function amount(q: QuotaQuantityView): string {
  const n = Number(q.value);
  if (q.unit && /^[A-Z]{3}$/.test(q.unit)) {
    try {
      return formatNumber(n, { style: 'currency', currency: q.unit });
    } catch {
      return `${q.value} ${q.unit}`;
    }
  }
  const shown = Number.isFinite(n) ? formatNumber(n) : q.value;
  return q.unit ? `${shown} ${q.unit}` : shown;
}

function percent(value: number): string {
  return formatNumber(value / 100, { style: 'percent', maximumFractionDigits: value < 10 ? 1 : 0 });
}

function levelOf(pool: QuotaPoolView, meter: QuotaMeterView): QuotaLevel {
  const used = meter.usedPercent ?? 0;
  if (used >= 95 || meter.status === 'exceeded' || (pool.state === 'exhausted' && used >= 100)) return 'critical';
  if (used >= 80 || meter.status === 'warning') return 'warning';
  return 'ok';
}

const RANK: Record<QuotaLevel, number> = { ok: 0, warning: 1, critical: 2 };

/** One meter as a sentence: "Plan usage · 5-hour limit: 42% used, resets in 3 hours (Oct 6, 2026, 6:00:00 PM UTC)". */
export function meterSentence(pool: QuotaPoolView, meter: QuotaMeterView, now: number): string {
  const name = pool.label && !meterLabel(pool, meter).includes(pool.label) ? `${pool.label} · ${meterLabel(pool, meter)}` : meterLabel(pool, meter);
  const parts: string[] = [];
  if (meter.usedPercent !== undefined) parts.push(l10n.t('{0} used', percent(meter.usedPercent)));
  if (meter.used && meter.limit) parts.push(l10n.t('{0} of {1}', amount(meter.used), amount(meter.limit)));
  else if (meter.used) parts.push(l10n.t('{0} used', amount(meter.used)));
  if (meter.remaining) parts.push(l10n.t('{0} left', amount(meter.remaining)));
  if (meter.status === 'exceeded') parts.push(l10n.t('limit reached'));
  const reset = meter.resetsAt === undefined ? NaN : Date.parse(meter.resetsAt);
  if (Number.isFinite(reset)) parts.push(l10n.t('resets {0} ({1})', relativeTime(reset, now), formatDateTime(reset)));
  if (pool.state !== undefined && pool.state !== 'available' && pool.state !== 'exhausted') parts.push(l10n.t('unavailable'));
  return `${name}: ${parts.join(', ')}`;
}

/** What the meter shows for `quota`: undefined when nothing can be shown. */
export function quotaText(quota: QuotaView, now = Date.now()): { text: string; title: string; level: QuotaLevel; percent: number } | undefined {
  const all = quota.pools.flatMap((pool) => pool.meters.map((meter) => ({ pool, meter })));
  if (all.length === 0) return undefined;
  // The row shows the window nearest its limit: the worst level, then the highest share.
  const top = all.reduce((best, m) => {
    const a = RANK[levelOf(m.pool, m.meter)] - RANK[levelOf(best.pool, best.meter)];
    return a > 0 || (a === 0 && (m.meter.usedPercent ?? -1) > (best.meter.usedPercent ?? -1)) ? m : best;
  });
  const level = levelOf(top.pool, top.meter);
  const reset = top.meter.resetsAt === undefined ? NaN : Date.parse(top.meter.resetsAt);
  const value =
    top.meter.usedPercent !== undefined
      ? percent(top.meter.usedPercent)
      : top.meter.remaining
        ? l10n.t('{0} left', amount(top.meter.remaining))
        : top.meter.used
          ? amount(top.meter.used)
          : l10n.t('limit reached');
  const text = [`${meterLabel(top.pool, top.meter)} ${value}`, Number.isFinite(reset) ? l10n.t('resets {0}', relativeTime(reset, now)) : undefined]
    .filter((p) => p !== undefined)
    .join(' · ');
  const lines = all.map(({ pool, meter }) => meterSentence(pool, meter, now));
  const asOf = quota.updatedAt === undefined ? NaN : Date.parse(quota.updatedAt);
  if (Number.isFinite(asOf)) lines.push(l10n.t('As of {0}.', new Intl.DateTimeFormat(displayLanguage(), { timeStyle: 'short' }).format(asOf)));
  return { text, title: lines.join('\n'), level, percent: Math.max(0, ...all.map((m) => m.meter.usedPercent ?? 0)) };
}

export class QuotaMeter {
  readonly element: HTMLElement;
  private timer: ReturnType<typeof setInterval> | undefined;
  private quota: QuotaView | undefined;

  constructor(private readonly changedSize: () => void) {
    this.element = h('span', { class: 'usage-meter quota-meter', role: 'meter', 'aria-label': l10n.t('Account limits') });
    this.element.hidden = true;
  }

  render(quota: QuotaView | undefined): void {
    this.quota = quota;
    const shown = quota === undefined ? undefined : quotaText(quota);
    const wasShown = !this.element.hidden;
    this.element.hidden = shown === undefined;
    if (wasShown !== !this.element.hidden) this.changedSize();
    if (shown === undefined) {
      if (this.timer !== undefined) clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.timer ??= setInterval(() => this.render(this.quota), REFRESH_MS);
    this.element.textContent = shown.text;
    this.element.title = shown.title;
    this.element.dataset.level = shown.level;
    this.element.setAttribute('aria-valuemin', '0');
    this.element.setAttribute('aria-valuemax', '100');
    this.element.setAttribute('aria-valuenow', String(Math.round(shown.percent)));
    this.element.setAttribute('aria-valuetext', shown.title.replaceAll('\n', ' '));
  }
}
