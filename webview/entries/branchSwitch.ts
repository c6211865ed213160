/**
 * `‹ 1/2 ›` on an edited prompt: which version of the prompt this branch has, and buttons to show
 * the one before or after (`switchBranch`: the host shows that branch's thread and session in this
 * tab). Keyboard reachable as two buttons; the count is read as "Version 1 of 2".
 */
import * as l10n from '@vscode/l10n';
import type { UserEntry } from '../../src/protocol/messages';
import { button, h } from '../core/dom';
import type { Host } from '../core/vscodeApi';

/** The switch for an entry's `branch` mark; undefined when the prompt has a single version (or the mark is malformed). */
export function branchSwitch(entry: Pick<UserEntry, 'id' | 'branch'>, host: Host): HTMLElement | undefined {
  const mark = entry.branch;
  if (!mark || !Number.isInteger(mark.index) || !Number.isInteger(mark.count) || mark.count < 2 || mark.index < 1 || mark.index > mark.count) return undefined;
  const entryId = entry.id;
  const go = (offset: number) => host.post({ type: 'switchBranch', entryId, offset });
  const previous = button('', () => go(-1), { cls: 'icon-button branch-prev', icon: 'chevron-left', label: l10n.t('Previous version of this prompt') });
  const next = button('', () => go(1), { cls: 'icon-button branch-next', icon: 'chevron-right', label: l10n.t('Next version of this prompt') });
  previous.disabled = mark.index === 1;
  next.disabled = mark.index === mark.count;
  const label = l10n.t('Version {0} of {1}', mark.index, mark.count);
  return h(
    'span',
    { class: 'branch-switch', role: 'group', 'aria-label': l10n.t('Versions of this prompt') },
    previous,
    h(
      'span',
      { class: 'branch-count', title: label },
      h('span', { 'aria-hidden': 'true' }, `${mark.index}/${mark.count}`),
      h('span', { class: 'visually-hidden' }, label),
    ),
    next,
  );
}
