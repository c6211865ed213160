/**
 * What every embedded terminal looks like (colours and font from the VS Code theme) and when it may
 * open its emulator.
 *
 * Both exist because a long thread builds and lets go of hundreds of terminal cards while the user
 * scrolls through it. Reading the theme costs a style recalculation per CSS variable, so it is read
 * once and again only when VS Code changes the theme (it rewrites the page's style and body class).
 * Opening an emulator measures the font with forced layouts, tens of milliseconds each time, so
 * terminals open one per frame, and not while the log is being scrolled: until then a card shows
 * the output as plain text.
 */

interface Look {
  theme: Record<string, string>;
  fontFamily: string;
}

let cached: Look | undefined;

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

function readLook(): Look {
  const style = getComputedStyle(document.body);
  const names = ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'];
  const theme: Record<string, string> = {
    background: cssVar(style, '--vscode-terminal-background', cssVar(style, '--vscode-editor-background', '#1e1e1e')),
    foreground: cssVar(style, '--vscode-terminal-foreground', cssVar(style, '--vscode-editor-foreground', '#cccccc')),
    cursor: cssVar(style, '--vscode-terminalCursor-foreground', cssVar(style, '--vscode-editor-foreground', '#cccccc')),
    selectionBackground: cssVar(style, '--vscode-terminal-selectionBackground', '#264f78'),
  };
  for (const n of names) {
    const lower = n.charAt(0).toLowerCase() + n.slice(1);
    const value = cssVar(style, `--vscode-terminal-ansi${n}`, '');
    if (value) theme[lower] = value;
    const bright = cssVar(style, `--vscode-terminal-ansiBright${n}`, '');
    if (bright) theme[`bright${n}`] = bright;
  }
  return { theme, fontFamily: cssVar(style, '--vscode-editor-font-family', 'monospace') };
}

let watching = false;

/** The terminal colours and font of the current theme. */
export function terminalLook(): Look {
  if (!watching) {
    watching = true;
    const forget = (): void => {
      cached = undefined;
    };
    const observer = new MutationObserver(forget);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    if (document.body) observer.observe(document.body, { attributes: true, attributeFilter: ['style', 'class'] });
  }
  cached ??= readLook();
  return cached;
}

/** How recently the user must not have scrolled for an emulator to open (ms). */
const SCROLL_QUIET_MS = 150;
/**
 * A scroll event counts as the user scrolling when it moved this far (px) since the one before:
 * the browser's own scroll anchoring, as placeholders become views, moves a little.
 */
const SCROLL_MOVE_PX = 100;
let lastScroll = Number.NEGATIVE_INFINITY;
const lastTop = new WeakMap<EventTarget, number>();
const ownTop = new WeakMap<EventTarget, number>();

/** The panel itself scrolled `scroller` (following the bottom): its scroll event is not the user's. */
export function noteOwnScroll(scroller: HTMLElement): void {
  ownTop.set(scroller, scroller.scrollTop);
}

function onScroll(event: Event): void {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const top = target.scrollTop;
  const before = lastTop.get(target) ?? top;
  lastTop.set(target, top);
  if (ownTop.get(target) === top) return;
  if (Math.abs(top - before) >= SCROLL_MOVE_PX) lastScroll = performance.now();
}
const waiting: Array<() => boolean> = [];
let scheduled = false;

/**
 * Runs `open` in a later frame, at most one per frame and only once the log has not scrolled for a
 * moment. `open` returns false when it had nothing to do (its card went away), so the next one runs
 * in the same frame.
 */
export function queueTerminalOpen(open: () => boolean): void {
  waiting.push(open);
  schedule();
}

// From the start, so a terminal built in the middle of a scroll knows about it. Scroll events do not
// bubble; in the capture phase the document sees every one.
if (typeof document !== 'undefined') document.addEventListener('scroll', onScroll, { capture: true, passive: true });

function schedule(): void {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  requestAnimationFrame((now) => {
    scheduled = false;
    if (now - lastScroll >= SCROLL_QUIET_MS) {
      while (waiting.length > 0 && !waiting.shift()!()) {
        // That one went away; the next may open in this frame.
      }
    }
    schedule();
  });
}
