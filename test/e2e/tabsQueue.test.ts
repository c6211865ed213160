// Conversations in real VS Code (code-server) with a scripted agent as a real process: prompts
// typed while the agent starts or works are queued (never dropped) and sent in order (this agent
// advertises no steering, so none is steered into the running turn); two
// conversations run turns with permission prompts at the same time, each in its own tab.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { scenario, useE2e } from './harness/e2e';
import type { Scenario } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { waitUntil } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';
import type { AgentScript } from './harness/workspace';

const e2e = useE2e();

function received(logFile: string): Array<{ method?: string; params?: { prompt?: Array<{ text?: string }> } }> {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { method?: string });
}

function setup(s: Scenario, script: AgentScript) {
  const agent = s.agent(script);
  const workspace = s.workspace({ files: { 'README.md': '# Queue\n' }, settings: agentSettings('Scripted', agent.config) });
  return { agent, workspace };
}

const queued = (chat: Chat): Locator => chat.frame.locator('[role="article"][data-entry-kind="user"][data-queued="true"]');
const sent = (chat: Chat): Locator => chat.frame.locator('[role="log"] [role="article"][data-entry-kind="user"]:not([data-queued])');
const tabs = (chat: Chat): Locator => chat.frame.locator('[role="tablist"][aria-label="Conversations"] [role="tab"]');

/** Types and presses Enter without waiting for the agent (the point of these tests). */
async function enter(chat: Chat, text: string): Promise<void> {
  await chat.composer.fill(text);
  await chat.composer.press('Enter');
}

scenario(e2e, 'Enter while the agent starts: the prompt shows as waiting at once and is sent when the agent is ready', async (s) => {
  const { agent, workspace } = setup(s, { initialize: { delayMs: 4000 }, turns: [{ steps: [say('answer to ${prompt}')] }] });
  const { chat } = await s.open(workspace);
  await enter(chat, 'typed while starting');
  await chat.waitForCount(queued(chat), 1, 'the waiting prompt');
  assert.match((await queued(chat).first().textContent()) ?? '', /typed while starting/);
  assert.equal(await chat.composer.inputValue(), '', 'the composer is free again');
  assert.equal(await sent(chat).count(), 0);
  assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
  await waitUntil(async () => (await queued(chat).count()) === 0, 'the queue to empty');
  assert.equal(await sent(chat).count(), 1);
  assert.match(await chat.threadText(), /answer to typed while starting/);
  assert.equal(received(agent.logFile).filter((m) => m.method === 'session/prompt').length, 1);
});

scenario(e2e, 'Enter during a turn queues the prompt above the composer; it can be edited and goes out after the turn, in order', async (s) => {
  const { agent, workspace } = setup(s, {
    turns: [{ steps: [say('working…'), { sleep: 4000 }, say(' first done')] }, { steps: [say('then: ${prompt}')] }, { steps: [say('last: ${prompt}')] }],
  });
  const { chat } = await s.open(workspace);
  await chat.send('first');
  await chat.entries('agent').filter({ hasText: 'working' }).waitFor({ timeout: 30_000 });
  await enter(chat, 'second');
  await enter(chat, 'thrid');
  await chat.waitForCount(queued(chat), 2, 'two queued prompts');
  // Fix the typo through the queue's Edit: Enter saves.
  await queued(chat).nth(1).getByRole('button', { name: 'Edit' }).click();
  const editor = chat.frame.locator('textarea[aria-label="Edit the queued prompt"]');
  await editor.fill('third');
  await editor.press('Enter');
  await waitUntil(async () => /third/.test((await queued(chat).nth(1).textContent()) ?? ''), 'the edit to land');
  assert.equal(await chat.waitForTurnEnd(3, 60_000), 'end_turn');
  assert.deepEqual(
    (await sent(chat).locator('.markdown').allTextContents()).map((t) => t.trim()),
    ['first', 'second', 'third'],
  );
  const texts = received(agent.logFile)
    .filter((m) => m.method === 'session/prompt')
    .map((m) => m.params?.prompt?.[0]?.text);
  assert.deepEqual(texts, ['first', 'second', 'third']);
  assert.equal(await queued(chat).count(), 0);
  // This agent advertises no steering: nothing was steered, each prompt was a turn of its own.
  assert.ok(!received(agent.logFile).some((m) => m.method === '_session/steering'));
  assert.equal(await chat.frame.locator('[role="article"][data-steered]').count(), 0);
});

scenario(e2e, 'two conversations in tabs run turns with permission prompts at the same time; the background one shows a badge', async (s) => {
  const { agent, workspace } = setup(s, {
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 'edit-${sessionId}', title: 'Edit ${prompt}.txt', kind: 'edit', status: 'pending' } },
          {
            permission: {
              toolCall: { toolCallId: 'edit-${sessionId}' },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          },
          say(' (${prompt} finished)'),
        ],
      },
    ],
  });
  const { chat } = await s.open(workspace);
  const prompt = chat.frame.locator('[role="group"][aria-label^="Permission"][data-permission-state="pending"]');
  await chat.send('alpha');
  await chat.waitForCount(prompt, 1, 'the prompt in the first conversation');
  const firstSession = await chat.log.getAttribute('data-session-id');
  assert.ok(firstSession, 'the log names its ACP session');

  await chat.frame.getByRole('button', { name: 'New conversation' }).click();
  await chat.waitForCount(tabs(chat), 2, 'a second tab');
  await waitUntil(async () => (await chat.entries().count()) === 0, 'the new conversation to be shown');
  await chat.send('beta');
  await chat.waitForCount(prompt, 1, 'the prompt in the second conversation');
  const secondSession = await chat.log.getAttribute('data-session-id');
  assert.ok(secondSession && secondSession !== firstSession, 'each tab has its own session');
  assert.equal(await tabs(chat).nth(1).getAttribute('aria-selected'), 'true');

  // Back to the first tab: its prompt is still waiting; the second tab, now in the background, has a badge.
  await tabs(chat).first().click();
  await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === firstSession, 'the first conversation to be shown');
  await waitUntil(async () => (await tabs(chat).nth(1).getAttribute('data-attention')) === 'permission', 'the badge on the background tab');
  await prompt.first().getByRole('button', { name: 'Allow' }).click();
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.match(await chat.threadText(), /PERMISSION: selected yes \(alpha finished\)/);

  // The second conversation still waits for its own answer; keyboard: arrow to it in the tablist.
  await tabs(chat).first().focus();
  await chat.page.keyboard.press('ArrowRight');
  await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === secondSession, 'the second conversation to be shown');
  await prompt.first().getByRole('button', { name: 'Reject' }).click();
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.match(await chat.threadText(), /PERMISSION: selected no \(beta finished\)/);
  const methods = received(agent.logFile).map((m) => m.method);
  assert.equal(methods.filter((m) => m === 'initialize').length, 1, 'one agent process for both');
  assert.equal(methods.filter((m) => m === 'session/new').length, 2);
});
