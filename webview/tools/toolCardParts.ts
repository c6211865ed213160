/** The parts of a tool card that need no card: status names, location labels, content identity, the title's tooltip. */
import * as l10n from '@vscode/l10n';
import type { LocationView, ToolCallEntry, ToolContentView, ToolStatus } from '../../src/protocol/messages';
import { assertNever } from '../../src/protocol/guards';
import type { TerminalPanel } from '../terminal/terminalView';

export const STATUS_ICONS: Record<ToolStatus, string> = {
  pending: 'circle-large-outline',
  in_progress: 'loading codicon-modifier-spin',
  completed: 'check',
  failed: 'error',
  cancelled: 'circle-slash',
};

export function statusLabelOf(status: ToolStatus): string {
  switch (status) {
    case 'pending':
      return l10n.t('Pending');
    case 'in_progress':
      return l10n.t('Running');
    case 'completed':
      return l10n.t('Completed');
    case 'failed':
      return l10n.t('Failed');
    case 'cancelled':
      return l10n.t('Cancelled');
  }
}

export const RASTER = /^image\/(?:png|jpeg|jpg|gif|webp|bmp)$/i;

/** "Open src/app.ts at line 4 (outside the workspace)": a location link's accessible name. */
export function locationLabel(loc: LocationView): string {
  const path = typeof loc.shown === 'string' && loc.shown !== '' ? loc.shown : loc.path;
  if (loc.inWorkspace) return loc.line ? l10n.t('Open {0} at line {1}', path, loc.line) : l10n.t('Open {0}', path);
  return loc.line ? l10n.t('Open {0} at line {1} (outside the workspace)', path, loc.line) : l10n.t('Open {0} (outside the workspace)', path);
}

export interface RenderedItem {
  item: ToolContentView;
  element: HTMLElement;
  terminal?: TerminalPanel;
}

export function sameItem(a: ToolContentView, b: ToolContentView): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'diff':
      // The host gives every distinct content its own id (and keeps the id while the texts stay).
      return b.type === 'diff' && a.diffId === b.diffId && a.path === b.path;
    case 'terminal':
      return b.type === 'terminal' && a.terminalId === b.terminalId;
    case 'markdown':
      return b.type === 'markdown' && a.text === b.text;
    case 'image':
      return b.type === 'image' && a.mimeType === b.mimeType && a.data === b.data;
    case 'resource_link':
      return b.type === 'resource_link' && a.uri === b.uri && a.name === b.name;
    case 'output':
      return b.type === 'output' && a.text === b.text && a.label === b.label && a.exitCode === b.exitCode && a.failed === b.failed;
    default:
      return assertNever(a);
  }
}

/** The title's tooltip: the title, and the agent's own title when the card shows another. */
export function titleTooltip(entry: Pick<ToolCallEntry, 'title' | 'agentTitle'>): string {
  const title = String(entry.title ?? '');
  return typeof entry.agentTitle === 'string' && entry.agentTitle !== '' ? l10n.t("{0}\nThe agent's title: {1}", title, entry.agentTitle) : title;
}
