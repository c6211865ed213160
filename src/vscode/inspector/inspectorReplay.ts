import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseTranscript } from '../../inspector/transcript';
import { MAX_GAP_MS } from '../../inspector/replayer';
import { addTemporaryAgent } from '../agents/agentSettings';

/**
 * `Tandem: Replay Transcript…`: picks a transcript, checks it, and makes the bundled replay agent
 * (dist/replayAgent.js) playing it an agent of this window, "Replay: <file>", with which a new
 * conversation starts. The user then sends as many prompts as the recording has (any text).
 * The agent is marked `sandbox: 'replay'`: its runtime serves it src/runtime/replaySandbox.ts.
 */
export async function replayTranscript(extensionPath: string, converseWith: (agentName: string) => Promise<void>): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    title: l10n.t('Replay Transcript'),
    canSelectMany: false,
    openLabel: l10n.t('Replay'),
    filters: { [l10n.t('Tandem transcripts')]: ['jsonl', 'json'], [l10n.t('All files')]: ['*'] },
  });
  const uri = picked?.[0];
  if (!uri) return;
  const file = uri.fsPath;
  const base = path.basename(file);
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    void vscode.window.showErrorMessage(l10n.t('Tandem: cannot read {0}: {1}', base, err instanceof Error ? err.message : String(err)));
    return;
  }
  const transcript = parseTranscript(text);
  if (transcript.messages.length === 0) {
    void vscode.window.showErrorMessage(
      l10n.t('Tandem: {0} is not a transcript Tandem can replay: {1}', base, transcript.problems[0]?.text ?? l10n.t('it holds no messages.')),
    );
    return;
  }
  if (transcript.problems.length > 0) {
    const anyway = l10n.t('Replay Anyway');
    const choice = await vscode.window.showWarningMessage(
      l10n.t('Tandem: {0} has {1} problems (the first: {2}). The rest of it can be replayed.', base, transcript.problems.length, transcript.problems[0].text),
      anyway,
    );
    if (choice !== anyway) return;
  }
  const pace = await vscode.window.showQuickPick(
    [
      { label: l10n.t('At the recorded pace'), description: l10n.t('each pause as long as the agent took, at most {0} s', MAX_GAP_MS / 1000), fast: false },
      { label: l10n.t('As fast as possible'), description: l10n.t('every message as soon as the client is ready for it'), fast: true },
    ],
    { title: l10n.t('Replay {0}', base), placeHolder: l10n.t('How fast should the recorded agent answer?') },
  );
  if (!pace) return;
  const name = l10n.t('Replay: {0}', base);
  addTemporaryAgent(name, {
    command: process.execPath,
    args: [path.join(extensionPath, 'dist', 'replayAgent.js'), file, ...(pace.fast ? ['--fast'] : [])],
    // The editor's own Node: Electron on the desktop, which this makes behave as plain Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    sandbox: 'replay',
  });
  await converseWith(name);
  const prompts = transcript.messages.filter((m) => m.dir === 'out' && m.msg.method === 'session/prompt').length;
  void vscode.window.showInformationMessage(
    l10n.t(
      'Tandem: replaying {0} with "{1}" as a sandbox. Send {2} prompts (any text) to play the whole recording. Recorded commands are never run (terminals show the recorded output), each recorded file write is proposed to you as a diff to accept or reject, and your files are not read.',
      base,
      name,
      prompts,
    ),
  );
}
