/**
 * Mention chips as both the composer and the thread show them: a codicon (or a thumbnail for a
 * pasted image), a short label, the range for selections, the detail as a tooltip. `data-mention-kind`
 * is always set and `data-mention-uri` only when the chip points somewhere (pasted media does not).
 * Also the rules the composer applies to chips: identity (no duplicates) and what the agent accepts.
 */
import * as l10n from '@vscode/l10n';
import type { LineRangeView, MentionChip, MentionSpec, MentionView } from '../../src/protocol/messages';
import { h, icon } from '../core/dom';

/** What the agent accepts in a prompt; undefined when the host has not said (then nothing is held back). */
export type PromptCapabilities = { image: boolean; audio: boolean; embeddedContext: boolean } | undefined;

/** Human names for the chip kinds, for screen readers and the picker. */
export function kindName(kind: string): string {
  switch (kind as MentionView['kind']) {
    case 'file':
      return l10n.t('file');
    case 'folder':
      return l10n.t('folder');
    case 'selection':
      return l10n.t('selection');
    case 'symbol':
      return l10n.t('symbol');
    case 'problems':
      return l10n.t('problems');
    case 'terminal':
      return l10n.t('terminal output');
    case 'gitDiff':
      return l10n.t('uncommitted changes');
    case 'image':
      return l10n.t('image');
    case 'audio':
      return l10n.t('audio');
    case 'conversation':
      return l10n.t('earlier conversation');
    default:
      return kind;
  }
}

function rangeText(range: LineRangeView): string {
  return range.endLine > range.startLine ? `${range.startLine}-${range.endLine}` : String(range.startLine);
}

/** The chip's text: the label, plus the line range for a selection when the label does not carry it. */
export function chipLabel(view: MentionView): string {
  const label = String(view.label);
  if (view.kind === 'selection' && view.range && !/:\d+(-\d+)?$/.test(label)) return `${label}:${rangeText(view.range)}`;
  return label;
}

/**
 * Two chips are the same when they point at the same place (uri and range). Chips without a uri
 * (pasted media) are never duplicates of each other: two pastes of one screenshot are the user's call.
 */
export function chipKey(view: MentionView): string | undefined {
  if (!view.uri) return undefined;
  const r = view.range;
  return r ? `${view.uri}#${r.startLine}:${r.startColumn ?? ''}-${r.endLine}:${r.endColumn ?? ''}` : view.uri;
}

/** Why the agent would not get this chip, or undefined when it would. */
export function unsupportedReason(spec: MentionSpec, capabilities: PromptCapabilities): string | undefined {
  if (spec.kind === 'image' && capabilities?.image === false) return l10n.t('The agent does not accept images: this one will not be sent');
  if (spec.kind === 'audio' && capabilities?.audio === false) return l10n.t('The agent does not accept audio: this will not be sent');
  return undefined;
}

/** The chip's visible content: icon or thumbnail, label. */
function chipContent(view: MentionView, spec?: MentionSpec): Array<HTMLElement> {
  const parts: HTMLElement[] = [];
  if (spec && spec.kind === 'image' && typeof spec.data === 'string' && spec.data !== '') {
    // The CSP's img-src allows data: URLs; the image never leaves the webview this way.
    parts.push(h('img', { class: 'mention-thumb', src: `data:${spec.mimeType};base64,${spec.data}`, alt: '' }));
  } else {
    parts.push(icon(typeof view.icon === 'string' && /^[a-z0-9-]+$/.test(view.icon) ? view.icon : 'file', 'mention-icon'));
  }
  parts.push(h('span', { class: 'mention-label' }, chipLabel(view)));
  return parts;
}

function chipAttrs(view: MentionView, extraClass = ''): Record<string, string | undefined> {
  return {
    class: `mention-chip${extraClass}`,
    'data-mention-kind': String(view.kind),
    'data-mention-uri': view.uri ? String(view.uri) : undefined,
    title: view.detail ? String(view.detail) : chipLabel(view),
  };
}

/**
 * A chip in the composer: focusable (the tray manages which one is in the tab order), removable
 * with its × button. Held-back chips (the agent does not accept them) are crossed out and say why.
 */
export function composerChip(chip: MentionChip, onRemove: () => void): HTMLElement {
  const { view, spec } = chip;
  const label = chipLabel(view);
  const remove = h(
    'button',
    { type: 'button', class: 'mention-remove icon-button', 'aria-label': l10n.t('Remove {0}', label), title: l10n.t('Remove {0}', label), tabindex: -1 },
    icon('close'),
  );
  // The textarea keeps focus when the × is clicked; only the chip goes.
  remove.addEventListener('mousedown', (event) => event.preventDefault());
  remove.addEventListener('click', (event) => {
    event.stopPropagation();
    onRemove();
  });
  const element = h(
    'span',
    { ...chipAttrs(view), role: 'listitem', tabindex: -1, 'aria-label': l10n.t('{0}, {1}', label, kindName(view.kind)) },
    ...chipContent(view, spec),
    h('span', { class: 'mention-warning', hidden: true }, icon('warning')),
    remove,
  );
  return element;
}

/** Marks a composer chip as held back (or not), with the reason as its tooltip and accessible name. */
export function setChipUnsupported(element: HTMLElement, chip: MentionChip, reason: string | undefined): void {
  const label = chipLabel(chip.view);
  element.classList.toggle('unsupported', reason !== undefined);
  element.toggleAttribute('data-unsupported', reason !== undefined);
  const warning = element.querySelector<HTMLElement>('.mention-warning');
  if (warning) warning.hidden = reason === undefined;
  element.title = reason ?? (chip.view.detail ? String(chip.view.detail) : label);
  element.setAttribute(
    'aria-label',
    reason ? l10n.t('{0}, {1}: {2}', label, kindName(chip.view.kind), reason) : l10n.t('{0}, {1}', label, kindName(chip.view.kind)),
  );
}

/**
 * A chip in a sent message: a button that opens what it points at (at its first line), or plain
 * text when it points nowhere (pasted media).
 */
export function threadChip(view: MentionView, open: ((uri: string, line: number | undefined) => void) | undefined): HTMLElement {
  const uri = view.uri;
  if (!uri || !open) return h('span', chipAttrs(view), ...chipContent(view));
  const line = typeof view.range?.startLine === 'number' ? view.range.startLine : undefined;
  const element = h('button', { ...chipAttrs(view), type: 'button', 'aria-label': l10n.t('Open {0}', chipLabel(view)) }, ...chipContent(view));
  element.addEventListener('click', () => open(uri, line));
  return element;
}
