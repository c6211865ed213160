import { test, mock, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Entry, TerminalView } from '../../src/protocol/messages';
import { ConversationStore, INDEX_FILE, TRANSCRIPT_DIR, type ConversationStoreOptions } from '../../src/store/conversationStore';
import type { ConversationIndex, Transcript } from '../../src/store/conversationFormat';
import type { ConversationMeta } from '../../src/store/conversationMeta';
import { encodeTranscript, TERMINAL_KEEP_CHARS } from '../../src/store/transcriptCap';
import { FileWriteQueue } from '../../src/util/atomicFile';

interface Fixture {
  /** The storage folder; not created until the store first writes. */
  dir: string;
  store: ConversationStore;
  warnings: string[];
  /** A second store on the same folder, as after a window reload. */
  reopen(opts?: Partial<ConversationStoreOptions>): ConversationStore;
}

function fixture(t: TestContext, opts: Partial<ConversationStoreOptions> = {}): Fixture {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-store-'));
  const dir = path.join(base, 'workspaceStorage', 'tandem');
  const warnings: string[] = [];
  const stores: ConversationStore[] = [];
  const make = (more: Partial<ConversationStoreOptions> = {}) => {
    const store = new ConversationStore({ dir, warn: (text) => warnings.push(text), ...opts, ...more });
    stores.push(store);
    return store;
  };
  // One hook, in this order: a disposing store may still write, so the folder goes last.
  t.after(() => {
    for (const s of stores) s.dispose();
    fs.rmSync(base, { recursive: true, force: true });
  });
  return { dir, store: make(), warnings, reopen: make };
}

const meta = (id: string, updatedAt: number, extra: Partial<ConversationMeta> = {}): ConversationMeta => ({
  id,
  agentName: 'Tandem Demo',
  title: `Conversation ${id}`,
  titleSource: 'prompt',
  cwd: '/work/project',
  createdAt: updatedAt - 1,
  updatedAt,
  ...extra,
});

const indexOf = (metas: ConversationMeta[], openIds: string[] = [], activeId?: string): ConversationIndex => ({
  version: 1,
  conversations: metas,
  openIds,
  ...(activeId !== undefined ? { activeId } : {}),
});

const userEntries = (n: number, from = 0, text = 'hello'): Entry[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'user', id: `e${from + i}`, text: `${text} ${from + i}` }));

const transcriptOf = (entries: Entry[], terminals: Record<string, TerminalView> = {}): Transcript => ({ version: 1, entries, terminals });

const terminal = (terminalId: string, output: string): TerminalView => ({
  terminalId,
  command: 'make',
  output,
  truncated: false,
  exit: { exitCode: 0, signal: null },
});

const toolCallShowing = (id: string, terminalId: string): Entry => ({
  kind: 'tool_call',
  id,
  toolCallId: `call-${id}`,
  title: 'Run make',
  toolKind: 'execute',
  status: 'completed',
  content: [{ type: 'terminal', terminalId }],
  locations: [],
});

const transcriptPath = (dir: string, id: string) => path.join(dir, TRANSCRIPT_DIR, `${id}.json`);
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));
/** Every file under `dir`, relative, sorted. */
const listFiles = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();

test('index and transcripts round-trip, and the storage folder is created on demand', async (t) => {
  const { dir, store, warnings, reopen } = fixture(t);
  assert.equal(fs.existsSync(dir), false);
  assert.deepEqual(await store.loadIndex(), indexOf([]));
  assert.equal(await store.loadTranscript('a'), undefined);

  const index = indexOf([meta('a', 10, { sessionId: 'sess-1' }), meta('b', 20, { titleSource: 'user', title: 'Mine' })], ['b', 'a'], 'b');
  const transcript: Transcript = {
    ...transcriptOf([...userEntries(2), toolCallShowing('t1', 'term-1')], { 'term-1': terminal('term-1', '\u001b[32mok\u001b[0m ✓ 😀\n') }),
    queue: [{ id: 'q1', text: 'next, please' }],
    droppedEntries: 7,
  };
  assert.deepEqual(await store.saveIndex(index), []);
  await store.saveTranscript('a', transcript);

  const again = reopen();
  assert.deepEqual(await again.loadIndex(), index);
  assert.deepEqual(await again.loadTranscript('a'), transcript);
  assert.deepEqual(listFiles(dir), [INDEX_FILE, path.join(TRANSCRIPT_DIR, 'a.json')]);
  assert.deepEqual(warnings, []);
});

test('unknown fields are ignored on load and not written back', async (t) => {
  const { dir, store, warnings } = fixture(t);
  fs.mkdirSync(dir, { recursive: true });
  const raw = { version: 1, future: true, conversations: [{ ...meta('a', 5), colour: 'teal' }], openIds: ['a', 'gone', 42], activeId: 'gone' };
  fs.writeFileSync(path.join(dir, INDEX_FILE), JSON.stringify(raw));
  const index = await store.loadIndex();
  assert.deepEqual(index, indexOf([meta('a', 5)], ['a']));
  await store.saveIndex(index);
  assert.equal(JSON.stringify(readJson(path.join(dir, INDEX_FILE))).includes('colour'), false);
  assert.deepEqual(warnings, []);
});

test('malformed conversation records are dropped with one warning; the rest load', async (t) => {
  const { dir, store, warnings } = fixture(t);
  fs.mkdirSync(dir, { recursive: true });
  const good = meta('good', 5);
  const bad = [
    { ...meta('x', 1), updatedAt: 'yesterday' },
    { ...meta('y', 1), titleSource: 'guess' },
    { ...meta('z', 1), id: '../escape' },
    { ...good, title: 'duplicate id' },
    'not an object',
    null,
  ];
  fs.writeFileSync(path.join(dir, INDEX_FILE), JSON.stringify({ version: 1, conversations: [good, ...bad], openIds: ['good', 'x'] }));
  assert.deepEqual(await store.loadIndex(), indexOf([good], ['good']));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /6 malformed/);
  assert.ok(fs.existsSync(path.join(dir, INDEX_FILE)), 'a partly malformed index is not set aside');
});

const corruptIndexes: Array<[string, string | Buffer]> = [
  ['garbage bytes', Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x9c, 0x80])],
  ['valid JSON of the wrong shape', JSON.stringify({ version: 1, conversations: { a: 1 } })],
  ['a JSON array', '[1, 2, 3]'],
  ['another version', JSON.stringify({ version: 2, conversations: [], openIds: [] })],
  ['a truncated file', JSON.stringify(indexOf([meta('a', 1), meta('b', 2)])).slice(0, 60)],
  ['an empty file', ''],
];

for (const [name, content] of corruptIndexes) {
  test(`a corrupt index (${name}) is reported once, set aside, and the store starts empty`, async (t) => {
    const { dir, store, warnings, reopen } = fixture(t);
    fs.mkdirSync(path.join(dir, TRANSCRIPT_DIR), { recursive: true });
    fs.writeFileSync(path.join(dir, INDEX_FILE), content);
    fs.writeFileSync(transcriptPath(dir, 'a'), JSON.stringify(transcriptOf(userEntries(1))));

    assert.deepEqual(await store.loadIndex(), indexOf([]));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /set aside as conversations\.json\.corrupt-\d+/);
    const aside = fs.readdirSync(dir).filter((n) => /^conversations\.json\.corrupt-\d+$/.test(n));
    assert.equal(aside.length, 1);
    assert.deepEqual(fs.readFileSync(path.join(dir, aside[0])), Buffer.from(content));
    // Transcripts may be worth recovering along with the index: a failed load sweeps nothing.
    assert.ok(fs.existsSync(transcriptPath(dir, 'a')));

    assert.deepEqual(await store.loadIndex(), indexOf([]));
    assert.equal(warnings.length, 1, 'reported once');

    const index = indexOf([meta('n', 3)], ['n']);
    await store.saveIndex(index);
    assert.deepEqual(await reopen().loadIndex(), index);
    assert.equal(warnings.length, 1);
  });
}

test('an index that cannot be read at all (a directory) is set aside too', async (t) => {
  const { dir, store, warnings } = fixture(t);
  fs.mkdirSync(path.join(dir, INDEX_FILE), { recursive: true });
  assert.deepEqual(await store.loadIndex(), indexOf([]));
  assert.equal(warnings.length, 1);
  await store.saveIndex(indexOf([meta('a', 1)]));
  assert.deepEqual(
    (await store.loadIndex()).conversations.map((c) => c.id),
    ['a'],
  );
  assert.equal(warnings.length, 1);
});

test('at most three corrupt copies of a file are kept', async (t) => {
  const { dir, store, warnings } = fixture(t);
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 5; i++) {
    fs.writeFileSync(path.join(dir, INDEX_FILE), `{broken ${i}`);
    await store.loadIndex();
    await new Promise((resolve) => setTimeout(resolve, 3)); // distinct millisecond stamps
  }
  assert.equal(warnings.length, 5);
  const aside = fs.readdirSync(dir).filter((n) => n.startsWith(`${INDEX_FILE}.corrupt-`));
  assert.equal(aside.length, 3);
  assert.deepEqual(aside.map((n) => fs.readFileSync(path.join(dir, n), 'utf8')).sort(), ['{broken 2', '{broken 3', '{broken 4']);
});

test('a corrupt transcript loads as undefined with one warning and is set aside', async (t) => {
  const { dir, store, warnings } = fixture(t);
  await store.saveTranscript('c1', transcriptOf(userEntries(3)));
  const file = transcriptPath(dir, 'c1');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 40));

  assert.equal(await store.loadTranscript('c1'), undefined);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /transcript of conversation c1.*set aside as c1\.json\.corrupt-\d+/);
  assert.equal(fs.existsSync(file), false);
  assert.equal(await store.loadTranscript('c1'), undefined);
  assert.equal(warnings.length, 1);

  fs.writeFileSync(file, JSON.stringify({ version: 1, entries: 'none', terminals: {} }));
  assert.equal(await store.loadTranscript('c1'), undefined);
  assert.equal(warnings.length, 2);

  // Deleting the conversation takes its corrupt copies along.
  await store.deleteConversation('c1');
  assert.deepEqual(fs.readdirSync(path.join(dir, TRANSCRIPT_DIR)), []);
});

test('malformed entries, terminals and queue items are dropped from a transcript with one warning', async (t) => {
  const { dir, store, warnings } = fixture(t);
  fs.mkdirSync(path.join(dir, TRANSCRIPT_DIR), { recursive: true });
  const good = userEntries(2);
  fs.writeFileSync(
    transcriptPath(dir, 'm'),
    JSON.stringify({
      version: 1,
      entries: [good[0], { kind: 'user' }, 7, good[1]],
      terminals: { ok: terminal('ok', 'x'), bad: { terminalId: 'bad', output: 3 } },
      queue: [{ id: 'q', text: 'go' }, { id: 1 }],
      droppedEntries: -4,
    }),
  );
  assert.deepEqual(await store.loadTranscript('m'), { ...transcriptOf(good, { ok: terminal('ok', 'x') }), queue: [{ id: 'q', text: 'go' }] });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /4 malformed/);
});

test('writes leave no temp files; a stale temp file from a crash is ignored on load and swept', async (t) => {
  const { dir, store, warnings, reopen } = fixture(t);
  const index = indexOf([meta('a', 1)], ['a']);
  await store.saveIndex(index);
  for (let i = 0; i < 20; i++) await store.saveTranscript('a', transcriptOf(userEntries(i + 1)));
  assert.deepEqual(listFiles(dir), [INDEX_FILE, path.join(TRANSCRIPT_DIR, 'a.json')]);

  // A crash between writing the temp file and renaming it: half-written, next to the real files.
  const staleIndexTemp = path.join(dir, `${INDEX_FILE}.0123456789ab.tmp`);
  const staleTranscriptTemp = `${transcriptPath(dir, 'a')}.ba9876543210.tmp`;
  const freshTemp = path.join(dir, `${INDEX_FILE}.aaaaaaaaaaaa.tmp`);
  fs.writeFileSync(staleIndexTemp, '{"version":1,"conversations":[{"id":"tru');
  fs.writeFileSync(staleTranscriptTemp, '{"version":1,"ent');
  fs.writeFileSync(freshTemp, 'in progress elsewhere');
  const old = new Date(Date.now() - 10 * 60_000);
  fs.utimesSync(staleIndexTemp, old, old);
  fs.utimesSync(staleTranscriptTemp, old, old);

  const again = reopen();
  assert.deepEqual(await again.loadIndex(), index);
  assert.equal((await again.loadTranscript('a'))?.entries.length, 20);
  assert.equal(fs.existsSync(staleIndexTemp), false);
  assert.equal(fs.existsSync(staleTranscriptTemp), false);
  assert.ok(fs.existsSync(freshTemp), 'a recent temp file may belong to a write in progress');
  assert.deepEqual(warnings, []);
});

test('the first load sweeps transcripts that no record refers to', async (t) => {
  const { dir, store, reopen } = fixture(t);
  await store.saveIndex(indexOf([meta('kept', 1)]));
  await store.saveTranscript('kept', transcriptOf(userEntries(1)));
  await store.saveTranscript('orphan', transcriptOf(userEntries(1)));
  fs.writeFileSync(`${transcriptPath(dir, 'orphan2')}.corrupt-123`, 'x');
  fs.writeFileSync(path.join(dir, TRANSCRIPT_DIR, 'notes.txt'), 'not ours to delete');

  await reopen().loadIndex();
  assert.deepEqual(fs.readdirSync(path.join(dir, TRANSCRIPT_DIR)).sort(), ['kept.json', 'notes.txt']);
});

test('the cap evicts the least recently updated conversations, never open or active ones, with their transcripts', async (t) => {
  const evictedCalls: string[][] = [];
  const { dir, store, warnings } = fixture(t, { maxConversations: 3, onEvicted: (ids) => evictedCalls.push(ids) });
  const metas = [meta('m5', 500), meta('m1', 100), meta('m2', 200), meta('m3', 300), meta('m4', 400)];
  for (const m of metas) await store.saveTranscript(m.id, transcriptOf(userEntries(1)));

  // m1 is the oldest but open; m2 is active; so m3 and then m4 go.
  const evicted = await store.saveIndex(indexOf(metas, ['m1'], 'm2'));
  assert.deepEqual(evicted.sort(), ['m3', 'm4']);
  assert.deepEqual(evictedCalls, [evicted]);
  assert.deepEqual(
    (await store.loadIndex()).conversations.map((c) => c.id),
    ['m5', 'm1', 'm2'],
  );
  assert.deepEqual(fs.readdirSync(path.join(dir, TRANSCRIPT_DIR)).sort(), ['m1.json', 'm2.json', 'm5.json']);

  // When everything left is open, the index stays over the cap rather than closing a tab.
  const open = [meta('o1', 1), meta('o2', 2), meta('o3', 3), meta('o4', 4)];
  assert.deepEqual(await store.saveIndex(indexOf(open, ['o1', 'o2', 'o3', 'o4'])), []);
  assert.equal((await store.loadIndex()).conversations.length, 4);
  assert.deepEqual(warnings, []);
});

test('a scheduled index save evicts too, and the evicted transcript goes even with a save of it queued', async (t) => {
  const evictedCalls: string[][] = [];
  const { dir, store } = fixture(t, { maxConversations: 1, onEvicted: (ids) => evictedCalls.push(ids) });
  await store.saveTranscript('old', transcriptOf(userEntries(1)));
  store.scheduleTranscript('old', () => transcriptOf(userEntries(2)));
  store.scheduleIndex(() => indexOf([meta('old', 1), meta('new', 2)], ['new']));
  await store.flush();
  assert.deepEqual(evictedCalls, [['old']]);
  assert.equal(fs.existsSync(transcriptPath(dir, 'old')), false);
});

test('an oversized transcript: terminal outputs are cut to their tail first', () => {
  const longOutput = 'x'.repeat(300_000) + 'THE END';
  const transcript = transcriptOf([...userEntries(3), toolCallShowing('t', 'term')], { term: terminal('term', longOutput) });
  const before = JSON.stringify(transcript);
  const encoded = encodeTranscript(transcript, 100_000);
  assert.equal(JSON.stringify(transcript), before, 'the input is not mutated');
  assert.ok(encoded.bytes <= 100_000);
  assert.equal(encoded.droppedNow, 0);
  const saved = JSON.parse(encoded.json) as Transcript;
  assert.equal(saved.entries.length, 4);
  assert.equal(saved.droppedEntries, undefined);
  assert.equal(saved.terminals.term.output.length, TERMINAL_KEEP_CHARS);
  assert.ok(saved.terminals.term.output.endsWith('THE END'));
  assert.equal(saved.terminals.term.truncated, true);
});

test('an oversized transcript: then the oldest entries are dropped and counted, with the terminals only they showed', async (t) => {
  const cap = 200_000;
  const { dir, store } = fixture(t, { maxTranscriptBytes: cap });
  const entries: Entry[] = [
    toolCallShowing('t-old', 'old-term'),
    ...userEntries(2000, 0, 'lorem ipsum dolor sit amet, consectetur adipiscing elit'),
    toolCallShowing('t-new', 'new-term'),
  ];
  const transcript: Transcript = {
    ...transcriptOf(entries, { 'old-term': terminal('old-term', 'o'.repeat(200_000)), 'new-term': terminal('new-term', 'n'.repeat(200_000)) }),
    droppedEntries: 5,
  };
  await store.saveTranscript('big', transcript);

  const bytes = fs.statSync(transcriptPath(dir, 'big')).size;
  assert.ok(bytes <= cap, `${bytes} bytes`);
  const saved = await store.loadTranscript('big');
  assert.ok(saved);
  const dropped = entries.length - saved.entries.length;
  assert.ok(dropped > 0);
  assert.equal(saved.droppedEntries, 5 + dropped, 'adds to the count already dropped');
  assert.deepEqual(saved.entries, entries.slice(dropped), 'the newest entries are kept, in order');
  assert.deepEqual(Object.keys(saved.terminals), ['new-term']);
  assert.equal(saved.terminals['new-term'].output.length, TERMINAL_KEEP_CHARS);
  // Dropping only as much as needed: one more entry would have fit.
  assert.ok(bytes + JSON.stringify(entries[dropped - 1]).length + 1 > cap);
});

test('a transcript cut never starts inside a surrogate pair', () => {
  // Two UTF-16 units per emoji and an odd total: the plain cut would start on a low surrogate.
  const output = '😀'.repeat(200_000) + '!';
  const encoded = encodeTranscript(transcriptOf([], { t: terminal('t', output) }), 500_000);
  const kept = (JSON.parse(encoded.json) as Transcript).terminals.t.output;
  assert.equal(kept.codePointAt(0), 0x1f600);
  assert.equal(kept.length, TERMINAL_KEEP_CHARS - 1);
  assert.ok(kept.endsWith('😀!'));
});

test('many parallel saves of one transcript: readers always parse it, and the last save wins', async (t) => {
  const { dir, store, warnings } = fixture(t);
  const file = transcriptPath(dir, 'busy');
  await store.saveTranscript('busy', transcriptOf(userEntries(1)));

  let reading = true;
  let reads = 0;
  const torn: string[] = [];
  const reader = (async () => {
    while (reading) {
      try {
        assert.equal((readJson(file) as Transcript).version, 1);
      } catch (err) {
        torn.push(String(err)); // collected, so the saves still finish before the folder is removed
      }
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  // Staggered, so some saves collapse into one write and others queue behind a write in progress.
  const saves: Array<Promise<void>> = [];
  for (let i = 0; i < 60; i++) {
    saves.push(store.saveTranscript('busy', transcriptOf(userEntries(200 + i))));
    if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(saves);
  reading = false;
  await reader;

  assert.ok(reads > 0);
  assert.deepEqual(torn, []);
  assert.equal((readJson(file) as Transcript).entries.length, 259);
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['busy.json']);
  assert.deepEqual(warnings, []);
});

// A timeout: were files serialised together, this test would wait for itself forever.
test('the write queue writes a burst to one file at most twice, and other files do not wait for it', { timeout: 10_000 }, async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-queue-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const a = path.join(base, 'a.json');
  const b = path.join(base, 'sub', 'b.json');
  // Hold the first rename of `a` until told: a write stuck on a slow disk.
  const realRename = fs.promises.rename;
  let reached!: () => void;
  const reachedRename = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const renames = mock.method(fs.promises, 'rename', async (from: fs.PathLike, to: fs.PathLike) => {
    if (to === a && !held) {
      held = true;
      reached();
      await gate;
    }
    return realRename(from, to);
  });
  t.after(() => renames.mock.restore());
  const queue = new FileWriteQueue();

  const first = queue.write(a, 'first');
  await reachedRename;
  const burst = Array.from({ length: 30 }, (_, i) => queue.write(a, String(i)));
  await queue.write(b, 'b');
  assert.equal(fs.readFileSync(b, 'utf8'), 'b', 'another file is written while the first still waits');
  assert.equal(fs.existsSync(a), false);

  release();
  await Promise.all([first, ...burst]);
  assert.equal(fs.readFileSync(a, 'utf8'), '29');
  const renamesOfA = renames.mock.calls.filter((c) => c.arguments[1] === a).length;
  assert.equal(renamesOfA, 2, 'the write in progress, then only the newest of the burst');

  // A removal queued behind a write wins: the file does not come back.
  const late = queue.write(a, 'late');
  const removal = queue.remove(a);
  await Promise.all([late, removal]);
  assert.equal(fs.existsSync(a), false);
  await queue.idle();
  assert.equal(queue.isBusy(a), false);
  assert.deepEqual(fs.readdirSync(base).sort(), ['sub']);
});

test('a synchronous write wins over an async write of the same file still in progress', async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-queue-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const file = path.join(base, 'x.json');
  const realWriteFile = fs.promises.writeFile;
  let reached!: () => void;
  const reachedWrite = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const writes = mock.method(fs.promises, 'writeFile', async (...args: Parameters<typeof realWriteFile>) => {
    reached();
    await gate;
    return realWriteFile(...args);
  });
  t.after(() => writes.mock.restore());
  const queue = new FileWriteQueue();

  const old = queue.write(file, 'old');
  await reachedWrite; // the async write is under way, its temp file not yet renamed
  queue.writeSync(file, 'new'); // shutdown
  release();
  await old;
  assert.equal(fs.readFileSync(file, 'utf8'), 'new');
  assert.deepEqual(fs.readdirSync(base), ['x.json'], 'the superseded temp file is removed');
});

test('scheduled saves are debounced: a burst produces one write with the latest content', async (t) => {
  const { dir, store } = fixture(t, { debounceMs: 500, maxWaitMs: 3000 });
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  t.after(() => mock.timers.reset());
  const produced: number[] = [];
  for (let i = 1; i <= 10; i++) {
    store.scheduleTranscript('d', () => {
      produced.push(i);
      return transcriptOf(userEntries(i));
    });
    mock.timers.tick(100);
  }
  assert.deepEqual(produced, [], 'nothing is produced while the burst goes on');
  mock.timers.tick(399);
  assert.deepEqual(produced, []);
  mock.timers.tick(1);
  assert.deepEqual(produced, [10], 'only the latest producer runs, once');
  await store.flush();
  assert.equal((readJson(transcriptPath(dir, 'd')) as Transcript).entries.length, 10);
  mock.timers.tick(5000);
  assert.deepEqual(produced, [10], 'and nothing runs again afterwards');
});

test('scheduled saves are written at most maxWait after the first change of a long burst', async (t) => {
  const { dir, store } = fixture(t, { debounceMs: 500, maxWaitMs: 3000 });
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  t.after(() => mock.timers.reset());
  const produced: number[] = [];
  const start = Date.now();
  for (let i = 1; i <= 20; i++) {
    store.scheduleTranscript('long', () => {
      produced.push(Date.now() - start);
      return transcriptOf(userEntries(i));
    });
    mock.timers.tick(200);
    if (i === 15) {
      assert.deepEqual(produced, [3000], 'forced by maxWait, though the stream never paused');
      await store.flush();
      assert.equal((readJson(transcriptPath(dir, 'long')) as Transcript).entries.length, 15);
    }
  }
  mock.timers.tick(300);
  assert.deepEqual(produced, [3000, 4300], 'a new burst starts its own deadline; the end of the stream is saved after the quiet time');
  await store.flush();
  assert.equal((readJson(transcriptPath(dir, 'long')) as Transcript).entries.length, 20);
});

test('flush writes scheduled work now; loadTranscript sees a save still scheduled', async (t) => {
  const { dir, store } = fixture(t, { debounceMs: 60_000, maxWaitMs: 60_000 });
  store.scheduleTranscript('f', () => transcriptOf(userEntries(4)));
  assert.equal((await store.loadTranscript('f'))?.entries.length, 4);
  store.scheduleIndex(() => indexOf([meta('f', 1)]));
  store.scheduleTranscript('g', () => transcriptOf(userEntries(2)));
  await store.flush();
  assert.deepEqual(listFiles(dir), [INDEX_FILE, path.join(TRANSCRIPT_DIR, 'f.json'), path.join(TRANSCRIPT_DIR, 'g.json')]);
});

test('flushSync writes everything pending before it returns', async (t) => {
  const { dir, store } = fixture(t, { debounceMs: 60_000, maxWaitMs: 60_000 });
  let calls = 0;
  store.scheduleIndex(() => indexOf([meta('s', 1)], ['s']));
  store.scheduleTranscript('s', () => {
    calls++;
    return transcriptOf(userEntries(3));
  });
  // Queued behind nothing yet: an async save that has not started its write.
  const queued = store.saveTranscript('q', transcriptOf(userEntries(5)));
  store.flushSync();
  assert.deepEqual(readJson(path.join(dir, INDEX_FILE)), indexOf([meta('s', 1)], ['s']));
  assert.equal((readJson(transcriptPath(dir, 's')) as Transcript).entries.length, 3);
  assert.equal((readJson(transcriptPath(dir, 'q')) as Transcript).entries.length, 5);
  await queued;
  await store.flush();
  assert.equal(calls, 1, 'the producer ran once; the timer was cleared');
  assert.deepEqual(listFiles(dir), [INDEX_FILE, path.join(TRANSCRIPT_DIR, 'q.json'), path.join(TRANSCRIPT_DIR, 's.json')]);

  store.dispose();
  store.scheduleTranscript('after', () => transcriptOf([]));
  await store.flush();
  assert.equal(fs.existsSync(transcriptPath(dir, 'after')), false, 'a disposed store ignores schedules');
});

test('deleting a conversation removes its transcript and drops its scheduled save', async (t) => {
  const { dir, store } = fixture(t, { debounceMs: 60_000, maxWaitMs: 60_000 });
  await store.saveTranscript('del', transcriptOf(userEntries(1)));
  store.scheduleTranscript('del', () => transcriptOf(userEntries(2)));
  await store.deleteConversation('del');
  await store.flush();
  assert.equal(fs.existsSync(transcriptPath(dir, 'del')), false);
  await store.deleteConversation('never-existed');
});

test('invalid ids are rejected with a warning and never reach the file system', async (t) => {
  const { dir, store, warnings } = fixture(t, { debounceMs: 1, maxWaitMs: 1 });
  const outside = path.join(path.dirname(dir), 'outside.json');
  const bad = ['', '../outside', '..', 'a/b', 'a\\b', 'a.b', 'x'.repeat(101), 'nul\u0000', 'ü', ' '];
  for (const id of bad) {
    assert.equal(await store.loadTranscript(id), undefined);
    store.scheduleTranscript(id, () => transcriptOf(userEntries(1)));
    await store.saveTranscript(id, transcriptOf(userEntries(1)));
    await store.deleteConversation(id);
  }
  await store.flush();
  assert.equal(warnings.length, bad.length * 4);
  assert.ok(warnings.every((w) => /invalid id/.test(w)));
  assert.equal(fs.existsSync(dir), false);
  assert.equal(fs.existsSync(outside), false);

  // An index record with a bad id is left out of the file rather than written.
  await store.saveIndex(indexOf([meta('ok', 1), meta('../x', 2)]));
  assert.deepEqual(
    (await store.loadIndex()).conversations.map((c) => c.id),
    ['ok'],
  );
  // 100 characters is still fine.
  await store.saveTranscript('y'.repeat(100), transcriptOf([]));
  assert.ok(fs.existsSync(transcriptPath(dir, 'y'.repeat(100))));
});

test('failing writes never reject and are reported once until a write succeeds', async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-store-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, 'blocked');
  fs.writeFileSync(dir, 'a file where the folder should be');
  const warnings: string[] = [];
  const store = new ConversationStore({ dir, warn: (w) => warnings.push(w), debounceMs: 1, maxWaitMs: 1 });
  await store.saveIndex(indexOf([meta('a', 1)]));
  await store.saveTranscript('a', transcriptOf([]));
  store.scheduleTranscript('a', () => transcriptOf(userEntries(1)));
  await store.flush();
  store.scheduleTranscript('b', () => transcriptOf([]));
  store.flushSync();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /Could not save/);

  fs.rmSync(dir);
  await store.saveTranscript('a', transcriptOf([]));
  await store.saveTranscript('a', transcriptOf([]));
  assert.equal(warnings.length, 1);
  fs.rmSync(dir, { recursive: true });
  fs.writeFileSync(dir, 'blocked again');
  await store.saveTranscript('a', transcriptOf([]));
  assert.equal(warnings.length, 2, 'a new failure after a success is reported again');
});

test('a throwing producer or warn callback is reported, not thrown', async (t) => {
  const warnings: string[] = [];
  const { store } = fixture(t, { debounceMs: 1, maxWaitMs: 1, warn: (w) => warnings.push(w) });
  store.scheduleTranscript('p', () => {
    throw new Error('producer broke');
  });
  await store.flush();
  store.scheduleTranscript('p', () => {
    throw new Error('broke again');
  });
  store.flushSync();
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /producer broke/);

  const { store: loud, dir } = fixture(t, {
    warn: () => {
      throw new Error('reporter broke');
    },
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, INDEX_FILE), 'nonsense');
  assert.deepEqual(await loud.loadIndex(), indexOf([]));
});
