/**
 * RuleStore (src/permissions/ruleStore.ts): conversation rules in memory, workspace and global rules
 * in JSON files — adding, editing, removing, reloading; corrupt and malformed files (reported once,
 * moved aside, never thrown); atomic replacement; serialised concurrent changes; another window
 * writing the same file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PermissionRule, RuleDraft } from '../../src/permissions/permissionRule';
import type { RuleFileProblem } from '../../src/permissions/ruleFile';
import { RuleStore } from '../../src/permissions/ruleStore';
import type { RuleStoreOptions } from '../../src/permissions/ruleStore';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const STAMP = '2025-06-01T12-00-00-000Z';

interface Fixture {
  dir: string;
  globalFile: string;
  workspaceFile: string;
  problems: RuleFileProblem[];
  make(extra?: Partial<RuleStoreOptions>): RuleStore;
}

function fixture(t: { after: (fn: () => void) => void }): Fixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-rules-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const globalFile = path.join(dir, 'global', 'permissionRules.json');
  const workspaceFile = path.join(dir, 'workspace', 'permissionRules.json');
  const problems: RuleFileProblem[] = [];
  return {
    dir,
    globalFile,
    workspaceFile,
    problems,
    make: (extra = {}) => new RuleStore({ globalFile, workspaceFile, onProblem: (p) => problems.push(p), now: () => NOW, ...extra }),
  };
}

function draft(extra: Partial<RuleDraft> = {}): RuleDraft {
  return { agent: '*', toolKind: 'execute', matcher: { type: 'commandPrefix', prefix: 'npm test' }, decision: 'allow', scope: 'workspace', ...extra };
}

function readJson(file: string): { version: number; rules: PermissionRule[] } {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number; rules: PermissionRule[] };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function added(store: RuleStore, d: RuleDraft, conversationId?: string): Promise<PermissionRule> {
  const result = await store.add(d, conversationId);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.rule;
}

test('missing files load as empty, silently', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  assert.deepEqual(store.list('c1'), []);
  assert.deepEqual(f.problems, []);
  assert.equal(fs.existsSync(f.globalFile), false, 'nothing written just by loading');
});

test('rules are saved per scope, listed conversation → workspace → global, and reloaded by a new store', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const g = await added(store, draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: 'ls' } }));
  const w = await added(store, draft({ scope: 'workspace' }));
  const c = await added(store, draft({ scope: 'conversation', decision: 'reject' }), 'conv-1');
  assert.deepEqual(
    store.list('conv-1').map((r) => r.id),
    [c.id, w.id, g.id],
  );
  assert.deepEqual(
    store.list('conv-2').map((r) => r.id),
    [w.id, g.id],
  );
  assert.deepEqual(
    store.list().map((r) => r.id),
    [w.id, g.id],
  );

  assert.match(w.id, /^[0-9a-f-]{36}$/);
  assert.equal(new Set([g.id, w.id, c.id]).size, 3);
  assert.equal(w.createdAt, NOW.toISOString());
  assert.deepEqual(readJson(f.workspaceFile), { version: 1, rules: [w] });
  assert.deepEqual(readJson(f.globalFile), { version: 1, rules: [g] });

  const again = f.make();
  await again.load();
  assert.deepEqual(again.list('conv-1'), [w, g], 'conversation rules are not persisted');
  assert.deepEqual(f.problems, []);
});

test('conversation rules live per conversation id and go with forgetConversation', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const a = await added(store, draft({ scope: 'conversation' }), 'a');
  await added(store, draft({ scope: 'conversation' }), 'b');
  assert.deepEqual(
    store.list('a').map((r) => r.id),
    [a.id],
  );
  store.forgetConversation('a');
  assert.deepEqual(store.list('a'), []);
  assert.equal(store.list('b').length, 1);
  assert.equal(fs.existsSync(f.workspaceFile), false);
  const missing = await store.add(draft({ scope: 'conversation' }));
  assert.equal(missing.ok, false);
});

test('invalid drafts and workspace rules without a workspace are refused without writing', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const bad = await store.add(draft({ matcher: { type: 'commandPrefix', prefix: 'ls; rm -rf /' } }));
  assert.equal(bad.ok, false);
  const mismatch = await store.add(draft({ toolKind: 'edit' }));
  assert.equal(mismatch.ok, false);
  assert.equal(fs.existsSync(f.workspaceFile), false);

  const noFolder = f.make({ workspaceFile: undefined });
  await noFolder.load();
  const result = await noFolder.add(draft({ scope: 'workspace' }));
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /No folder is open/);
  assert.equal((await noFolder.add(draft({ scope: 'global' }))).ok, true);
});

test('only the known fields of a draft are kept', async (t) => {
  const f = fixture(t);
  const store = f.make();
  const sneaky = { ...draft(), id: 'chosen', extra: 'x', matcher: { type: 'commandPrefix', prefix: 'ls', glob: '**' } } as unknown as RuleDraft;
  const rule = await added(store, sneaky);
  assert.notEqual(rule.id, 'chosen');
  assert.deepEqual(Object.keys(rule).sort(), ['agent', 'createdAt', 'decision', 'id', 'matcher', 'scope', 'toolKind']);
  assert.deepEqual(rule.matcher, { type: 'commandPrefix', prefix: 'ls' });
});

test('update edits in place (id, scope and createdAt stay); invalid edits change nothing', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const w = await added(store, draft());
  const c = await added(store, draft({ scope: 'conversation' }), 'conv');

  const edited = await store.update(w.id, { matcher: { type: 'commandPrefix', prefix: 'npm run lint' }, decision: 'reject' });
  assert.ok(edited.ok);
  assert.deepEqual(edited.rule, { ...w, matcher: { type: 'commandPrefix', prefix: 'npm run lint' }, decision: 'reject' });
  assert.deepEqual(readJson(f.workspaceFile).rules, [edited.rule]);

  // Fields outside RuleChanges are ignored, whatever the caller sends.
  const sneaky = await store.update(w.id, { agent: 'Gemini CLI', scope: 'global', id: 'x' } as never);
  assert.ok(sneaky.ok);
  assert.equal(sneaky.rule.scope, 'workspace');
  assert.equal(sneaky.rule.id, w.id);
  assert.equal(sneaky.rule.agent, 'Gemini CLI');

  const invalid = await store.update(w.id, { toolKind: 'fetch' });
  assert.equal(invalid.ok, false);
  assert.equal(store.get(w.id)?.toolKind, 'execute');
  assert.equal(readJson(f.workspaceFile).rules[0].toolKind, 'execute');

  const conv = await store.update(c.id, { decision: 'reject' });
  assert.ok(conv.ok);
  assert.equal(store.list('conv')[0].decision, 'reject');
  assert.equal((await store.update('nope', { decision: 'reject' })).ok, false);
});

test('remove deletes from whichever scope holds the rule', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const g = await added(store, draft({ scope: 'global' }));
  const w = await added(store, draft());
  const c = await added(store, draft({ scope: 'conversation' }), 'conv');
  for (const rule of [g, c]) {
    const removed = await store.remove(rule.id);
    assert.ok(removed.ok);
    assert.equal(removed.rule.id, rule.id);
  }
  assert.deepEqual(
    store.list('conv').map((r) => r.id),
    [w.id],
  );
  assert.deepEqual(readJson(f.globalFile).rules, []);
  assert.equal((await store.remove(g.id)).ok, false);
});

test('list and get hand out copies: changing them does not change the store', async (t) => {
  const f = fixture(t);
  const store = f.make();
  const w = await added(store, draft());
  store.list()[0].decision = 'reject';
  (store.get(w.id) as PermissionRule).matcher = { type: 'commandPrefix', prefix: 'rm' };
  assert.deepEqual(store.get(w.id), w);
});

test('a file that is not JSON is reported once, moved aside, and read as empty', async (t) => {
  const f = fixture(t);
  write(f.globalFile, '{ "version": 1, "rules": [ ');
  const store = f.make();
  await store.load();
  await store.load();
  assert.equal(f.problems.length, 1);
  const problem = f.problems[0];
  assert.equal(problem.kind, 'corruptFile');
  const aside = `${f.globalFile}.corrupt-${STAMP}`;
  assert.equal(problem.kind === 'corruptFile' && problem.movedTo, aside);
  assert.equal(fs.readFileSync(aside, 'utf8'), '{ "version": 1, "rules": [ ', 'the bad file is kept for the user');
  assert.equal(fs.existsSync(f.globalFile), false);
  assert.deepEqual(store.list(), []);
  // Saving afterwards starts a fresh, valid file.
  const g = await added(store, draft({ scope: 'global' }));
  assert.deepEqual(readJson(f.globalFile), { version: 1, rules: [g] });
  assert.equal(f.problems.length, 1);
});

test('wrong shapes, wrong versions and unreadable paths count as corrupt; nothing throws', async (t) => {
  for (const text of ['[]', 'null', '{"version":2,"rules":[]}', '{"rules":[]}', '{"version":1,"rules":{}}', '', '\u0000\u0001']) {
    const f = fixture(t);
    write(f.workspaceFile, text);
    const store = f.make();
    await store.load();
    assert.deepEqual(store.list(), [], JSON.stringify(text));
    assert.equal(f.problems.length, 1, JSON.stringify(text));
    assert.equal(f.problems[0].kind, 'corruptFile');
  }
  const f = fixture(t);
  fs.mkdirSync(f.globalFile, { recursive: true }); // a folder where the file should be: EISDIR
  const store = f.make();
  await store.load();
  assert.equal(f.problems.length, 1);
  assert.ok(fs.statSync(`${f.globalFile}.corrupt-${STAMP}`).isDirectory());
  assert.ok((await store.add(draft({ scope: 'global' }))).ok);
});

test('a bad file that cannot be moved aside is reported and never overwritten', async (t) => {
  const f = fixture(t);
  write(f.globalFile, 'not json');
  // Something already sits at the set-aside name and cannot be replaced by a file (a non-empty folder).
  fs.mkdirSync(path.join(`${f.globalFile}.corrupt-${STAMP}`, 'x'), { recursive: true });
  const store = f.make();
  await store.load();
  assert.equal(f.problems.length, 1);
  assert.equal(f.problems[0].kind === 'corruptFile' && f.problems[0].movedTo, undefined);
  const result = await store.add(draft({ scope: 'global' }));
  assert.equal(result.ok, false);
  assert.equal(fs.readFileSync(f.globalFile, 'utf8'), 'not json');
  assert.equal(f.problems.length, 1, 'reported once');
});

test('malformed and duplicate rules are dropped with a warning; the file decides the scope', async (t) => {
  const f = fixture(t);
  const good = { id: 'a', agent: '*', toolKind: 'execute', matcher: { type: 'commandPrefix', prefix: 'ls' }, decision: 'allow', scope: 'global' };
  write(
    f.workspaceFile,
    JSON.stringify({
      version: 1,
      rules: [good, { ...good, id: 'b', matcher: { type: 'commandPrefix', prefix: 'ls && rm' } }, { ...good }, 'junk', { ...good, id: 'c', toolKind: 'fetch' }],
    }),
  );
  const store = f.make();
  await store.load();
  assert.deepEqual(store.list(), [{ ...good, scope: 'workspace' }]);
  assert.deepEqual(
    f.problems.map((p) => p.kind),
    ['droppedRule', 'droppedRule', 'droppedRule', 'droppedRule'],
  );
  assert.match(f.problems[0].message, /rule 2/);
  await store.load();
  assert.equal(f.problems.length, 4, 'the same problems are not reported again');
});

test('a throwing onProblem callback does not break loading', async (t) => {
  const f = fixture(t);
  write(f.globalFile, 'nope');
  const store = f.make({
    onProblem: () => {
      throw new Error('listener bug');
    },
  });
  await store.load();
  assert.deepEqual(store.list(), []);
});

test('a failed write leaves the file and the in-memory rules as they were', async (t) => {
  const f = fixture(t);
  // The folder the global file should live in is a regular file: mkdir and write fail (ENOTDIR/EEXIST).
  write(path.dirname(f.globalFile), 'in the way');
  const store = f.make();
  await store.load();
  const result = await store.add(draft({ scope: 'global' }));
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /Could not save/);
  assert.deepEqual(store.list(), []);
  assert.equal(fs.readFileSync(path.dirname(f.globalFile), 'utf8'), 'in the way');
});

test('concurrent changes are serialised: none is lost, the file equals the list, no temp files remain', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await store.load();
  const first = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      store.add(draft({ scope: i % 2 === 0 ? 'workspace' : 'global', matcher: { type: 'commandPrefix', prefix: `cmd${i}` } })),
    ),
  );
  assert.ok(first.every((r) => r.ok));
  const ids = first.map((r) => (r.ok ? r.rule.id : ''));
  // Removes, updates and adds all at once.
  const mixed = await Promise.all([
    ...ids.slice(0, 10).map((id) => store.remove(id)),
    ...ids.slice(10, 20).map((id) => store.update(id, { decision: 'reject' })),
    ...Array.from({ length: 10 }, (_, i) => store.add(draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: `late${i}` } }))),
  ]);
  assert.ok(mixed.every((r) => r.ok));
  const listed = store.list();
  assert.equal(listed.length, 30);
  assert.equal(listed.filter((r) => r.decision === 'reject').length, 10);
  const onDisk = [...readJson(f.workspaceFile).rules, ...readJson(f.globalFile).rules];
  assert.deepEqual(onDisk, listed);
  const leftovers = [path.dirname(f.workspaceFile), path.dirname(f.globalFile)].flatMap((d) => fs.readdirSync(d)).filter((n) => n.endsWith('.tmp'));
  assert.deepEqual(leftovers, []);
});

test('writes are atomic: a reader polling during many writes always sees a whole, valid file', async (t) => {
  const f = fixture(t);
  const store = f.make();
  await added(store, draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: 'seed' } }));
  let reads = 0;
  let done = false;
  const reader = (async () => {
    while (!done) {
      const text = await fs.promises.readFile(f.globalFile, 'utf8');
      const data = JSON.parse(text) as { version: number; rules: unknown[] };
      assert.equal(data.version, 1);
      assert.ok(data.rules.length >= 1);
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  for (let i = 0; i < 40; i++) {
    // Big enough that a non-atomic write would be seen half done.
    await added(store, draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: `cmd${i} ${'x'.repeat(2000)}` } }));
  }
  done = true;
  await reader;
  assert.ok(reads > 0);
  assert.equal(readJson(f.globalFile).rules.length, 41);
});

test('a change re-reads the file first, so rules another window saved are kept', async (t) => {
  const f = fixture(t);
  const windowA = f.make();
  const windowB = f.make();
  await windowA.load();
  await windowB.load();
  const a = await added(windowA, draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: 'from-a' } }));
  const b = await added(windowB, draft({ scope: 'global', matcher: { type: 'commandPrefix', prefix: 'from-b' } }));
  assert.deepEqual(
    readJson(f.globalFile).rules.map((r) => r.id),
    [a.id, b.id],
  );
  assert.deepEqual(
    windowB.list().map((r) => r.id),
    [a.id, b.id],
  );
  // A rule removed elsewhere cannot be edited here, and this window's copy catches up.
  assert.ok((await windowB.remove(a.id)).ok);
  const stale = await windowA.update(a.id, { decision: 'reject' });
  assert.equal(stale.ok, false);
  assert.deepEqual(
    windowA.list().map((r) => r.id),
    [b.id],
  );
});

test('onDidChange fires after loads and changes; dispose is safe twice', async (t) => {
  const f = fixture(t);
  const store = f.make();
  let fired = 0;
  store.onDidChange(() => fired++);
  await store.load();
  const rule = await added(store, draft());
  await added(store, draft({ scope: 'conversation' }), 'c');
  await store.remove(rule.id);
  store.forgetConversation('c');
  store.forgetConversation('c');
  assert.equal(fired, 5);
  store.dispose();
  store.dispose();
});

test('ids stay unique even when the id source repeats itself', async (t) => {
  const f = fixture(t);
  const store = f.make({ newId: () => 'same' });
  const one = await added(store, draft());
  const two = await added(store, draft({ scope: 'conversation' }), 'c');
  assert.equal(one.id, 'same');
  assert.notEqual(two.id, 'same');
});
