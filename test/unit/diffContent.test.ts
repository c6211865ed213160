/**
 * Inline diffs on the host: hunks with three context lines, collapsed regions, line budgets, the
 * 5 MB refusal, and the lines the panel fetches by row. The webview's model (segmentsOf) turns
 * views into rows here too, so the numbers asserted are the ones the panel shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiffContentView, DiffLineView } from '../../src/protocol/messages';
import { DIFF_FETCH_MAX_LINES, DIFF_INLINE_MAX_BYTES, DIFF_LINE_MAX_CHARS } from '../../src/protocol/messages';
import {
  contentViews,
  DiffRecord,
  HUNK_LINES_SENT,
  restoredContentViews,
  VIEW_FORMAT,
  VIEW_LINE_BUDGET,
  type DiffLinesResult,
} from '../../src/thread/diffContent';
import { diffLineRuns, MAX_EDIT_LINES } from '../../src/thread/lineDiff';
import { segmentsOf } from '../../webview/review/diffModel';

const record = (oldText: string | null, newText: string, path = '/ws/a.ts') => new DiffRecord({ type: 'diff', path, oldText, newText });
const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

/** The view as the panel shows it: `gap R+N` for a collapsed region, else rows as kind + old/new numbers. */
function shown(view: DiffContentView): string[] {
  return segmentsOf(view).map((s) =>
    s.kind === 'gap' ? `${s.changed ? 'more' : 'gap'} ${s.row}+${s.count}` : s.rows.map((r) => `${r.type[0]}${r.oldNo ?? '-'}/${r.newNo ?? '-'}`).join(' '),
  );
}

function lines(result: DiffLinesResult): { lines: DiffLineView[]; oldLine: number; newLine: number } {
  assert.ok(!('error' in result), `an error: ${'error' in result ? result.error : ''}`);
  return result;
}

test('a new file is all added lines, with no phantom unchanged line', () => {
  const view = record(null, 'x\ny\n').view;
  assert.equal(view.isNew, true);
  assert.deepEqual([view.added, view.removed], [2, 0]);
  assert.deepEqual(shown(view), ['a-/1 a-/2']);
  assert.deepEqual(view.hunks[0].lines, [
    { kind: 'add', text: 'x' },
    { kind: 'add', text: 'y' },
  ]);
});

test('an insertion keeps line numbers and collapses the unchanged lines around three lines of context', () => {
  const old = numbered(20);
  const next = [...old.slice(0, 10), 'NEW', ...old.slice(10)];
  const view = record(text(old), text(next)).view;
  assert.deepEqual(shown(view), ['gap 0+7', 'c8/8 c9/9 c10/10 a-/11 c11/12 c12/13 c13/14', 'gap 14+7']);
  assert.deepEqual(
    view.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines, h.row, h.collapsedBefore]),
    [[8, 6, 8, 7, 7, 7]],
  );
  assert.equal(view.collapsedAfter, 7);
});

test('an insertion at the very top, a deletion at the very end, only additions at the end', () => {
  assert.deepEqual(shown(record('a\nb\n', 'top\na\nb\n').view), ['a-/1 c1/2 c2/3']);
  assert.deepEqual(shown(record('a\nb\nc\n', 'a\nb\n').view), ['c1/1 c2/2 r3/-']);
  const old = numbered(10);
  assert.deepEqual(shown(record(text(old), text([...old, 'x', 'y'])).view), ['gap 0+7', 'c8/8 c9/9 c10/10 a-/11 a-/12']);
});

test('changes six unchanged lines apart share a hunk, seven apart do not', () => {
  const old = numbered(30);
  const six = [...old];
  six[9] = 'A';
  six[16] = 'B';
  assert.equal(record(text(old), text(six)).view.hunks.length, 1);
  const seven = [...old];
  seven[9] = 'A';
  seven[17] = 'B';
  const view = record(text(old), text(seven)).view;
  assert.equal(view.hunks.length, 2);
  assert.equal(view.hunks[1].collapsedBefore, 1);
});

test('empty files: nothing to show, an emptied file, a new empty file', () => {
  const same = record('a\nb\n', 'a\nb\n').view;
  assert.deepEqual([same.hunks, same.collapsedAfter, same.added, same.removed], [[], 0, 0, 0]);
  assert.deepEqual(shown(record('a\nb\n', '').view), ['r1/- r2/-']);
  const empty = record(null, '').view;
  assert.deepEqual([empty.isNew, empty.hunks.length], [true, 0]);
});

test('a missing final newline is a change of the last line, marked on that line', () => {
  const view = record('a\nb', 'a\nb\n').view;
  assert.deepEqual(view.hunks[0].lines, [
    { kind: 'context', text: 'a' },
    { kind: 'del', text: 'b', noEol: true },
    { kind: 'add', text: 'b' },
  ]);
});

test('CRLF lines are shown without their CR; a line ending change is a change', () => {
  const view = record('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n').view;
  assert.deepEqual(
    view.hunks[0].lines.map((l) => `${l.kind}:${l.text}`),
    ['context:a', 'del:b', 'add:B', 'context:c'],
  );
  const endings = record('a\r\nb\r\n', 'a\nb\n').view;
  assert.deepEqual([endings.added, endings.removed], [2, 2]);
  // A lone CR inside a line stays (only the CR of a CRLF ending goes).
  assert.equal(record(null, 'x\ry\r\n').view.hunks[0].lines[0].text, 'x\ry');
});

test('collapsed lines come back by row with their numbers; requests are clamped, never thrown', () => {
  const old = numbered(40);
  const next = [...old];
  next[4] = 'line 5 changed';
  next.splice(30, 0, 'inserted');
  const r = record(text(old), text(next));
  assert.deepEqual(shown(r.view), [
    'gap 0+1',
    'c2/2 c3/3 c4/4 r5/- a-/5 c6/6 c7/7 c8/8',
    'gap 9+19',
    'c28/28 c29/29 c30/30 a-/31 c31/32 c32/33 c33/34',
    'gap 35+7',
  ]);
  const gap = lines(r.lines(r.view.diffId, 9, 19));
  assert.deepEqual([gap.oldLine, gap.newLine, gap.lines.length], [9, 9, 19]);
  assert.deepEqual(gap.lines[0], { kind: 'context', text: 'line 9' });
  assert.deepEqual(gap.lines[18], { kind: 'context', text: 'line 27' });
  const tail = lines(r.lines(r.view.diffId, 35, 100));
  assert.deepEqual([tail.oldLine, tail.newLine, tail.lines.map((l) => l.text)], [34, 35, old.slice(33)]);
  // Rows across a change: removed, added and unchanged lines in order.
  assert.deepEqual(
    lines(r.lines(r.view.diffId, 3, 4)).lines.map((l) => `${l.kind}:${l.text}`),
    ['context:line 4', 'del:line 5', 'add:line 5 changed', 'context:line 6'],
  );
  assert.deepEqual(lines(r.lines(r.view.diffId, 500, 10)).lines, []);
  assert.deepEqual(lines(r.lines(r.view.diffId, -5, 1)).lines, [{ kind: 'context', text: 'line 1' }]);
  assert.equal(lines(r.lines(r.view.diffId, Number.NaN, Number.POSITIVE_INFINITY)).lines.length, 42, 'NaN reads from the top; any count is capped');
  assert.ok('error' in r.lines(r.view.diffId + 1000, 0, 1), 'another diff id is refused');
});

test('a long hunk sends its first lines; the rest is fetched, at most DIFF_FETCH_MAX_LINES at once', () => {
  const r = record(null, text(numbered(5000)));
  const [hunk] = r.view.hunks;
  assert.equal(hunk.lines.length, HUNK_LINES_SENT);
  assert.equal(hunk.more, 5000 - HUNK_LINES_SENT);
  assert.deepEqual(shown(r.view).slice(1), [`more ${HUNK_LINES_SENT}+${5000 - HUNK_LINES_SENT}`]);
  const next = lines(r.lines(r.view.diffId, HUNK_LINES_SENT, 100_000));
  assert.equal(next.lines.length, DIFF_FETCH_MAX_LINES);
  assert.deepEqual([next.newLine, next.lines[0].text, next.lines[0].kind], [HUNK_LINES_SENT + 1, `line ${HUNK_LINES_SENT + 1}`, 'add']);
});

test('the view holds at most VIEW_LINE_BUDGET lines; later hunks come collapsed but counted', () => {
  const old = numbered(20_000);
  const next = old.map((l, i) => (i % 40 === 20 ? `${l} edited` : l));
  const view = record(text(old), text(next)).view;
  assert.equal(view.hunks.length, 500);
  const sent = view.hunks.reduce((n, h) => n + h.lines.length, 0);
  assert.equal(sent, VIEW_LINE_BUDGET);
  const last = view.hunks[view.hunks.length - 1];
  assert.deepEqual([last.lines.length, last.more, last.oldStart], [0, 8, 20_000 - 40 + 18]);
  assert.deepEqual([view.added, view.removed], [500, 500]);
  assert.ok(JSON.stringify(view).length < 200_000, `the view stays small (${JSON.stringify(view).length} chars)`);
});

test('long lines are cut (never inside a surrogate pair)', () => {
  const long = 'x'.repeat(DIFF_LINE_MAX_CHARS - 1) + '😀' + 'y'.repeat(100);
  const [line] = record(null, `${long}\n`).view.hunks[0].lines;
  assert.equal(line.cut, true);
  assert.equal(line.text, 'x'.repeat(DIFF_LINE_MAX_CHARS - 1));
});

test(`texts over ${DIFF_INLINE_MAX_BYTES / 1024 / 1024} MB (either side) are refused inline, not diffed; under it they are`, () => {
  const big = 'é'.repeat(DIFF_INLINE_MAX_BYTES / 2 + 1); // 2 bytes each in UTF-8: over the limit in bytes, not in characters
  for (const [oldText, newText] of [
    [big, 'a\n'],
    ['a\n', big],
    [null, big],
  ] as const) {
    const r = record(oldText, newText);
    assert.deepEqual(r.view.tooLarge, { bytes: DIFF_INLINE_MAX_BYTES + 2, limit: DIFF_INLINE_MAX_BYTES });
    assert.deepEqual([r.view.hunks, r.view.added, r.view.removed], [[], 0, 0]);
    assert.ok('error' in r.lines(r.view.diffId, 0, 10));
  }
  const justUnder = 'a'.repeat(DIFF_INLINE_MAX_BYTES - 1) + '\n';
  assert.equal(record(null, justUnder).view.tooLarge, undefined);
});

test(`past ${MAX_EDIT_LINES} changed lines the middle is one change between the common start and end`, () => {
  const old = numbered(3000);
  const next = old.map((l, i) => (i >= 10 && i < 2990 && i % 2 === 0 ? `${l}!` : l));
  const diff = diffLineRuns(text(old), text(next));
  assert.deepEqual(diff.runs, [
    { kind: 'same', count: 10 },
    { kind: 'del', count: 2979 },
    { kind: 'add', count: 2979 },
    { kind: 'same', count: 11 },
  ]);
  // Under the bound, the real diff.
  const few = old.map((l, i) => (i % 100 === 0 ? `${l}!` : l));
  assert.equal(diffLineRuns(text(old), text(few)).added, 30);
});

test('content views reuse an unchanged diff (same id) and give changed texts a new one', () => {
  const first = contentViews(
    [
      { type: 'diff', path: '/ws/a.ts', oldText: 'a\n', newText: 'b\n' },
      { type: 'markdown', text: 'hi' },
    ],
    [],
  );
  assert.equal(first.diffs[1], undefined);
  const again = contentViews([{ type: 'diff', path: '/ws/a.ts', oldText: 'a\n', newText: 'b\n' }], first.diffs);
  assert.equal(again.diffs[0], first.diffs[0]);
  assert.equal(again.content[0], first.content[0]);
  const changed = contentViews([{ type: 'diff', path: '/ws/a.ts', oldText: 'a\n', newText: 'c\n' }], first.diffs);
  assert.notEqual((changed.content[0] as DiffContentView).diffId, (first.content[0] as DiffContentView).diffId);
});

test('restoring stored content: texts give views again, bare views get fresh ids, junk is dropped', () => {
  const stored = record('a\n', 'b\n').stored();
  assert.equal(stored.oldText, 'a\n');
  const { content, diffs } = restoredContentViews([
    stored,
    { type: 'diff', path: '/ws/old-format.ts', oldText: null, newText: 'n\n' },
    { type: 'diff', path: '/ws/view-only.ts', hunks: [], diffId: 1 },
    { type: 'diff', path: 7, newText: 3 },
    { type: 'markdown', text: 'kept' },
    null,
    'text',
  ]);
  assert.equal(content.length, 4);
  assert.ok(!('oldText' in content[0]) && !('newText' in content[0]), 'no texts in the restored view');
  assert.deepEqual(shown(content[0] as DiffContentView), ['r1/- a-/1']);
  assert.deepEqual(shown(content[1] as DiffContentView), ['a-/1']);
  assert.equal(diffs[2], undefined);
  assert.notEqual((content[2] as DiffContentView).diffId, 1);
  assert.deepEqual(content[3], { type: 'markdown', text: 'kept' });
  assert.deepEqual(restoredContentViews('not a list'), { content: [], diffs: [] });
});

test('a stored view of this format is shown again without diffing; another format is computed anew', () => {
  const old = text(Array.from({ length: 50 }, (_, i) => `l${i}`));
  const original = record(old, old.replace('l20', 'L20'));
  const stored = { ...original.stored(), added: 99 }; // marked, to tell a reused view from a computed one
  assert.equal(stored.viewFormat, VIEW_FORMAT);
  const reused = restoredContentViews([JSON.parse(JSON.stringify(stored))]);
  const view = reused.content[0] as DiffContentView;
  assert.equal(view.added, 99, 'the stored view came back as it was');
  assert.notEqual(view.diffId, original.view.diffId, 'under a new id');
  assert.deepEqual(Object.keys(view).sort(), ['added', 'collapsedAfter', 'diffId', 'hunks', 'isNew', 'path', 'removed', 'type']);
  // Its lines are still fetched from the texts (the line diff is computed on the first fetch).
  assert.deepEqual(
    lines(reused.diffs[0]!.lines(view.diffId, 0, 2)).lines.map((l) => l.text),
    ['l0', 'l1'],
  );
  for (const other of [
    { ...stored, viewFormat: VIEW_FORMAT + 1 },
    { ...stored, viewFormat: undefined },
    { ...stored, hunks: 'no' },
    { ...stored, isNew: 'yes' },
  ]) {
    assert.equal((restoredContentViews([other]).content[0] as DiffContentView).added, 1, 'computed from the texts');
  }
});
