// A folder keeps its conversations under any address: they live in global storage under the
// folder's path, what an earlier version kept in the URI's storage moves there once, and a second
// URI storage with conversations of its own is merged without listing anything twice.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConversationStore } from '../../src/store/conversationStore';
import type { ConversationMeta } from '../../src/store/conversationMeta';
import { FOLDER_FILE, folderStorageDir, MOVED_MARKER, openFolderStorage, workspaceKey } from '../../src/store/folderStorage';

const meta = (id: string, updatedAt: number): ConversationMeta => ({
  id,
  agentName: 'Tandem Demo',
  title: `Conversation ${id}`,
  titleSource: 'prompt',
  cwd: '/w',
  createdAt: updatedAt - 1,
  updatedAt,
});

interface Profile {
  base: string;
  global: string;
  /** The storage VS Code gives the same folder under address `n` (8080, 8081, …). */
  uriDir(n: number): string;
  warnings: string[];
}

function profile(t: TestContext): Profile {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-folder-storage-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  return { base, global: path.join(base, 'globalStorage', 'tandem'), uriDir: (n) => path.join(base, 'workspaceStorage', `hash-${n}`, 'tandem'), warnings: [] };
}

/** What an earlier Tandem left in a URI's storage: conversations with transcripts, and checkpoints. */
async function legacy(dir: string, ids: string[], updatedAt = 1000): Promise<void> {
  const store = new ConversationStore({ dir, warn: () => undefined });
  for (const id of ids) await store.saveTranscript(id, { version: 1, entries: [{ kind: 'user', id: 'e1', text: `said in ${id}` }], terminals: {} });
  await store.saveIndex({ version: 1, conversations: ids.map((id, i) => meta(id, updatedAt + i)), openIds: ids.slice(0, 1), activeId: ids[0] });
  store.dispose();
  fs.mkdirSync(path.join(dir, 'checkpoints'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'checkpoints', 'checkpoints.json'), '{}');
}

async function conversationsIn(dir: string): Promise<{ ids: string[]; texts: string[] }> {
  const store = new ConversationStore({ dir, warn: () => undefined });
  const index = await store.loadIndex();
  const texts = [];
  for (const c of index.conversations) texts.push(((await store.loadTranscript(c.id))?.entries[0] as { text?: string } | undefined)?.text ?? '');
  store.dispose();
  return { ids: index.conversations.map((c) => c.id), texts };
}

test('the key is the folder path on this machine: symlinks resolved, several folders sorted, case folded where file systems ignore case', (t) => {
  const { base } = profile(t);
  const real = path.join(base, 'project');
  fs.mkdirSync(real);
  fs.symlinkSync(real, path.join(base, 'link'));
  assert.equal(workspaceKey(undefined, [path.join(base, 'link')]), fs.realpathSync(real));
  assert.equal(workspaceKey(undefined, ['/b', '/a']), '/a\n/b');
  assert.equal(workspaceKey('/w/My.code-workspace', ['/a'], 'darwin'), '/w/my.code-workspace');
  assert.equal(workspaceKey(undefined, []), undefined);
  assert.notEqual(folderStorageDir('/g', '/a'), folderStorageDir('/g', '/b'));
  assert.equal(folderStorageDir('/g', undefined), path.join('/g', 'no-folder'));
});

test('conversations kept under one address move once to the folder’s storage, and another address finds them', async (t) => {
  const p = profile(t);
  await legacy(p.uriDir(8080), ['c1', 'c2']);
  const first = openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8080), key: '/home/me/project', warn: (w) => p.warnings.push(w) });
  await first.ready;
  assert.deepEqual((await conversationsIn(first.dir)).ids.sort(), ['c1', 'c2']);
  assert.deepEqual((await conversationsIn(first.dir)).texts.sort(), ['said in c1', 'said in c2']);
  assert.ok(fs.existsSync(path.join(first.dir, 'checkpoints', 'checkpoints.json')), 'checkpoints came along');
  assert.ok(fs.existsSync(path.join(p.uriDir(8080), MOVED_MARKER)), 'the old place says where they went');
  assert.equal(JSON.parse(fs.readFileSync(path.join(first.dir, FOLDER_FILE), 'utf8')).key, '/home/me/project');

  // The same folder at another port: VS Code gives it a new, empty URI storage.
  const second = openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8081), key: '/home/me/project', warn: (w) => p.warnings.push(w) });
  await second.ready;
  assert.equal(second.dir, first.dir);
  assert.deepEqual((await conversationsIn(second.dir)).ids.sort(), ['c1', 'c2']);
  // Another folder does not see them.
  const other = openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(9000), key: '/home/me/other', warn: (w) => p.warnings.push(w) });
  await other.ready;
  assert.deepEqual((await conversationsIn(other.dir)).ids, []);
  assert.deepEqual(p.warnings, []);
});

test('two addresses that both kept conversations are merged: each listed once, the folder’s own kept as they are', async (t) => {
  const p = profile(t);
  await legacy(p.uriDir(8080), ['c1', 'shared']);
  await openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8080), key: '/p', warn: (w) => p.warnings.push(w) }).ready;
  await legacy(p.uriDir(8081), ['shared', 'c3'], 5000);
  const merged = openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8081), key: '/p', warn: (w) => p.warnings.push(w) });
  await merged.ready;
  const { ids, texts } = await conversationsIn(merged.dir);
  assert.deepEqual([...ids].sort(), ['c1', 'c3', 'shared']);
  assert.equal(texts.filter((x) => x === 'said in c3').length, 1, 'the added one came with its transcript');
  assert.ok(fs.existsSync(path.join(p.uriDir(8081), MOVED_MARKER)));
  assert.deepEqual(p.warnings, []);
});

test('once moved, a conversation deleted later is not brought back by the old storage', async (t) => {
  const p = profile(t);
  await legacy(p.uriDir(8080), ['c1', 'c2']);
  const storage = openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8080), key: '/p', warn: (w) => p.warnings.push(w) });
  await storage.ready;
  // The old storage still has a copy (a rename leaves the marker in a fresh folder; a copy would leave both).
  await legacy(p.uriDir(8080), ['c1', 'c2']);
  fs.writeFileSync(path.join(p.uriDir(8080), MOVED_MARKER), '{}');
  const store = new ConversationStore({ dir: storage.dir, warn: () => undefined });
  const index = await store.loadIndex();
  await store.deleteConversation('c2');
  await store.saveIndex({ ...index, conversations: index.conversations.filter((c) => c.id !== 'c2') });
  store.dispose();
  await openFolderStorage({ globalDir: p.global, uriDir: p.uriDir(8080), key: '/p', warn: (w) => p.warnings.push(w) }).ready;
  assert.deepEqual((await conversationsIn(storage.dir)).ids, ['c1']);
});

test('no folder: the global no-folder storage, nothing moved', async (t) => {
  const p = profile(t);
  const storage = openFolderStorage({ globalDir: p.global, uriDir: undefined, key: undefined, warn: (w) => p.warnings.push(w) });
  await storage.ready;
  assert.equal(storage.dir, path.join(p.global, 'no-folder'));
});
