/**
 * The composer's chips: what the next prompt points the agent at. Kept per conversation, in memory
 * for this page (whole) and in the webview state for reloads (media within a budget, see Host.chips).
 * The tray is one tab stop (roving tabindex): ←/→/Home/End move between chips, Backspace/Delete
 * remove the focused one, Enter opens what it points at; the × button removes with the mouse.
 * Adding chips never moves focus; removing the focused chip hands focus to its neighbour.
 */
import * as l10n from '@vscode/l10n';
import type { MentionChip, MentionSpec } from '../../src/protocol/messages';
import { chipKey, composerChip, setChipUnsupported, unsupportedReason } from './chips';
import type { PromptCapabilities } from './chips';
import { h } from '../core/dom';
import type { Host } from '../core/vscodeApi';

export class ChipTray {
  readonly element: HTMLElement;
  private chips: MentionChip[];
  /** This page's chips per conversation, media included even when too big to persist. */
  private readonly memory = new Map<string, MentionChip[]>();
  private readonly elements = new WeakMap<MentionChip, HTMLElement>();
  /** The chip focused last while focus is among the chips; -1 otherwise (then the last chip is the tab stop). */
  private chosen = -1;

  constructor(
    private readonly host: Host,
    private readonly capabilities: () => PromptCapabilities,
    /** Focus goes back to the message box (after the last chip, or when no chip is left). */
    private readonly focusInput: () => void,
    /** Called after the chips changed (buttons, notes). */
    private readonly onChange: () => void,
  ) {
    this.element = h('div', { class: 'mention-chips', role: 'list', 'aria-label': l10n.t('Context for the next message') });
    this.chips = [...host.chips];
    this.element.addEventListener('keydown', (event) => this.keydown(event));
    this.element.addEventListener('focusin', (event) => {
      const index = this.indexOf(event.target);
      if (index < 0) return;
      this.chosen = index;
      this.setTabStop(index);
    });
    // Coming back (Shift+Tab from the message box) lands on the last chip, next to the text.
    this.element.addEventListener('focusout', (event) => {
      if (event.relatedTarget instanceof Node && this.element.contains(event.relatedTarget)) return;
      this.chosen = -1;
      this.setTabStop(this.chips.length - 1);
    });
    this.element.addEventListener('click', (event) => {
      const index = this.indexOf(event.target);
      if (index >= 0) this.open(index);
    });
    this.render();
  }

  get list(): readonly MentionChip[] {
    return this.chips;
  }

  get isEmpty(): boolean {
    return this.chips.length === 0;
  }

  /** The specs to send: chips the agent does not accept are left out. */
  sendable(): MentionSpec[] {
    const capabilities = this.capabilities();
    return this.chips.filter((c) => unsupportedReason(c.spec, capabilities) === undefined).map((c) => c.spec);
  }

  /** The reasons chips are held back, once each (for the composer's note). */
  heldBack(): string[] {
    const capabilities = this.capabilities();
    const kinds = new Set(this.chips.filter((c) => unsupportedReason(c.spec, capabilities) !== undefined).map((c) => c.spec.kind));
    const notes: string[] = [];
    if (kinds.has('image')) notes.push(l10n.t('The agent does not accept images: image chips will not be sent.'));
    if (kinds.has('audio')) notes.push(l10n.t('The agent does not accept audio: audio chips will not be sent.'));
    return notes;
  }

  /** Appends chips not already there (same uri and range); shows the last one added, focus stays. */
  add(chips: readonly MentionChip[]): number {
    const seen = new Set(this.chips.map((c) => chipKey(c.view)).filter((k) => k !== undefined));
    const added: MentionChip[] = [];
    for (const chip of chips) {
      const key = chipKey(chip.view);
      if (key !== undefined && seen.has(key)) continue;
      if (key !== undefined) seen.add(key);
      added.push(chip);
    }
    if (added.length === 0) return 0;
    this.chips = [...this.chips, ...added];
    this.changed();
    this.elements.get(added[added.length - 1])?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    return added.length;
  }

  removeLast(): boolean {
    if (this.chips.length === 0) return false;
    this.remove(this.chips.length - 1);
    return true;
  }

  /** Sent: the chips and their persisted copy go. */
  clear(): void {
    if (this.chips.length === 0) return;
    this.chips = [];
    this.changed();
  }

  /** Capabilities changed: re-mark held-back chips. */
  refresh(): void {
    this.render();
  }

  /**
   * Another conversation is shown (the host's scope already moved): its chips come back. Chips
   * added before the panel knew any conversation belong to the first one shown, as the draft does.
   */
  conversationChanged(previousScope: string): void {
    const carried = previousScope === '' ? this.chips : [];
    if (previousScope === '') {
      this.memory.delete('');
      delete this.host.ui.chips[''];
    }
    const own = this.memory.get(this.host.scope) ?? this.host.chips;
    this.chips = own.length === 0 && carried.length > 0 ? carried : [...own];
    this.chosen = -1;
    if (carried.length > 0) this.changed();
    else this.render();
  }

  private changed(): void {
    this.memory.set(this.host.scope, this.chips);
    this.host.chips = this.chips;
    this.host.saveNow();
    this.render();
    this.onChange();
  }

  private remove(index: number): void {
    const hadFocus = this.element.contains(document.activeElement);
    this.chips = this.chips.filter((_, i) => i !== index);
    this.changed();
    // Only a chip that had focus hands it on; a click on × leaves focus where it was.
    if (!hadFocus || this.element.contains(document.activeElement)) return;
    if (this.chips.length === 0) this.focusInput();
    else this.focusChip(Math.max(0, index - 1));
  }

  private open(index: number): void {
    const view = this.chips[index]?.view;
    if (!view?.uri) return;
    const line = typeof view.range?.startLine === 'number' ? view.range.startLine : undefined;
    this.host.post(line === undefined ? { type: 'openMention', uri: view.uri } : { type: 'openMention', uri: view.uri, line });
  }

  private keydown(event: KeyboardEvent): void {
    const index = this.indexOf(event.target);
    if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    switch (event.key) {
      case 'Backspace':
      case 'Delete':
        this.remove(index);
        break;
      case 'ArrowLeft':
        this.focusChip(Math.max(0, index - 1));
        break;
      case 'ArrowRight':
        if (index === this.chips.length - 1) this.focusInput();
        else this.focusChip(index + 1);
        break;
      case 'Home':
        this.focusChip(0);
        break;
      case 'End':
        this.focusChip(this.chips.length - 1);
        break;
      case 'Enter':
      case ' ':
        this.open(index);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  /** The index of the chip an event happened in (its × excluded), or -1. */
  private indexOf(target: EventTarget | null): number {
    if (!(target instanceof Element) || target.closest('.mention-remove')) return -1;
    const chip = target.closest<HTMLElement>('.mention-chip');
    return chip ? this.chips.findIndex((c) => this.elements.get(c) === chip) : -1;
  }

  private focusChip(index: number): void {
    const chip = this.chips[index];
    if (chip === undefined) return;
    this.chosen = index;
    this.setTabStop(index);
    this.elements.get(chip)?.focus();
  }

  private setTabStop(index: number): void {
    this.chips.forEach((chip, i) => this.elements.get(chip)?.setAttribute('tabindex', i === index ? '0' : '-1'));
  }

  private render(): void {
    const capabilities = this.capabilities();
    const children = this.chips.map((chip) => {
      let element = this.elements.get(chip);
      if (!element) {
        // Built once per chip: a thumbnail's data URL is decoded once, not on every change.
        element = composerChip(chip, () => {
          const at = this.chips.indexOf(chip);
          if (at >= 0) this.remove(at);
        });
        this.elements.set(chip, element);
      }
      setChipUnsupported(element, chip, unsupportedReason(chip.spec, capabilities));
      return element;
    });
    // Reconciled rather than replaced: a focused chip that stays must not be detached (it would blur).
    for (const old of Array.from(this.element.children)) if (!children.includes(old as HTMLElement)) old.remove();
    children.forEach((element, i) => {
      if (this.element.children[i] !== element) this.element.insertBefore(element, this.element.children[i] ?? null);
    });
    this.element.hidden = children.length === 0;
    this.setTabStop(this.chosen >= 0 && this.chosen < this.chips.length ? this.chosen : this.chips.length - 1);
  }
}
