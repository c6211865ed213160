import * as l10n from '@vscode/l10n';
import { code } from '../util/markdownText';
import type { DoctorReport } from './agentDiagnosis';

/**
 * Check Agent's parts for an agent on another machine: where it is reached and how (instead of the
 * command and the runtimes of a process), and what to do when the connection failed, by why.
 */
export function remoteTable(remote: NonNullable<DoctorReport['remote']>): string[] {
  return [
    '| | |',
    '| --- | --- |',
    `| ${l10n.t('Address')} | ${code(remote.url)} |`,
    `| ${l10n.t('Transport')} | ${remote.transport} |`,
    `| ${l10n.t('Headers')} | ${remote.headerNames.length ? l10n.t('{0} (values hidden)', remote.headerNames.map(code).join(', ')) : l10n.t('none')} |`,
    `| ${l10n.t('Token')} | ${remote.tokenStored ? l10n.t('stored in VS Code’s secret storage') : l10n.t('none stored')} |`,
    `| ${l10n.t('Files and terminals')} | ${remote.clientTools ? l10n.t('served from this workspace') : l10n.t('the agent’s own (`clientTools: false`)')} |`,
    '',
  ];
}

/** What to do when connecting failed (empty when it did not, or for failures the common steps cover). */
export function remoteSteps(report: DoctorReport): string[] {
  const { start, remote } = report;
  if (start.ok || !remote) return [];
  const host = (() => {
    try {
      return new URL(remote.url).host;
    } catch {
      return remote.url;
    }
  })();
  switch (start.remoteKind) {
    case 'auth':
      return [
        remote.tokenStored
          ? l10n.t('The stored token was refused. Start a conversation with the agent and enter a new one in its sign-in card.')
          : l10n.t(
              'Start a conversation with the agent and enter a token in its sign-in card (kept in VS Code’s secret storage), or set `headers` of this agent in `tandem.agents`.',
            ),
      ];
    case 'tls':
      return [
        l10n.t(
          'Trust the server’s certificate: start VS Code with NODE_EXTRA_CA_CERTS set to the certificate of its authority, or use a certificate from a public authority.',
        ),
      ];
    case 'notAcp':
      return [
        l10n.t(
          'Check the `url` of this agent in `tandem.agents`: it must be the ACP endpoint itself (often ending in `/acp`), served over ACP’s Streamable HTTP or WebSocket transport.',
        ),
      ];
    case 'unreachable':
      return [l10n.t('Check that the agent’s server runs and that this machine can reach {0} (VPN, firewall, port forwarding).', host)];
    case 'timeout':
      return [l10n.t('{0} accepted the connection but did not answer: check that the agent behind it runs, and any proxy between.', host)];
    case 'tooLarge':
    case 'closed':
    case 'server':
    case undefined:
      return [l10n.t('Read the error above and the server’s own log; check again once the server is healthy.')];
  }
}
