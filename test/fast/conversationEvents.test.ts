// The manager's domain events, what the editor adapters listen to instead of the panel's wire:
// shown, tabs changed, notes changed and files changed, each fired by the real manager against the
// in-memory StubAgent. Unlike the panel's messages, the per-conversation events also come from
// conversations that are not shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Conversation } from '../../src/conversation/conversation';
import type { ReviewHost } from '../../src/conversation/conversationReview';
import type { FilesChanged, NotesChanged } from '../../src/conversation/conversationEvents';
import type { TabView } from '../../src/protocol/messages';
import { lateReviewHost, nodeReviewHost, until } from '../support/scriptedSession';
import { stubSession } from '../support/stubSession';

test('onShown and onTabsChanged: a new conversation and a tab switch say which one is shown and what the tabs are', async () => {
  const rig = stubSession();
  await rig.manager.init();
  const first = rig.conversation;
  const shown: Conversation[] = [];
  const tabs: Array<readonly TabView[]> = [];
  rig.manager.onShown((c) => shown.push(c));
  rig.manager.onTabsChanged((t) => tabs.push(t));

  const second = rig.manager.newConversation();
  assert.deepEqual(shown, [second]);
  assert.deepEqual(
    tabs.at(-1)?.map((t) => t.id),
    [first.id, second.id],
  );

  rig.manager.show(first.id);
  assert.deepEqual(shown, [second, first]);
  assert.deepEqual(tabs.at(-1), rig.manager.tabs(), 'the tabs as the manager has them now');

  const before = tabs.length;
  await rig.manager.close(second.id);
  assert.ok(tabs.length > before, 'closing a background tab changes the tabs');
  assert.deepEqual(
    tabs.at(-1)?.map((t) => t.id),
    [first.id],
  );
  assert.deepEqual(shown, [second, first], 'closing a background tab shows nothing new');
  rig.manager.dispose();
});

test('onNotesChanged: every conversation tells its notes, the one in the background too; the panel hears only the shown one', async () => {
  const rig = stubSession();
  await rig.manager.init();
  const file = join(rig.dir, 'a.ts');
  writeFileSync(file, 'one\ntwo\n');
  const background = rig.conversation;
  const shown = rig.manager.newConversation();
  const heard: NotesChanged[] = [];
  rig.manager.onNotesChanged((e) => heard.push(e));
  const panel = rig.messages.length;

  await background.addNote({ path: file, startLine: 1, endLine: 1, text: 'rename this' });
  assert.equal(heard.length, 1);
  assert.equal(heard[0]?.conversation, background);
  assert.deepEqual(
    heard[0]?.notes.map((n) => n.text),
    ['rename this'],
  );
  assert.ok(!rig.messages.slice(panel).some((m) => m.type === 'notesChanged'), 'a background conversation is not the panel’s');

  await shown.addNote({ path: file, startLine: 2, endLine: 2, text: 'and this' });
  assert.equal(heard.at(-1)?.conversation, shown);
  assert.ok(
    rig.messages.slice(panel).some((m) => m.type === 'notesChanged'),
    'the shown one goes to the panel as before',
  );

  const id = heard.at(-1)?.notes[0]?.id ?? '';
  shown.removeNote(id);
  assert.equal(heard.at(-1)?.conversation, shown);
  assert.deepEqual(heard.at(-1)?.notes, [], 'a removed note: the list as it is now');
  rig.manager.dispose();
});

test('onFilesChanged: a file the agent wrote in a turn comes with the conversation’s review', async () => {
  // The review is rooted at the rig's folder, which exists only once the rig does.
  let host: ReviewHost | undefined;
  const review = lateReviewHost(() => host);
  const rig = stubSession({ editor: { review } });
  host = nodeReviewHost(rig.dir, mkdtempSync(join(tmpdir(), 'tandem-events-')));
  const file = join(rig.dir, 'b.txt');
  writeFileSync(file, 'before\n');
  await rig.manager.init();
  await rig.conversation.connect();
  const heard: FilesChanged[] = [];
  rig.manager.onFilesChanged((e) => heard.push(e));

  rig.conversation.prompt('change b');
  // The turn's checkpoint is written to disk first.
  await until(() => rig.agent.pendingPrompt !== undefined, 'the prompt');
  const sessionId = rig.conversation.meta.sessionId ?? '';
  await rig.agent.client.writeTextFile?.({ sessionId, path: file, content: 'after\n' });
  rig.agent.endTurn('end_turn');
  await until(() => heard.some((e) => e.review.files.length > 0), 'the changed file');

  assert.equal(readFileSync(file, 'utf8'), 'after\n');
  const last = heard.at(-1);
  assert.equal(last?.conversation, rig.conversation);
  assert.deepEqual(
    last?.review.files.map((f) => f.path),
    [file],
  );
  rig.manager.dispose();
});
