/**
 * A tool's plain output, preformatted: a `<details>` whose summary names what it is (the file or
 * command, the stream, the exit code, the line count) and whose body is the text in a scrollable
 * `<pre>`. Short output starts open; long output starts closed, so a card never turns into a wall
 * of text. The open state is the user's, kept across re-renders.
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../../src/protocol/displayLanguage';
import type { OutputContentView } from '../../src/protocol/messages';
import { h, icon, keyboardScrollable } from '../core/dom';
import type { Host } from '../core/vscodeApi';

/** Output of at most this many lines starts open. */
export const OPEN_OUTPUT_LINES = 12;

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** `key`: where the open state is kept (entry id and item index). */
export function renderOutput(view: OutputContentView, key: string, host: Host): HTMLElement {
  const text = String(view.text ?? '');
  const lines = lineCount(text);
  const parts: string[] = [];
  if (typeof view.label === 'string' && view.label !== '') parts.push(view.label);
  if (view.stream === 'stderr') parts.push(l10n.t('stderr'));
  parts.push(lines === 1 ? l10n.t('1 line') : l10n.t('{0} lines', formatNumber(lines)));
  if (typeof view.exitCode === 'number') parts.push(l10n.t('exit code {0}', view.exitCode));
  if (view.truncated) parts.push(l10n.t('cut: the whole output is in Details'));
  const summary = h(
    'summary',
    { class: 'tool-output-summary' },
    icon(view.failed ? 'error' : 'output'),
    ` ${l10n.t('Output')}`,
    h('span', { class: 'tool-output-facts' }, ` · ${parts.join(' · ')}`),
  );
  const pre = keyboardScrollable(h('pre', { class: `tool-output-text${view.stream === 'stderr' ? ' stderr' : ''}` }, text), l10n.t('Output'));
  const details = h('details', { class: `tool-output${view.failed ? ' failed' : ''}`, 'data-output-lines': lines }, summary, pre);
  const chosen = host.expanded(key);
  details.open = chosen ?? lines <= OPEN_OUTPUT_LINES;
  details.addEventListener('toggle', () => host.setExpanded(key, details.open));
  return details;
}
