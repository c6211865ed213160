/**
 * The panel's answer to a protocol version mismatch (after an update, the panel and the extension
 * host may run different builds): instead of misreading the host, it shows one notice with a Reload
 * button. The mismatch is named by the host (`versionMismatch`) or, for a host too old to send that,
 * seen in the snapshot's `protocolVersion`.
 */
import * as l10n from '@vscode/l10n';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { isRecord } from '../../src/protocol/guards';
import { isVersionMismatch } from '../../src/protocol/versionHandshake';
import { button, h, icon } from './dom';

export interface Mismatch {
  hostVersion?: number;
  panelVersion: number;
}

/** The mismatch a host message reveals, or undefined for a host of this panel's version. */
export function mismatchIn(data: unknown): Mismatch | undefined {
  if (isVersionMismatch(data)) return { hostVersion: data.hostVersion, panelVersion: PROTOCOL_VERSION };
  if (isRecord(data) && data.type === 'snapshot' && isRecord(data.snapshot) && data.snapshot.protocolVersion !== PROTOCOL_VERSION) {
    const hostVersion = data.snapshot.protocolVersion;
    return typeof hostVersion === 'number' ? { hostVersion, panelVersion: PROTOCOL_VERSION } : { panelVersion: PROTOCOL_VERSION };
  }
  return undefined;
}

/**
 * The notice that replaces the page; Reload asks the host to load it afresh (`reload` posts the
 * page's `reloadView`: the chat panel and the protocol inspector each post their own).
 */
export function versionNotice(reload: () => void, mismatch: Mismatch): HTMLElement {
  const versions =
    mismatch.hostVersion === undefined
      ? l10n.t('panel {0}', mismatch.panelVersion)
      : l10n.t('panel {0}, extension {1}', mismatch.panelVersion, mismatch.hostVersion);
  return h(
    'div',
    { class: 'notice version-notice', role: 'alert' },
    h(
      'p',
      {},
      icon('warning'),
      ` ${l10n.t('Tandem was updated: this view and the extension speak different protocol versions ({0}). Reload the view to continue.', versions)}`,
    ),
    button(l10n.t('Reload'), reload, { cls: 'primary', icon: 'refresh' }),
    h('p', {}, l10n.t('If this notice comes back, run "Developer: Reload Window" from the Command Palette.')),
  );
}
