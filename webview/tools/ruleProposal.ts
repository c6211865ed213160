/**
 * The rule Tandem offers after the user picked an "always" option: what it would match (editable),
 * where it would apply, Save or Not now. Nothing is remembered until Save; the host validates the
 * edited rule again and says why when it cannot be saved.
 */
import * as l10n from '@vscode/l10n';
import type { RuleProposalView } from '../../src/protocol/messages';
import { h, icon } from '../core/dom';
import type { Host } from '../core/vscodeApi';

/** What the edited value stands for, in words: "commands starting with" `npm test`. */
function matchesText(type: RuleProposalView['matcherType']): string {
  switch (type) {
    case 'commandPrefix':
      return l10n.t('commands starting with');
    case 'pathGlob':
      return l10n.t('files matching');
    case 'urlHost':
      return l10n.t('URLs on');
    case 'toolName':
      return l10n.t('the tool');
  }
}

function scopes(): Array<[RuleProposalView['scope'], string]> {
  return [
    ['conversation', l10n.t('this conversation')],
    ['workspace', l10n.t('this workspace')],
    ['global', l10n.t('everywhere')],
  ];
}

/** Text with `code spans` (any fence length) shown as <code>, everything else as plain text. */
export function withCodeSpans(text: string): HTMLElement {
  const span = h('span', { class: 'rule-label' });
  const pattern = /(`+)( ?)([\s\S]*?)\2\1/g;
  let last = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match.index > last) span.append(text.slice(last, match.index));
    span.append(h('code', {}, match[3]));
    last = match.index + match[0].length;
  }
  if (last < text.length) span.append(text.slice(last));
  return span;
}

export function renderRuleProposal(requestId: string, proposal: RuleProposalView, host: Host): HTMLElement | null {
  if (proposal.state === 'dismissed') return null;
  if (proposal.state === 'saved') {
    const manage = h('button', { type: 'button', class: 'link' }, l10n.t('Rules…'));
    manage.addEventListener('click', () => host.post({ type: 'manageRules', ruleId: proposal.ruleId }));
    return h(
      'div',
      { class: 'rule-proposal saved', role: 'status', 'data-rule-id': proposal.ruleId },
      icon('shield'),
      ` ${l10n.t('Rule saved:')} `,
      withCodeSpans(proposal.label),
      ' ',
      manage,
    );
  }
  const value = h('input', {
    type: 'text',
    class: 'rule-value',
    value: proposal.value,
    'aria-label': l10n.t('Rule: {0}', matchesText(proposal.matcherType)),
    spellcheck: 'false',
  });
  const scope = h(
    'select',
    { class: 'rule-scope', 'aria-label': l10n.t('Rule applies in') },
    ...scopes().map(([id, label]) => h('option', { value: id, selected: id === proposal.scope }, label)),
  );
  scope.value = proposal.scope;
  const save = h('button', { type: 'button', class: 'small primary' }, proposal.decision === 'allow' ? l10n.t('Save allow rule') : l10n.t('Save reject rule'));
  const dismiss = h('button', { type: 'button', class: 'small' }, l10n.t('Not now'));
  const submit = (): void => host.post({ type: 'saveRule', requestId, value: value.value, scope: scope.value as RuleProposalView['scope'] });
  save.addEventListener('click', submit);
  value.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    }
  });
  dismiss.addEventListener('click', () => host.post({ type: 'dismissRule', requestId }));
  const form = h(
    'div',
    { class: 'rule-proposal', role: 'group', 'aria-label': l10n.t('Save a permission rule') },
    h(
      'div',
      { class: 'rule-question' },
      icon('shield'),
      ` ${proposal.decision === 'allow' ? l10n.t('Tandem remembers nothing by itself. Allow {0}', matchesText(proposal.matcherType)) : l10n.t('Tandem remembers nothing by itself. Reject {0}', matchesText(proposal.matcherType))}`,
    ),
    h('div', { class: 'rule-fields' }, value, h('span', {}, l10n.t('for {0} in', proposal.agent)), scope, save, dismiss),
  );
  if (proposal.error) form.append(h('div', { class: 'rule-error', role: 'alert' }, icon('error'), ` ${proposal.error}`));
  return form;
}
