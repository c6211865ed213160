/**
 * Problems, terminal output and git diffs as text for the agent. Each has a body (what an embedded
 * `tandem://` resource carries; its URI already says what it is) and a heading, which the plain
 * `text` block used for agents without embedded context puts above a fenced body.
 *
 * Problems are written one per line the way compilers print them (`path:line:col: severity:
 * message [source code]`): models read that form well and can jump to the location.
 */
import type { Problem, ProblemSeverity } from './mentions';

const SEVERITY_ORDER: readonly ProblemSeverity[] = ['error', 'warning', 'information', 'hint'];

/**
 * One line per problem, in the order given (the glue sorts); continuation lines of a multi-line
 * message are indented. `show` turns a path into what the agent reads (workspace-relative).
 */
export function problemsBody(problems: readonly Problem[], show: (path: string) => string): string {
  if (problems.length === 0) return 'No problems.';
  return problems
    .map((p) => {
      const origin = [p.source, p.code !== undefined && p.code !== '' ? String(p.code) : undefined].filter(Boolean).join(' ');
      const message = p.message.trim().replace(/\r?\n/g, '\n    ');
      return `${show(p.file)}:${p.line}:${p.column}: ${p.severity}: ${message}` + (origin ? ` [${origin}]` : '');
    })
    .join('\n');
}

/** `1 error, 2 warnings` (counts in severity order; empty when there are none). */
export function problemsSummary(problems: readonly Problem[]): string {
  const counts = new Map<ProblemSeverity, number>();
  for (const p of problems) counts.set(p.severity, (counts.get(p.severity) ?? 0) + 1);
  return SEVERITY_ORDER.filter((s) => counts.has(s))
    .map((s) => {
      const n = counts.get(s) ?? 0;
      const word = s === 'information' ? 'info' : s;
      return `${n} ${word}${n === 1 || word === 'info' ? '' : 's'}`;
    })
    .join(', ');
}

/** `Problems in src/app.ts (1 error, 2 warnings)`, `Problems in the workspace (none)`. */
export function problemsHeading(problems: readonly Problem[], shownFile: string | undefined): string {
  const where = shownFile ? `in ${shownFile}` : 'in the workspace';
  return `Problems ${where} (${problemsSummary(problems) || 'none'})`;
}

/**
 * Terminal output as plain text: escape sequences (colours, cursor moves, titles) removed, CRLF
 * made LF, and a line redrawn with `\r` (progress bars) reduced to what was last drawn.
 */
export function terminalBody(output: string): string {
  const plain = output
    // OSC (titles, hyperlinks) up to BEL or ST; then CSI sequences; then other two-byte escapes.
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, '')
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[@-_]/g, '')
    .replace(/\r+\n/g, '\n');
  const lines = plain.split('\n').map((line) => {
    const cr = line.lastIndexOf('\r');
    return cr === -1 ? line : line.slice(cr + 1);
  });
  const text = lines.join('\n').replace(/\n+$/, '');
  return text === '' ? '(no output)' : text;
}

export function terminalHeading(name: string): string {
  return `Recent output of terminal "${name}"`;
}

export function gitDiffBody(diff: string): string {
  return diff.trim() === '' ? 'No uncommitted changes.' : diff;
}

export function gitDiffHeading(shownRoot: string | undefined): string {
  return shownRoot ? `Uncommitted changes in ${shownRoot} (git diff)` : 'Uncommitted changes (git diff)';
}

/**
 * `heading:` then `body` in a fence longer than any backtick run inside it, so a diff or output
 * that contains a fence cannot end ours early.
 */
export function headedText(heading: string, body: string, info = ''): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const newline = body.endsWith('\n') ? '' : '\n';
  return `${heading}:\n${fence}${info}\n${body}${newline}${fence}`;
}
