// Search inside conversations in real VS Code (code-server): a word from an agent's reply in a
// conversation that is no longer open is found by `Tandem: Search Conversations…` and by the
// History picker; choosing the match opens that conversation with the entry in view, highlighted.
import assert from 'node:assert/strict';
import { scenario, useE2e } from './harness/e2e';
import { runCommand, uiTimeout, waitUntil, type Chat } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';

const e2e = useE2e();

const WORD = 'Quetzalcoatlus';
/** A reply long enough that the match is scrolled out of view by the time the conversation ends. */
const LONG_REPLY = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long answer about something else entirely.`).join('\n\n');

/** Types into the open quick pick and picks the row that shows `text` once the search has answered. */
async function chooseMatch(chat: Chat, query: string, text: string): Promise<void> {
  const input = chat.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: uiTimeout });
  await input.fill(query);
  const row = chat.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: uiTimeout });
  await row.click();
}

/** The revealed entry is in the log's viewport, holds `text`, and the phrase is marked. */
async function assertLanded(chat: Chat, text: string): Promise<void> {
  const revealed = chat.frame.locator('[data-entry-id].search-revealed');
  await revealed.waitFor({ timeout: uiTimeout });
  assert.equal(await revealed.count(), 1);
  assert.match((await revealed.textContent()) ?? '', new RegExp(text));
  await waitUntil(async () => {
    const [box, log] = [await revealed.boundingBox(), await chat.log.boundingBox()];
    return !!box && !!log && box.y < log.y + log.height && box.y + box.height > log.y;
  }, 'the revealed entry to be in view');
  assert.equal(await chat.log.evaluate(() => CSS.highlights.has('tandem-search-match')), true, 'the phrase is marked');
  // The next interaction clears it.
  await chat.log.click({ position: { x: 5, y: 5 } });
  await waitUntil(async () => (await revealed.count()) === 0, 'the highlight to clear on a click');
  assert.equal(await chat.log.evaluate(() => CSS.highlights.has('tandem-search-match')), false);
}

scenario(
  e2e,
  'a word from a reply in a closed conversation is found by Search Conversations and History, and opens that conversation at the entry',
  async (s) => {
    const agent = s.agent({
      turns: [{ steps: [say(`The fossil you asked about is a ${WORD}, the largest flying animal known.`)] }, { steps: [say(LONG_REPLY)] }],
    });
    const workspace = s.workspace({ files: { 'README.md': '# Search\n' }, settings: agentSettings('Scripted', agent.config) });
    const { chat } = await s.open(workspace);
    await chat.send('which pterosaur was it');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    await chat.send('tell me more');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    // Closing the only tab keeps it in history and opens a fresh conversation.
    await runCommand(chat.page, 'Tandem: Close Conversation');
    await waitUntil(async () => !(await chat.threadText()).includes('pterosaur'), 'a new, empty conversation');

    await runCommand(chat.page, 'Tandem: Search Conversations…');
    await chooseMatch(chat, WORD.toLowerCase(), WORD);
    await waitUntil(async () => (await chat.threadText()).includes('which pterosaur was it'), 'the found conversation to be shown');
    await assertLanded(chat, WORD);

    // The History picker finds it by its text too (the title says nothing of it), below the titles.
    await runCommand(chat.page, 'Tandem: New Conversation');
    await waitUntil(async () => !(await chat.threadText()).includes('pterosaur'), 'a new conversation');
    await chat.frame.getByRole('button', { name: 'History' }).click();
    await chooseMatch(chat, 'largest flying', 'largest flying animal');
    await waitUntil(async () => (await chat.threadText()).includes('which pterosaur was it'), 'the conversation found from History');
    await assertLanded(chat, 'largest flying');
  },
);
