/**
 * The store's terminal outputs: what each terminal's view shows, bounded like the host bounds it,
 * and what changed for the renderer (replaced whole, or text appended since the last frame).
 */
import type { TerminalView } from '../../src/protocol/messages';
import { TERMINAL_VIEW_LIMIT_CHARS } from '../../src/protocol/messages';
import { isRecord } from '../../src/protocol/guards';
import type { StoreChanges } from './storeChanges';

/** Output kept per terminal in the webview; the host bounds it too, this only guards memory. */
const MAX_TERMINAL_CHARS = TERMINAL_VIEW_LIMIT_CHARS;

/** Adds the well-formed terminals of a snapshot part that are not here yet; returns their ids. */
export function addTerminals(terminals: Map<string, TerminalView>, views: unknown): string[] {
  const added: string[] = [];
  for (const [id, view] of Object.entries(isRecord(views) ? views : {})) {
    // One already here is as new or newer (changes after a snapshot update it).
    if (terminals.has(id) || !isRecord(view) || typeof view.output !== 'string') continue;
    terminals.set(id, { ...(view as unknown as TerminalView), terminalId: id });
    added.push(id);
  }
  return added;
}

export function replaceTerminal(terminals: Map<string, TerminalView>, changes: StoreChanges, view: unknown): void {
  if (!isRecord(view) || typeof view.terminalId !== 'string' || typeof view.output !== 'string') {
    throw new Error('Malformed terminal');
  }
  const terminal = view as unknown as TerminalView;
  terminals.set(terminal.terminalId, terminal);
  changes.terminals.set(terminal.terminalId, { replaced: true, appended: '' });
}

export function appendTerminal(terminals: Map<string, TerminalView>, changes: StoreChanges, id: string, text: string, truncated: boolean): void {
  if (typeof id !== 'string' || typeof text !== 'string') throw new Error('Malformed terminalAppended');
  const old = terminals.get(id) ?? { terminalId: id, command: '', output: '', truncated: false };
  let output = old.output + text;
  let dropped = false;
  if (output.length > MAX_TERMINAL_CHARS) {
    output = output.slice(output.length - MAX_TERMINAL_CHARS);
    dropped = true;
  }
  terminals.set(id, { ...old, output, truncated: old.truncated || truncated || dropped });
  const change = changes.terminals.get(id) ?? { replaced: false, appended: '' };
  if (!change.replaced) change.appended += text;
  // More than the kept tail in one frame: redraw from the tail instead of writing it all.
  if (change.appended.length > MAX_TERMINAL_CHARS) {
    change.replaced = true;
    change.appended = '';
  }
  changes.terminals.set(id, change);
}
