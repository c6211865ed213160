/**
 * The session's settings in the header: compact pickers for the mode, model and reasoning level
 * (`category` mode / model / thought_level) and an options menu for the rest; boolean options are
 * checkboxes. Every control carries `data-config-id`, is named by the option's name, and shows the
 * option's current value as the host last confirmed it (a refused change snaps back). Also the
 * usage meter: how full the agent's context is, with warning colours at 80 % and 95 %.
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../../src/protocol/displayLanguage';
import type { ConfigOptionView, UsageView } from '../../src/protocol/messages';
import { button, h } from '../core/dom';
import { readableSelectWidth } from '../core/readableWidth';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

const HEADER_CATEGORIES = new Set(['mode', 'model', 'thought_level']);

/** What the header gives up, in order, when its row is too narrow (see SessionControls.fitInto). */
export interface HeaderSqueeze {
  /** `full`: "Tandem Demo ready"; `short`: "ready" (the agent picker names the agent); `hidden`: read by assistive technology only. */
  setStatus(level: 'full' | 'short' | 'hidden'): void;
  /** The status text is cut. */
  statusCut(): boolean;
}

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
  private squeeze: HeaderSqueeze | undefined;
  private modePicker: { select: HTMLSelectElement; name: string } | undefined;
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

  /**
   * Keeps `row` (the header) to one row in which nothing is cut below a readable width: each picker
   * may shrink only to its readable width (readableWidth.ts), so a row too narrow overflows, and then
   * the header gives way step by step — the status says only the state, then steps out of sight
   * (still read), then pickers move into the options menu (last first) — until it fits. `squeeze` is the
   * header's part of that (its status text and its own pickers).
   */
  fitInto(row: HTMLElement, squeeze: HeaderSqueeze): void {
    this.row = row;
    this.squeeze = squeeze;
    new ResizeObserver(() => this.renderOptions()).observe(row);
  }

  /** The agent's own mode picker (session/set_mode): first of the header's pickers, and into the menu like them. */
  adoptModePicker(select: HTMLSelectElement, name: string): void {
    this.modePicker = { select, name };
  }

  /** The keyboard to the mode picker (the agent's modes or its mode option), in the row or in the options menu. */
  focusModePicker(): void {
    const mode = this.modePicker && !this.modePicker.select.hidden ? this.modePicker.select : undefined;
    const target =
      (mode?.isConnected ? mode : undefined) ??
      this.pickers.querySelector<HTMLElement>('.config-picker.category-mode') ??
      this.menu.querySelector<HTMLElement>('.config-picker.category-mode');
    if (!target) return;
    if (this.menu.contains(target)) this.toggleMenu(true);
    target.focus();
  }

  renderOptions(): void {
    const row = this.row;
    if (row === undefined || this.fitting || row.clientWidth === 0) return this.paint();
    this.fitting = true;
    try {
      const squeeze = this.squeeze;
      const count = this.headerPickerCount();
      this.overflow = 0;
      squeeze?.setStatus('full');
      this.paint();
      const cut = (): boolean => this.overflowing(row) || (squeeze?.statusCut() ?? false);
      // The status goes first: the agent picker names the agent, the busy bar shows work going on.
      if (cut()) squeeze?.setStatus('short');
      if (cut()) squeeze?.setStatus('hidden');
      while (cut() && this.overflow < count) {
        this.overflow++;
        this.paint();
      }
    } finally {
      this.fitting = false;
    }
  }

  /** The row or the pickers' group is wider than its room: something is cut or overlaps. */
  private overflowing(row: HTMLElement): boolean {
    return row.scrollWidth > row.clientWidth + 1 || this.pickers.scrollWidth > this.pickers.clientWidth + 1;
  }

  private headerPickerCount(): number {
    const mode = this.modePicker && !this.modePicker.select.hidden ? 1 : 0;
    return mode + this.store.configOptions.filter((o) => HEADER_CATEGORIES.has(o.category ?? '')).length;
  }

  private paint(): void {
    const options = this.store.configOptions;
    const mode = this.modePicker && !this.modePicker.select.hidden ? this.modePicker : undefined;
    type Item = { kind: 'mode'; select: HTMLSelectElement; name: string } | { kind: 'option'; option: ConfigOptionView };
    const header: Item[] = [
      ...(mode ? [{ kind: 'mode' as const, select: mode.select, name: mode.name }] : []),
      ...options.filter((o) => HEADER_CATEGORIES.has(o.category ?? '')).map((option) => ({ kind: 'option' as const, option })),
    ];
    const inHeader = header.slice(0, header.length - this.overflow);
    const inMenu: Item[] = [
      ...header.slice(inHeader.length),
      ...options.filter((o) => !HEADER_CATEGORIES.has(o.category ?? '')).map((option) => ({ kind: 'option' as const, option })),
    ];
    const focused =
      this.pickers.contains(document.activeElement) || this.menu.contains(document.activeElement) ? (document.activeElement as HTMLElement) : undefined;
    const focusedId = focused?.dataset.configId;
    const inline = inHeader.map((item) => (item.kind === 'mode' ? item.select : this.control(item.option)));
    this.pickers.replaceChildren(...inline, ...(inMenu.length > 0 ? [this.menuButton] : []));
    this.menu.replaceChildren(
      ...inMenu.map((item) =>
        item.kind === 'mode'
          ? h('label', { class: 'option-row', title: item.select.title }, h('span', { class: 'option-name' }, item.name), item.select)
          : h(
              'label',
              { class: 'option-row', title: item.option.description },
              h('span', { class: 'option-name' }, item.option.name),
              this.control(item.option),
            ),
      ),
    );
    // Pickers in the row shrink only to a readable width (the row overflows instead: see renderOptions).
    for (const select of inline) if (select instanceof HTMLSelectElement) select.style.minWidth = `${readableSelectWidth(select)}px`;
    for (const select of this.menu.querySelectorAll('select')) select.style.minWidth = '';
    if (inMenu.length === 0) this.toggleMenu(false);
    // A re-render keeps the keyboard where it was (the mode picker is the same element, moved).
    if (focused && !focused.isConnected) return;
    if (focused && document.activeElement !== focused) focused.focus();
    else if (focusedId !== undefined)
      (
        this.pickers.querySelector<HTMLElement>(`[data-config-id="${CSS.escape(focusedId)}"]`) ??
        this.menu.querySelector<HTMLElement>(`[data-config-id="${CSS.escape(focusedId)}"]`)
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
