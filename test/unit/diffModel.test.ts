/**
 * The panel's diff model: rows numbered from the host's hunks, gaps for what was not sent, word
 * highlights for paired lines, and malformed views (the panel checks what it is sent) that give
 * fewer rows instead of exceptions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiffContentView } from '../../src/protocol/messages';
import { DiffRecord } from '../../src/thread/diffContent';
import { firstChangedLine, numberRows, segmentsOf } from '../../webview/review/diffModel';

const view = (oldText: string | null, newText: string): DiffContentView => new DiffRecord({ type: 'diff', path: '/w/a.ts', oldText, newText }).view;

test('word highlights pair each removed line with the added line in the same place', () => {
  const [segment] = segmentsOf(view('let a = 1;\nlet b = 2;\n', 'let a = 10;\nlet b = 2;\n'));
  assert.ok(segment.kind === 'rows');
  const [removed, added, context] = segment.rows;
  assert.deepEqual(
    removed.words?.filter((w) => w.changed).map((w) => w.text),
    ['1'],
  );
  assert.deepEqual(
    added.words?.filter((w) => w.changed).map((w) => w.text),
    ['10'],
  );
  assert.equal(context.words, undefined);
  // Unpaired lines (more added than removed) get none; very long lines skip the word diff.
  const rows = numberRows(
    [
      { kind: 'del', text: 'x' },
      { kind: 'add', text: 'y' },
      { kind: 'add', text: 'z' },
      { kind: 'del', text: 'q'.repeat(500) },
      { kind: 'add', text: 'r'.repeat(500) },
    ],
    1,
    1,
  ).rows;
  assert.deepEqual(
    rows.map((r) => r.words !== undefined),
    [true, true, false, false, false],
  );
});

test('fetched lines are numbered from the numbers the host sent, and say where the next ones start', () => {
  const numbered = numberRows(
    [
      { kind: 'context', text: 'a' },
      { kind: 'del', text: 'b' },
      { kind: 'add', text: 'B', noEol: true },
      { kind: 'add', text: 'long', cut: true },
    ],
    10,
    20,
  );
  assert.deepEqual(
    numbered.rows.map((r) => [r.type, r.oldNo, r.newNo]),
    [
      ['context', 10, 20],
      ['removed', 11, undefined],
      ['added', undefined, 21],
      ['added', undefined, 22],
    ],
  );
  assert.deepEqual([numbered.rows[2].noEol, numbered.rows[3].cut], [true, true]);
  assert.deepEqual([numbered.oldLine, numbered.newLine], [12, 23]);
});

test('the first changed line (for opening the file) skips the leading context', () => {
  const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
  const next = [...lines];
  next[9] = 'changed';
  assert.equal(firstChangedLine(view(lines.join('\n'), next.join('\n'))), 10);
  assert.equal(firstChangedLine(view('a\nb\n', 'a\n')), 2, 'a deletion: the new line after it');
  assert.equal(firstChangedLine(view('a\n', 'a\n')), 1);
});

test('malformed views give fewer rows, never an exception', () => {
  const junk = [
    { hunks: 'no' },
    {
      hunks: [
        null,
        3,
        { lines: 'x' },
        {
          row: -4,
          oldStart: 'a',
          lines: [null, { kind: 'weird', text: 'x' }, { kind: 'add' }, { kind: 'add', text: 'ok' }],
          more: -1,
          collapsedBefore: Number.NaN,
        },
      ],
    },
    { hunks: [], collapsedAfter: 5 },
    {},
  ];
  const shown = junk.map((v) => segmentsOf(v as unknown as DiffContentView));
  assert.deepEqual(shown[0], []);
  assert.deepEqual(shown[1], [{ kind: 'rows', rows: [{ type: 'added', newNo: 1, text: 'ok' }] }]);
  assert.deepEqual(shown[2], [], 'no gap without any hunk');
  assert.equal(firstChangedLine({} as DiffContentView), 1);
  assert.deepEqual(numberRows('nope', 1, 1).rows, []);
});
