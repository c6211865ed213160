/**
 * An inline permission prompt on a tool card: one native button per option (named as the agent
 * named it), and the answer shown on the card afterwards — with the rule that answered, or the rule
 * Tandem proposes after an "always" answer (see ruleProposal.ts).
 *
 * Safety: one-time answers come first and carry the shortcuts (1, 2…, Alt+1…), and the tab stop is
 * the safest allowing option ("allow once") whatever order the agent sent. A standing grant
 * ("always") has no shortcut: it takes a click, or arrowing to it and Enter. The prompt never takes
 * focus by itself.
 */
import * as l10n from '@vscode/l10n';
import type { PermissionOptionKind, PermissionOptionView, PermissionView } from '../../src/protocol/messages';
import { h, icon } from '../core/dom';
import { renderRuleProposal, withCodeSpans } from './ruleProposal';
import type { Host } from '../core/vscodeApi';

const KIND_ICONS: Record<PermissionOptionKind, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/** Display order: one-time answers first, the safest allowing one leading. */
const ORDER: Record<PermissionOptionKind, number> = { allow_once: 0, reject_once: 1, allow_always: 2, reject_always: 3 };

function isAllow(kind: string): boolean {
  return kind.startsWith('allow');
}

function kindOf(option: PermissionOptionView): PermissionOptionKind {
  return option.kind in KIND_ICONS ? option.kind : 'reject_once';
}

/** Renders the permission part of a card; returns null when there is nothing to show. */
export function renderPermission(permission: PermissionView, title: string, host: Host): HTMLElement | null {
  const state = permission.state;
  if (state.kind === 'cancelled') {
    return h('div', { class: 'permission-result cancelled', 'data-permission-state': 'cancelled' }, icon('circle-slash'), ` ${l10n.t('Cancelled')}`);
  }
  if (state.kind === 'pending') return pendingGroup(permission, title, host);
  const option = permission.options.find((o) => o.optionId === state.optionId);
  const allowed = option ? isAllow(option.kind) : permission.rule?.decision !== 'reject';
  const result = h(
    'div',
    { class: `permission-result ${allowed ? 'allowed' : 'rejected'}`, 'data-permission-state': 'selected' },
    icon(allowed ? 'check' : 'close'),
  );
  if (permission.rule) {
    result.setAttribute('data-rule-id', permission.rule.id);
    result.append(h('span', {}, ` ${allowed ? l10n.t('Allowed by rule:') : l10n.t('Rejected by rule:')} `), withCodeSpans(permission.rule.label), ' ');
    const rules = h('button', { type: 'button', class: 'link' }, l10n.t('Rules…'));
    rules.addEventListener('click', () => host.post({ type: 'manageRules', ruleId: permission.rule?.id }));
    result.append(rules);
  } else {
    result.append(` ${allowed ? l10n.t('Allowed: {0}', option?.name ?? state.optionId) : l10n.t('Rejected: {0}', option?.name ?? state.optionId)}`);
  }
  const proposal = permission.proposal ? renderRuleProposal(permission.requestId, permission.proposal, host) : null;
  return proposal ? h('div', { class: 'permission-answer' }, result, proposal) : result;
}

function pendingGroup(permission: PermissionView, title: string, host: Host): HTMLElement {
  const group = h('div', {
    role: 'group',
    class: 'permission',
    'aria-label': l10n.t('Permission: {0}', title),
    'data-request-id': permission.requestId,
    'data-permission-state': 'pending',
  });
  const ordered = permission.options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => ORDER[kindOf(a.option)] - ORDER[kindOf(b.option)] || a.index - b.index);
  let shortcut = 0;
  const buttons = ordered.map(({ option }, position) => {
    const kind = kindOf(option);
    const standing = kind.endsWith('always');
    const digit = !standing && shortcut < 9 ? ++shortcut : undefined;
    const b = h('button', {
      type: 'button',
      class: `permission-option ${isAllow(kind) ? 'allow' : 'reject'} ${standing ? 'always' : 'once'}`,
      'data-option-kind': kind,
      'data-option-id': option.optionId,
      'data-shortcut': digit,
      'aria-label': standing ? l10n.t('{0} (a standing answer)', option.name) : option.name,
      'aria-keyshortcuts': digit === undefined ? undefined : `${digit} Alt+${digit}`,
      tabindex: position === 0 ? 0 : -1,
    });
    b.append(icon(KIND_ICONS[kind]), h('span', { class: 'button-text' }, option.name));
    // The digit is drawn by CSS (attr(data-key)): as text it would be part of the visible label
    // without being in the name (WCAG 2.5.3); aria-keyshortcuts tells it instead.
    if (digit !== undefined) b.append(h('kbd', { 'aria-hidden': 'true', 'data-key': String(digit) }));
    b.addEventListener('click', () => answer(option.optionId));
    return b;
  });

  function answer(optionId: string): void {
    if (group.getAttribute('aria-busy') === 'true') return; // answered once; wait for the host
    group.setAttribute('aria-busy', 'true');
    // aria-disabled, not disabled: a disabled button would drop keyboard focus to the page; the
    // card moves it to the answer once the host confirms (toolCard.ts).
    for (const b of buttons) b.setAttribute('aria-disabled', 'true');
    host.post({ type: 'respondPermission', requestId: permission.requestId, optionId });
  }

  function focusAt(index: number): void {
    const count = buttons.length;
    if (count === 0) return;
    const target = buttons[((index % count) + count) % count];
    for (const b of buttons) b.tabIndex = b === target ? 0 : -1;
    target.focus();
  }

  group.addEventListener('keydown', (event) => {
    const current = buttons.findIndex((b) => b === document.activeElement);
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        focusAt(current + 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        focusAt(current - 1);
        break;
      case 'Home':
        focusAt(0);
        break;
      case 'End':
        focusAt(buttons.length - 1);
        break;
      default: {
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        const target = group.querySelector<HTMLButtonElement>(`button[data-shortcut="${CSS.escape(event.key)}"]`);
        if (!target) return;
        target.click();
        break;
      }
    }
    event.preventDefault();
    event.stopPropagation();
  });

  const question = h('div', { class: 'permission-question' }, icon('shield'), ` ${l10n.t('The agent asks for permission')}`);
  group.append(question, h('div', { class: 'permission-buttons' }, ...buttons));
  return group;
}

/**
 * Alt+1…9 anywhere in the panel answers the oldest pending prompt with its one-time option N, so a
 * keyboard user need not move focus to the card first. Never a standing ("always") answer.
 */
export function installPermissionShortcuts(root: HTMLElement): void {
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const digit = Number.parseInt(event.code.replace(/^Digit/, ''), 10);
    if (!(digit >= 1 && digit <= 9)) return;
    const group = root.querySelector('[role="group"][data-permission-state="pending"]:not([aria-busy="true"])');
    const target = group?.querySelector<HTMLButtonElement>(`button[data-shortcut="${digit}"]`);
    if (!target) return;
    event.preventDefault();
    target.click();
  });
}
