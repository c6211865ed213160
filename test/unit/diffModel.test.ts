import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeDiff } from '../../webview/diffModel';

const rowsOf = (text: string | null, next: string) =>
  computeDiff(text, next).segments.map((s) => (s.kind === 'gap' ? `gap ${s.oldStart}+${s.count}` : s.rows.map((r) => `${r.type[0]}${r.oldNo ?? '-'}/${r.newNo ?? '-'}`).join(' ')));

test('a new file is all added lines, with no phantom unchanged line', () => {
  assert.deepEqual(rowsOf(null, 'x\ny\n'), ['a-/1 a-/2']);
  assert.deepEqual(rowsOf('', 'x\n'), ['a-/1']);
});

test('an insertion keeps line numbers and collapses the unchanged rest', () => {
  const lines = Array.from({ length: 20 }, (_, i) => String(i + 1));
  const next = [...lines.slice(0, 10), 'NEW', ...lines.slice(10)];
  assert.deepEqual(rowsOf(`${lines.join('\n')}\n`, `${next.join('\n')}\n`), [
    'gap 0+7',
    'c8/8 c9/9 c10/10 a-/11 c11/12 c12/13 c13/14',
    'gap 13+7',
  ]);
});

test('an insertion at the very top and a deletion at the very end', () => {
  assert.deepEqual(rowsOf('a\nb\n', 'top\na\nb\n'), ['a-/1 c1/2 c2/3']);
  assert.deepEqual(rowsOf('a\nb\nc\n', 'a\nb\n'), ['c1/1 c2/2 r3/-']);
});
