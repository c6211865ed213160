/**
 * Cards built from what four real agents really sent (test/fixtures/agentPayloads, recorded against
 * the fake model servers through Tandem's core): titles in the user's words with the agent's own
 * kept, workspace-relative paths, locations from input, output in its shape without the model-only
 * text, diffs from the input, subagent trees. The same rules for every agent, no special cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { PAYLOAD_AGENTS } from '../fixtures/agentPayloads/recordPayloads';
import { loadRecording, payloadReducer, playRecording, toolCards } from '../support/agentPayloads';

const CWD = '/home/me/proj';

function cardsOf(agent: (typeof PAYLOAD_AGENTS)[number]): { entries: Entry[]; cards: ToolCallEntry[]; warnings: string[] } {
  const { reducer, warnings } = payloadReducer(CWD);
  const entries = playRecording(reducer, loadRecording(agent, CWD));
  return { entries, cards: toolCards(entries), warnings };
}

/** Every text the card shows (title, locations, content), as the user reads it. */
function shownText(card: ToolCallEntry): string {
  const parts = [card.title, ...card.locations.map((l) => l.shown ?? l.path)];
  for (const item of card.content) {
    if (item.type === 'markdown' || item.type === 'output') parts.push(item.text);
  }
  return parts.join('\n');
}

function byTitle(cards: ToolCallEntry[], title: string): ToolCallEntry {
  const card = cards.find((c) => c.title === title);
  assert.ok(card, `a card titled ${JSON.stringify(title)} among ${JSON.stringify(cards.map((c) => c.title))}`);
  return card;
}

for (const agent of PAYLOAD_AGENTS) {
  test(`${agent}: every card has a title in the user's words, settled, and nothing for the model only`, () => {
    const { cards } = cardsOf(agent);
    assert.ok(cards.length >= 3, `${agent} made cards`);
    for (const card of cards) {
      assert.doesNotMatch(card.title, /[{[]"|^\s*$/, `no raw JSON in ${JSON.stringify(card.title)}`);
      assert.ok(!card.title.includes(CWD), `no absolute workspace path in ${JSON.stringify(card.title)}`);
      assert.ok(card.status === 'completed' || card.status === 'failed', `${card.title} settled: ${card.status}`);
      assert.doesNotMatch(shownText(card), /<system-reminder>|agentId: |<usage>/, `${card.title} shows only what is for the user`);
      if (card.agentTitle !== undefined) assert.notEqual(card.agentTitle, card.title);
    }
  });
}

test('claude-agent-acp: the Agent call is a subagent card with its Read, Grep and Bash nested under it', () => {
  const { cards } = cardsOf('claude-agent-acp');
  const parent = byTitle(cards, 'Subagent: Check the notes');
  assert.equal(parent.subagent, true);
  assert.equal(parent.agentTitle, 'Check the notes');
  const children = cards.filter((c) => c.parentId === parent.id);
  assert.deepEqual(
    children.map((c) => [c.toolKind, c.title]),
    [
      ['read', 'Read notes.txt'],
      ['search', 'grep "status" proj'],
      ['execute', 'echo hello-from-native-bash'],
    ],
  );
  // The subagent's answer without the trailer meant for the model (kept in Details).
  assert.deepEqual(parent.content, [{ type: 'markdown', text: 'The notes say status: draft.' }]);
  assert.match(parent.rawOutput ?? '', /agentId: /);
  // The main loop's own calls stay at the top level.
  const edit = byTitle(cards, 'Edit notes.txt');
  assert.equal(edit.parentId, undefined);
  assert.equal(edit.content[0]?.type, 'diff');
});

test('claude-agent-acp: a Read result is preformatted output without the <system-reminder>', () => {
  const { cards } = cardsOf('claude-agent-acp');
  const read = cards.find((c) => c.title === 'Read notes.txt' && c.parentId === undefined)!;
  assert.equal(read.content.length, 1);
  const output = read.content[0];
  assert.equal(output.type, 'output');
  assert.match(output.type === 'output' ? output.text : '', /^ +1→Tandem notes\n +2→status: draft\n/);
  assert.match(read.rawOutput ?? '', /system-reminder/, 'Details keep what the agent sent');
  assert.deepEqual(read.locations, [{ path: `${CWD}/notes.txt`, line: 1, inWorkspace: true, shown: 'notes.txt' }]);
});

test('claude-code-acp: absolute paths in titles become workspace-relative; the agent title stays available', () => {
  const { cards, warnings } = cardsOf('claude-code-acp');
  assert.deepEqual(
    cards.map((c) => [c.title, c.agentTitle]),
    [
      ['Read notes.txt', `Read ${CWD}/notes.txt`],
      ['Edit `notes.txt`', `Edit \`${CWD}/notes.txt\``],
      ['Write src/greeting.txt', `Write ${CWD}/src/greeting.txt`],
      ['Print a greeting', undefined],
      ['List workspace files', undefined],
    ],
  );
  assert.deepEqual(warnings, [`Ignored line 0 of location "${CWD}/notes.txt".`]);
  const read = cards[0];
  assert.deepEqual(read.content, [{ type: 'output', text: 'Tandem notes\nstatus: draft\nend' }]);
  assert.equal(cards[3].content[0]?.type, 'terminal', 'a terminal stays a terminal');
});

test('gemini-cli: a title that is only a path gets its verb; diffs and locations as sent', () => {
  const { cards } = cardsOf('gemini-cli');
  const read = byTitle(cards, 'Read notes/todo.txt');
  assert.equal(read.agentTitle, 'notes/todo.txt');
  assert.deepEqual(read.locations, [{ path: `${CWD}/notes/todo.txt`, inWorkspace: true, shown: 'notes/todo.txt' }]);
  const edit = byTitle(cards, 'notes/todo.txt: status: draft => status: reviewed');
  assert.equal(edit.content[0]?.type === 'diff' && edit.content[0].observed, undefined, 'a diff the agent sent is not marked observed');
  byTitle(cards, 'Writing to notes/new.txt');
});

test('cline: raw-JSON titles become what happened, locations come from the input, edits get their diffs from it', () => {
  const { cards } = cardsOf('cline');
  const top = cards.filter((c) => c.parentId === undefined);
  assert.deepEqual(
    top.map((c) => c.title),
    [
      'Read hello.txt and README.md',
      'Edit hello.txt',
      'Create src/greeting.txt',
      'Run `echo hello-from-cline`',
      'Subagent: Check that hello.txt says reviewed.',
    ],
  );
  for (const card of top) assert.ok(card.agentTitle, `${card.title} keeps the agent's title`);
  assert.match(top[0].agentTitle ?? '', /^read_files: \{"files"/);
  assert.deepEqual(
    top[0].locations.map((l) => [l.shown, l.fromInput, l.inWorkspace]),
    [
      ['hello.txt', true, true],
      ['README.md', true, true],
    ],
  );
  // read_files answers per file: each result is its own output, named by the file.
  assert.deepEqual(
    top[0].content.map((i) => (i.type === 'output' ? [i.label, i.text] : i.type)),
    [
      ['hello.txt', '1 | Hello\n2 | status: draft\n3 | end'],
      ['README.md', '1 | # Readme'],
    ],
  );
  const edit = top[1].content[0];
  assert.ok(edit.type === 'diff' && edit.observed === 'input' && !edit.isNew && edit.added === 1 && edit.removed === 1, JSON.stringify(edit));
  const create = top[2].content[0];
  assert.ok(create.type === 'diff' && create.observed === 'input' && create.isNew && create.added === 1, JSON.stringify(create));
  assert.deepEqual(top[3].content, [{ type: 'output', text: 'hello-from-cline\n' }]);
});

test('cline: the calls a spawn_agent call makes while it runs nest under it; the late repeated tool_call does not set it back', () => {
  const { cards } = cardsOf('cline');
  const parent = byTitle(cards, 'Subagent: Check that hello.txt says reviewed.');
  assert.equal(parent.subagent, true);
  assert.equal(parent.status, 'completed');
  assert.deepEqual(parent.content, [{ type: 'output', text: 'hello.txt says reviewed.' }]);
  const children = cards.filter((c) => c.parentId === parent.id);
  assert.deepEqual(
    children.map((c) => c.title),
    ['Read hello.txt', 'Search for `status: reviewed`'],
  );
});
