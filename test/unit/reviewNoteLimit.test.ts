// Review notes past the limit: sent ones make room, but a note waiting to be sent is never dropped —
// the new one is refused and the user is told, with its text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReviewNoteDesk } from '../../src/conversation/reviewNoteDesk';
import { MAX_NOTES, NoteBook } from '../../src/review/reviewNotes';
import type { ReviewNoteView } from '../../src/protocol/messages';

const note = (i: number) => ({ path: '/w/f.txt', relPath: 'f.txt', startLine: i, endLine: i, text: `note ${i}` });

test('sent notes make room for new ones, oldest first', () => {
  const book = new NoteBook();
  for (let i = 1; i <= MAX_NOTES; i++) book.add(note(i));
  book.takePending();
  book.add(note(1000));
  const all = book.all();
  assert.equal(all.length, MAX_NOTES);
  assert.equal(all[0].text, 'note 2', 'the oldest sent note went');
  assert.equal(all.at(-1)?.text, 'note 1000');
});

test('with MAX_NOTES waiting, a new note is refused and none of the waiting ones is lost', () => {
  const book = new NoteBook();
  for (let i = 1; i <= MAX_NOTES; i++) assert.notEqual(book.add(note(i)), 'full');
  assert.equal(book.add(note(9999)), 'full');
  assert.deepEqual(
    book.pending().map((n) => n.text),
    Array.from({ length: MAX_NOTES }, (_, i) => `note ${i + 1}`),
  );
  assert.equal(book.add({ ...note(1), text: '   ' }), undefined, 'a blank note is still just ignored');
});

test('the desk tells the user why a note was not added, with the note’s text', async () => {
  const refused: string[] = [];
  let changes = 0;
  const desk = new ReviewNoteDesk({
    roots: () => ['/w'],
    hunkAt: async () => undefined,
    changed: (_notes: ReviewNoteView[]) => changes++,
    refused: (message) => refused.push(message),
  });
  for (let i = 1; i <= MAX_NOTES; i++) await desk.add({ path: '/w/f.txt', startLine: i, endLine: i, text: `n${i}` });
  assert.equal(changes, MAX_NOTES);
  assert.equal(await desk.add({ path: '/w/f.txt', startLine: 1, endLine: 1, text: 'rename this variable' }), undefined);
  assert.equal(changes, MAX_NOTES, 'nothing changed');
  assert.equal(refused.length, 1);
  assert.match(refused[0], new RegExp(`^${MAX_NOTES} review notes are waiting`));
  assert.match(refused[0], /rename this variable/);
  assert.equal(desk.pendingCount, MAX_NOTES);
  desk.take();
  assert.ok(await desk.add({ path: '/w/f.txt', startLine: 1, endLine: 1, text: 'rename this variable' }), 'after sending, it goes in');
});
