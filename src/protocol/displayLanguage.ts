/**
 * The display language, and dates, numbers and relative times written in it through `Intl`, for the
 * host and the panel alike. Each side sets it once at start (the host from `vscode.env.language`,
 * the panel from the host's HTML); until then, and in tests, it is English so output is stable.
 * The strings themselves are translated by `@vscode/l10n` from the same language's bundle.
 */

/** What the host hands the panel so that it speaks the display language. */
export interface PanelLocale {
  /** VS Code's display language (`vscode.env.language`), e.g. `en`, `zh-cn`: `<html lang>` and `Intl`. */
  language: string;
  /** The l10n bundle of that language (`vscode.l10n.bundle`); absent for English, the source language. */
  bundle?: Record<string, string | { message: string; comment: string[] }>;
}

/** Id of the `<script type="application/json">` element that carries the PanelLocale into the panel. */
export const PANEL_LOCALE_ELEMENT_ID = 'tandem-locale';

let current = 'en';

/** Sets the language for `Intl`; an unknown or malformed tag leaves English. */
export function setDisplayLanguage(language: string | undefined): void {
  current = canonical(language) ?? 'en';
}

/** The BCP 47 tag in use, e.g. `en`, `zh-CN`. */
export function displayLanguage(): string {
  return current;
}

function canonical(language: string | undefined): string | undefined {
  if (!language) return undefined;
  try {
    const [tag] = Intl.getCanonicalLocales(language);
    // Throws for a tag the runtime's Intl cannot format (VS Code's pseudo-locale, say).
    new Intl.NumberFormat(tag);
    return tag;
  } catch {
    return undefined;
  }
}

/** "5 minutes ago", "yesterday", "in 2 hours", in the display language. */
export function relativeTime(then: number, now = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(current, { numeric: 'auto' });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 4.35],
    ['month', 12],
  ];
  let value = (then - now) / 1000;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/** A number with the display language's grouping and decimal marks. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(current, options).format(value);
}

/** A date without the time, e.g. "Mar 4, 2025" / "2025年3月4日". */
export function formatDate(time: number | Date): string {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium' }).format(time);
}

/** A date and time to the minute, with its time zone. */
export function formatDateTime(time: number | Date): string {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'long' }).format(time);
}

/**
 * `812 B`, `200 KB`, `1.3 MB` (1 KB = 1024 B, as editors and agents count); the units are the same in
 * every language. `language` overrides the display language (text for an agent is always English).
 */
export function formatBytes(bytes: number, language = current): string {
  const format = (value: number, options?: Intl.NumberFormatOptions): string => new Intl.NumberFormat(language, options).format(value);
  if (bytes < 1024) return `${format(bytes)} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${format(value, { maximumFractionDigits: value >= 10 ? 0 : 1 })} ${units[unit]}`;
}
