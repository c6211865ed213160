import * as l10n from '@vscode/l10n';
import { execFile } from 'node:child_process';

/** A diff larger than this is refused by git's reader here; the prompt limits cut far lower anyway. */
const MAX_BUFFER = 16 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-c', 'core.fsmonitor=false', ...args], { cwd, maxBuffer: MAX_BUFFER, timeout: TIMEOUT_MS, windowsHide: true }, (err, stdout, stderr) => {
      if (err) reject(new Error(String(stderr).trim() || err.message));
      else resolve(String(stdout));
    });
  });
}

/**
 * The workspace's uncommitted changes: `git diff HEAD` (staged and unstaged together; plain
 * `git diff` in a repository without commits), then the untracked files by name, which a diff
 * leaves out and which are often what the agent should look at.
 */
export async function gitDiff(root: string | undefined): Promise<{ diff: string; root?: string }> {
  if (!root) throw new Error(l10n.t('there is no folder open'));
  try {
    await git(root, ['rev-parse', '--is-inside-work-tree']);
  } catch {
    throw new Error(l10n.t('the workspace is not a git repository'));
  }
  const hasHead = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(
    () => true,
    () => false,
  );
  let diff = await git(root, hasHead ? ['diff', '--no-color', '--no-ext-diff', 'HEAD'] : ['diff', '--no-color', '--no-ext-diff']);
  const untracked = (await git(root, ['ls-files', '--others', '--exclude-standard'])).split('\n').filter((line) => line !== '');
  if (untracked.length > 0)
    diff += `${diff === '' ? '' : '\n'}Untracked files (not in the diff):\n${untracked
      .slice(0, 200)
      .map((f) => `  ${f}`)
      .join('\n')}\n`;
  if (diff === '') diff = 'No uncommitted changes.\n';
  return { diff };
}
