/**
 * The account's limits as the panel shows them (ACP RFD "quotas-and-limits"): an ordered list of
 * pools (a plan allowance, a per-model weekly window, extra usage), each with its meters (a 5-hour
 * window, a weekly window, a balance). Every value is optional, as the agent reports only what its
 * provider gave it; absent never means zero. Kept apart from the context meter (`UsageView`).
 */

/** An amount against a limit: an exact decimal string and its unit (an ISO 4217 code, `requests`, …). */
export interface QuotaQuantityView {
  readonly value: string;
  readonly unit?: string;
}

export interface QuotaMeterView {
  readonly id: string;
  readonly label?: string;
  /** Share of the limit used, 0 to 100 (may exceed 100). */
  readonly usedPercent?: number;
  readonly used?: QuotaQuantityView;
  readonly limit?: QuotaQuantityView;
  readonly remaining?: QuotaQuantityView;
  /** The window's length as an ISO 8601 duration (`PT5H`, `P7D`). */
  readonly window?: string;
  /** When the window resets (RFC 3339). */
  readonly resetsAt?: string;
  /** The agent's grading: `ok`, `warning`, `exceeded` or a value of its own. */
  readonly status?: string;
}

export interface QuotaPoolView {
  readonly id: string;
  readonly label?: string;
  /** `available`, `exhausted`, `not_enabled`, … (only `available` means usable); absent: unknown. */
  readonly state?: string;
  readonly meters: readonly QuotaMeterView[];
}

export interface QuotaView {
  /** When the agent last obtained these numbers (RFC 3339), for "as of". */
  readonly updatedAt?: string;
  readonly pools: readonly QuotaPoolView[];
}
