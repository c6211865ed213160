/**
 * Diffs between the agent and the panel: the panel gets hunks only (updates, snapshots, restated
 * threads, restored transcripts), the host keeps the texts (Open diff, fetched lines, stored
 * transcripts), and bad input never throws. The last test goes through a real scripted agent and a
 * real ConversationStore across a "restart".
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationChange, DiffContentView, Entry, ToolCallEntry } from '../../src/protocol/messages';
import { DIFF_INLINE_MAX_BYTES } from '../../src/protocol/messages';
import { ConversationStore } from '../../src/store/conversationStore';
import { Thread } from '../../src/thread/thread';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { scriptedSession } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';

let dir: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-inline-diffs-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** 2,000 lines, each one unique, so any whole text that leaks shows up by a line far from the change. */
const OLD = Array.from({ length: 2000 }, (_, i) => `const row${i} = ${i}; // far away ${i}\n`).join('');
const NEW = OLD.replace('const row1000 = 1000;', 'const row1000 = 1001;');
const FAR_LINE = 'far away 1500';

function thread() {
  const emitted: ConversationChange[] = [];
  const warnings: string[] = [];
  const t = new Thread({
    isInWorkspace: () => true,
    warn: (w) => warnings.push(w),
    emit: (m) => emitted.push(...m),
    follow: () => undefined,
    titled: () => undefined,
  });
  return { t, emitted, warnings };
}

const edit = (content: unknown[], status = 'completed') => ({
  sessionUpdate: 'tool_call',
  toolCallId: 'e1',
  title: 'Edit a.ts',
  kind: 'edit',
  status,
  content,
});
const diffOf = (entries: Entry[]): DiffContentView => {
  const card = entries.find((e): e is ToolCallEntry => e.kind === 'tool_call');
  const item = card?.content.find((c) => c.type === 'diff');
  assert.ok(item && item.type === 'diff', 'a diff item');
  return item;
};

test('the panel gets hunks, never the whole texts: updates, entries, restated threads', () => {
  const { t, emitted } = thread();
  t.dispatch(edit([{ type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: NEW }]));
  const json = JSON.stringify(emitted) + JSON.stringify(t.entries()) + JSON.stringify(t.restate());
  assert.ok(!json.includes(FAR_LINE), 'no unchanged line far from the change is sent');
  assert.ok(!json.includes('"oldText"') && !json.includes('"newText"'));
  const view = diffOf(t.entries());
  assert.deepEqual([view.added, view.removed, view.hunks.length, view.hunks[0].collapsedBefore, view.collapsedAfter], [1, 1, 1, 997, 996]);
  assert.ok(JSON.stringify(view).length < 2000, `a small view (${JSON.stringify(view).length} chars)`);
});

test('the host keeps the texts: Open diff, fetched lines, stored entries; a resent diff keeps its id', () => {
  const { t } = thread();
  t.dispatch(
    edit(
      [
        { type: 'content', content: { type: 'text', text: 'note' } },
        { type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: NEW },
      ],
      'in_progress',
    ),
  );
  const entryId = t.entries()[0].id;
  const view = diffOf(t.entries());
  assert.deepEqual(t.findDiff(entryId, 1), { path: '/ws/a.ts', oldText: OLD, newText: NEW, title: 'Edit a.ts' });
  assert.equal(t.findDiff(entryId, 0), undefined, 'not a diff');
  assert.equal(t.findDiff('nope', 1), undefined);
  const answer = t.diffLines({ type: 'fetchDiffLines', requestId: 7, entryId, index: 1, diffId: view.diffId, row: 1500, count: 2 });
  assert.deepEqual(answer, {
    type: 'diffLines',
    requestId: 7,
    oldLine: 1500,
    newLine: 1500,
    lines: [
      { kind: 'context', text: 'const row1499 = 1499; // far away 1499' },
      { kind: 'context', text: 'const row1500 = 1500; // far away 1500' },
    ],
  });
  const missing = t.diffLines({ type: 'fetchDiffLines', requestId: 8, entryId: 'nope', index: 0, diffId: view.diffId, row: 0, count: 1 });
  assert.equal(missing.requestId, 8);
  assert.match(missing.error ?? '', /not kept/);
  // Stored entries (transcripts) carry the texts, entries() never does.
  const stored = diffOf(t.storedEntries()) as DiffContentView & { oldText?: string; newText?: string };
  assert.deepEqual([stored.oldText, stored.newText], [OLD, NEW]);
  assert.ok(!('oldText' in diffOf(t.entries())));
  // The agent resends the same content with its final status: same view, same id (nothing recomputed or redrawn).
  t.dispatch(
    edit([
      { type: 'content', content: { type: 'text', text: 'note' } },
      { type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: NEW },
    ]),
  );
  assert.equal(diffOf(t.entries()).diffId, view.diffId);
  // New texts: a new id, and a request naming the old one is refused.
  t.dispatch(edit([{ type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: `${NEW}x\n` }]));
  const changed = diffOf(t.entries());
  assert.notEqual(changed.diffId, view.diffId);
  assert.match(t.diffLines({ type: 'fetchDiffLines', requestId: 9, entryId, index: 0, diffId: view.diffId, row: 0, count: 1 }).error ?? '', /changed/);
});

test('a stored transcript (this format or the older one with bare texts) restores to hunks, texts kept on the host', () => {
  const { t } = thread();
  t.dispatch(edit([{ type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: NEW }]));
  const stored = JSON.parse(JSON.stringify(t.storedEntries())) as Entry[];
  const older = JSON.parse(JSON.stringify(stored)) as Entry[];
  (older[0] as ToolCallEntry).content = [{ type: 'diff', path: '/ws/a.ts', oldText: OLD, newText: NEW } as never];
  for (const entries of [stored, older]) {
    const restored = thread();
    restored.t.restore(entries, {});
    const sent = JSON.stringify(restored.emitted);
    assert.ok(!sent.includes(FAR_LINE) && !sent.includes('"oldText"'), 'the restored thread sent no texts');
    const view = diffOf(restored.t.entries());
    assert.deepEqual([view.added, view.removed, view.hunks[0].oldStart], [1, 1, 998]);
    assert.equal(restored.t.findDiff(entries[0].id, 0)?.newText, NEW);
    assert.equal(
      restored.t.diffLines({ type: 'fetchDiffLines', requestId: 1, entryId: entries[0].id, index: 0, diffId: view.diffId, row: 0, count: 1 }).lines[0].text,
      'const row0 = 0; // far away 0',
    );
  }
});

test('bad input never throws: non-string texts, huge texts, junk in stored entries', () => {
  const { t, warnings } = thread();
  const huge = 'x'.repeat(DIFF_INLINE_MAX_BYTES + 10);
  t.dispatch(
    edit([
      { type: 'diff', path: '/ws/a.ts', oldText: 42, newText: 'n\n' },
      { type: 'diff', path: '/ws/b.ts', oldText: null, newText: { not: 'text' } },
      { type: 'diff', path: '/ws/huge.ts', oldText: 'small\n', newText: huge },
    ]),
  );
  const card = t.entries()[0] as ToolCallEntry;
  assert.equal(card.content.length, 2);
  const [numberOld, tooLarge] = card.content as DiffContentView[];
  assert.equal(numberOld.isNew, true, 'a non-string old text is shown as a new file');
  assert.deepEqual(tooLarge.tooLarge, { bytes: DIFF_INLINE_MAX_BYTES + 10, limit: DIFF_INLINE_MAX_BYTES });
  assert.ok(JSON.stringify(card).length < 2000, 'the huge text is not in the card');
  assert.equal(t.findDiff(card.id, 1)?.newText, huge, 'Open diff still gets it');
  assert.equal(warnings.length, 2);
  const restored = thread();
  restored.t.restore(
    [
      {
        kind: 'tool_call',
        id: 'e5',
        toolCallId: 'x',
        title: 't',
        toolKind: 'edit',
        status: 'completed',
        locations: [],
        content: [null, 3, { type: 'diff', path: 1 }, { type: 'diff', path: '/ws/v', hunks: 'no' }],
      } as never,
    ],
    {},
  );
  assert.deepEqual((restored.t.entries()[0] as ToolCallEntry).content, []);
  restored.t.restore(
    [{ kind: 'tool_call', id: 'e6', toolCallId: 'y', title: 't', toolKind: 'edit', status: 'completed', locations: [], content: 'not a list' } as never],
    {},
  );
  assert.deepEqual((restored.t.entries()[0] as ToolCallEntry).content, []);
});

test('across a restart: the transcript file keeps the texts, the restored panel gets hunks, Open diff still works', async () => {
  const storage = join(dir, 'storage');
  const script: AgentScript = {
    turns: [
      {
        steps: [
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'e1',
              title: 'Edit a.ts',
              kind: 'edit',
              status: 'completed',
              content: [{ type: 'diff', path: '${cwd}/a.ts', oldText: OLD, newText: NEW }],
            },
          },
        ],
      },
    ],
  };
  const store = () => new ConversationStore({ dir: storage, warn: (w) => assert.fail(`store warning: ${w}`) });
  const firstStore = store();
  const first = scriptedSession(dir, script, { store: firstStore });
  try {
    await first.session.start();
    await first.session.prompt('edit');
    assert.ok(!JSON.stringify(first.session.snapshotParts()).includes(FAR_LINE), 'the live snapshot has no texts');
    await firstStore.flush();
  } finally {
    first.session.dispose();
  }
  const files = readdirSync(storage, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json') && !f.endsWith('conversations.json'));
  assert.ok(
    files.some((f) => readFileSync(join(storage, f), 'utf8').includes(FAR_LINE)),
    'the stored transcript keeps the texts (host side)',
  );

  const second = scriptedSession(dir, script, { store: store() });
  try {
    await second.session.manager.init();
    const snapshot = second.session.snapshotParts();
    assert.ok(!JSON.stringify(snapshot).includes(FAR_LINE), 'the restored snapshot has no texts');
    const card = snapshot.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call')!;
    assert.equal((card.content[0] as DiffContentView).hunks[0].lines.filter((l) => l.kind !== 'context').length, 2);
    assert.equal(second.session.view.findDiff(card.id, 0)?.oldText, OLD);
  } finally {
    second.session.dispose();
  }
});
