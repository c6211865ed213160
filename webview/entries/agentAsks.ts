/**
 * Entries where the agent needs something from the user besides a permission: the sign-in card
 * (one button per auth method, with what each does), a question (an inline form checked before
 * Accept, or a link opened only with consent), and the compaction divider.
 */
import * as l10n from '@vscode/l10n';
import type { AuthEntry, CompactionEntry, Entry, QuestionEntry, QuestionFieldView } from '../../src/protocol/messages';
import { article, button, h, icon } from '../core/dom';
import { MarkdownStream } from './markdownStream';
import type { EntryView, ViewContext } from './viewContext';

function kindHint(kind: AuthEntry['methods'][number]['kind']): string {
  switch (kind) {
    case 'agent':
      return l10n.t('The agent signs you in (it may open a browser).');
    case 'terminal':
      return l10n.t("Runs the agent's own login in a terminal; answer it there.");
    case 'envVar':
      return l10n.t('Uses an API key from your environment.');
  }
}

export class AuthView implements EntryView {
  readonly kind = 'auth' as const;
  readonly element: HTMLElement;

  constructor(
    entry: Entry,
    private readonly ctx: ViewContext,
  ) {
    this.element = article('auth', l10n.t('Sign in'));
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'auth') return;
    const state = entry.state;
    const working = state.kind === 'working';
    const items = entry.methods.map((m, i) => {
      const b = button(m.name, () => this.ctx.host.post({ type: 'authenticate', methodId: m.id }), {
        cls: 'primary small',
        icon: m.kind === 'terminal' ? 'terminal' : m.kind === 'envVar' ? 'key' : 'sign-in',
      });
      b.dataset.authMethod = m.id;
      b.disabled = working || state.kind === 'done';
      const hint =
        m.kind === 'envVar' && m.envVar
          ? l10n.t('Asks for the key ({0}) and keeps it in VS Code’s secret storage; a key already in your environment is used as it is.', m.envVar)
          : kindHint(m.kind);
      // What a terminal method runs, in full, before anyone presses it; the button is described by
      // it, so a screen reader says the command with the button's name.
      const command = m.commandLine
        ? h(
            'div',
            { class: 'auth-command', id: `${entry.id}-command-${i}` },
            h('span', { class: 'auth-command-label' }, l10n.t('Runs:')),
            ' ',
            h('code', {}, m.commandLine),
          )
        : null;
      if (command) b.setAttribute('aria-describedby', command.id);
      return h('li', { class: 'auth-method' }, b, h('span', { class: 'auth-hint' }, [m.description, hint].filter(Boolean).join(' ')), command);
    });
    const status =
      state.kind === 'working'
        ? h('div', { role: 'status' }, icon('loading', 'codicon-modifier-spin'), ` ${l10n.t('Signing in…')}`)
        : state.kind === 'done'
          ? h('div', { role: 'status', class: 'auth-done' }, icon('pass'), ` ${l10n.t('Signed in.')}`)
          : state.kind === 'failed'
            ? h('div', { role: 'alert', class: 'auth-failed' }, icon('error'), ` ${l10n.t('Sign-in did not work: {0}', state.error)}`)
            : null;
    this.element.dataset.authState = state.kind;
    this.element.replaceChildren(
      h('div', { class: 'auth-title' }, icon('account'), ` ${l10n.t('{0} needs you to sign in', entry.agentName)}`),
      h('div', { class: 'auth-message' }, entry.message),
      items.length > 0
        ? h('ul', { class: 'auth-methods' }, ...items)
        : h('div', { class: 'auth-hint' }, l10n.t('None of the ways this agent offers to sign in can be used here.')),
      ...(status ? [status] : []),
    );
  }

  dispose(): void {}
}

export class QuestionView implements EntryView {
  readonly kind = 'question' as const;
  readonly element: HTMLElement;
  /** What the user entered last: the form comes back with it when the host finds a problem. */
  private entered: Record<string, string | number | boolean | string[]> = {};

  constructor(
    entry: Entry,
    private readonly ctx: ViewContext,
  ) {
    this.element = article('question', l10n.t('Question from the agent'));
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'question') return;
    this.element.dataset.questionState = entry.state.kind;
    const body = h('div', { class: 'question-message' }, icon('question'), ` ${entry.message}`);
    if (entry.state.kind !== 'pending') {
      const outcome =
        entry.state.kind === 'completed'
          ? l10n.t('Done.')
          : entry.state.action === 'accept'
            ? entry.mode === 'url'
              ? l10n.t('Opened in your browser.')
              : l10n.t('Answered.')
            : entry.state.action === 'decline'
              ? l10n.t('Declined.')
              : l10n.t('Cancelled.');
      this.element.replaceChildren(body, h('div', { class: 'question-outcome', role: 'status' }, outcome));
      return;
    }
    this.element.replaceChildren(body, entry.mode === 'url' ? this.link(entry) : this.form(entry));
  }

  private post(entry: QuestionEntry, action: 'accept' | 'decline' | 'cancel', content?: Record<string, string | number | boolean | string[]>): void {
    this.ctx.host.post(content ? { type: 'answerQuestion', entryId: entry.id, action, content } : { type: 'answerQuestion', entryId: entry.id, action });
  }

  private link(entry: QuestionEntry): HTMLElement {
    const open = button(
      entry.host ? l10n.t('Open {0} in the browser', entry.host) : l10n.t('Open the link in the browser'),
      () => this.ctx.host.post({ type: 'openQuestionUrl', entryId: entry.id }),
      { cls: 'primary small', icon: 'link-external' },
    );
    return h(
      'div',
      { class: 'question-link' },
      h('div', {}, `${l10n.t('The agent asks you to open:')} `, h('code', { class: 'question-url' }, entry.url ?? '')),
      h('div', {}, `${l10n.t('Host:')} `, h('strong', {}, entry.host ?? '')),
      ...(entry.hostWarning ? [h('div', { class: 'question-warning', role: 'alert' }, icon('warning'), ` ${entry.hostWarning}`)] : []),
      h(
        'div',
        { class: 'question-buttons' },
        open,
        button(l10n.t('Decline'), () => this.post(entry, 'decline'), { cls: 'small' }),
        button(l10n.t('Cancel'), () => this.post(entry, 'cancel'), { cls: 'small' }),
      ),
    );
  }

  private form(entry: QuestionEntry): HTMLElement {
    const form = h('div', { class: 'question-form', role: 'group', 'aria-label': entry.message });
    if (entry.unsupported) {
      form.append(h('div', { class: 'question-warning', role: 'alert' }, icon('warning'), ` ${entry.unsupported}`));
      form.append(
        h(
          'div',
          { class: 'question-buttons' },
          button(l10n.t('Decline'), () => this.post(entry, 'decline'), { cls: 'small primary' }),
          button(l10n.t('Cancel'), () => this.post(entry, 'cancel'), { cls: 'small' }),
        ),
      );
      return form;
    }
    const readers = (entry.fields ?? []).map((field) => this.field(form, field, entry.errors?.[field.name]));
    const collect = (): Record<string, string | number | boolean | string[]> => {
      const content: Record<string, string | number | boolean | string[]> = {};
      for (const [name, read] of readers) {
        const value = read();
        if (value !== undefined) content[name] = value;
      }
      return content;
    };
    form.append(
      h(
        'div',
        { class: 'question-buttons' },
        button(
          l10n.t('Accept'),
          () => {
            this.entered = collect();
            this.post(entry, 'accept', this.entered);
          },
          { cls: 'small primary' },
        ),
        button(l10n.t('Decline'), () => this.post(entry, 'decline'), { cls: 'small' }),
        button(l10n.t('Cancel'), () => this.post(entry, 'cancel'), { cls: 'small' }),
      ),
    );
    return form;
  }

  /** Adds one labelled control; returns how to read its value (undefined: left empty). */
  private field(form: HTMLElement, base: QuestionFieldView, error: string | undefined): [string, () => string | number | boolean | string[] | undefined] {
    const field = base.name in this.entered ? { ...base, default: this.entered[base.name] } : base;
    const id = `q-${Math.random().toString(36).slice(2)}`;
    const label = h('label', { for: id }, field.title, field.required ? h('span', { 'aria-hidden': 'true' }, ' *') : null);
    const row = h('div', { class: 'question-field', 'data-field': field.name }, label);
    let read: () => string | number | boolean | string[] | undefined;
    if (field.type === 'boolean') {
      const box = h('input', { id, type: 'checkbox' });
      box.checked = field.default === true;
      row.prepend(box);
      read = () => box.checked;
    } else if (field.type === 'choice') {
      const select = h(
        'select',
        { id, required: field.required },
        h('option', { value: '' }, field.required ? l10n.t('Choose…') : l10n.t('(none)')),
        ...(field.choices ?? []).map((c) => h('option', { value: c.value }, c.title)),
      );
      if (typeof field.default === 'string') select.value = field.default;
      row.append(select);
      read = () => (select.value === '' ? undefined : select.value);
    } else if (field.type === 'choices') {
      const boxes = (field.choices ?? []).map((c) => {
        const box = h('input', { type: 'checkbox', value: c.value });
        box.checked = Array.isArray(field.default) && field.default.includes(c.value);
        row.append(h('label', { class: 'question-choice' }, box, ` ${c.title}`));
        return box;
      });
      label.removeAttribute('for');
      read = () => boxes.filter((b) => b.checked).map((b) => b.value);
    } else {
      const numeric = field.type === 'number' || field.type === 'integer';
      const input = h('input', {
        id,
        type: numeric ? 'number' : field.format === 'email' ? 'email' : 'text',
        required: field.required,
        step: field.type === 'integer' ? '1' : undefined,
      });
      if (field.default !== undefined) input.value = String(field.default);
      row.append(input);
      read = () => (input.value === '' ? undefined : numeric ? Number(input.value) : input.value);
    }
    if (field.description) row.append(h('div', { class: 'question-help' }, field.description));
    if (error) {
      row.append(h('div', { class: 'question-error', role: 'alert' }, icon('error'), ` ${error}`));
      row.dataset.invalid = 'true';
    }
    form.append(row);
    return [field.name, read];
  }

  dispose(): void {}
}

export class CompactionView implements EntryView {
  readonly kind = 'compaction' as const;
  readonly element: HTMLElement;
  private readonly summary = new MarkdownStream();
  private readonly label = h('span', {});

  constructor(entry: Entry) {
    // A group, not a separator: a separator's content is presentational, and this one holds a disclosure.
    this.element = h('div', { class: 'compaction', role: 'group', 'aria-label': l10n.t('Conversation compacted') });
    const details = h('details', {}, h('summary', {}, icon('fold'), this.label), this.summary.element);
    this.element.append(details);
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'compaction') return;
    const e = entry as CompactionEntry;
    this.element.dataset.status = e.status;
    const label =
      e.status === 'in_progress'
        ? l10n.t('Compacting the conversation…')
        : e.status === 'failed'
          ? e.error
            ? l10n.t('Compacting failed: {0}', e.error)
            : l10n.t('Compacting failed')
          : l10n.t('Conversation compacted');
    this.label.textContent = ` ${label}`;
    this.element.setAttribute('aria-label', label);
    this.summary.update(e.summary || `_${l10n.t('No summary.')}_`);
  }

  dispose(): void {}
}
