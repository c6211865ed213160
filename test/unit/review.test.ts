/**
 * Reviewing what an agent changed, over a real scripted agent: files written through the client and
 * straight to disk (by a tool call that names them) both show as changed; Keep and Undo per file and
 * per hunk; "restore files to before this turn"; what the user undid reaches the agent with the next
 * prompt; and with reviewEdits "before", a client write waits for the user. Who changed what: the
 * user's saves and what changed between turns never count; a change in a turn nobody claims is
 * marked outside and left out of Keep all / Undo all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCallEntry } from '../../src/protocol/messages';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { nodeReviewHost, until, type ScriptedSession, type ScriptedSessionOptions } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-review-');

let n = 0;
function rig(
  script: AgentScript,
  files: Record<string, string>,
  opts: ScriptedSessionOptions = {},
): { r: ScriptedSession; ws: string; path: (p: string) => string } {
  const ws = join(rigs.dir, `ws-${++n}`);
  mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(ws, rel), text);
  const r = rigs.session(script, { cwd: ws, review: nodeReviewHost(ws, join(rigs.dir, `storage-${n}`)), ...opts });
  return { r, ws, path: (p) => join(ws, p) };
}

const review = (r: ScriptedSession) => r.session.snapshotParts().review ?? { files: [] };
const rel = (r: ScriptedSession) =>
  review(r)
    .files.map((f) => `${f.status} ${f.relPath} +${f.added} -${f.removed}`)
    .sort();
const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
let calls = 0;
/** An edit the agent makes on disk itself, as claude-agent-acp does: a tool call naming the file, the write, the call completed. */
const edit = (path: string, content: string | null) => {
  const toolCallId = `edit-${++calls}`;
  return [
    { update: { sessionUpdate: 'tool_call', toolCallId, title: `Edit ${path}`, kind: 'edit', status: 'in_progress', locations: [{ path }] } },
    { diskWrite: { path, content, quiet: true } },
    { update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' } },
  ];
};

test('files the agent wrote through the client and straight to disk are listed; Undo and Keep per file; the agent hears about the undo', async () => {
  const { r, path } = rig(
    {
      turns: [
        {
          steps: [{ writeFile: { path: '${cwd}/new.txt', content: 'brand new\n' } }, ...edit('${cwd}/notes.txt', 'one\nTWO\nthree\n')],
        },
        { steps: [say('ok')] },
      ],
    },
    { 'notes.txt': 'one\ntwo\nthree\n' },
  );
  await r.session.start();
  await r.session.prompt('change things');
  await until(() => review(r).files.length === 2, 'the changed files');
  assert.deepEqual(rel(r), ['added new.txt +1 -0', 'modified notes.txt +1 -1']);
  const user = r.session.snapshotParts().entries.find((e) => e.kind === 'user');
  assert.ok(user?.kind === 'user' && user.checkpoint, 'the turn has a checkpoint');

  await r.session.conversation.undo([path('notes.txt')]);
  assert.equal(readFileSync(path('notes.txt'), 'utf8'), 'one\ntwo\nthree\n');
  await r.session.conversation.keep([path('new.txt')]);
  assert.deepEqual(rel(r), []);
  assert.equal(readFileSync(path('new.txt'), 'utf8'), 'brand new\n', 'kept');

  await r.session.prompt('next');
  const prompt = r
    .received()
    .filter((m) => m.method === 'session/prompt')
    .pop() as { params: { prompt: Array<{ text: string }> } };
  assert.equal(prompt.params.prompt.length, 2);
  assert.match(prompt.params.prompt[0].text, /undid your changes to notes\.txt/);
  assert.equal(prompt.params.prompt[1].text, 'next');
  const last = r.session
    .snapshotParts()
    .entries.filter((e) => e.kind === 'user')
    .pop();
  assert.match(last?.kind === 'user' ? (last.note ?? '') : '', /notes\.txt/, 'the thread shows what was told');
});

test('per-hunk: undoing one change restores only that part; keeping another removes it from the list', async () => {
  const original = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const edited = original.replace('line 2\n', 'LINE TWO\n').replace('line 15\n', 'LINE FIFTEEN\n').replace('line 28\n', 'LINE 28\n');
  const { r, path } = rig({ turns: [{ steps: edit('${cwd}/f.txt', edited) }, { steps: [say('ok')] }] }, { 'f.txt': original });
  await r.session.start();
  await r.session.prompt('edit');
  await until(() => review(r).files.length === 1, 'the change');
  await r.session.conversation.toggleHunks(path('f.txt'), true);
  const hunks = review(r).files[0].hunks ?? [];
  assert.equal(hunks.length, 3);
  await r.session.conversation.reviewHunk(path('f.txt'), hunks[1].index, 'reject');
  assert.equal(readFileSync(path('f.txt'), 'utf8'), original.replace('line 2\n', 'LINE TWO\n').replace('line 28\n', 'LINE 28\n'));
  await r.session.conversation.reviewHunk(path('f.txt'), 0, 'accept');
  assert.equal(review(r).files[0].hunks?.length, 1, 'one change left to review');
  assert.match(r.session.conversation.internals.review.takeNotes() ?? '', /rejected your change to f\.txt \(line 15\)/);
});

test('"Restore files to before this turn" undoes that turn (and later ones) after the preview; the next prompt says so', async () => {
  const { r, path } = rig(
    {
      turns: [
        { steps: edit('${cwd}/a.txt', 'a v2\n') },
        { steps: [...edit('${cwd}/b.txt', 'b v2\n'), ...edit('${cwd}/c.txt', 'new c\n')] },
        { steps: [say('ok')] },
      ],
    },
    { 'a.txt': 'a v1\n', 'b.txt': 'b v1\n' },
  );
  await r.session.start();
  await r.session.prompt('first');
  await r.session.prompt('second');
  const users = r.session.snapshotParts().entries.filter((e) => e.kind === 'user');
  const second = users[1];
  assert.ok(second.kind === 'user' && second.checkpoint);
  await r.session.conversation.internals.review.rewind(second.checkpoint!, second.text);
  assert.equal(readFileSync(path('b.txt'), 'utf8'), 'b v1\n');
  assert.equal(existsSync(path('c.txt')), false, 'a file created in that turn is gone');
  assert.equal(readFileSync(path('a.txt'), 'utf8'), 'a v2\n', 'the earlier turn stays');
  assert.deepEqual(rel(r), ['modified a.txt +1 -1']);
  assert.match(
    r.session.conversation.internals.review.takeNotes() ?? '',
    /restored 2 file\(s\) \(b\.txt, c\.txt\) to how they were before their message "second"/,
  );
});

test('reviewEdits "before": a client write waits for the user; Reject leaves the file and the agent reads why', async () => {
  const { r, path } = rig(
    { turns: [{ steps: [{ writeFile: { path: '${cwd}/a.txt', content: 'agent text\n' } }, { writeFile: { path: '${cwd}/b.txt', content: 'accepted\n' } }] }] },
    { 'a.txt': 'mine\n' },
    { reviewEdits: 'before' },
  );
  await r.session.start();
  const turn = r.session.prompt('write');
  const pending = () => r.session.snapshotParts().entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.permission?.state.kind === 'pending');
  await until(() => pending() !== undefined, 'the write review');
  const first = pending()!;
  assert.equal(first.title, 'Write a.txt');
  assert.ok(
    first.content.some((c) => c.type === 'diff' && c.hunks[0]?.lines.some((l) => l.kind === 'add' && l.text === 'agent text')),
    'the card shows the diff',
  );
  assert.equal(readFileSync(path('a.txt'), 'utf8'), 'mine\n', 'nothing written yet');
  r.session.respondPermission(first.permission!.requestId, 'reject');
  await until(() => pending() !== undefined && pending()!.title === 'Write b.txt', 'the second write review');
  r.session.respondPermission(pending()!.permission!.requestId, 'accept');
  await turn;
  assert.equal(readFileSync(path('a.txt'), 'utf8'), 'mine\n');
  assert.equal(readFileSync(path('b.txt'), 'utf8'), 'accepted\n');
  const said = r.session
    .snapshotParts()
    .entries.filter((e) => e.kind === 'agent')
    .map((e) => (e as { text: string }).text)
    .join('');
  assert.match(said, /WRITE_ERROR: .*rejected this write to .*a\.txt/);
  assert.match(said, /WRITE: ok/);
});
