import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { loopbackCallback } from '../../util/loopbackCallback';
import { errorMessage } from '../../util/errors';
import type { OutputLog } from '../core/outputLog';

/**
 * Opens a web link in the user's browser. In VS Code Remote, a sign-in link whose OAuth callback
 * is a loopback port (`redirect_uri=http://localhost:PORT/…`, where the agent on the remote host
 * listens) gets that port forwarded first, so the browser's redirect comes back to the agent.
 * (openExternal forwards a link that is itself on localhost; the callback inside one it does not.)
 */
export async function openExternalLink(uri: vscode.Uri, log: Pick<OutputLog, 'info' | 'warn'>): Promise<void> {
  const callback = vscode.env.remoteName ? loopbackCallback(uri.toString(true)) : undefined;
  if (callback) {
    try {
      const local = await vscode.env.asExternalUri(vscode.Uri.parse(callback.origin));
      const forwarded = new URL(local.toString(true));
      const port = Number(forwarded.port || (forwarded.protocol === 'https:' ? 443 : 80));
      log.info(`Sign-in callback port ${callback.port} on the remote host is forwarded to ${local.toString(true)}.`);
      // Only a forward to this machine's loopback can be on another port than the callback's: a
      // tunnel's public address (Codespaces) is always elsewhere and needs no warning.
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(forwarded.hostname);
      if (loopback && port !== callback.port) {
        void vscode.window.showWarningMessage(
          l10n.t(
            'The sign-in comes back to port {0}, which is busy on this machine (forwarded to {1} instead): free port {0} here and sign in again if it does not finish.',
            callback.port,
            port,
          ),
        );
      }
    } catch (err) {
      log.warn(`The sign-in callback port ${callback.port} could not be forwarded: ${errorMessage(err)}`);
    }
  }
  await vscode.env.openExternal(uri);
}
