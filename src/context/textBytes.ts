/**
 * Sizes of prompt text in UTF-8 bytes (what goes over the wire and what agents' limits count), and
 * cutting text to a byte size without splitting a character. No Node import: counted by hand so
 * a multi-megabyte file costs no copy.
 */

/** UTF-8 byte length of `text` (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest start of `text` within `maxBytes`, ending after a line break when one falls in the
 * last quarter of that (whole lines read better than a line cut in the middle), else at a
 * character boundary.
 */
export function cutHead(text: string, maxBytes: number): string {
  const end = charsWithin(text, 0, maxBytes);
  if (end >= text.length) return text;
  // lastIndexOf treats a negative start as 0, which would find a break at index 0 beyond the budget.
  if (end === 0) return '';
  const nl = text.lastIndexOf('\n', end - 1);
  return nl >= 0 && nl + 1 >= end * 0.75 ? text.slice(0, nl + 1) : text.slice(0, end);
}

/** The longest end of `text` within `maxBytes`, starting after a line break when one is near. */
export function cutTail(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  // Walk back from the end, counting bytes, to the earliest start that fits.
  let bytes = 0;
  let start = text.length;
  while (start > 0) {
    const c = text.charCodeAt(start - 1);
    const pair = isLowSurrogate(c) && start >= 2 && isHighSurrogate(text.charCodeAt(start - 2));
    const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    start -= pair ? 2 : 1;
  }
  const kept = text.length - start;
  const nl = text.indexOf('\n', start);
  return nl >= 0 && text.length - (nl + 1) >= kept * 0.75 ? text.slice(nl + 1) : text.slice(start);
}

/** Index just after the last whole character of `text` (from `start`) within `maxBytes`. */
function charsWithin(text: string, start: number, maxBytes: number): number {
  let bytes = 0;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const pair = isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1));
    const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return i;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
