/**
 * Chips from the composer reach a real (scripted) agent process as ACP content: embedded with the
 * editor's text when the agent advertises embeddedContext, links otherwise, images only to agents
 * that take them, problems/terminal/diff from the editor's sources at send time. The specs the
 * webview posts are checked like any other input from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMentionSpec, specView } from '../../src/context/mentionSpecs';
import type { ContextSources } from '../../src/context/mentionSpecs';
import type { FileAccess } from '../../src/client/fsHandler';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import type { MentionSpec, UserEntry } from '../../src/protocol/messages';
import { isWebviewMessage } from '../../src/views/messageGuard';
import { runCoreCommand } from '../../src/conversation/panelCommands';
import { ThreadReducer } from '../../src/thread/threadReducer';
import { scriptedSession, until, type ScriptedSession } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-mentions-', (dir) => writeFileSync(join(dir, 'app.ts'), 'line 1\nline 2\nline 3\nline 4\n'));

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const say = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

/** The editor's view of app.ts: unsaved edits over what is on disk. */
class EditorBuffers implements FileAccess {
  private readonly disk = new NodeFileAccess();
  constructor(private readonly buffers: Record<string, string>) {}
  readText(path: string): Promise<string> {
    return path in this.buffers ? Promise.resolve(this.buffers[path]) : this.disk.readText(path);
  }
  writeText(path: string, text: string): Promise<void> {
    return this.disk.writeText(path, text);
  }
}

const sources: ContextSources = {
  problems: (file) => [{ file: file ?? join(rigs.dir, 'app.ts'), line: 2, column: 5, severity: 'error', message: "Cannot find name 'x'.", source: 'ts' }],
  terminalOutput: (name) => (name === 'bash' ? '$ npm test\n1 failing\n' : undefined),
  gitDiff: async () => ({ diff: 'diff --git a/app.ts b/app.ts\n+added\n' }),
};

function rig(promptCapabilities: Record<string, boolean> | undefined): ScriptedSession {
  const r = scriptedSession(
    rigs.dir,
    { initialize: { agentCapabilities: promptCapabilities ? { promptCapabilities } : {} }, turns: [{ steps: [say('ok')] }, { steps: [say('ok')] }] },
    { extra: { contextSources: sources, files: new EditorBuffers({ [join(rigs.dir, 'app.ts')]: 'UNSAVED 1\nUNSAVED 2\nUNSAVED 3\n' }) } },
  );
  rigs.track(r);
  return r;
}

async function send(r: ScriptedSession, text: string, specs: MentionSpec[]): Promise<{ blocks: Array<Record<string, unknown>>; entry: UserEntry }> {
  await r.session.manager.init();
  await until(() => r.session.status.kind === 'ready', 'the session');
  const before = r.received().filter((m) => m.method === 'session/prompt').length;
  await runCoreCommand(r.session.manager, { type: 'prompt', text, mentions: specs }, { warn: (t) => assert.fail(t), reply: () => undefined });
  await until(() => r.received().filter((m) => m.method === 'session/prompt').length > before && r.session.status.kind === 'ready', 'the turn');
  const prompt = r.received().filter((m) => m.method === 'session/prompt')[before];
  const entries = r.session.conversation.internals.thread.entries().filter((e): e is UserEntry => e.kind === 'user');
  return { blocks: (prompt.params as { prompt: Array<Record<string, unknown>> }).prompt, entry: entries[entries.length - 1] };
}

test('embeddedContext: a file goes as a resource with the editor’s unsaved text, a selection with only its lines and the range in the URI', async () => {
  const r = rig({ embeddedContext: true, image: true });
  const file = join(rigs.dir, 'app.ts');
  const { blocks, entry } = await send(r, 'fix these', [
    { kind: 'file', path: file },
    { kind: 'selection', path: file, range: { startLine: 2, endLine: 3 } },
  ]);
  assert.deepEqual(blocks[0], { type: 'text', text: 'fix these' }, 'the text first');
  assert.equal(blocks[1].type, 'resource');
  const whole = blocks[1].resource as { uri: string; text: string };
  assert.equal(whole.uri, `file://${file}`);
  assert.equal(whole.text, 'UNSAVED 1\nUNSAVED 2\nUNSAVED 3\n', 'the editor’s text, not the disk’s');
  const part = blocks[2].resource as { uri: string; text: string };
  assert.equal(part.uri, `file://${file}#L2-L3`);
  assert.equal(part.text, 'UNSAVED 2\nUNSAVED 3\n');
  assert.deepEqual(
    entry.mentions?.map((m) => [m.label, m.uri]),
    [
      ['app.ts', `file://${file}`],
      ['app.ts:2-3', `file://${file}#L2-L3`],
    ],
  );
});

test('without embeddedContext: files are links; problems, terminal output and the diff are text read at send time', async () => {
  const r = rig({ embeddedContext: false });
  const file = join(rigs.dir, 'app.ts');
  const { blocks, entry } = await send(r, 'look', [
    { kind: 'file', path: file },
    { kind: 'problems' },
    { kind: 'terminal', name: 'bash' },
    { kind: 'gitDiff' },
  ]);
  assert.deepEqual(
    blocks.map((b) => b.type),
    ['text', 'resource_link', 'text', 'text', 'text'],
  );
  assert.equal(blocks[1].uri, `file://${file}`);
  assert.equal(blocks[1].name, 'app.ts');
  assert.match(String(blocks[2].text), /Cannot find name 'x'\./);
  assert.match(String(blocks[3].text), /1 failing/);
  assert.match(String(blocks[4].text), /\+added/);
  assert.equal(entry.mentions?.length, 4);
});

test('an image goes only to an agent that takes images; to one that does not, nothing is sent and the user is told', async () => {
  const takes = rig({ image: true });
  const sent = await send(takes, 'what is this', [{ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: PNG }]);
  assert.deepEqual(sent.blocks[1], { type: 'image', mimeType: 'image/png', data: PNG });

  const refuses = rig({ image: false });
  await refuses.session.manager.init();
  await until(() => refuses.session.status.kind === 'ready', 'the session');
  await runCoreCommand(
    refuses.session.manager,
    { type: 'prompt', text: '', mentions: [{ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: PNG }] },
    { warn: (t) => assert.fail(t), reply: () => undefined },
  );
  await until(() => refuses.session.conversation.internals.thread.entries().some((e) => e.kind === 'error'), 'the error');
  assert.equal(refuses.received().filter((m) => m.method === 'session/prompt').length, 0, 'no session/prompt');
  const error = refuses.session.conversation.internals.thread.entries().find((e) => e.kind === 'error') as { message: string };
  assert.match(error.message, /Nothing was sent.*shot\.png.*image/s);
  assert.equal(refuses.session.status.kind, 'ready', 'the conversation goes on');
});

test('a mention outside the workspace is not read without the user’s consent: it goes as a link with a note', async () => {
  const r = rig({ embeddedContext: true });
  const outside = join(tmpdir(), `tandem-outside-${process.pid}.txt`);
  writeFileSync(outside, 'secret');
  try {
    const { blocks, entry } = await send(r, 'read it', [{ kind: 'file', path: outside }]);
    assert.equal(blocks[1].type, 'resource_link');
    assert.ok(!JSON.stringify(blocks).includes('secret'));
    assert.equal(entry.contextNotes?.length, 1);
  } finally {
    rmSync(outside, { force: true });
  }
});

test('mention specs from the webview are checked: relative paths, bad ranges and unknown kinds are refused', () => {
  assert.ok(isMentionSpec({ kind: 'file', path: '/w/a.ts' }));
  assert.ok(isMentionSpec({ kind: 'selection', path: 'C:\\w\\a.ts', range: { startLine: 1, endLine: 2 } }));
  assert.ok(isMentionSpec({ kind: 'problems' }));
  assert.ok(!isMentionSpec({ kind: 'file', path: 'a.ts' }));
  assert.ok(!isMentionSpec({ kind: 'selection', path: '/w/a.ts', range: { startLine: 3, endLine: 2 } }));
  assert.ok(!isMentionSpec({ kind: 'selection', path: '/w/a.ts', range: { startLine: 0, endLine: 2 } }));
  assert.ok(!isMentionSpec({ kind: 'image', name: 'x', mimeType: 'image/png<script>', data: '' }));
  assert.ok(!isMentionSpec({ kind: 'script', path: '/w' }));
  assert.ok(isWebviewMessage({ type: 'prompt', text: 'x', mentions: [{ kind: 'gitDiff' }] }));
  assert.ok(!isWebviewMessage({ type: 'prompt', text: 'x', mentions: [{ kind: 'file', path: 'rel' }] }));
  assert.ok(!isWebviewMessage({ type: 'prompt', text: 'x', mentions: 'nope' }));
  assert.ok(isWebviewMessage({ type: 'mentionQuery', requestId: 3, query: 'app' }));
  assert.ok(!isWebviewMessage({ type: 'mentionQuery', requestId: '3', query: 'app' }));
  assert.ok(!isWebviewMessage({ type: 'dropUris', uris: [1] }));
  assert.equal(
    specView({ kind: 'symbol', name: 'parse', path: '/w/a.ts', range: { startLine: 3, endLine: 9 }, symbolKind: 'function' }, { workspaceRoots: ['/w'] }).icon,
    'symbol-function',
  );
});

test('queued prompts keep their chips, and a prompt of chips alone is accepted', async () => {
  const r = scriptedSession(
    rigs.dir,
    { initialize: { delayMs: 400, agentCapabilities: { promptCapabilities: { embeddedContext: true } } }, turns: [{ steps: [say('ok')] }] },
    { extra: { contextSources: sources } },
  );
  rigs.track(r);
  await r.session.manager.init();
  const conversation = r.session.conversation;
  assert.equal(conversation.status.kind, 'starting');
  await runCoreCommand(
    r.session.manager,
    { type: 'prompt', text: '', mentions: [{ kind: 'gitDiff' }] },
    { warn: (t) => assert.fail(t), reply: () => undefined },
  );
  const [item] = conversation.internals.queue.view().items;
  assert.equal(item.mentions?.[0].view.label, 'Git diff', 'waits with its chip while the agent starts');
  await until(() => r.received().some((m) => m.method === 'session/prompt'), 'the prompt');
  const prompt = r.received().find((m) => m.method === 'session/prompt')?.params as { prompt: Array<{ type: string; resource?: { uri: string } }> };
  assert.deepEqual(
    prompt.prompt.map((b) => b.type),
    ['resource'],
    'no empty text block',
  );
  assert.equal(prompt.prompt[0].resource?.uri, 'tandem://git/diff');
});

test('a replayed user message shows its mentions as chips, not their whole text', () => {
  const warnings: string[] = [];
  const reducer = new ThreadReducer({ isInWorkspace: () => true, warn: (t) => warnings.push(t) });
  reducer.applyUpdate({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix this' } });
  reducer.applyUpdate({
    sessionUpdate: 'user_message_chunk',
    content: { type: 'resource', resource: { uri: 'file:///w/a.ts#L3-L4', text: 'A VERY LONG FILE' } },
  });
  reducer.applyUpdate({ sessionUpdate: 'user_message_chunk', content: { type: 'resource_link', uri: 'tandem://problems', name: 'Problems' } });
  reducer.applyUpdate({ sessionUpdate: 'user_message_chunk', content: { type: 'resource', resource: 'broken' } });
  const [entry] = reducer.entries() as UserEntry[];
  assert.equal(entry.text.includes('A VERY LONG FILE'), false);
  assert.match(entry.text, /^fix this/);
  assert.deepEqual(
    entry.mentions?.map((m) => [m.label, m.uri]),
    [
      ['a.ts:3-4', 'file:///w/a.ts#L3-L4'],
      ['Problems', 'tandem://problems'],
    ],
  );
  assert.equal(reducer.entries().length, 1, 'one user entry');
});
