/**
 * Who the agent is signed in as, in the header: the agent's own words for the identity ("Anthropic
 * API key", an e-mail address, "Not logged in"), the whole sentence in its tooltip and accessible
 * name, and a Sign out button when the agent advertised `logout` (it runs the same sign-out as
 * `Tandem: Sign Out of the Agent`, for this conversation). Hidden while the agent has said nothing:
 * "cannot tell" is silence, not "signed out".
 */
import * as l10n from '@vscode/l10n';
import type { AccountView } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

/** The sentence a screen reader and the tooltip get. */
export function accountSentence(agentName: string, account: AccountView): string {
  const who = account.detail ? `${account.label} (${account.detail})` : account.label;
  if (account.signedIn === false) return l10n.t('{0} is not signed in: {1}', agentName || l10n.t('The agent'), who);
  return l10n.t('{0} is signed in as {1}', agentName || l10n.t('The agent'), who);
}

export class AccountRow {
  readonly element: HTMLElement;
  private readonly label: HTMLElement;
  private readonly signOut: HTMLButtonElement;

  constructor(
    private readonly store: Store,
    host: Host,
    private readonly changedSize: () => void,
  ) {
    this.label = h('span', { class: 'account-name' });
    this.signOut = button('', () => host.post({ type: 'signOut' }), { cls: 'icon-button', icon: 'sign-out' });
    this.element = h('span', { class: 'account-row', role: 'group' }, icon('account'), this.label, this.signOut);
    this.element.hidden = true;
  }

  render(): void {
    const account = this.store.account;
    const wasShown = !this.element.hidden;
    this.element.hidden = account === undefined;
    if (account !== undefined) {
      const status = this.store.status;
      const agent = 'agentName' in status ? status.agentName : '';
      const sentence = accountSentence(agent, account);
      this.label.textContent = account.label;
      this.element.title = sentence;
      this.element.setAttribute('aria-label', sentence);
      this.element.dataset.signedIn = String(account.signedIn !== false);
      this.signOut.hidden = !this.store.canSignOut || account.signedIn === false;
      const signOut = l10n.t('Sign out of {0}', agent || l10n.t('the agent'));
      this.signOut.setAttribute('aria-label', signOut);
      this.signOut.title = signOut;
    }
    if (wasShown !== !this.element.hidden) this.changedSize();
  }
}
