/**
 * How wide a header control must be for its text to stay readable. A `<select>` cut by the row shows
 * its first letter and an ellipsis ("T…", "G…"), which says nothing; each picker gets a `min-width`
 * that fits its whole label, or its first {@link READABLE_CHARS} characters and an ellipsis, so the
 * row overflows instead and the fitting (SessionControls) moves what does not fit into the options
 * menu. Widths are measured in the control's own font on a canvas (no layout), the select's own
 * chrome (padding, border, arrow) once per font with a probe.
 */

/** Fewer characters than this of a picker's value is not readable: the picker moves into the menu. */
export const READABLE_CHARS = 10;

let canvas: CanvasRenderingContext2D | null | undefined;
const chromeByFont = new Map<string, number>();

function fontOf(el: Element): string {
  const style = getComputedStyle(el);
  return style.font || `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
}

/** The width of `text` in `el`'s font, in CSS pixels. */
export function textWidth(el: Element, text: string): number {
  canvas ??= document.createElement('canvas').getContext('2d');
  if (!canvas) return text.length * 7;
  canvas.font = fontOf(el);
  return canvas.measureText(text).width;
}

/** `text` as it is shown when it must be cut: its first `chars` characters and an ellipsis. */
export function readablePart(text: string, chars = READABLE_CHARS): string {
  return [...text].length <= chars ? text : `${[...text].slice(0, chars).join('')}…`;
}

/** What a select adds around its text (padding, border, the arrow), measured once per font with a probe. */
function selectChrome(select: HTMLSelectElement): number {
  const font = fontOf(select);
  const known = chromeByFont.get(font);
  if (known !== undefined) return known;
  const probe = document.createElement('select');
  probe.className = select.className;
  probe.setAttribute('aria-hidden', 'true');
  probe.tabIndex = -1;
  probe.style.cssText = 'position:absolute;visibility:hidden;min-width:0;max-width:none;width:auto;left:-9999px';
  const option = document.createElement('option');
  option.textContent = 'MMMMMMMM';
  probe.append(option);
  (select.parentElement ?? document.body).append(probe);
  const chrome = Math.max(0, probe.getBoundingClientRect().width - textWidth(probe, option.textContent));
  probe.remove();
  // A probe outside the page measures nothing: do not keep that.
  if (chrome > 0) chromeByFont.set(font, chrome);
  return chrome;
}

/** The shown text of a select: its selected option's. */
export function selectedText(select: HTMLSelectElement): string {
  return select.selectedOptions[0]?.textContent ?? '';
}

/**
 * The narrowest a select may become and still be read: its whole selected label when that is short,
 * else `keep` (the agent's name: never cut) or the first READABLE_CHARS characters, and an ellipsis.
 */
export function readableSelectWidth(select: HTMLSelectElement, keep?: string): number {
  const label = selectedText(select);
  const chars = Math.max(READABLE_CHARS, keep ? [...keep].length : 0);
  return Math.ceil(selectChrome(select) + textWidth(select, readablePart(label, chars)));
}
