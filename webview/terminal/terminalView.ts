/**
 * Embedded terminal output inside tool cards, emulated by xterm.js (colours, \r progress bars,
 * cursor moves). xterm draws into `.xterm-rows`, which only holds the visible rows, so a
 * visually-hidden plain-text mirror of the whole emulated buffer keeps the region's text content
 * complete for screen readers and tests.
 *
 * Accessibility: the emulator is only a picture of that text. It is hidden from assistive
 * technology and out of the Tab order (xterm's input textarea is focusable, and the output is
 * read-only); xterm's own screen-reader mode is not used, since it announces every line as it
 * streams. The region itself is one Tab stop: arrows, Page Up/Down, Home and End scroll the output.
 */
import * as l10n from '@vscode/l10n';
import { Terminal } from '@xterm/xterm';
import xtermCss from '@xterm/xterm/css/xterm.css';
import type { TerminalView } from '../../src/protocol/messages';
import { button, h } from '../core/dom';
import type { Store, TerminalChange } from '../store/store';
import { adoptStylesheet, withStyleNonce } from '../core/styleNonce';
import { queueTerminalOpen, terminalLook } from './terminalLook';
import type { Host } from '../core/vscodeApi';

const MAX_ROWS = 16;
const SCROLLBACK = 5000;

function exitText(view: TerminalView | undefined): string {
  if (!view?.exit) return l10n.t('Running…');
  if (view.exit.lost) return l10n.t('Stopped when VS Code closed');
  if (view.exit.signal) return l10n.t('Killed by {0}', view.exit.signal);
  return view.exit.exitCode === null ? l10n.t('Exited') : l10n.t('Exited with code {0}', view.exit.exitCode);
}

/** One rendering of a terminal; several cards may embed the same terminal id. */
export class TerminalPanel {
  readonly element: HTMLElement;
  private readonly screen: HTMLElement;
  private readonly mirror: HTMLElement;
  private readonly status: HTMLElement;
  private readonly commandLabel: HTMLElement;
  private readonly notice: HTMLElement;
  private term: Terminal;
  private opened = false;
  private mirrorScheduled = false;
  private resizeObserver: ResizeObserver | undefined;
  private disposed = false;

  constructor(
    readonly terminalId: string,
    private readonly store: Store,
    host: Host,
    private readonly onDispose: (panel: TerminalPanel) => void,
  ) {
    adoptStylesheet('xterm', xtermCss);
    this.commandLabel = h('span', { class: 'terminal-command' });
    this.notice = h('span', { class: 'terminal-notice' });
    this.status = h('div', { class: 'terminal-status' });
    this.screen = h('div', { class: 'terminal-screen', 'aria-hidden': 'true' });
    this.mirror = h('pre', { class: 'terminal-text visually-hidden' });
    this.element = h(
      'div',
      { role: 'region', class: 'terminal', 'data-terminal-id': terminalId, 'aria-label': l10n.t('Terminal'), tabindex: 0 },
      h(
        'div',
        { class: 'terminal-header' },
        this.commandLabel,
        this.notice,
        button(l10n.t('Open in terminal'), () => host.post({ type: 'openTerminal', terminalId }), { cls: 'secondary small', icon: 'terminal' }),
      ),
      this.screen,
      this.mirror,
      this.status,
    );
    this.element.addEventListener('keydown', (event) => this.scrollByKey(event));
    this.term = this.createTerminal();
    this.reset();
    this.openWhenConnected(0);
  }

  private createTerminal(): Terminal {
    return new Terminal({
      cols: 80,
      rows: 1,
      scrollback: SCROLLBACK,
      convertEol: true, // agents' output often has bare \n; keep \r alone for progress bars
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      fontFamily: terminalLook().fontFamily,
      fontSize: 12,
      theme: terminalLook().theme,
    });
  }

  /** Re-reads the whole view from the store (first render, or the host replaced it). */
  reset(): void {
    const view = this.store.terminals.get(this.terminalId);
    this.term.reset();
    this.updateHeader(view);
    if (view?.output) this.write(view.output);
    else this.scheduleMirror();
  }

  /** Applies one frame's worth of changes for this terminal. */
  apply(change: TerminalChange): void {
    if (change.replaced) {
      this.reset();
      return;
    }
    this.updateHeader(this.store.terminals.get(this.terminalId));
    if (change.appended) this.write(change.appended);
  }

  private updateHeader(view: TerminalView | undefined): void {
    const command = view?.command ?? '';
    this.commandLabel.textContent = command ? `$ ${command}` : l10n.t('Terminal');
    this.element.setAttribute('aria-label', command ? l10n.t('Terminal: {0}', command) : l10n.t('Terminal {0}', this.terminalId));
    this.notice.textContent = view?.truncated ? ` ${l10n.t('(earlier output truncated)')}` : view ? '' : ` ${l10n.t('(waiting for output)')}`;
    this.status.textContent = exitText(view);
    this.element.setAttribute('data-exited', view?.exit ? 'true' : 'false');
  }

  private write(text: string): void {
    this.term.write(text, () => this.scheduleMirror());
  }

  private scheduleMirror(): void {
    if (this.mirrorScheduled || this.disposed) return;
    this.mirrorScheduled = true;
    requestAnimationFrame(() => {
      this.mirrorScheduled = false;
      if (this.disposed) return;
      this.updateMirror();
      this.fitRows();
    });
  }

  private updateMirror(): void {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const text = lines.join('\n');
    if (this.mirror.textContent !== text) this.mirror.textContent = text;
  }

  /** Grows the viewport with the output up to MAX_ROWS; beyond that xterm scrolls (to the bottom). */
  private fitRows(): void {
    const buffer = this.term.buffer.active;
    const used = buffer.baseY + buffer.cursorY + 1;
    const rows = Math.max(1, Math.min(MAX_ROWS, used));
    if (rows !== this.term.rows) this.term.resize(this.term.cols, rows);
    this.term.scrollToBottom();
  }

  /** Opens the emulator when its turn comes (terminalLook.ts); the card shows plain text until then. */
  private openWhenConnected(attempt: number): void {
    queueTerminalOpen(() => {
      if (this.disposed || this.opened) return false;
      if (!this.element.isConnected) {
        // Not placed yet (its card is being built): back in the queue, for a while.
        if (attempt < 600) requestAnimationFrame(() => this.openWhenConnected(attempt + 1));
        return false;
      }
      this.opened = true;
      withStyleNonce(() => this.term.open(this.screen));
      // xterm's input textarea takes Tab stops otherwise, inside a subtree hidden from assistive technology.
      if (this.term.textarea) this.term.textarea.tabIndex = -1;
      this.element.dataset.emulated = 'true';
      this.fitColumns();
      this.resizeObserver = new ResizeObserver(() => this.fitColumns());
      this.resizeObserver.observe(this.screen);
      return true;
    });
  }

  /** Keyboard scrolling of the emulated output, while the region has focus (the emulator never takes it). */
  private scrollByKey(event: KeyboardEvent): void {
    if (!this.opened || event.target !== this.element || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const page = Math.max(1, this.term.rows - 1);
    const moves: Record<string, () => void> = {
      ArrowUp: () => this.term.scrollLines(-1),
      ArrowDown: () => this.term.scrollLines(1),
      PageUp: () => this.term.scrollLines(-page),
      PageDown: () => this.term.scrollLines(page),
      Home: () => this.term.scrollToTop(),
      End: () => this.term.scrollToBottom(),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  }

  private fitColumns(): void {
    const width = this.screen.clientWidth;
    const cell = this.screen.querySelector('.xterm-char-measure-element')?.getBoundingClientRect().width ?? 0;
    // xterm measures a run of characters; fall back to a typical 12px monospace advance.
    const charWidth = cell > 0 ? cell / 32 : 7.2;
    if (width <= 0) return;
    const cols = Math.max(20, Math.floor((width - 4) / charWidth));
    if (cols !== this.term.cols) this.term.resize(cols, this.term.rows);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.resizeObserver?.disconnect();
    this.term.dispose();
    this.onDispose(this);
  }
}

/** All terminal panels by terminal id, so streamed output reaches every card that shows it. */
export class TerminalRegistry {
  private readonly panels = new Map<string, Set<TerminalPanel>>();

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {}

  create(terminalId: string): TerminalPanel {
    const panel = new TerminalPanel(terminalId, this.store, this.host, (p) => this.panels.get(p.terminalId)?.delete(p));
    let set = this.panels.get(terminalId);
    if (!set) this.panels.set(terminalId, (set = new Set()));
    set.add(panel);
    return panel;
  }

  apply(changes: Map<string, TerminalChange>): void {
    for (const [id, change] of changes) {
      for (const panel of this.panels.get(id) ?? []) {
        try {
          panel.apply(change);
        } catch (error) {
          console.error('Tandem: terminal update failed', error);
        }
      }
    }
  }
}
