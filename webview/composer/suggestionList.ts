/**
 * What the composer's suggestion lists share — slash commands (CommandMenu) and `@` mentions
 * (MentionPicker): a listbox above the textarea, and the textarea as its ARIA 1.2 combobox
 * (role, aria-expanded, aria-controls, aria-activedescendant, aria-autocomplete). Focus stays in the
 * textarea throughout: ↑/↓ move the highlight (wrapping), Home/End too where the list wants it,
 * Enter or Tab pick, a click picks, Escape closes — and the list stays closed until the text
 * changes. Both lists pop up from the same textarea, so its state follows whichever one is open.
 */
import { h } from '../core/dom';

/** The textarea's combobox state, kept by the lists that pop up from it. */
class Combobox {
  private open: HTMLElement | undefined;

  constructor(private readonly textarea: HTMLTextAreaElement) {
    // A combobox, not a plain textbox: a textbox may not carry aria-expanded.
    textarea.setAttribute('role', 'combobox');
    textarea.setAttribute('aria-autocomplete', 'list');
    textarea.setAttribute('aria-haspopup', 'listbox');
    textarea.setAttribute('aria-expanded', 'false');
  }

  /** A list joined: the textarea controls it until another one opens. */
  added(list: HTMLElement): void {
    if (!this.textarea.hasAttribute('aria-controls')) this.textarea.setAttribute('aria-controls', list.id);
  }

  shown(list: HTMLElement): void {
    this.open = list;
    this.textarea.setAttribute('aria-controls', list.id);
    this.textarea.setAttribute('aria-expanded', 'true');
  }

  /** Only the open list closes the popup: a hidden one may not touch the other's state. */
  hidden(list: HTMLElement): void {
    if (this.open !== list) return;
    this.open = undefined;
    this.textarea.setAttribute('aria-expanded', 'false');
    this.textarea.removeAttribute('aria-activedescendant');
  }

  highlighted(list: HTMLElement, option: HTMLElement | undefined): void {
    if (this.open !== list) return;
    if (option) this.textarea.setAttribute('aria-activedescendant', option.id);
    else this.textarea.removeAttribute('aria-activedescendant');
  }
}

const comboboxes = new WeakMap<HTMLTextAreaElement, Combobox>();

/** Keys that move the caret without changing the text: it may leave (or enter) the word listed for. */
const CARET_KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];

export interface ListOptions {
  tag: 'ul' | 'div';
  className: string;
  id: string;
  label: string;
  /** Home and End move the highlight to the first and last option (else they move the caret). */
  homeEnd: boolean;
}

export abstract class SuggestionList<E extends HTMLElement> {
  readonly element: E;
  /** The highlighted option's index. */
  protected active = 0;
  private readonly combobox: Combobox;
  /** The textarea value Escape closed the list for: it stays closed until the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    protected readonly textarea: HTMLTextAreaElement,
    private readonly options: ListOptions,
  ) {
    this.element = h(options.tag, { class: options.className, role: 'listbox', id: options.id, 'aria-label': options.label }) as unknown as E;
    this.element.hidden = true;
    // Keep focus in the textarea when an option is pressed, so a click picks and typing goes on.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
    this.element.addEventListener('click', (event) => {
      const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const index = Number(option?.dataset.index);
      if (option && Number.isInteger(index)) this.pick(index);
    });
    let combobox = comboboxes.get(textarea);
    if (!combobox) comboboxes.set(textarea, (combobox = new Combobox(textarea)));
    this.combobox = combobox;
    combobox.added(this.element);
    for (const type of ['input', 'focus', 'click']) textarea.addEventListener(type, () => this.update());
    textarea.addEventListener('keyup', (event) => {
      if (CARET_KEYS.includes(event.key)) this.update();
    });
    textarea.addEventListener('blur', () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Recomputes the list from the text and caret: opens, refreshes or closes it. */
  abstract update(): void;

  /** How many options the highlight can move through. */
  protected abstract get count(): number;

  /** The option at `index` was chosen (Enter, Tab or a click). */
  protected abstract pick(index: number): void;

  /** Leaves the list (Escape, the textarea lost focus). */
  protected close(): void {
    this.hide();
  }

  /** Whether a list may show now: the textarea has focus and Escape did not close it for this text. */
  protected mayList(): boolean {
    if (this.dismissedFor !== undefined && this.dismissedFor !== this.textarea.value) this.dismissedFor = undefined;
    return this.dismissedFor === undefined && document.activeElement === this.textarea;
  }

  /** Shows these children (options that can be picked carry `role="option"`, an id and `data-index`). */
  protected show(children: Node[]): void {
    this.element.replaceChildren(...children);
    this.element.hidden = false;
    this.combobox.shown(this.element);
    this.renderActive();
  }

  protected hide(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.element.replaceChildren();
    this.combobox.hidden(this.element);
  }

  protected renderActive(): void {
    const options = this.element.querySelectorAll<HTMLElement>('[role="option"][data-index]');
    options.forEach((option, i) => option.setAttribute('aria-selected', String(i === this.active)));
    const current = options[this.active] as HTMLElement | undefined;
    this.combobox.highlighted(this.element, current);
    current?.scrollIntoView({ block: 'nearest' });
  }

  /** Handles a keydown in the textarea while the list is open; true when the key was consumed. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return false;
    const count = this.count;
    // With nothing to pick, Enter sends and Tab moves on as usual.
    const moving = !event.shiftKey && count > 0;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (!moving) return false;
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : -1) + count) % count;
        this.renderActive();
        break;
      case 'Home':
      case 'End':
        if (!moving || !this.options.homeEnd) return false;
        this.active = event.key === 'Home' ? 0 : count - 1;
        this.renderActive();
        break;
      case 'Enter':
      case 'Tab':
        if (!moving) return false;
        this.pick(this.active);
        break;
      case 'Escape':
        // Closing the list is all Escape does here: a running agent is not interrupted.
        this.dismissedFor = this.textarea.value;
        this.close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }
}
