/**
 * The session's settings in the header: compact pickers for the mode, model and reasoning level
 * (`category` mode / model / thought_level) and an options menu for the rest; boolean options are
 * checkboxes. Every control carries `data-config-id`, is named by the option's name, and shows the
 * option's current value as the host last confirmed it (a refused change snaps back). Also the
 * usage meter: how full the agent's context is, with warning colours at 80 % and 95 %.
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../src/protocol/displayLanguage';
import type { ConfigOptionView, UsageView } from '../src/protocol/messages';
import { button, h } from './dom';
import type { Store } from './store';
import type { Host } from './vscodeApi';

const HEADER_CATEGORIES = new Set(['mode', 'model', 'thought_level']);

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(Math.round(n));
}

/** An amount in the agent's currency, written the display language's way (an unknown code: as given). */
function money(amount: number, currency: string): string {
  try {
    return formatNumber(amount, { style: 'currency', currency, maximumFractionDigits: 2 });
  } catch {
    return `${formatNumber(amount, { maximumFractionDigits: 2 })} ${currency}`;
  }
}

export function usageText(usage: UsageView): { text: string; title: string; level: 'ok' | 'warning' | 'critical' } {
  const percent = Math.min(100, Math.round((usage.used / usage.size) * 100));
  const shownPercent = formatNumber(percent / 100, { style: 'percent' });
  const cost = usage.cost ? money(usage.cost.amount, usage.cost.currency) : undefined;
  const text = `${l10n.t('Context {0} · {1} / {2}', shownPercent, compact(usage.used), compact(usage.size))}${cost ? ` · ${cost}` : ''}`;
  const title = [
    l10n.t("The agent's context holds {0} of {1} tokens ({2}).", formatNumber(usage.used), formatNumber(usage.size), shownPercent),
    cost ? l10n.t('Cost so far: {0}.', cost) : undefined,
    percent >= 80 ? l10n.t('When it is full the agent forgets or compacts earlier parts of the conversation.') : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return { text, title, level: percent >= 95 ? 'critical' : percent >= 80 ? 'warning' : 'ok' };
}

export class SessionControls {
  /** Pickers shown in the header row. */
  readonly pickers: HTMLElement;
  /** The usage meter (hidden when the agent reports no usage). */
  readonly meter: HTMLElement;
  private readonly menuButton: HTMLButtonElement;
  private readonly menu: HTMLElement;
  /** Header pickers moved into the options menu (the last ones) so the header stays one row. */
  private overflow = 0;
  private row: HTMLElement | undefined;
  private fitting = false;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.menu = h('div', { class: 'options-menu', role: 'group', 'aria-label': l10n.t('Session options') });
    this.menu.hidden = true;
    this.menuButton = button('', () => this.toggleMenu(), {
      cls: 'icon-button',
      icon: 'settings',
      label: l10n.t('Session options'),
      title: l10n.t('More session options'),
    });
    this.menuButton.setAttribute('aria-expanded', 'false');
    this.menu.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.toggleMenu(false);
        this.menuButton.focus();
      }
    });
    this.pickers = h('span', { class: 'session-pickers' });
    this.meter = h('span', { class: 'usage-meter', role: 'meter', 'aria-label': l10n.t('Context used') });
    this.meter.hidden = true;
  }

  /** Keeps `row` (the header) to one row: pickers that do not fit go into the options menu, last first. */
  fitInto(row: HTMLElement): void {
    this.row = row;
    new ResizeObserver(() => this.renderOptions()).observe(row);
  }

  renderOptions(): void {
    const row = this.row;
    if (row === undefined || this.fitting || row.clientWidth === 0) return this.paint();
    this.fitting = true;
    try {
      const count = this.store.configOptions.filter((o) => HEADER_CATEGORIES.has(o.category ?? '')).length;
      this.overflow = 0;
      this.paint();
      // The group may shrink below its pickers (they would overlap the buttons after it): both count.
      const overflowing = (): boolean => row.scrollWidth > row.clientWidth + 1 || this.pickers.scrollWidth > this.pickers.clientWidth + 1;
      while (overflowing() && this.overflow < count) {
        this.overflow++;
        this.paint();
      }
    } finally {
      this.fitting = false;
    }
  }

  private paint(): void {
    const options = this.store.configOptions;
    const header = options.filter((o) => HEADER_CATEGORIES.has(o.category ?? ''));
    const inHeader = header.slice(0, header.length - this.overflow);
    const inMenu = [...header.slice(inHeader.length), ...options.filter((o) => !HEADER_CATEGORIES.has(o.category ?? ''))];
    const focused =
      this.pickers.contains(document.activeElement) || this.menu.contains(document.activeElement)
        ? (document.activeElement as HTMLElement).dataset.configId
        : undefined;
    this.pickers.replaceChildren(...inHeader.map((o) => this.control(o)), ...(inMenu.length > 0 ? [this.menuButton] : []));
    this.menu.replaceChildren(
      ...inMenu.map((o) => h('label', { class: 'option-row', title: o.description }, h('span', { class: 'option-name' }, o.name), this.control(o))),
    );
    if (inMenu.length === 0) this.toggleMenu(false);
    // A re-render keeps the keyboard where it was.
    if (focused !== undefined)
      (
        this.pickers.querySelector<HTMLElement>(`[data-config-id="${CSS.escape(focused)}"]`) ??
        this.menu.querySelector<HTMLElement>(`[data-config-id="${CSS.escape(focused)}"]`)
      )?.focus();
  }

  renderUsage(): void {
    const usage = this.store.usage;
    const shownBefore = !this.meter.hidden;
    this.meter.hidden = usage === undefined;
    if (shownBefore !== !this.meter.hidden) this.renderOptions();
    if (!usage) return;
    const { text, title, level } = usageText(usage);
    this.meter.textContent = text;
    this.meter.title = title;
    this.meter.dataset.level = level;
    this.meter.setAttribute('aria-valuemin', '0');
    this.meter.setAttribute('aria-valuemax', String(usage.size));
    this.meter.setAttribute('aria-valuenow', String(usage.used));
    this.meter.setAttribute('aria-valuetext', text);
  }

  /** The panel around the header: the options menu opens below the header row. */
  get menuElement(): HTMLElement {
    return this.menu;
  }

  private toggleMenu(open = this.menu.hidden): void {
    this.menu.hidden = !open;
    this.menuButton.setAttribute('aria-expanded', String(open));
    if (open) this.menu.querySelector<HTMLElement>('select, input')?.focus();
  }

  private control(option: ConfigOptionView): HTMLElement {
    if (option.type === 'boolean') {
      const box = h('input', { type: 'checkbox', class: 'config-toggle', 'data-config-id': option.id, 'aria-label': option.name, title: option.description });
      box.checked = option.currentValue === true;
      box.addEventListener('change', () => this.host.post({ type: 'setConfigOption', configId: option.id, value: box.checked }));
      return box;
    }
    const select = h('select', { class: `config-picker category-${option.category ?? 'other'}`, 'data-config-id': option.id, 'aria-label': option.name });
    const groups = new Map<string | undefined, HTMLElement[]>();
    // A current value the agent did not list (Cline's provider) is shown as it is, not as the first choice.
    if (!(option.choices ?? []).some((c) => c.value === option.currentValue) && option.currentValue !== undefined && option.currentValue !== '')
      groups.set(undefined, [h('option', { value: String(option.currentValue) }, String(option.currentValue))]);
    for (const choice of option.choices ?? []) {
      const el = h('option', { value: choice.value, title: choice.description }, choice.name);
      groups.set(choice.group, [...(groups.get(choice.group) ?? []), el]);
    }
    for (const [group, items] of groups) {
      if (group === undefined) select.append(...items);
      else select.append(h('optgroup', { label: group }, ...items));
    }
    select.value = String(option.currentValue);
    const current = option.choices?.find((c) => c.value === option.currentValue);
    select.title = `${option.name}: ${current?.name ?? option.currentValue}${current?.description ? ` — ${current.description}` : ''}`;
    // The picker shows the new value only once the host confirms it (it snaps back on a refusal).
    select.addEventListener('change', () => this.host.post({ type: 'setConfigOption', configId: option.id, value: select.value }));
    return select;
  }
}
