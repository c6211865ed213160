/** Markdown from untrusted text (agent output, settings): it renders as text, never as markup. */

/** Plain text in a table cell or a paragraph: no markup, no line breaks, no HTML. */
export function text(value: string): string {
  return (
    value
      .replace(/\r?\n/g, ' ')
      // Only what can start markup mid-line: `(` needs no escape once `[` has one, `#` only at a line start.
      .replace(/[\\`*_[\]|<>~]/g, '\\$&')
      .trim()
  );
}

/** Inline code that survives backticks and pipes in the value. */
export function code(value: string): string {
  const flat = value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return longest > 0 ? `${ticks} ${flat} ${ticks}` : `${ticks}${flat}${ticks}`;
}

/** A fenced block longer than any backtick run inside it, so the content cannot close it. */
export function fence(value: string): string {
  const longest = Math.max(2, ...(value.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}text\n${value.replace(/\s+$/, '')}\n${ticks}`;
}
