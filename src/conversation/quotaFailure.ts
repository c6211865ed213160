/**
 * A prompt refused because the account reached a limit, said as such: which limit (when the agent
 * names it) and when it resets, instead of "could not complete the turn". Recognised forms: the ACP
 * RFD's `quotaExceeded` error (`data.poolId`, `meterId`, `resetsAt`, `retryAfter`; its code is still
 * a placeholder, so the data decides), codex-acp's internal error with
 * `data.codexErrorInfo: "usageLimitExceeded"`, a provider's `insufficient_quota` / `usage_limit`
 * error type, and a meter the last quota snapshot marks exceeded.
 */
import * as l10n from '@vscode/l10n';
import type { QuotaView } from '../protocol/messages';
import { isRecord } from '../protocol/guards';
import { formatDateTime, relativeTime } from '../protocol/displayLanguage';
import { errorCode, errorData, errorMessage } from '../util/errors';
import { quotaMeters } from '../thread/quota';

const QUOTA_ERROR_INFO = new Set(['usageLimitExceeded', 'usage_limit_exceeded', 'insufficient_quota', 'quota_exhausted', 'usage_limit_reached']);

/** The RFD's placeholder code for `quotaExceeded`; with it, a reset time alone is enough. */
const QUOTA_EXCEEDED_CODE = -32003;

function namesQuota(data: Record<string, unknown>, code: number | undefined): boolean {
  if (typeof data.poolId === 'string' || typeof data.meterId === 'string') return true;
  if (code === QUOTA_EXCEEDED_CODE && (typeof data.resetsAt === 'string' || typeof data.retryAfter === 'string')) return true;
  for (const key of ['codexErrorInfo', 'type', 'code', 'kind', 'reason']) if (typeof data[key] === 'string' && QUOTA_ERROR_INFO.has(data[key])) return true;
  // codex sends some infos as an object keyed by the kind.
  return isRecord(data.codexErrorInfo) && Object.keys(data.codexErrorInfo).some((k) => QUOTA_ERROR_INFO.has(k));
}

/** "resets in 2 hours (Dec 2, 2026, 18:00:00 UTC)" for a time the agent gave, else undefined. */
function resetText(resetsAt: string | undefined, now: number): string | undefined {
  const at = resetsAt === undefined ? NaN : Date.parse(resetsAt);
  if (!Number.isFinite(at)) return undefined;
  return l10n.t('It resets {0} ({1}).', relativeTime(at, now), formatDateTime(at));
}

/** A simple ISO 8601 duration (`PT30M`, `PT1H30M`, `P1D`) in milliseconds; undefined otherwise. */
export function durationMs(duration: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!m || duration === 'P' || duration === 'PT') return undefined;
  const [, d, h, min, s] = m;
  return (((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(min ?? 0)) * 60 + Number(s ?? 0)) * 1000;
}

/**
 * The message for a prompt error that is a quota error, or undefined for any other error.
 * `quota` is the last snapshot the agent sent, for the limit's name and reset time.
 */
export function quotaFailureMessage(err: unknown, agentName: string, quota: QuotaView | undefined, now = Date.now()): string | undefined {
  const data = errorData(err);
  const exceeded = quotaMeters(quota).find(({ meter }) => meter.status === 'exceeded' || (meter.usedPercent ?? 0) >= 100);
  const byData = isRecord(data) && namesQuota(data, errorCode(err));
  // A snapshot's exceeded meter explains only an error that speaks of a limit.
  if (!byData && !(exceeded !== undefined && /limit|quota/i.test(errorMessage(err)))) return undefined;
  const record = isRecord(data) ? data : {};
  // The meter the error names, else the one the snapshot shows exceeded.
  const named = quotaMeters(quota).find(({ pool, meter }) => pool.id === record.poolId && (record.meterId === undefined || meter.id === record.meterId));
  const limit = named ?? exceeded;
  let resetsAt = typeof record.resetsAt === 'string' ? record.resetsAt : limit?.meter.resetsAt;
  if (resetsAt === undefined && typeof record.retryAfter === 'string') {
    const wait = durationMs(record.retryAfter);
    if (wait !== undefined) resetsAt = new Date(now + wait).toISOString();
  }
  const detail = typeof record.message === 'string' && record.message.trim() !== '' ? record.message : errorMessage(err);
  const label = limit ? (limit.meter.label ?? limit.pool.label) : undefined;
  const head = label
    ? l10n.t('{0} has reached its {1}: {2}', agentName, label, detail)
    : l10n.t('{0} has reached a usage limit of its account: {1}', agentName, detail);
  return [head, resetText(resetsAt, now)].filter((p) => p !== undefined).join(' ');
}
