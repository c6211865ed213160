import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { computeHunks, countLineChanges, countLines, revertHunks } from '../../src/review/hunks';

const lines = (...ls: string[]) => ls.map((l) => `${l}\n`).join('');
const base = lines('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
// Three separate hunks: b→B (modify), after e insert X (insertion), delete i.
const changed = lines('a', 'B', 'c', 'd', 'e', 'X', 'f', 'g', 'h', 'j');

test('hunks: one per contiguous change, with 1-based positions and -/+ lines', () => {
  const hunks = computeHunks(base, changed);
  assert.deepEqual(
    hunks.map((h) => [h.index, h.oldStart, h.oldLines, h.newStart, h.newLines, h.lines]),
    [
      [0, 2, 1, 2, 1, ['-b', '+B']],
      [1, 6, 0, 6, 1, ['+X']],
      [2, 9, 1, 10, 0, ['-i']],
    ],
  );
  assert.deepEqual(computeHunks(base, base), []);
  assert.deepEqual(countLineChanges(base, changed), { added: 2, removed: 2 });
});

test('revert: first, middle, last, several, all, none', () => {
  assert.equal(revertHunks(base, changed, [0]), lines('a', 'b', 'c', 'd', 'e', 'X', 'f', 'g', 'h', 'j'));
  assert.equal(revertHunks(base, changed, [1]), lines('a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'j'));
  assert.equal(revertHunks(base, changed, [2]), lines('a', 'B', 'c', 'd', 'e', 'X', 'f', 'g', 'h', 'i', 'j'));
  assert.equal(revertHunks(base, changed, [0, 2]), lines('a', 'b', 'c', 'd', 'e', 'X', 'f', 'g', 'h', 'i', 'j'));
  assert.equal(revertHunks(base, changed, [0, 1, 2]), base);
  assert.equal(revertHunks(base, changed, []), changed);
  assert.equal(revertHunks(base, changed, [7, -1]), changed, 'unknown indexes are ignored');
});

test('revert: insertion-only and deletion-only texts, at the top and the end', () => {
  const inserted = `TOP\n${base}END\n`;
  const hunks = computeHunks(base, inserted);
  assert.deepEqual(
    hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]),
    [
      [1, 0, 1, 1],
      [11, 0, 12, 1],
    ],
  );
  assert.equal(revertHunks(base, inserted, [0]), `${base}END\n`);
  assert.equal(revertHunks(base, inserted, [1]), `TOP\n${base}`);
  const deleted = lines('b', 'c', 'd', 'e', 'f', 'g', 'h', 'i');
  assert.equal(computeHunks(base, deleted).length, 2);
  assert.equal(revertHunks(base, deleted, [1]), lines('b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'));
  // From and to nothing.
  assert.deepEqual(
    computeHunks('', 'x\ny\n').map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]),
    [[1, 0, 1, 2]],
  );
  assert.equal(revertHunks('x\ny\n', '', [0]), 'x\ny\n');
});

test('revert keeps CRLF line endings byte for byte, and a mix of endings', () => {
  const oldText = 'one\r\ntwo\r\nthree\r\nfour\r\n';
  const newText = 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\n';
  const hunks = computeHunks(oldText, newText);
  assert.deepEqual(
    hunks.map((h) => h.lines),
    [['-two', '+TWO'], ['+five']],
  );
  assert.equal(revertHunks(oldText, newText, [0]), 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n');
  assert.equal(revertHunks(oldText, newText, [1]), 'one\r\nTWO\r\nthree\r\nfour\r\n');
  const mixed = 'a\r\nb\nc\r\n';
  assert.equal(revertHunks(mixed, 'a\r\nB\nc\r\n', [0]), mixed);
});

test('revert handles a missing final newline on either side', () => {
  assert.equal(revertHunks('a\nb', 'a\nb\n', [0]), 'a\nb');
  assert.equal(revertHunks('a\nb\n', 'a\nb', [0]), 'a\nb\n');
  assert.equal(revertHunks('a\nb', 'a\nc', [0]), 'a\nb');
  const h = computeHunks('a\nb', 'a\nb\nc');
  assert.deepEqual(
    h.map((x) => x.lines),
    [['-b', '+b', '+c']],
  );
  assert.equal(revertHunks('a\nb', 'a\nb\nc', []), 'a\nb\nc');
});

test('countLines: a last line without ending counts, empty has none', () => {
  assert.equal(countLines(''), 0);
  assert.equal(countLines('a'), 1);
  assert.equal(countLines('a\n'), 1);
  assert.equal(countLines('a\r\nb'), 2);
});

test('a change too large to diff line by line is one whole-file hunk, still exact', () => {
  const oldText = Array.from({ length: 5000 }, (_, i) => `old ${i}\n`).join('');
  const newText = Array.from({ length: 5000 }, (_, i) => `new ${i}\n`).join('');
  const hunks = computeHunks(oldText, newText);
  assert.equal(hunks.length, 1);
  assert.deepEqual([hunks[0].oldLines, hunks[0].newLines], [5000, 5000]);
  assert.equal(revertHunks(oldText, newText, [0]), oldText);
});

// Texts from a small alphabet of lines and endings, so the diffs are interesting.
const textArb = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', '', 'x y'), fc.constantFrom('\n', '\n', '\r\n')), { maxLength: 30 }).chain((parts) =>
  fc.boolean().map((dropLastEnding) => {
    const text = parts.map(([l, e]) => l + e).join('');
    return dropLastEnding && text.length > 0 ? text.replace(/\r?\n$/, '') : text;
  }),
);

test('property: reverting all hunks gives the old text, none gives the new text', () => {
  fc.assert(
    fc.property(textArb, textArb, (oldText, newText) => {
      const hunks = computeHunks(oldText, newText);
      assert.equal(
        revertHunks(
          oldText,
          newText,
          hunks.map((h) => h.index),
        ),
        oldText,
      );
      assert.equal(revertHunks(oldText, newText, []), newText);
    }),
    { numRuns: 500 },
  );
});

test('property: reverting a subset keeps the other hunks, and the rest still diffs as those hunks', () => {
  fc.assert(
    fc.property(textArb, textArb, fc.array(fc.nat(10)), (oldText, newText, picks) => {
      const hunks = computeHunks(oldText, newText);
      const chosen = new Set(picks.filter((i) => i < hunks.length));
      const partial = revertHunks(oldText, newText, chosen);
      // Reverting the remaining hunks of the partial result lands on the old text again.
      assert.equal(
        revertHunks(
          oldText,
          partial,
          computeHunks(oldText, partial).map((h) => h.index),
        ),
        oldText,
      );
      // Line counts add up: each hunk's lines are its -/+ lines.
      for (const h of hunks) assert.equal(h.lines.length, h.oldLines + h.newLines);
    }),
    { numRuns: 300 },
  );
});
