/**
 * Undo never takes the user's own work, over a real scripted agent and real files: the review counts
 * only what the agent changed. A file the user saves during a turn, or creates or edits between
 * turns (an exported transcript), is not in the changed-files strip and Undo all leaves it; the
 * agent's fs write and the files its edit calls name are counted; a change during a turn that nobody
 * claims (a command the agent ran, another program) is marked outside, and Keep all / Undo all skip
 * it until the user acts on that file itself. Who changed what survives a restart. The real
 * claude-agent-acp, which edits the disk itself, has its files counted as its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { ConversationReview } from '../../src/conversation/conversationReview';
import type { ReviewView, ToolCallEntry } from '../../src/protocol/messages';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { agentEnv, editOnDiskFiles, scenario, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import { envDelta, promptAllowing, REAL_AGENT_PROMPTS, seedWorkspace } from '../support/realAgentRuns';
import { nodeReviewHost, repoRoot, scriptedSession, until, type ScriptedSession } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-attribution-');

let n = 0;
function rig(script: AgentScript, files: Record<string, string>) {
  const ws = join(rigs.dir, `ws-${++n}`);
  mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(ws, rel), text);
  const host = nodeReviewHost(ws, join(rigs.dir, `storage-${n}`));
  const r = rigs.session(script, { cwd: ws, review: host });
  return { r, host, path: (p: string) => join(ws, p) };
}

const OPTIONS = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
/** The turn waits here until the test answers: what the test does meanwhile happens during the turn. */
const ask = (toolCallId: string) => ({ permission: { toolCall: { toolCallId, title: 'Go on?', kind: 'other' }, options: OPTIONS } });
const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const strip = (r: ScriptedSession): ReviewView => r.session.snapshotParts().review ?? { files: [] };
const listed = (r: ScriptedSession) =>
  strip(r)
    .files.map((f) => `${f.outside ? 'outside ' : ''}${f.status} ${f.relPath}`)
    .sort();
/** The turns' ends are settled (who changed what) and the strip shows it. */
const settled = (r: ScriptedSession) => r.session.conversation.internals.review.endTurn();

async function answerDuring(r: ScriptedSession, toolCallId: string, meanwhile: () => void): Promise<void> {
  const pending = () =>
    r.session
      .snapshotParts()
      .entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === toolCallId && e.permission?.state.kind === 'pending');
  await until(() => pending() !== undefined, `the prompt of ${toolCallId}`);
  meanwhile();
  r.session.respondPermission(pending()!.permission!.requestId, 'ok');
}

test('a file the user saves during a turn is not counted, nor Undone by Undo all; the agent’s fs write is', async () => {
  const { r, host, path } = rig(
    { turns: [{ steps: [{ writeFile: { path: '${cwd}/agent.txt', content: 'by the agent\n' } }, ask('wait'), say('done')] }] },
    {
      'notes.txt': 'mine v1\n',
    },
  );
  await r.session.start();
  const turn = r.session.prompt('work');
  await answerDuring(r, 'wait', () => {
    // The user saves an edit and a new file in the editor while the agent works.
    writeFileSync(path('notes.txt'), 'mine v2\n');
    host.userChanged(path('notes.txt'));
    writeFileSync(path('export.jsonl'), '{"transcript":true}\n');
    host.userChanged(path('export.jsonl'));
  });
  await turn;
  await settled(r);
  assert.deepEqual(listed(r), ['added agent.txt']);

  await r.session.conversation.undo();
  assert.equal(existsSync(path('agent.txt')), false, 'the agent’s file is undone');
  assert.equal(readFileSync(path('notes.txt'), 'utf8'), 'mine v2\n', 'the user’s save stays');
  assert.equal(readFileSync(path('export.jsonl'), 'utf8'), '{"transcript":true}\n', 'the user’s new file stays');
});

test('what the user creates or edits between turns is not counted; a later Undo of the agent’s edit goes back to the user’s version', async () => {
  const { r, path } = rig(
    {
      turns: [
        { steps: [{ writeFile: { path: '${cwd}/a.txt', content: 'a by agent\n' } }] },
        { steps: [{ writeFile: { path: '${cwd}/b.txt', content: 'b by agent\n' } }] },
      ],
    },
    { 'b.txt': 'b original\n' },
  );
  await r.session.start();
  await r.session.prompt('first');
  await settled(r);
  // The agent is idle: the user exports a transcript into the workspace and edits b.txt (no editor event at all).
  writeFileSync(path('tandem-export.jsonl'), '{"line":1}\n');
  writeFileSync(path('b.txt'), 'b by user\n');
  await r.session.conversation.internals.review.refresh();
  assert.deepEqual(listed(r), ['added a.txt'], 'changes between turns are not the conversation’s');

  await r.session.prompt('second');
  await settled(r);
  assert.deepEqual(listed(r), ['added a.txt', 'modified b.txt']);
  await r.session.conversation.undo([path('b.txt')]);
  assert.equal(readFileSync(path('b.txt'), 'utf8'), 'b by user\n', 'back to the user’s version, not to before the conversation');
  await r.session.conversation.undo();
  assert.equal(existsSync(path('a.txt')), false);
  assert.equal(readFileSync(path('tandem-export.jsonl'), 'utf8'), '{"line":1}\n', 'Undo all leaves the user’s file');
});

test('a change during a turn that nobody claims is marked outside; Keep all and Undo all skip it; its own Undo restores it', async () => {
  const { r, path } = rig(
    {
      turns: [
        {
          steps: [
            { writeFile: { path: '${cwd}/a.txt', content: 'a by agent\n' } },
            // As a terminal command of the agent's, or another program: no fs call, no tool call naming it.
            { diskWrite: { path: '${cwd}/build.log', content: 'built\n', quiet: true } },
            { diskWrite: { path: '${cwd}/config.txt', content: 'config changed\n', quiet: true } },
          ],
        },
      ],
    },
    { 'config.txt': 'config\n' },
  );
  await r.session.start();
  await r.session.prompt('build');
  await settled(r);
  assert.deepEqual(listed(r), ['added a.txt', 'outside added build.log', 'outside modified config.txt']);

  await r.session.conversation.keep();
  assert.deepEqual(listed(r), ['outside added build.log', 'outside modified config.txt'], 'Keep all kept only the agent’s file');
  await r.session.conversation.undo();
  assert.equal(readFileSync(path('config.txt'), 'utf8'), 'config changed\n', 'Undo all left the outside change');
  assert.equal(readFileSync(path('build.log'), 'utf8'), 'built\n');
  await r.session.conversation.undo([path('config.txt')]);
  assert.equal(readFileSync(path('config.txt'), 'utf8'), 'config\n', 'chosen by itself, it is undone');
  assert.deepEqual(listed(r), ['outside added build.log']);
});

test('an edit call that names a file counts it as the agent’s only if it changed in that turn', async () => {
  const edit = (toolCallId: string, file: string) => ({
    update: { sessionUpdate: 'tool_call', toolCallId, title: `Edit ${file}`, kind: 'edit', status: 'in_progress', locations: [{ path: file }] },
  });
  const done = (toolCallId: string, status = 'completed') => ({ update: { sessionUpdate: 'tool_call_update', toolCallId, status } });
  const { r, path } = rig(
    {
      turns: [
        {
          steps: [
            edit('e1', '${cwd}/x.txt'),
            { diskWrite: { path: '${cwd}/x.txt', content: 'x by agent\n', quiet: true } },
            done('e1'),
            // Named, then failed without writing: not the agent's change.
            edit('e2', '${cwd}/y.txt'),
            done('e2', 'failed'),
          ],
        },
        { steps: [say('ok')] },
      ],
    },
    { 'x.txt': 'x\n', 'y.txt': 'y\n' },
  );
  await r.session.start();
  await r.session.prompt('edit');
  await settled(r);
  assert.deepEqual(listed(r), ['modified x.txt']);
  // Later the user edits y.txt with another program while the agent is idle, and a turn runs.
  writeFileSync(path('y.txt'), 'y by user\n');
  await r.session.prompt('next');
  await settled(r);
  assert.deepEqual(listed(r), ['modified x.txt']);
  await r.session.conversation.undo();
  assert.equal(readFileSync(path('x.txt'), 'utf8'), 'x\n');
  assert.equal(readFileSync(path('y.txt'), 'utf8'), 'y by user\n');
});

test('who changed what survives a restart; a transcript from before attribution marks its changes outside', async () => {
  const ws = join(rigs.dir, `direct-${++n}`);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'a.txt'), 'a\n');
  const host = nodeReviewHost(ws, join(rigs.dir, `storage-${n}`));
  const views: ReviewView[] = [];
  const review = new ConversationReview(host, new MemoryProtocolLog(), (v) => views.push(v));
  await review.beginTurn('turn');
  await review.beforeWrite(join(ws, 'a.txt'));
  writeFileSync(join(ws, 'a.txt'), 'a by agent\n');
  writeFileSync(join(ws, 'run.out'), 'output\n');
  await review.endTurn();
  const state = review.state();
  assert.deepEqual(state.claims, { agent: [join(ws, 'a.txt')], outside: [join(ws, 'run.out')] });
  review.dispose();

  const shown = (state: Parameters<ConversationReview['restore']>[0]) => {
    const again = new ConversationReview(host, new MemoryProtocolLog(), () => undefined);
    again.restore(state);
    return again;
  };
  const restored = shown(state);
  await restored.refresh();
  assert.deepEqual(
    restored.view().files.map((f) => [f.relPath, f.outside === true]),
    [
      ['a.txt', false],
      ['run.out', true],
    ],
  );
  restored.dispose();
  const legacy = shown({ baseline: state.baseline });
  await legacy.refresh();
  assert.deepEqual(
    legacy.view().files.map((f) => [f.relPath, f.outside === true]),
    [
      ['a.txt', true],
      ['run.out', true],
    ],
    'without claims nothing is taken for the agent’s: Undo all leaves it',
  );
  await legacy.undo();
  assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a by agent\n');
  legacy.dispose();
});

test('claude-agent-acp editing the disk itself: both files it changed are its own, and Undo all restores them', { timeout: 120_000 }, async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-attribution-claude-'));
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace);
  seedWorkspace('claude-agent-acp', workspace);
  const files = editOnDiskFiles(workspace);
  const fake = await startFakeAnthropic(scenario('editOnDisk', workspace));
  const s = scriptedSession(workspace, {}, { name: 'claude-agent-acp', cwd: workspace, review: nodeReviewHost(workspace, join(scratch, 'storage')) });
  s.session.updateAgent({
    ...s.agent,
    args: [join(repoRoot, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js')],
    env: envDelta(agentEnv(fake.url, scratch)),
  });
  try {
    await s.session.start();
    await promptAllowing(s, REAL_AGENT_PROMPTS['claude-agent-acp']);
    await settled(s);
    assert.equal(readFileSync(files.notesPath, 'utf8'), files.editedText, 'the agent wrote the disk itself');
    assert.deepEqual(listed(s), ['added src/greeting.txt', 'modified notes.txt'], 'named by its edit calls: the agent’s, not outside');
    await s.session.conversation.undo();
    assert.equal(readFileSync(files.notesPath, 'utf8'), files.originalText);
    assert.equal(existsSync(files.newPath), false);
  } finally {
    await s.session.conversation.agentRuntime?.stop();
    s.session.dispose();
    await fake.close();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
});
