/**
 * What stands in the log for an entry whose view is not built (far from the viewport in a long
 * thread): one element holding the entry's text as plain text, so find-in-page still finds it and
 * scrolls to it. Also the weights that decide whether a thread is small enough to build whole, and
 * the height estimates that size pages of entries never laid out.
 */
import type { Entry, EntryKind, ToolContentView } from '../../src/protocol/messages';
import type { Store } from '../store/store';

/** Kinds that get a placeholder; the others are small and always built. */
export function deferrable(kind: EntryKind): boolean {
  return kind === 'user' || kind === 'agent' || kind === 'thought' || kind === 'tool_call';
}

/** Rough build cost of an entry's view, in "small entries" (a terminal is an emulator instance). */
export function entryWeight(entry: Entry): number {
  switch (entry.kind) {
    case 'user':
    case 'agent':
    case 'thought':
      return 1 + (typeof entry.text === 'string' ? entry.text.length : 0) / 2000;
    case 'tool_call':
      return 1 + (Array.isArray(entry.content) ? entry.content : []).reduce((sum, item) => sum + itemWeight(item), 0);
    default:
      return 1;
  }
}

function itemWeight(item: ToolContentView): number {
  switch (item.type) {
    case 'terminal':
      return 20;
    case 'diff':
      return 5;
    case 'markdown':
    case 'output':
      return String(item.text).length / 2000;
    default:
      return 2;
  }
}

/** ANSI escape sequences (CSI, OSC and two-character ones): not part of what a terminal shows. */
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/** The text the built view would show, as plain text (what find-in-page should find). */
export function searchableText(entry: Entry, store: Store): string {
  switch (entry.kind) {
    case 'user':
    case 'agent':
    case 'thought':
      return String(entry.text ?? '');
    case 'tool_call': {
      const parts = [String(entry.title ?? '')];
      for (const loc of Array.isArray(entry.locations) ? entry.locations : []) parts.push(String(loc.path ?? ''));
      for (const item of Array.isArray(entry.content) ? entry.content : []) parts.push(itemText(item, store));
      return parts.filter((p) => p !== '').join('\n');
    }
    default:
      return '';
  }
}

function itemText(item: ToolContentView, store: Store): string {
  switch (item.type) {
    case 'markdown':
      return String(item.text);
    case 'output':
      return `${item.label ? `${String(item.label)}\n` : ''}${String(item.text)}`;
    case 'resource_link':
      return String(item.name || item.uri);
    case 'terminal': {
      const view = store.terminals.get(item.terminalId);
      return view ? `$ ${view.command}\n${view.output.replace(ANSI, '').replace(/\r\n?/g, '\n')}` : '';
    }
    case 'diff': {
      const lines = [String(item.path)];
      for (const hunk of Array.isArray(item.hunks) ? item.hunks : []) {
        for (const line of Array.isArray(hunk.lines) ? hunk.lines : []) lines.push(String(line.text));
      }
      return lines.join('\n');
    }
    default:
      return '';
  }
}

/** Pixel sizes of the log the estimates work from (read once per snapshot, never per entry). */
export interface LogMetrics {
  /** Characters of body text that fit on one line. */
  charsPerLine: number;
}

/** Height of one line of body text (px). */
export const LINE_PX = 19;
/** Width of one character of body text (px), roughly. */
const CHAR_PX = 7;
const CARD_HEADER_PX = 30;
const TERMINAL_PX = 16 * 15 + 50;

/** The log's metrics from the window's size alone (reading it forces no layout). */
export function logMetrics(): LogMetrics {
  return { charsPerLine: Math.max(20, Math.floor((window.innerWidth - 48) / CHAR_PX)) };
}

/** A guess at the built view's height (px), for pages never laid out in this webview. */
export function estimateHeight(entry: Entry, metrics: LogMetrics): number {
  switch (entry.kind) {
    case 'user':
    case 'agent':
    case 'thought': {
      if (entry.kind === 'thought') return 30;
      let lines = 0;
      const text = String(entry.text ?? '');
      let start = 0;
      while (start <= text.length) {
        let end = text.indexOf('\n', start);
        if (end === -1) end = text.length;
        lines += Math.max(1, Math.ceil((end - start) / metrics.charsPerLine));
        start = end + 1;
      }
      return 28 + lines * LINE_PX;
    }
    case 'tool_call': {
      let px = CARD_HEADER_PX + (Array.isArray(entry.locations) && entry.locations.length > 0 ? 22 : 0);
      for (const item of Array.isArray(entry.content) ? entry.content : []) {
        if (item.type === 'terminal') px += TERMINAL_PX;
        else if (item.type === 'diff')
          px += 40 + (Array.isArray(item.hunks) ? item.hunks.reduce((n, hunk) => n + (Array.isArray(hunk.lines) ? hunk.lines.length : 0), 0) : 0) * 18;
        else if (item.type === 'markdown') px += Math.ceil(String(item.text).length / metrics.charsPerLine + 1) * LINE_PX;
        else if (item.type === 'output') px += 28 + Math.min(12, String(item.text).split('\n', 13).length) * LINE_PX;
        else px += 40;
      }
      return px;
    }
    default:
      return 40;
  }
}

/**
 * The stand-in element: not an article (it has no role yet), but the entry's kind is on it. Laid
 * out as its plain text when its page is on screen; a page off screen is skipped whole.
 */
export class Placeholder {
  readonly element: HTMLElement;
  private readonly text: Text;
  private kind: string;

  constructor(entry: Entry, store: Store) {
    this.kind = entry.kind;
    this.text = document.createTextNode(searchableText(entry, store));
    this.element = document.createElement('div');
    this.element.className = 'entry entry-placeholder';
    this.element.setAttribute('data-placeholder-for', entry.kind);
    this.element.append(this.text);
  }

  update(entry: Entry, store: Store): void {
    if (entry.kind !== this.kind) this.element.setAttribute('data-placeholder-for', (this.kind = entry.kind));
    const text = searchableText(entry, store);
    if (this.text.data !== text) this.text.data = text;
  }
}
