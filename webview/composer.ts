/**
 * The composer: a textarea (Enter sends, Shift+Enter adds a line), Send, and Stop while a turn
 * runs; `/` at the start suggests the agent's slash commands (CommandMenu). Enter always takes the
 * prompt: while the agent starts or works it is queued (shown above) and sent when it can be. The
 * draft is saved per conversation on every edit so hiding the view or switching tabs loses
 * nothing; focus is never taken.
 */
import { CommandMenu } from './commandMenu';
import { button, h } from './dom';
import type { Store } from './store';
import type { Host } from './vscodeApi';

export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly menu: CommandMenu;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.textarea = h('textarea', { class: 'composer-input', 'aria-label': 'Message', rows: 3, placeholder: 'Ask the agent… (Enter to send, Shift+Enter for a new line)' });
    this.textarea.value = host.draft;
    this.textarea.addEventListener('input', () => this.draftChanged());
    this.menu = new CommandMenu(this.textarea, () => this.store.commands, () => this.draftChanged());
    this.textarea.addEventListener('keydown', (event) => {
      // An open suggestion list owns the arrows, Enter, Tab and Escape (which then does not stop the agent).
      if (this.menu.handleKey(event)) return;
      if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      } else if (event.key === 'Escape' && this.store.status.kind === 'running') {
        // Esc interrupts the agent, as in terminal agents; the draft is kept.
        event.preventDefault();
        host.post({ type: 'cancel' });
      }
    });
    this.send = button('Send', () => this.submit(), { cls: 'primary', icon: 'send', title: 'Send (Enter); while the agent works, the prompt is queued' });
    this.stop = button('Stop', () => host.post({ type: 'cancel' }), { cls: 'secondary', icon: 'debug-stop', title: 'Stop the agent (Esc)' });
    const field = h('div', { class: 'composer-field' }, this.menu.element, this.textarea);
    this.element = h('div', { class: 'composer' }, field, h('div', { class: 'composer-buttons' }, this.stop, this.send));
    this.render();
  }

  /** The agent's command list changed: refresh the suggestions if they are being shown or typed for. */
  renderCommands(): void {
    this.menu.update();
  }

  /**
   * Another conversation is shown: its own draft comes back (the host's scope already moved).
   * Text typed before the panel knew any conversation (before the first snapshot) belongs to the
   * first one shown, not to nobody.
   */
  conversationChanged(previousScope: string): void {
    if (previousScope === '') {
      if (this.textarea.value !== '' && this.host.draft === '') this.host.draft = this.textarea.value;
      delete this.host.ui.drafts[''];
      this.host.saveNow();
    }
    if (this.textarea.value === this.host.draft) return;
    this.textarea.value = this.host.draft;
    this.menu.update();
    this.renderButtons();
  }

  private draftChanged(): void {
    this.host.draft = this.textarea.value;
    this.host.saveNow();
    this.renderButtons();
  }

  /** Prompts are taken in every state that can end in a send (queued until then). */
  private canSend(): boolean {
    const kind = this.store.status.kind;
    return this.store.hasSnapshot && kind !== 'no_agent' && kind !== 'untrusted';
  }

  private submit(): void {
    const text = this.textarea.value;
    if (text.trim() === '' || !this.canSend()) return;
    this.host.post({ type: 'prompt', text });
    this.textarea.value = '';
    this.host.draft = '';
    this.host.saveNow();
    this.renderButtons();
  }

  render(): void {
    const kind = this.store.status.kind;
    const busy = kind === 'running' || kind === 'cancelling';
    this.stop.hidden = !busy;
    this.stop.disabled = kind === 'cancelling';
    this.renderButtons();
  }

  private renderButtons(): void {
    this.send.disabled = !this.canSend() || this.textarea.value.trim() === '';
  }
}
