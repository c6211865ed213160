/**
 * The composer: a textarea (Enter sends, Shift+Enter adds a line), Send, and Stop while a turn
 * runs; `/` at the start suggests the agent's slash commands (CommandMenu), `@` suggests context to
 * mention (MentionPicker), and picks, drops, pastes and the host's "Add … to Conversation" become
 * chips above the textarea (ChipTray). Enter always takes the prompt: while the agent starts or
 * works it is queued (shown above) and sent when it can be — unless the agent takes steering: then
 * a prompt written while a turn runs goes into that turn (the placeholder says so). Draft and chips are saved per
 * conversation on every change so hiding the view or switching tabs loses nothing; focus is never
 * taken. The agent's predicted next prompt shows as ghost text while it is empty (PromptGhost).
 */
import * as l10n from '@vscode/l10n';
import type { MentionChip } from '../../src/protocol/messages';
import { Attachments } from './attachments';
import { ChipTray } from './chipTray';
import { CommandMenu } from './commandMenu';
import { button, h, icon } from '../core/dom';
import { MentionPicker } from './mentionPicker';
import { NotesChip } from './notesChip';
import { PromptGhost } from './promptGhost';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

/** How long a "not added" message stays (it also goes when something is added or sent). */
const MESSAGE_MS = 10_000;

/** The composer's usual placeholder and Send title (functions: l10n is set up after the module loads). */
const PLACEHOLDER = (): string => l10n.t('Ask the agent… (@ to add context, Enter to send, Shift+Enter for a new line)');
const SEND_TITLE = (): string => l10n.t('Send (Enter); while the agent works, the prompt is queued');

export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly menu: CommandMenu;
  private readonly picker: MentionPicker;
  private readonly tray: ChipTray;
  /** Review notes that go with the next message. */
  private readonly notes: NotesChip;
  /** What will not be sent and why (the agent does not accept images, …). */
  private readonly warning: HTMLElement;
  /** A short-lived message: something pasted or dropped was not added. */
  private readonly message: HTMLElement;
  /** The agent's predicted next prompt, as ghost text while the composer is empty. */
  private readonly ghost: PromptGhost;
  /** Enter was pressed before the panel had its snapshot: the prompt goes out once it has. */
  private sendOnConnect = false;
  /** Up arrow in the empty composer edits the last prompt (set by the app: the thread's entries are not the composer's); true when it did. */
  editLastPrompt: (() => boolean) | undefined;
  private messageTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.textarea = h('textarea', {
      class: 'composer-input',
      'aria-label': l10n.t('Message'),
      rows: 3,
      placeholder: PLACEHOLDER(),
    });
    this.textarea.value = host.draft;
    this.ghost = new PromptGhost(this.textarea, () => this.store.promptSuggestion);
    this.textarea.addEventListener('input', () => this.draftChanged());
    this.tray = new ChipTray(
      host,
      () => this.store.promptCapabilities,
      () => this.textarea.focus(),
      () => this.chipsChanged(),
    );
    this.menu = new CommandMenu(
      this.textarea,
      () => this.store.commands,
      () => this.draftChanged(),
    );
    this.picker = new MentionPicker(
      this.textarea,
      (requestId, query) => host.post({ type: 'mentionQuery', requestId, query }),
      (candidate) => {
        this.addChips([{ spec: candidate.spec, view: candidate.view }]);
        this.draftChanged();
      },
    );
    this.textarea.addEventListener('keydown', (event) => this.keydown(event));
    this.send = button(l10n.t('Send'), () => this.submit(), {
      cls: 'primary',
      icon: 'send',
      title: SEND_TITLE(),
    });
    this.stop = button(l10n.t('Stop'), () => host.post({ type: 'cancel' }), { cls: 'secondary', icon: 'debug-stop', title: l10n.t('Stop the agent (Esc)') });
    this.warning = h('div', { class: 'composer-warning', 'aria-live': 'polite' });
    this.message = h('div', { class: 'composer-message', role: 'status' });
    this.message.hidden = true;
    this.notes = new NotesChip(store, host);
    const field = h('div', { class: 'composer-field' }, this.menu.element, this.picker.element, this.textarea, this.ghost.hint);
    this.element = h(
      'div',
      { class: 'composer' },
      this.warning,
      this.message,
      this.notes.element,
      this.tray.element,
      field,
      h('div', { class: 'composer-buttons' }, this.stop, this.send),
    );
    new Attachments(this.element, {
      addChips: (chips) => this.addChips(chips),
      dropUris: (uris) => host.post({ type: 'dropUris', uris }),
      notify: (text) => this.say(text),
    });
    this.renderWarning();
    this.render();
    this.ghost.render();
  }

  /** The agent's command list changed: refresh the suggestions if they are being shown or typed for. */
  renderCommands(): void {
    this.menu.update();
  }

  /** The agent predicted a prompt, or withdrew it. */
  renderSuggestion(): void {
    this.ghost.render();
  }

  /** Picker results, chips from the host, or what the agent accepts changed. */
  mentionsChanged(): void {
    this.picker.showResults(this.store.mentionResults);
    const pending = this.store.pendingChips.splice(0);
    if (pending.length > 0) this.addChips(pending);
    this.tray.refresh();
    this.renderWarning();
    this.renderButtons();
    this.renderSteering();
  }

  /** The review notes changed (added, sent, discarded). */
  notesChanged(): void {
    this.notes.render();
    this.renderButtons();
  }

  /**
   * Another conversation is shown: its own draft and chips come back (the host's scope already
   * moved). What was typed or added before the panel knew any conversation (before the first
   * snapshot) belongs to the first one shown, not to nobody.
   */
  conversationChanged(previousScope: string): void {
    if (previousScope === '') {
      if (this.textarea.value !== '' && this.host.draft === '') this.host.draft = this.textarea.value;
      delete this.host.ui.drafts[''];
      this.host.saveNow();
    }
    this.tray.conversationChanged(previousScope);
    this.say(undefined);
    this.renderWarning();
    if (this.textarea.value !== this.host.draft) {
      this.textarea.value = this.host.draft;
      this.menu.update();
      this.picker.update();
    }
    this.ghost.render();
    this.renderButtons();
  }

  private keydown(event: KeyboardEvent): void {
    // An open suggestion list owns the arrows, Enter, Tab and Escape (which then does not stop the agent).
    if (this.menu.handleKey(event) || this.picker.handleKey(event)) return;
    if (this.ghost.accept(event)) return this.draftChanged();
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !event.isComposing;
    if (event.key === 'Enter' && plain) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'Escape' && this.store.status.kind === 'running') {
      // Esc interrupts the agent, as in terminal agents; the draft is kept.
      event.preventDefault();
      this.host.post({ type: 'cancel' });
    } else if (event.key === 'ArrowUp' && plain && this.textarea.value === '' && this.tray.isEmpty && this.editLastPrompt?.()) {
      event.preventDefault();
    } else if (event.key === 'Backspace' && plain && this.textarea.selectionStart === 0 && this.textarea.selectionEnd === 0 && !this.tray.isEmpty) {
      // Nothing before the caret to delete: the chip just before the text goes, as in a token field.
      event.preventDefault();
      this.tray.removeLast();
    }
  }

  private addChips(chips: MentionChip[]): void {
    if (this.tray.add(chips) > 0) this.say(undefined);
  }

  private chipsChanged(): void {
    this.renderWarning();
    this.renderButtons();
  }

  private draftChanged(): void {
    this.host.draft = this.textarea.value;
    this.host.saveNow();
    this.ghost.render();
    this.renderButtons();
  }

  /** Shows a short message (or clears it with undefined). */
  private say(text: string | undefined): void {
    clearTimeout(this.messageTimer);
    this.message.replaceChildren(...(text ? [icon('info'), h('span', {}, ` ${text}`)] : []));
    this.message.hidden = !text;
    if (text) this.messageTimer = setTimeout(() => this.say(undefined), MESSAGE_MS);
  }

  private renderWarning(): void {
    const notes = this.tray.heldBack();
    this.warning.replaceChildren(...notes.map((note) => h('div', {}, icon('warning'), ` ${note}`)));
    this.warning.hidden = notes.length === 0;
  }

  /** Prompts are taken in every state that can end in a send (queued until then). */
  private canSend(): boolean {
    const kind = this.store.status.kind;
    return this.store.hasSnapshot && kind !== 'no_agent' && kind !== 'untrusted';
  }

  /** Text, or at least one chip the agent accepts, or review notes: a prompt may be only chips or notes. */
  private hasContent(): boolean {
    return this.textarea.value.trim() !== '' || this.tray.sendable().length > 0 || this.notes.pending.length > 0;
  }

  private submit(): void {
    if (!this.hasContent()) return;
    if (!this.store.hasSnapshot) {
      // Still connecting (a slow host after a reload): keep the intent rather than drop the Enter.
      this.sendOnConnect = true;
      this.say(l10n.t('Connecting…'));
      return;
    }
    this.sendOnConnect = false;
    if (!this.canSend()) return;
    const text = this.textarea.value;
    const mentions = this.tray.sendable();
    this.host.post(mentions.length > 0 ? { type: 'prompt', text, mentions } : { type: 'prompt', text });
    this.textarea.value = '';
    this.host.draft = '';
    // The prediction was for this prompt: spent (the host withdraws it too when the turn starts).
    this.store.promptSuggestion = undefined;
    this.ghost.render();
    this.tray.clear();
    this.host.saveNow();
    this.say(undefined);
    this.renderButtons();
  }

  render(): void {
    if (this.sendOnConnect && this.store.hasSnapshot) this.submit();
    const kind = this.store.status.kind;
    const busy = kind === 'running' || kind === 'cancelling';
    this.stop.hidden = !busy;
    this.stop.disabled = kind === 'cancelling';
    this.renderButtons();
    this.renderSteering();
  }

  /** While a turn runs and the agent takes steering, Enter sends into that turn: the hints say so. */
  private renderSteering(): void {
    const steers = this.store.status.kind === 'running' && this.store.promptCapabilities?.steering === true;
    this.ghost.setPlaceholder(steers ? l10n.t('Enter steers the running turn (@ to add context, Shift+Enter for a new line)') : PLACEHOLDER());
    this.send.title = steers ? l10n.t('Send into the running turn (Enter): the agent takes it without stopping') : SEND_TITLE();
  }

  private renderButtons(): void {
    this.send.disabled = !this.canSend() || !this.hasContent();
  }
}
