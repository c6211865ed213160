/**
 * Cards of the November 2026 agents (issue 35, part 8), from the payload shapes they send
 * (docs: AGENTS-ON-THE-WIRE "November 2026 adapters"): Codex's "Editing files" / "Edit files" named
 * by the paths of its diffs, Claude's provisional "Preparing file…", the `<tools-used-before-summary>`
 * block Claude puts before a subagent's answer left out, OpenCode 1.18's file named twice (relative
 * in the input, absolute in the locations) named once, and its new file written without a diff
 * shown as a new file, observed on a real disk.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiffContentView, ToolCallEntry } from '../../src/protocol/messages';
import { Thread } from '../../src/thread/thread';
import { INTERNAL_ERROR_PREFIX } from '../../src/thread/entryList';
import { payloadReducer } from '../support/agentPayloads';

const WS = '/home/me/proj';

function play(updates: Array<Record<string, unknown>>): ToolCallEntry {
  const { reducer, warnings } = payloadReducer(WS);
  for (const u of updates) reducer.applyUpdate(u);
  assert.ok(!warnings.some((w) => w.startsWith(INTERNAL_ERROR_PREFIX)), warnings.join('\n'));
  const cards = reducer.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call');
  return cards[cards.length - 1];
}

test('codex-acp 2.6: both edits titled "Editing files" / "Edit files" take their title from the paths of their diffs', () => {
  const one = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_1',
      title: 'Editing files',
      kind: 'edit',
      status: 'in_progress',
      name: 'apply_patch',
      content: [{ type: 'diff', path: `${WS}/src/a.ts`, oldText: 'a\n', newText: 'b\n', _meta: { kind: 'update' } }],
    },
    { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' },
  ]);
  assert.equal(one.title, 'Edit src/a.ts');
  assert.equal(one.agentTitle, 'Editing files', "the agent's own title is kept for Details");
  const two = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_2',
      title: 'Edit files',
      kind: 'edit',
      status: 'pending',
      content: [
        { type: 'diff', path: `${WS}/notes.md`, oldText: null, newText: 'new\n', _meta: { kind: 'add' } },
        { type: 'diff', path: `${WS}/README.md`, oldText: '# R\n', newText: '# Readme\n', _meta: { kind: 'update' } },
      ],
    },
  ]);
  assert.equal(two.title, 'Edit notes.md and README.md');
});

test('claude-agent-acp 0.101: the provisional "Preparing file…" and a bare "Edit" are named by the file', () => {
  const preparing = play([
    { sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'Preparing file…', kind: 'edit', status: 'pending', rawInput: {} },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'toolu_1',
      content: [{ type: 'diff', path: `${WS}/notes.txt`, oldText: 'status: draft\n', newText: 'status: reviewed\n' }],
    },
  ]);
  assert.equal(preparing.title, 'Edit notes.txt');
  const bare = play([
    { sessionUpdate: 'tool_call', toolCallId: 'toolu_2', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: `${WS}/a.md` }] },
  ]);
  assert.equal(bare.title, 'Edit a.md');
  // An informative title is the agent's, as before.
  const named = play([{ sessionUpdate: 'tool_call', toolCallId: 'toolu_3', title: 'Edit files of the parser', kind: 'edit', status: 'pending' }]);
  assert.equal(named.title, 'Edit files of the parser');
});

test("claude-agent-acp 0.101: a subagent's answer is shown without the <tools-used-before-summary> block (Details keep it)", () => {
  const answer = '<tools-used-before-summary>Read, Grep</tools-used-before-summary>\nThe notes say status: draft.';
  const card = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_task',
      title: 'Check the notes',
      kind: 'think',
      status: 'in_progress',
      rawInput: { description: 'Check the notes', prompt: 'Read notes.txt' },
      _meta: { claudeCode: { toolName: 'Agent' } },
    },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'toolu_task',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: answer } }],
      rawOutput: [{ type: 'text', text: answer }],
    },
  ]);
  assert.deepEqual(card.content, [{ type: 'markdown', text: 'The notes say status: draft.' }]);
  assert.match(card.rawOutput ?? '', /tools-used-before-summary/);
  // Only the whole block goes: a text that merely mentions the tag, unclosed, stays.
  const mention = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_x',
      title: 'Explain',
      kind: 'other',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'The tag <tools-used-before-summary> opens a list.' } }],
    },
  ]);
  assert.deepEqual(mention.content, [{ type: 'markdown', text: 'The tag <tools-used-before-summary> opens a list.' }]);
});

test('OpenCode 1.18: a file named relative in the input and absolute in the locations is named once', () => {
  const read = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_read',
      title: 'read',
      kind: 'read',
      status: 'pending',
      locations: [{ path: `${WS}/hello.txt` }],
      rawInput: { path: 'hello.txt' },
    },
  ]);
  assert.equal(read.title, 'Read hello.txt');
  const edit = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_edit',
      title: 'edit',
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path: `${WS}/./hello.txt` }],
      rawInput: { path: 'hello.txt', oldString: 'a', newString: 'b' },
    },
  ]);
  assert.equal(edit.title, 'Edit hello.txt');
  // Two files are still two.
  const both = play([
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_two',
      title: 'read',
      kind: 'read',
      status: 'pending',
      locations: [{ path: `${WS}/a.txt` }, { path: `${WS}/b.txt` }],
      rawInput: { path: 'a.txt' },
    },
  ]);
  assert.equal(both.title, 'Read a.txt and b.txt');
});

const dir = mkdtempSync(join(tmpdir(), 'tandem-cards-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function realThread(): Thread {
  return new Thread({
    isInWorkspace: (p) => p.startsWith(`${dir}/`),
    roots: () => [dir],
    warn: () => undefined,
    emit: () => undefined,
    follow: () => undefined,
    titled: () => undefined,
  });
}

const diffsOf = (card: ToolCallEntry | undefined): DiffContentView[] => (card?.content ?? []).filter((c): c is DiffContentView => c.type === 'diff');

async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  return check();
}

/** OpenCode's write: announced with no input, the file named only by the completing update, no diff sent. */
async function openCodeWrite(t: Thread, id: string, path: string, write: () => void): Promise<void> {
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: id, title: 'write', kind: 'edit', status: 'pending', locations: [], rawInput: {} });
  await new Promise((r) => setTimeout(r, 30));
  write();
  t.dispatch({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status: 'completed',
    locations: [{ path }],
    content: [{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }],
    rawOutput: { metadata: { exists: false } },
  });
}

test('OpenCode 1.18: a new file its write tool made shows as a new file, though the call named it only when done', async () => {
  const t = realThread();
  const path = join(dir, 'notes.md');
  await openCodeWrite(t, 'call_write', path, () => writeFileSync(path, '# Notes\nfirst\n'));
  assert.ok(await until(() => diffsOf(t.findToolCall('call_write')).length > 0), 'a diff came');
  const [diff] = diffsOf(t.findToolCall('call_write'));
  assert.deepEqual([diff.path, diff.isNew, diff.added, diff.removed, diff.observed], [path, true, 2, 0, 'disk']);
  assert.equal(t.findToolCall('call_write')?.title, 'Edit notes.md');
  assert.equal(t.findDiff(t.findToolCall('call_write')!.id, t.findToolCall('call_write')!.content.indexOf(diff))?.oldText, null);

  // A file that was there before the call is no new file: nothing Tandem saw changing, no diff.
  const old = join(dir, 'old.md');
  writeFileSync(old, 'kept\n');
  await new Promise((r) => setTimeout(r, 60));
  await openCodeWrite(t, 'call_rewrite', old, () => writeFileSync(old, 'kept\n'));
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(diffsOf(t.findToolCall('call_rewrite')), []);
});
