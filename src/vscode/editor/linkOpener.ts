import * as l10n from '@vscode/l10n';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../util/errors';
import { openExternalLink } from './externalLinks';
import type { FollowAlong } from './followAlong';
import type { OutputLog } from '../core/outputLog';

/**
 * Opens what the panel links to: file locations (in the editor, asking first outside the
 * workspace), relative file links from agent markdown, and web links (in the browser). Nothing an
 * agent wrote can navigate the panel itself or open an unexpected scheme.
 */
export class LinkOpener {
  constructor(
    /** Inside the workspace, or a conversation's worktree: opened without asking. */
    private readonly isKnown: (file: string) => boolean,
    private readonly follow: FollowAlong,
    private readonly log: OutputLog,
    private readonly baseDir: () => string,
  ) {}

  async openLocation(file: string, line: number | undefined): Promise<void> {
    if (!this.isKnown(file)) {
      const open = l10n.t('Open');
      const choice = await vscode.window.showWarningMessage(l10n.t('{0} is outside the workspace. Open it anyway?', file), { modal: true }, open);
      if (choice !== open) return;
    }
    try {
      await this.follow.open(file, line, true);
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('Tandem could not open {0}: {1}', file, errorMessage(err)));
    }
  }

  async openLink(href: string): Promise<void> {
    // Agents link files by relative or absolute path ("src/app.ts#L10"): resolve those against the
    // session's folder rather than treating them as URLs.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#')) {
      const [pathPart, fragment = ''] = href.split('#', 2);
      // `src/app.ts:42` (and `:42:7`) as agents often write it: the line, when no such file exists.
      const suffixed = /^(.+?):(\d+)(?::\d+)?$/.exec(safeDecode(pathPart));
      const resolved = path.resolve(this.baseDir(), safeDecode(pathPart));
      if (suffixed && !fragment && !existsSync(resolved)) return this.openLocation(path.resolve(this.baseDir(), suffixed[1]), Number(suffixed[2]));
      return this.openLocation(resolved, lineFromFragment(fragment));
    }
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (uri.scheme === 'file') return this.openLocation(uri.fsPath, lineFromFragment(uri.fragment));
    if (uri.scheme === 'http' || uri.scheme === 'https' || uri.scheme === 'mailto') {
      await openExternalLink(uri, this.log);
      return;
    }
    this.log.warn(`Link with scheme "${uri.scheme}" not opened: ${href}`);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function lineFromFragment(fragment: string): number | undefined {
  const match = /^L?(\d+)/.exec(fragment);
  return match ? Number(match[1]) : undefined;
}
