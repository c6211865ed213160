/**
 * Fences that the text inside them cannot break, and agent markdown that cannot swallow what follows
 * it. An exported conversation is one document made of many pieces the agent wrote: a command's
 * output holding ``` would end a three-backtick fence early, and a reply that leaves a fence open
 * would turn the rest of the document into code. Rules as CommonMark gives them (§4.5).
 */

/** The longest run of `char` in `text`. */
function longestRun(text: string, char: '`' | '~'): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * `body` in a backtick fence longer than any run of backticks in it (at least three), so no line of
 * the body can close it. `info` names the language (`diff`, `text`); it never holds a backtick.
 */
export function fenced(body: string, info = ''): string {
  const marker = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  const text = body.endsWith('\n') ? body : `${body}\n`;
  return `${marker}${info.replace(/[`\s]/g, '')}\n${text}${marker}`;
}

/** `text` as inline code (paths, command lines): delimited by more backticks than it holds. */
export function inlineCode(text: string): string {
  const flat = oneLine(text);
  if (flat === '') return '';
  const marker = '`'.repeat(longestRun(flat, '`') + 1);
  // A space inside the delimiters when the text starts or ends with a backtick (CommonMark strips one).
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${marker}${pad}${flat}${pad}${marker}`;
}

/** One line: line breaks and runs of white space become one space (titles, one-line items). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text shown as-is in a line of markdown (a title): characters that would start markup or HTML are escaped. */
export function plainText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Agent markdown (a reply, a thought) with a fence it left open closed at its end, so the next part
 * of the document is not read as code. Lines are otherwise kept exactly as written.
 */
export function closeOpenFences(markdown: string): string {
  let open: { char: string; length: number } | undefined;
  for (const line of markdown.split('\n')) {
    const match = FENCE_OPEN.exec(line);
    if (!match) continue;
    const [, marker, rest] = match;
    const char = marker[0];
    if (open) {
      // A closing fence: the same character, at least as long, nothing but spaces after it.
      if (char === open.char && marker.length >= open.length && rest.trim() === '') open = undefined;
    } else if (!(char === '`' && rest.includes('`'))) {
      // A backtick fence's info string may hold no backtick (else the line is inline code).
      open = { char, length: marker.length };
    }
  }
  if (!open) return markdown;
  const closing = open.char.repeat(open.length);
  return markdown.endsWith('\n') ? `${markdown}${closing}` : `${markdown}\n${closing}`;
}
