// Conversations in their own git worktree, through the real manager and conversation against the
// in-memory StubAgent and a real git: the session works in the worktree (cwd, files, terminals,
// path policy), the branch takes the first prompt's title, review notes go with the next prompt,
// Apply brings the changes into the workspace, a worktree deleted by hand stops the conversation
// until it is recreated, closing asks keep or remove, and the binding survives the index.
import { test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PathPolicy } from '../../src/client/pathPolicy';
import { newConversationInWorktree } from '../../src/conversation/worktreeLifecycle';
import { parseIndex, serialiseIndex } from '../../src/store/conversationFormat';
import { stubSession, type StubRig } from '../support/stubSession';
import { git, GIT_IDENTITY, tempDir } from '../support/gitRepo';
import { diskWorktreeHost, type DiskWorktreeHost } from '../support/worktreeHost';

type T = { after: (fn: () => void) => void };

Object.assign(process.env, GIT_IDENTITY);

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const LINES = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** A workspace that is a git repository with one commit, a worktrees folder, and a conversation in a worktree. */
async function rig(t: T, opts: { otherRoot?: boolean } = {}): Promise<{ rig: StubRig; host: DiskWorktreeHost; sessionId: string; other: string }> {
  const scratch = tempDir(t, 'tandem-wtc-');
  const host = diskWorktreeHost(path.join(scratch, 'worktrees'), path.join(scratch, 'storage'));
  // A second workspace folder outside the repository (a multi-root workspace).
  const other = path.join(scratch, 'other');
  fs.mkdirSync(other);
  let dir = '';
  const policy = opts.otherRoot ? new PathPolicy({ roots: () => [dir, other], allowOutside: () => false, askOutside: async () => false }) : undefined;
  const r = stubSession({ editor: policy ? { worktrees: host, policy } : { worktrees: host } });
  dir = r.dir;
  if (opts.otherRoot) r.agent.behaviour.initialize.agentCapabilities = { loadSession: true, sessionCapabilities: { additionalDirectories: {} } };
  t.after(() => r.manager.dispose());
  git(r.dir, 'init', '-q');
  fs.writeFileSync(path.join(r.dir, 'f.txt'), LINES);
  git(r.dir, 'add', '-A');
  git(r.dir, 'commit', '-q', '-m', 'start');
  await r.manager.init();
  await newConversationInWorktree(r.manager, host, r.dir, 'Stub');
  await waitFor(() => r.conversation.meta.sessionId !== undefined, 'the session');
  return { rig: r, host, sessionId: r.conversation.meta.sessionId!, other };
}

async function turn(r: StubRig, text: string, work: () => Promise<void> = async () => undefined): Promise<void> {
  r.conversation.prompt(text);
  await waitFor(() => r.agent.pendingPrompt !== undefined, 'the prompt');
  await work();
  r.agent.endTurn('end_turn');
  await waitFor(() => r.conversation.status.kind === 'ready', 'the turn end');
}

test('the session works in the worktree: cwd, files, terminals; the main tree stays out of reach; the branch takes the title', async (t) => {
  const { rig: r, sessionId } = await rig(t);
  const binding = r.conversation.meta.worktree!;
  assert.ok(!binding.path.startsWith(r.dir), 'the worktree is outside the workspace');
  const opened = r.agent.received.filter((m) => m.method === 'session/new').at(-1)!.params as { cwd: string };
  assert.equal(opened.cwd, binding.path);
  assert.equal(r.conversation.tab().branch, binding.branch);

  await turn(r, 'Fix the totals', async () => {
    await r.agent.client.writeTextFile!({ sessionId, path: path.join(binding.path, 'f.txt'), content: 'agent\n' });
    const read = await r.agent.client.readTextFile!({ sessionId, path: path.join(binding.path, 'f.txt') });
    assert.equal(read.content, 'agent\n');
    await assert.rejects(r.agent.client.readTextFile!({ sessionId, path: path.join(r.dir, 'f.txt') }), /outside the workspace/);
    const { terminalId } = await r.agent.client.createTerminal!({ sessionId, command: 'pwd' });
    await r.agent.client.waitForTerminalExit!({ sessionId, terminalId });
    const out = await r.agent.client.terminalOutput!({ sessionId, terminalId });
    assert.equal(out.output.trim(), binding.path);
  });
  assert.equal(fs.readFileSync(path.join(r.dir, 'f.txt'), 'utf8'), LINES, "the workspace's file is untouched");
  await waitFor(() => binding.branch === 'tandem/fix-the-totals', 'the branch named after the first prompt');
  assert.equal(git(binding.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'tandem/fix-the-totals');
});

test('other workspace folders go as additionalDirectories when the agent takes them, beside the worktree as cwd', async (t) => {
  const { rig: r, other } = await rig(t, { otherRoot: true });
  const opened = r.agent.received.filter((m) => m.method === 'session/new').at(-1)!.params as { cwd: string; additionalDirectories?: string[] };
  assert.equal(opened.cwd, r.conversation.meta.worktree!.path);
  assert.deepEqual(opened.additionalDirectories, [other], 'the repository folder itself is replaced by the worktree, not added');
});

test('review notes go with the next prompt as one block (file, lines, hunk, note) in the order written, then are sent', async (t) => {
  const { rig: r, sessionId } = await rig(t);
  const file = path.join(r.conversation.meta.worktree!.path, 'f.txt');
  await turn(r, 'edit', async () => {
    await r.agent.client.writeTextFile!({ sessionId, path: file, content: LINES.replace('line 3', 'LINE THREE') });
  });
  // The editor's comment knows only the range: the hunk comes from the review.
  await r.conversation.addNote({ path: file, startLine: 3, endLine: 3, text: 'keep it lower case' });
  await r.conversation.addNote({ path: file, startLine: 1, endLine: 2, text: 'and mention why', hunk: '@@ -1 +1 @@\n-a\n+b' });
  assert.equal(r.conversation.internals.notes.pendingCount, 2);
  await turn(r, 'please revise');
  const prompt = r.agent.received.filter((m) => m.method === 'session/prompt').at(-1)!.params as { prompt: Array<{ type: string; text?: string }> };
  const [notes, text] = prompt.prompt;
  assert.equal(text.text, 'please revise');
  assert.match(notes.text!, /^\[Review notes from the user on your changes, in the order they wrote them \(2\)/);
  assert.match(notes.text!, /1\. f\.txt, line 3 \(.*f\.txt\)\n```diff\n@@ -3,1 \+3,1 @@\n-line 3\n\+LINE THREE\n```\nNote: keep it lower case/);
  assert.ok(notes.text!.indexOf('keep it lower case') < notes.text!.indexOf('and mention why'), 'in the order written');
  assert.deepEqual(
    r.conversation.reviewNotes().map((n) => n.state),
    ['sent', 'sent'],
  );
  const entry = r.conversation.internals.thread
    .entries()
    .filter((e) => e.kind === 'user')
    .at(-1) as { note?: string };
  assert.match(entry.note!, /2 review notes — f\.txt line 3: “keep it lower case”/);
  // Notes alone are a prompt.
  await r.conversation.addNote({ path: file, startLine: 3, endLine: 3, text: 'one more' });
  await turn(r, '');
  const last = r.agent.received.filter((m) => m.method === 'session/prompt').at(-1)!.params as { prompt: Array<{ text?: string }> };
  assert.equal(last.prompt[1].text, 'Please address my review notes.');
});

test('notes taken for a prompt the agent did not take (sign-in needed, refused) are pending again and go with the next one', async (t) => {
  for (const error of [new acp.RequestError(-32000, 'Authentication required'), new acp.RequestError(-32603, 'the model is overloaded')]) {
    const { rig: r } = await rig(t);
    const file = path.join(r.conversation.meta.worktree!.path, 'f.txt');
    await r.conversation.addNote({ path: file, startLine: 2, endLine: 2, text: 'say why', hunk: '@@ -2 +2 @@\n-a\n+b' });
    r.conversation.prompt('revise');
    await waitFor(() => r.agent.pendingPrompt !== undefined, 'the prompt');
    assert.equal(r.conversation.internals.notes.pendingCount, 0, 'taken with the prompt');
    r.agent.failTurn(error);
    await waitFor(() => r.conversation.internals.notes.pendingCount === 1, `the note pending again after: ${error.message}`);
    assert.deepEqual(
      r.conversation.reviewNotes().map((n) => n.state),
      ['pending'],
    );
  }
});

test('Apply brings the changes over after the preview and empties the strip; declining changes nothing', async (t) => {
  const { rig: r, host, sessionId } = await rig(t);
  const worktree = r.conversation.internals.worktree!;
  await turn(r, 'edit', async () => {
    await r.agent.client.writeTextFile!({ sessionId, path: path.join(worktree.binding.path, 'f.txt'), content: LINES.replace('line 5', 'agent five') });
    await r.agent.client.writeTextFile!({ sessionId, path: path.join(worktree.binding.path, 'new.txt'), content: 'new\n' });
  });
  await waitFor(() => r.conversation.internals.review.view().files.length === 2, 'the strip');
  host.answers.apply = false;
  await worktree.apply();
  assert.equal(fs.existsSync(path.join(r.dir, 'new.txt')), false);
  assert.equal(worktree.view().unapplied, 2);

  host.answers.apply = true;
  await worktree.apply();
  assert.deepEqual(
    host.plans.at(-1)!.steps.map((s) => `${s.outcome} ${s.relPath}`),
    ['update f.txt', 'create new.txt'],
  );
  assert.equal(fs.readFileSync(path.join(r.dir, 'f.txt'), 'utf8'), LINES.replace('line 5', 'agent five'));
  assert.equal(fs.readFileSync(path.join(r.dir, 'new.txt'), 'utf8'), 'new\n');
  assert.equal(worktree.view().unapplied, 0);
  assert.match(worktree.view().notice!, /Applied 2 files to the workspace/);
  await waitFor(() => r.conversation.internals.review.view().files.length === 0, 'the strip to empty');
  assert.ok(worktree.binding.applied, 'what was applied is recorded (the index keeps it)');
});

test('a file changed while the preview was open: the plan is made again and shown again, the newer edit merged, not overwritten', async (t) => {
  const { rig: r, host, sessionId } = await rig(t);
  const worktree = r.conversation.internals.worktree!;
  await turn(r, 'edit', async () => {
    await r.agent.client.writeTextFile!({ sessionId, path: path.join(worktree.binding.path, 'f.txt'), content: LINES.replace('line 5', 'agent five') });
  });
  host.answers.apply = true;
  const confirm = host.confirmApply;
  host.confirmApply = async (plan, binding) => {
    const ok = await confirm(plan, binding);
    // Someone edits line 1 in the workspace while the first preview is open.
    if (host.plans.length === 1) fs.writeFileSync(path.join(r.dir, 'f.txt'), LINES.replace('line 1', 'user one'));
    return ok;
  };
  await worktree.apply();
  assert.equal(host.plans.length, 2, 'the changed plan was previewed again');
  assert.deepEqual(
    host.plans.map((p) => p.steps.map((s) => `${s.outcome} ${s.relPath}`).join()),
    ['update f.txt', 'merged f.txt'],
  );
  assert.equal(fs.readFileSync(path.join(r.dir, 'f.txt'), 'utf8'), LINES.replace('line 1', 'user one').replace('line 5', 'agent five'));
  assert.ok(
    r.conversation.internals.thread.entries().some((e) => e.kind === 'notice' && /changed while the preview was open/.test(e.message)),
    'the thread says why the preview came again',
  );
});

test('a worktree deleted by hand stops the conversation with a notice; Recreate brings it back from the branch', async (t) => {
  const { rig: r } = await rig(t);
  const worktree = r.conversation.internals.worktree!;
  fs.rmSync(worktree.binding.path, { recursive: true, force: true });
  await worktree.refresh();
  assert.equal(r.conversation.status.kind, 'stopped');
  assert.equal(worktree.view().state, 'missing');
  assert.ok(r.conversation.internals.thread.entries().some((e) => e.kind === 'notice' && /deleted outside Tandem/.test((e as { message: string }).message)));
  await worktree.recreate();
  assert.equal(worktree.view().state, 'ready');
  assert.equal(fs.readFileSync(path.join(worktree.binding.path, 'f.txt'), 'utf8'), LINES);
  await waitFor(() => r.conversation.status.kind !== 'stopped', 'the conversation to go on');
});

test('an Apply undone in the editor: closing counts those files as lost again, so removing asks first', async (t) => {
  const { rig: r, host, sessionId } = await rig(t);
  const worktree = r.conversation.internals.worktree!;
  await turn(r, 'edit', async () => {
    await r.agent.client.writeTextFile!({ sessionId, path: path.join(worktree.binding.path, 'f.txt'), content: LINES.replace('line 5', 'agent five') });
  });
  host.answers.apply = true;
  await worktree.apply();
  assert.equal((await worktree.ask(false)).status.unapplied.length, 0, 'applied: nothing to lose');
  // The user undoes the Apply (one undoable edit in the editor): the workspace is as it was.
  fs.writeFileSync(path.join(r.dir, 'f.txt'), LINES);
  host.answers.close = 'cancel';
  const { status } = await worktree.ask(false);
  assert.deepEqual(
    status.unapplied.map((c) => c.relPath),
    ['f.txt'],
    'the agent’s f.txt is only in the worktree again',
  );
});

test('closing asks: keep leaves the worktree (History still knows it), remove deletes it and its unused branch', async (t) => {
  const { rig: r, host } = await rig(t);
  const kept = r.conversation;
  const keptPath = kept.meta.worktree!.path;
  host.answers.close = 'cancel';
  assert.equal(await r.manager.close(kept.id), false, 'cancel keeps the tab open');
  host.answers.close = 'keep';
  assert.equal(await r.manager.close(kept.id), true);
  assert.ok(fs.existsSync(keptPath));
  assert.equal(r.manager.all().find((c) => c.meta.id === kept.id)?.meta.worktree?.path, keptPath);

  const second = await newConversationInWorktree(r.manager, host, r.dir, 'Stub');
  const { path: gone, branch } = second.meta.worktree!;
  host.answers.close = 'remove';
  await r.manager.close(second.id);
  assert.equal(fs.existsSync(gone), false);
  assert.equal(git(r.dir, 'branch', '--list', branch).trim(), '');
  assert.deepEqual(host.asked, ['close', 'close', 'close']);
  // Deleting the kept one from History asks again, and removes it.
  await r.manager.delete(kept.id);
  assert.equal(fs.existsSync(keptPath), false);
});

test('the binding survives the index (a restart reopens the conversation in its worktree)', () => {
  const meta = {
    id: 'c1',
    agentName: 'Stub',
    title: 'Fix',
    titleSource: 'prompt' as const,
    cwd: '/wt/fix/pkg',
    createdAt: 1,
    updatedAt: 2,
    worktree: {
      path: '/wt/fix',
      branch: 'tandem/fix',
      base: 'a'.repeat(40),
      repo: '/repo',
      folder: 'pkg',
      applied: 'b'.repeat(40),
      gitDir: '/repo/.git/worktrees/fix',
    },
  };
  const { json } = serialiseIndex({ version: 1, conversations: [meta], openIds: ['c1'] }, 100, () => undefined);
  const parsed = parseIndex(json);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value.conversations[0], meta);
  const damaged = parseIndex(json.replace('"branch":"tandem/fix"', '"branch":7'));
  assert.ok(damaged.ok);
  assert.equal(damaged.value.conversations[0].worktree, undefined, 'a damaged binding is dropped, the conversation kept');
});
