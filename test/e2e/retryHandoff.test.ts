// Retry and Continue with Another Agent… (issue 31, items 3 and 4) in real VS Code (code-server)
// with the packaged .vsix and scripted agents as real processes over stdio: a cancelled turn's
// Retry sends the same prompt and context again in the same session and it is answered; a
// conversation continued with a second agent reaches that agent's first prompt as a Markdown
// resource, with a notice in the new thread.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scenario, useE2e } from './harness/e2e';
import { say } from './harness/workspace';
import { openQuickPick, runCommand, waitUntil } from './harness/workbench';

const e2e = useE2e();

interface Block {
  type: string;
  text?: string;
  resource?: { uri?: string; mimeType?: string; text?: string };
}

/** The `session/prompt` params an agent received, in order (its log holds one JSON-RPC message a line). */
function prompts(logFile: string): Array<{ sessionId: string; prompt: Block[] }> {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { method?: string; params?: { sessionId: string; prompt: Block[] } })
    .filter((m) => m.method === 'session/prompt' && m.params)
    .map((m) => m.params!);
}

const embedding = { initialize: { agentCapabilities: { promptCapabilities: { embeddedContext: true } } } };

scenario(e2e, 'Retry on a cancelled turn sends the same prompt and context again in the same session, and it is answered', async (s) => {
  const agent = s.agent({
    ...embedding,
    turns: [{ steps: [say('Working on it…'), { waitForCancel: true }] }, { steps: [say('answer to: ${prompt}')], stopReason: 'end_turn' }],
  });
  const workspace = s.workspace({
    files: { 'notes.md': '# Notes\nThe first version.\n' },
    settings: { 'tandem.agents': { Scripted: agent.config }, 'tandem.defaultAgent': 'Scripted' },
  });
  const { chat } = await s.open(workspace);

  // A prompt with context: an @ mention of a file, then the text.
  await chat.composer.click();
  await chat.composer.pressSequentially('@notes');
  const option = chat.frame.locator('[role="listbox"][aria-label^="Mention"] [role="option"][aria-selected="true"]');
  await waitUntil(async () => /notes\.md/.test((await option.textContent()) ?? ''), 'notes.md to be the first suggestion');
  await chat.composer.press('Enter');
  await chat.frame.locator(`.composer [data-mention-uri="file://${workspace.path('notes.md')}"]`).waitFor({ timeout: 10_000 });
  await chat.send('Summarise my notes');
  const stop = chat.button('Stop');
  await stop.waitFor({ state: 'visible', timeout: 30_000 });
  await chat.waitForCount(chat.entries('agent').filter({ hasText: 'Working on it…' }), 1, 'the streamed text before Stop');
  await stop.click();
  assert.equal(await chat.waitForTurnEnd(1), 'cancelled');

  const cancelled = chat.stopReasons('cancelled');
  const retry = chat.button('Retry', cancelled);
  await retry.waitFor({ state: 'visible', timeout: 30_000 });
  await retry.click();
  assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
  await chat.waitForCount(chat.entries('agent').filter({ hasText: 'answer to: Summarise my notes' }), 1, 'the answer to the retried prompt');
  assert.equal(await chat.button('Retry', cancelled).count(), 0, 'the Retry went with the retry');
  assert.equal(await chat.entries('user').count(), 2, 'the thread shows the prompt sent again');
  assert.equal(await chat.entries('error').count(), 0);

  const sent = prompts(agent.logFile);
  assert.equal(sent.length, 2, 'the prompt went twice');
  assert.equal(sent[1].sessionId, sent[0].sessionId, 'in the same session');
  assert.deepEqual(sent[1].prompt, sent[0].prompt, 'the same blocks');
  const resource = sent[1].prompt.find((b) => b.type === 'resource')?.resource;
  assert.equal(resource?.uri, `file://${workspace.path('notes.md')}`, 'with the mentioned file');
  assert.match(resource?.text ?? '', /The first version\./);
});

scenario(e2e, 'Continue with Another Agent…: the second agent’s first prompt carries the conversation so far as a Markdown resource', async (s) => {
  const first = s.agent({ ...embedding, turns: [{ steps: [say('I changed the greeting to Hello, friend.')], stopReason: 'end_turn' }] });
  const second = s.agent({ ...embedding, turns: [{ steps: [say('second agent got: ${prompt}')], stopReason: 'end_turn' }] });
  const workspace = s.workspace({
    files: { 'greet.ts': "export const greet = 'Hello, friend';\n" },
    settings: { 'tandem.agents': { Scripted: first.config, Second: second.config }, 'tandem.defaultAgent': 'Scripted' },
  });
  const { chat, workbench } = await s.open(workspace);
  const page = workbench.page;

  await chat.send('Make the greeting friendlier');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');

  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Second' }).first();
  await openQuickPick(page, () => runCommand(page, 'Tandem: Continue with Another Agent…'), row);
  await row.click();

  // The new conversation: a notice, and the old one as a chip in its composer.
  const notice = chat.frame.locator('.notice-entry', { hasText: 'continues “Make the greeting friendlier” from Scripted' });
  await notice.waitFor({ timeout: 30_000 });
  assert.equal(await chat.entries('user').count(), 0, 'a new thread');
  const chip = chat.frame.locator('.composer [data-mention-kind="conversation"]');
  await chip.waitFor({ timeout: 10_000 });
  assert.match((await chip.textContent()) ?? '', /Make the greeting friendlier/);

  await chat.send('Please add a test for it.');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  await chat.waitForCount(chat.entries('agent').filter({ hasText: 'second agent got: Please add a test for it.' }), 1, 'the second agent’s answer');
  assert.equal(await chat.entries('user').first().locator('[data-mention-kind="conversation"]').count(), 1, 'the prompt shows what it carried');

  assert.equal(prompts(first.logFile).length, 1, 'the first agent was asked nothing more');
  const sent = prompts(second.logFile);
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0].prompt[0], { type: 'text', text: 'Please add a test for it.' });
  const resource = sent[0].prompt.find((b) => b.type === 'resource')?.resource;
  assert.match(resource?.uri ?? '', /^tandem:\/\/conversation\//);
  assert.equal(resource?.mimeType, 'text/markdown');
  const text = resource?.text ?? '';
  for (const part of [
    'It was held with Scripted in Tandem',
    '## You',
    'Make the greeting friendlier',
    '## Scripted',
    'I changed the greeting to Hello, friend.',
  ])
    assert.ok(text.includes(part), `the handed-over document has ${JSON.stringify(part)}:\n${text}`);
  assert.equal(readFileSync(workspace.path('greet.ts'), 'utf8'), "export const greet = 'Hello, friend';\n", 'the files as they are');
});
