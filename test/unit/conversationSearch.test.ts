import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Entry } from '../../src/protocol/messages';
import { fold, SearchIndex, snippetAt } from '../../src/store/searchIndex';
import { ConversationSearch } from '../../src/store/conversationSearch';
import { ConversationStore } from '../../src/store/conversationStore';
import type { Transcript } from '../../src/store/conversationFormat';

const user = (id: string, text: string): Entry => ({ kind: 'user', id, text });
const agent = (id: string, text: string): Entry => ({ kind: 'agent', id, text });
const tool = (id: string, title: string, paths: string[] = []): Entry => ({
  kind: 'tool_call',
  id,
  toolCallId: id,
  title,
  toolKind: 'edit',
  status: 'completed',
  content: [],
  locations: paths.map((p) => ({ path: `/ws/${p}`, shown: p, inWorkspace: true })),
});
const transcript = (...entries: Entry[]): Transcript => ({ version: 1, entries, terminals: {} });

test('finds a phrase case-insensitively in prompts, replies, tool titles and paths, with the entry it is in', () => {
  const index = new SearchIndex();
  index.set(
    'c1',
    'Fix the build',
    transcript(
      user('u1', 'Why does the LOGIN page crash?'),
      agent('a1', 'The crash comes from the Session Cookie parser.'),
      tool('t1', 'Edit auth module', ['src/auth/cookieJar.ts']),
    ),
  );
  index.set('c2', 'Other', transcript(agent('a2', 'Nothing about that here.')));

  const prompt = index.search('login PAGE');
  assert.deepEqual(
    prompt.map((h) => [h.conversationId, h.entryId, h.field]),
    [['c1', 'u1', 'prompt']],
  );
  assert.deepEqual(prompt[0].snippet, { before: 'Why does the ', match: 'LOGIN page', after: ' crash?' });

  assert.deepEqual(
    index.search('session cookie').map((h) => [h.entryId, h.field, h.snippet.match]),
    [['a1', 'reply', 'Session Cookie']],
  );
  assert.deepEqual(
    index.search('cookiejar.ts').map((h) => [h.entryId, h.field]),
    [['t1', 'tool']],
  );
  assert.deepEqual(
    index.search('auth module').map((h) => h.entryId),
    ['t1'],
  );
  assert.deepEqual(
    index.search('nothing about').map((h) => h.conversationId),
    ['c2'],
  );
  assert.deepEqual(index.search('zebra'), []);
  // One character would match nearly everything.
  assert.deepEqual(index.search('a'), []);
});

test('the title is searched too, first, and a rename is found without re-indexing', () => {
  const index = new SearchIndex();
  index.set('c1', 'Refactor the parser', transcript(agent('a1', 'I refactored the parser as asked.')));
  assert.deepEqual(
    index.search('the parser').map((h) => [h.entryId, h.field]),
    [
      ['', 'title'],
      ['a1', 'reply'],
    ],
  );
  index.setTitle('c1', 'Tokenizer work');
  assert.deepEqual(
    index.search('tokenizer').map((h) => h.field),
    ['title'],
  );
});

test('one hit per entry, at most perConversation per conversation and limit in all, in the order asked', () => {
  const index = new SearchIndex();
  for (const id of ['c1', 'c2', 'c3'])
    index.set(id, id, transcript(agent(`${id}-a`, 'alpha alpha alpha'), agent(`${id}-b`, 'alpha'), agent(`${id}-c`, 'alpha')));
  const hits = index.search('alpha', ['c3', 'c1'], { perConversation: 2 });
  assert.deepEqual(
    hits.map((h) => h.entryId),
    ['c3-a', 'c3-b', 'c1-a', 'c1-b'],
  );
  assert.equal(index.search('alpha', undefined, { limit: 4 }).length, 4);
});

test('a phrase matches across a line break or tab (each whitespace character is a space), never across entries', () => {
  const index = new SearchIndex();
  index.set('c1', 't', transcript(agent('a1', 'first line ends with foo'), agent('a2', 'bar starts the next'), agent('a3', 'call\tfoo\nbar again')));
  assert.deepEqual(
    index.search('ends with foo bar').map((h) => h.entryId),
    [],
  );
  assert.deepEqual(
    index.search('call foo bar').map((h) => h.entryId),
    ['a3'],
  );
});

test('snippets are cut to whole words on one line, with an ellipsis where cut', () => {
  const text = `${'lorem ipsum dolor sit amet '.repeat(4)}NEEDLE here\nand then ${'more words follow '.repeat(8)}`;
  const at = text.indexOf('NEEDLE');
  const s = snippetAt(text, 0, text.length, at, 6);
  assert.equal(s.match, 'NEEDLE');
  assert.ok(s.before.startsWith('…') && !s.before.startsWith('… '), s.before);
  assert.ok(text.includes(s.before.slice(1)), 'before is a whole-word tail of the text');
  assert.ok(s.after.endsWith('…') && !s.after.includes('\n'), s.after);
  assert.ok(s.after.startsWith(' here and then'), s.after);
});

test('folding keeps offsets: characters that lower-case to two stay as they are', () => {
  const text = 'İstanbul\tMÜNCHEN';
  assert.equal(fold(text).length, text.length);
  assert.equal(fold(text), 'İstanbul münchen');
  const index = new SearchIndex();
  index.set('c1', 't', transcript(agent('a1', `Trip: ${text} and back`)));
  const [hit] = index.search('münchen and');
  assert.equal(hit.snippet.match, 'MÜNCHEN and');
});

test('the trigram filter never hides a match (random texts, random phrases)', () => {
  let seed = 7;
  const rand = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const alphabet = 'abcdefgh XYZ\n';
  const index = new SearchIndex();
  const texts = new Map<string, string>();
  for (let c = 0; c < 20; c++) {
    let text = '';
    for (let i = 0; i < 400; i++) text += alphabet[rand(alphabet.length)];
    texts.set(`c${c}`, text);
    index.set(`c${c}`, '', transcript(agent(`e${c}`, text)));
  }
  for (let q = 0; q < 200; q++) {
    const source = texts.get(`c${rand(20)}`)!;
    const start = rand(source.length - 6);
    const phrase = source.slice(start, start + 3 + rand(4));
    if (phrase.trim().length < 2 || /\s\s/.test(phrase) || phrase !== phrase.trim()) continue;
    const expected = [...texts].filter(([, t]) => fold(t).includes(fold(phrase))).map(([id]) => id);
    const found = [...new Set(index.search(phrase, undefined, { perConversation: 1, limit: 1000 }).map((h) => h.conversationId))];
    assert.deepEqual(found.sort(), expected.sort(), JSON.stringify(phrase));
  }
});

interface Loads {
  search: ConversationSearch;
  stored: Map<string, Transcript>;
  loads: string[];
}

function fakeStore(initial: Record<string, Transcript>): Loads {
  const stored = new Map(Object.entries(initial));
  const loads: string[] = [];
  const search = new ConversationSearch({
    load: async (id) => {
      loads.push(id);
      return stored.get(id);
    },
    pause: () => Promise.resolve(),
  });
  return { search, stored, loads };
}

test('built lazily on the first search; a save marks only that conversation stale; a removed one disappears', async () => {
  const { search, stored, loads } = fakeStore({ c1: transcript(agent('a1', 'the quokka smiles')), c2: transcript(agent('a2', 'a wombat digs')) });
  const list = [
    { id: 'c1', title: 'One' },
    { id: 'c2', title: 'Two' },
  ];
  assert.deepEqual(loads, [], 'nothing is read before a search');
  assert.deepEqual(
    (await search.search(list, 'quokka')).map((h) => h.entryId),
    ['a1'],
  );
  assert.deepEqual(loads, ['c1', 'c2']);
  await search.search(list, 'wombat');
  assert.deepEqual(loads, ['c1', 'c2'], 'a second search reads nothing');

  stored.set('c2', transcript(agent('a2', 'a wombat digs'), agent('a3', 'then a platypus swims')));
  search.saved('c2');
  assert.deepEqual(
    (await search.search(list, 'platypus')).map((h) => h.entryId),
    ['a3'],
  );
  assert.deepEqual(loads, ['c1', 'c2', 'c2'], 'only the saved conversation is read again');

  search.removed('c1');
  assert.deepEqual(await search.search([list[1]], 'quokka'), []);
  assert.deepEqual(search.stats().conversations, 1);
  // Not listed any more (deleted elsewhere): forgotten, even without a removal.
  assert.deepEqual(await search.search([], 'wombat'), []);
  assert.equal(search.stats().conversations, 0);
});

test('a load overtaken by a save is read again; concurrent searches share one build', async () => {
  const stored = new Map<string, Transcript>([['c1', transcript(agent('a1', 'old words'))]]);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let loads = 0;
  const search = new ConversationSearch({
    load: async (id) => {
      loads++;
      const value = stored.get(id);
      if (loads === 1) await gate;
      return value;
    },
    pause: () => Promise.resolve(),
  });
  const list = [{ id: 'c1', title: 't' }];
  const first = search.search(list, 'new words');
  const second = search.search(list, 'old words');
  await Promise.resolve();
  stored.set('c1', transcript(agent('a1', 'new words')));
  search.saved('c1');
  release();
  assert.deepEqual(
    (await first).map((h) => h.snippet.match),
    ['new words'],
  );
  assert.deepEqual(await second, []);
  assert.equal(loads, 2);
});

function tempStore(t: TestContext): ConversationStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-search-'));
  const store = new ConversationStore({ dir, warn: () => undefined, debounceMs: 5, maxWaitMs: 20 });
  t.after(() => {
    store.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

test('with the real store: saves and deletions reach the index through its events', async (t) => {
  const store = tempStore(t);
  const search = new ConversationSearch({ load: (id) => store.loadTranscript(id) });
  store.onTranscriptSaved((id) => search.saved(id));
  store.onTranscriptRemoved((id) => search.removed(id));
  const list = [{ id: 'c1', title: 'Kept' }];
  await store.saveTranscript('c1', transcript(agent('a1', 'the first answer mentions Kumquat')));
  assert.deepEqual(
    (await search.search(list, 'kumquat')).map((h) => h.entryId),
    ['a1'],
  );
  store.scheduleTranscript('c1', () => transcript(agent('a1', 'the first answer mentions Kumquat'), agent('a2', 'and later Rambutan')));
  await store.flush();
  assert.deepEqual(
    (await search.search(list, 'rambutan')).map((h) => h.entryId),
    ['a2'],
  );
  await store.deleteConversation('c1');
  assert.equal(search.stats().conversations, 0);
  assert.deepEqual(await search.search(list, 'kumquat'), []);
});

test('a query is literal text: expression characters match themselves; Greek and CJK are found too', () => {
  const index = new SearchIndex();
  index.set('c1', 't', transcript(agent('a1', 'call foo.bar(baz) then [x]+y'), agent('a2', 'ΟΔΥΣΣΕΥΣ sailed; 搜索对话 works')));
  assert.deepEqual(
    index.search('foo.bar(baz)').map((h) => h.entryId),
    ['a1'],
  );
  assert.deepEqual(index.search('foo?bar'), []);
  assert.deepEqual(
    index.search('[x]+y').map((h) => h.entryId),
    ['a1'],
  );
  assert.deepEqual(
    index.search('οδυσσευς').map((h) => h.snippet.match),
    ['ΟΔΥΣΣΕΥΣ'],
  );
  assert.deepEqual(
    index.search('对话').map((h) => h.entryId),
    ['a2'],
  );
});
