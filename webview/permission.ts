/**
 * An inline permission prompt on a tool card: one native button per option (named as the agent
 * named it), roving focus with the arrow keys, digit shortcuts while the group has focus, and the
 * answer shown on the card afterwards.
 */
import type { PermissionOptionKind, PermissionView } from '../src/protocol/messages';
import { h, icon } from './dom';
import type { Host } from './vscodeApi';

const KIND_ICONS: Record<PermissionOptionKind, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

function isAllow(kind: string): boolean {
  return kind.startsWith('allow');
}

/** Renders the permission part of a card; returns null when there is nothing to show. */
export function renderPermission(permission: PermissionView, title: string, host: Host): HTMLElement | null {
  const state = permission.state;
  if (state.kind === 'selected') {
    const option = permission.options.find((o) => o.optionId === state.optionId);
    const name = option?.name ?? state.optionId;
    const allowed = option ? isAllow(option.kind) : true;
    return h(
      'div',
      { class: `permission-result ${allowed ? 'allowed' : 'rejected'}`, 'data-permission-state': 'selected' },
      icon(allowed ? 'check' : 'close'),
      ` ${allowed ? 'Allowed' : 'Rejected'}: ${name}`,
    );
  }
  if (state.kind === 'cancelled') {
    return h('div', { class: 'permission-result cancelled', 'data-permission-state': 'cancelled' }, icon('circle-slash'), ' Cancelled');
  }
  return pendingGroup(permission, title, host);
}

function pendingGroup(permission: PermissionView, title: string, host: Host): HTMLElement {
  const group = h('div', {
    role: 'group',
    class: 'permission',
    'aria-label': `Permission: ${title}`,
    'data-request-id': permission.requestId,
    'data-permission-state': 'pending',
  });
  const buttons = permission.options.map((option, index) => {
    const kind = option.kind in KIND_ICONS ? option.kind : 'reject_once';
    const b = h('button', {
      type: 'button',
      class: `permission-option ${isAllow(kind) ? 'allow' : 'reject'} ${kind.endsWith('always') ? 'always' : 'once'}`,
      'data-option-kind': kind,
      'data-option-id': option.optionId,
      'aria-label': option.name,
      'aria-keyshortcuts': index < 9 ? `${index + 1} Alt+${index + 1}` : undefined,
      tabindex: index === 0 ? 0 : -1,
    });
    b.append(icon(KIND_ICONS[kind]), h('span', { class: 'button-text' }, option.name));
    if (index < 9) b.append(h('kbd', { 'aria-hidden': 'true' }, String(index + 1)));
    b.addEventListener('click', () => answer(option.optionId));
    return b;
  });

  function answer(optionId: string): void {
    if (group.getAttribute('aria-busy') === 'true') return; // answered once; wait for the host
    group.setAttribute('aria-busy', 'true');
    for (const b of buttons) b.disabled = true;
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
        const digit = Number.parseInt(event.key, 10);
        if (!event.ctrlKey && !event.metaKey && digit >= 1 && digit <= buttons.length) {
          buttons[digit - 1].click();
          break;
        }
        return;
      }
    }
    event.preventDefault();
    event.stopPropagation();
  });

  const question = h('div', { class: 'permission-question' }, icon('shield'), ' The agent asks for permission');
  group.append(question, h('div', { class: 'permission-buttons' }, ...buttons));
  return group;
}

/**
 * Alt+1…9 anywhere in the panel answers the oldest pending prompt, so a keyboard user need not
 * move focus to the card first.
 */
export function installPermissionShortcuts(root: HTMLElement): void {
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const digit = Number.parseInt(event.code.replace(/^Digit/, ''), 10);
    if (!(digit >= 1 && digit <= 9)) return;
    const group = root.querySelector('[role="group"][data-permission-state="pending"]:not([aria-busy="true"])');
    const target = group?.querySelectorAll('button')[digit - 1];
    if (!target) return;
    event.preventDefault();
    target.click();
  });
}
