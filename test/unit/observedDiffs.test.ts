/**
 * Diffs observed on disk for agents that write files themselves and send none: Cline's recorded
 * turn played through a real Thread over real files, the edit made on disk between the call's
 * announcement and its completion as Cline makes it. The diff comes after the completing update
 * has been handled (a slow reader never holds dispatch), marked `disk`, and replaces the one taken
 * from the input; an agent quicker than the first read still gets its real diff.
 */
import { execFileSync } from 'node:child_process';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationChange, DiffContentView, ToolCallEntry } from '../../src/protocol/messages';
import { Thread } from '../../src/thread/thread';
import { ObservedDiffs, readDiskText, readDiskTextNow, type DiskText } from '../../src/thread/observedDiffs';
import type { DiffSource } from '../../src/thread/diffContent';
import { clineScenarioFiles } from '../fixtures/fakeOpenAi/index';
import { loadRecording } from '../support/agentPayloads';

const dir = mkdtempSync(join(tmpdir(), 'tandem-observed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function thread(readDisk?: (path: string) => Promise<DiskText>) {
  const emitted: ConversationChange[] = [];
  const t = new Thread({
    isInWorkspace: (p) => p.startsWith(`${dir}/`),
    roots: () => [dir],
    warn: () => undefined,
    emit: (m) => emitted.push(...m),
    follow: () => undefined,
    titled: () => undefined,
    ...(readDisk ? { readDisk } : {}),
  });
  return { t, emitted };
}

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'in time');
};

const diffsOf = (card: ToolCallEntry | undefined): DiffContentView[] => (card?.content ?? []).filter((c): c is DiffContentView => c.type === 'diff');

test("Cline's edits: the diff is what changed on disk while the call ran, marked observed", async () => {
  const f = clineScenarioFiles(dir);
  writeFileSync(f.helloPath, f.originalText);
  writeFileSync(join(dir, 'README.md'), '# Readme\n');
  const { t, emitted } = thread();
  let request = 0;
  for (const payload of loadRecording('cline', dir).payloads) {
    const update = payload.params.update as Record<string, unknown> | undefined;
    if (update?.status === 'completed' && update.toolCallId === 'call_step1_0') {
      // Cline wrote the file itself, between asking and reporting completion; more than the input says.
      writeFileSync(f.helloPath, `${f.editedText}added by a formatter\n`);
    }
    if (update?.status === 'completed' && update.toolCallId === 'call_step2_0') {
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(f.newPath, f.newText);
    }
    if (payload.method === 'session/update') t.dispatch(update!);
    else {
      const id = `r${++request}`;
      t.attachPermission(payload.params.toolCall, id, payload.params.options);
      t.resolvePermission(id, { kind: 'selected', optionId: 'allow_once' });
    }
    // The agent is another process: its messages come apart in time, and Tandem's reads run between them.
    await new Promise((r) => setTimeout(r, 2));
  }
  const edit = () => t.findToolCall('call_step1_0');
  await until(() => diffsOf(edit())[0]?.observed === 'disk');
  const [diff] = diffsOf(edit());
  assert.deepEqual([diff.path, diff.added, diff.removed, diff.isNew], [f.helloPath, 2, 1, false]);
  assert.deepEqual(
    diff.hunks[0].lines.map((l) => `${l.kind}:${l.text}`),
    ['context:Hello', 'del:status: draft', 'add:status: reviewed', 'context:end', 'add:added by a formatter'],
  );
  await until(() => diffsOf(t.findToolCall('call_step2_0'))[0]?.observed === 'disk');
  const [created] = diffsOf(t.findToolCall('call_step2_0'));
  assert.deepEqual([created.isNew, created.added], [true, 1]);
  // The panel heard of it: the last upsert of the card carries the observed diff.
  const upserts = emitted.filter((c) => c.type === 'entryUpserted' && c.entry.kind === 'tool_call' && c.entry.toolCallId === 'call_step1_0');
  const last = upserts[upserts.length - 1];
  assert.ok(last.type === 'entryUpserted' && last.entry.kind === 'tool_call' && diffsOf(last.entry)[0]?.observed === 'disk');
  // "Open diff" gets the whole texts.
  const index = edit()!.content.findIndex((c) => c.type === 'diff');
  assert.equal(t.findDiff(edit()!.id, index)?.oldText, f.originalText);
});

test('the diff is computed off the streaming path: dispatch does not wait for a slow reader; a failed call observes nothing', async () => {
  const reads: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { t } = thread(async (path) => {
    reads.push(path);
    // The read after completion waits until released: the card must not wait for it.
    if (reads.length > 1) await gate;
    return readDiskText(path);
  });
  const path = join(dir, 'slow.txt');
  writeFileSync(path, 'one\n');
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'w',
    kind: 'edit',
    title: 'editor: {…',
    status: 'pending',
    rawInput: { path, command: 'replace', old_text: 'one', new_text: 'two' },
  });
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(path, 'two\n');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'w', status: 'completed' });
  assert.equal(diffsOf(t.findToolCall('w'))[0]?.observed, 'input', 'until the disk answers, the input diff shows');
  release();
  await until(() => diffsOf(t.findToolCall('w'))[0]?.observed === 'disk');
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: 'f', kind: 'edit', status: 'pending', rawInput: { path, old_text: 'two', new_text: 'three' } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'f', status: 'failed' });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(diffsOf(t.findToolCall('f')), [], 'a failed edit shows no diff');
  assert.ok(
    reads.every((p) => p === path),
    'only the named file is read',
  );
});

test('files outside the workspace, binary or too large are never diffed', async () => {
  assert.equal(await readDiskText(join(dir, 'nope.txt')), null);
  writeFileSync(join(dir, 'bin'), Buffer.from([1, 0, 2, 3]));
  assert.equal(await readDiskText(join(dir, 'bin')), undefined);
  const reads: string[] = [];
  const { t } = thread(async (p) => (reads.push(p), 'x'));
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: 'o', kind: 'edit', status: 'pending', rawInput: { file_path: '/etc/hosts' } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'o', status: 'completed' });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(reads, []);
});

test('an agent that wrote before the first read: the text before is the text after with the input edit undone', async () => {
  const path = join(dir, 'quick.txt');
  writeFileSync(path, 'alpha\nbeta NEW\ngamma\n');
  const { t } = thread();
  // Announced and completed in one go, the file already written: nothing changed between the reads.
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: 'q', kind: 'edit', status: 'in_progress', rawInput: { path, old_text: 'beta', new_text: 'beta NEW' } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'q', status: 'completed' });
  await until(() => diffsOf(t.findToolCall('q'))[0]?.observed === 'disk');
  const [diff] = diffsOf(t.findToolCall('q'));
  assert.deepEqual(
    diff.hunks[0].lines.map((l) => `${l.kind}:${l.text}`),
    ['context:alpha', 'del:beta', 'add:beta NEW', 'context:gamma'],
  );
  assert.equal(t.findDiff(t.findToolCall('q')!.id, 0)?.oldText, 'alpha\nbeta\ngamma\n');
});

test('a named pipe an edit names is not read (opening it would wait for a writer and hang the host)', { skip: process.platform === 'win32' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-fifo-'));
  try {
    const fifo = join(dir, 'notes.txt');
    execFileSync('mkfifo', [fifo]);
    assert.equal(readDiskTextNow(fifo), undefined);
    assert.equal(await readDiskText(fifo), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two edit calls on one file at once: the second completed shows only its own change', async () => {
  const disk = new Map<string, string>([['/ws/a.txt', 'v0\n']]);
  const got = new Map<string, DiffSource[]>();
  const observed = new ObservedDiffs(
    async (p) => disk.get(p) ?? null,
    (id, diffs) => got.set(id, diffs),
    (p) => disk.get(p) ?? null,
  );
  const call = (status: 'in_progress' | 'completed') => ({ kind: 'edit' as const, status, paths: ['/ws/a.txt'], sentDiff: false, diffPaths: [] });
  observed.update('A', call('in_progress'));
  observed.update('B', call('in_progress'));
  disk.set('/ws/a.txt', 'v0\nA\n');
  observed.update('A', call('completed'));
  disk.set('/ws/a.txt', 'v0\nA\nB\n');
  observed.update('B', call('completed'));
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(
    got.get('A')?.map((d) => [d.oldText, d.newText]),
    [['v0\n', 'v0\nA\n']],
  );
  assert.deepEqual(
    got.get('B')?.map((d) => [d.oldText, d.newText]),
    [['v0\nA\n', 'v0\nA\nB\n']],
    'B’s diff is its own line',
  );
});

test('a numeric tool call id (as some agents send) is observed and followed like a string one', async () => {
  const file = join(dir, 'numeric.txt');
  writeFileSync(file, 'before\n');
  const followed: string[] = [];
  const t = new Thread({
    isInWorkspace: (p) => p.startsWith(`${dir}/`),
    roots: () => [dir],
    warn: () => undefined,
    emit: () => undefined,
    follow: (p) => void followed.push(p),
    titled: () => undefined,
  });
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: 7, kind: 'edit', title: 'Edit', status: 'in_progress', rawInput: { path: file } });
  writeFileSync(file, 'after\n');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 7, status: 'completed' });
  await until(() => diffsOf(t.findToolCall('7'))[0]?.observed === 'disk');
  assert.deepEqual(followed, [file]);
});
