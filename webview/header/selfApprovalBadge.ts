/**
 * The header's "Approves its own actions" badge: shown while the session's current mode lets the
 * agent approve its own actions (selfApproval.ts), so a user who sees no permission prompt knows why.
 * Its tooltip and accessible description say what the mode does and how to change it; a click (or
 * Enter) takes the keyboard to the mode picker, wherever the narrow header put it. Re-rendered when
 * the modes or the config options change.
 */
import * as l10n from '@vscode/l10n';
import { assertNever } from '../../src/protocol/guards';
import { button } from '../core/dom';
import type { Store } from '../store/store';
import { selfApproval, type SelfApproval } from './selfApproval';

/** The badge's words: short on screen, the whole sentence in the tooltip and the description. */
export function selfApprovalText(approval: SelfApproval): { label: string; detail: string } {
  switch (approval.kind) {
    case 'all':
      return {
        label: l10n.t('Approves its own actions'),
        detail: l10n.t(
          'Mode "{0}": the agent runs commands and edits files without asking you, so no permission prompt appears. To be asked first, pick another mode in the Mode picker.',
          approval.modeName,
        ),
      };
    case 'reviewed':
      return {
        label: l10n.t('Approves its own actions'),
        detail: l10n.t(
          'Mode "{0}": the agent’s own reviewer approves the actions it judges safe and asks you only about the others, so few permission prompts appear. To be asked about every action, pick another mode in the Mode picker.',
          approval.modeName,
        ),
      };
    case 'edits':
      return {
        label: l10n.t('Approves its own edits'),
        detail: l10n.t(
          'Mode "{0}": the agent edits files without asking you (commands still ask), so edits bring no permission prompt. To review each edit first, pick another mode in the Mode picker.',
          approval.modeName,
        ),
      };
    default:
      return assertNever(approval.kind);
  }
}

export class SelfApprovalBadge {
  readonly element: HTMLButtonElement;
  private readonly text: HTMLElement;

  constructor(
    private readonly store: Store,
    /** Takes the keyboard to the mode picker (opening the options menu when the picker is in it). */
    focusModePicker: () => void,
    /** The badge came or went: the one-row header fits again. */
    private readonly changedSize: () => void,
  ) {
    this.element = button('', () => focusModePicker(), { cls: 'self-approval', icon: 'shield' });
    this.text = document.createElement('span');
    this.text.className = 'self-approval-text';
    this.element.append(this.text);
    this.element.hidden = true;
  }

  render(): void {
    const approval = selfApproval(this.store.modes, this.store.configOptions);
    const wasShown = !this.element.hidden;
    this.element.hidden = approval === undefined;
    if (approval) {
      const { label, detail } = selfApprovalText(approval);
      this.text.textContent = label;
      this.element.title = detail;
      // The name is what it shows (WCAG 2.5.3); what it means is its description.
      this.element.setAttribute('aria-label', label);
      this.element.setAttribute('aria-description', detail);
      this.element.dataset.kind = approval.kind;
      this.element.dataset.mode = approval.modeId;
    }
    if (wasShown !== !this.element.hidden) this.changedSize();
  }
}
