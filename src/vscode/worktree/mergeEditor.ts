import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeBinding } from '../../store/conversationMeta';
import type { IDisposable } from '../../util/disposable';
import { errorMessage } from '../../util/errors';
import type { ApplyStep } from '../../worktree/applyPlan';
import type { OutputLog } from '../core/outputLog';

const SCHEME = 'tandem-merge';

/**
 * Conflicts of an Apply in VS Code's merge editor: the start commit's text as the base, the
 * workspace's text before applying on the left ("Workspace"), the agent's on the right (its branch),
 * and the file itself — already written with conflict markers — as the result, so completing the
 * merge saves the real file. The three inputs are read-only virtual documents kept in memory.
 */
export class MergeEditor implements IDisposable {
  private readonly texts = new Map<string, string>();
  private counter = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    provideTextDocumentContent: (uri) => this.texts.get(uri.query) ?? '',
  });

  constructor(private readonly log: OutputLog) {}

  async open(conflicts: readonly ApplyStep[], binding: WorktreeBinding): Promise<void> {
    for (const step of conflicts) {
      if (!step.merge) continue;
      const output = vscode.Uri.file(step.path);
      try {
        // The merge editor's own command (what the git extension opens for a conflicted file).
        await vscode.commands.executeCommand('_open.mergeEditor', {
          base: this.store(step.path, 'base', step.merge.base),
          input1: { uri: this.store(step.path, 'workspace', step.merge.yours), title: l10n.t('Workspace'), description: l10n.t('yours, before applying') },
          input2: { uri: this.store(step.path, 'agent', step.merge.agent), title: binding.branch, description: l10n.t('the agent’s worktree') },
          output,
        });
      } catch (err) {
        // No merge editor (an older or trimmed VS Code): the markers in the file show the conflict.
        this.log.warn(`The merge editor did not open for ${step.relPath}: ${errorMessage(err)}`);
        await vscode.window.showTextDocument(output, { preview: false });
      }
    }
  }

  private store(filePath: string, side: string, text: string): vscode.Uri {
    const key = `${side}-${++this.counter}`;
    this.texts.set(key, text);
    // The real file name keeps the language mode.
    return vscode.Uri.from({ scheme: SCHEME, path: `/${side}/${path.basename(filePath)}`, query: key });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
