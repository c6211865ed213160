/**
 * Fuzzy matching for the `@` picker, in the manner of Quick Open: the query's characters must appear
 * in order (case-insensitive); a match scores higher when it is in the file's base name, starts
 * words (after `/`, `.`, `-`, `_`, or a lower→upper case change), runs consecutively, and when the
 * candidate is short. Pure and allocation-light: it runs over every workspace file on each key.
 */

const SEPARATORS = new Set(['/', '\\', '.', '-', '_', ' ', ':']);

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1];
  if (SEPARATORS.has(prev)) return true;
  const here = text[i];
  return prev === prev.toLowerCase() && here !== here.toLowerCase();
}

/** Score of `query` in `text` from position `start` (higher is better), or -1 when it does not match. */
function scoreFrom(query: string, text: string, lowerText: string, start: number): number {
  let score = 0;
  let streak = 0;
  let at = start;
  for (let q = 0; q < query.length; q++) {
    const ch = query[q];
    let found = -1;
    for (let i = at; i < lowerText.length; i++) {
      if (lowerText[i] === ch) {
        found = i;
        break;
      }
    }
    if (found < 0) return -1;
    streak = found === at && q > 0 ? streak + 1 : 0;
    score += 1 + streak * 3 + (isWordStart(text, found) ? 4 : 0) + (text[found] === ch ? 0.5 : 0);
    at = found + 1;
  }
  return score;
}

/**
 * How well `query` matches `label` (a short name, e.g. a file's base name) or, failing that, its
 * `detail` (e.g. the workspace-relative path). -1: no match. An empty query matches everything equally.
 */
export function fuzzyScore(query: string, label: string, detail = ''): number {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const inLabel = scoreFrom(q, label, label.toLowerCase(), 0);
  if (inLabel >= 0) return 100 + inLabel * 2 + (label.toLowerCase().startsWith(q) ? 20 : 0) - label.length * 0.05;
  if (!detail) return -1;
  const inDetail = scoreFrom(q, detail, detail.toLowerCase(), 0);
  return inDetail >= 0 ? inDetail - detail.length * 0.02 : -1;
}

/** The best `limit` items for `query`, best first (stable for equal scores). */
export function rankByQuery<T>(items: readonly T[], query: string, keys: (item: T) => [label: string, detail?: string], limit: number): T[] {
  const scored: Array<{ item: T; score: number; index: number }> = [];
  items.forEach((item, index) => {
    const [label, detail] = keys(item);
    const score = fuzzyScore(query, label, detail);
    if (score >= 0) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.item);
}
