// The agent's status in real VS Code (code-server), with the scripted agent as a real process over
// stdio: who it is signed in as (`_auth/status_update`, as claude-agent-acp 0.101 pushes it) in the
// panel header, whose Sign out sends `logout` because the agent advertised it; the account's limits
// (the RFD's `quota_update`) as the Account limits meter, in the error colour from 95 %; and the
// status bar item `tandem.activity` saying a conversation waits on a permission prompt, whose click
// shows that conversation.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { scenario, useE2e } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { uiTimeout, waitUntil } from './harness/workbench';
import { agentSettings, loggedMethods, say } from './harness/workspace';

const e2e = useE2e();

/** A spec-shaped quota_update with one 5-hour window `used` percent full, resetting in three hours. */
function quotaUpdate(used: number): Record<string, unknown> {
  return {
    sessionUpdate: 'quota_update',
    updatedAt: new Date().toISOString(),
    pools: [
      {
        id: 'plan',
        label: 'Plan usage',
        state: 'available',
        meters: [{ id: 'five_hour', usedPercent: used, window: 'PT5H', resetsAt: new Date(Date.now() + 3 * 3600_000 + 60_000).toISOString(), status: 'ok' }],
      },
    ],
  };
}

/** The computed colour of `cssColor` in the panel's document, for comparing looks by the theme's values. */
async function resolvedColor(chat: Chat, cssColor: string): Promise<string> {
  return chat.frame.locator('body').evaluate((body, color) => {
    const probe = document.createElement('span');
    probe.style.color = color;
    body.appendChild(probe);
    const value = getComputedStyle(probe).color;
    probe.remove();
    return value;
  }, cssColor);
}

const colorOf = (locator: Locator): Promise<string> => locator.evaluate((el) => getComputedStyle(el).color);

scenario(e2e, 'the signed-in row from _auth/status_update, Sign out sends logout; quota_update shows the Account limits meter, red from 95 %', async (s) => {
  const agent = s.agent({
    initialize: {
      agentCapabilities: { auth: { logout: {} }, _meta: { authStatus: {} } },
      notifications: [{ method: '_auth/status_update', params: { authStatus: { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' } } }],
    },
    logout: { notifications: [{ method: '_auth/status_update', params: { authStatus: { kind: 'none', label: 'Not logged in' } } }] },
    turns: [{ steps: [{ update: quotaUpdate(42) }, say('used some')] }, { steps: [{ update: quotaUpdate(96) }, say('used nearly all')] }],
  });
  const workspace = s.workspace({ files: { 'README.md': '# Status\n' }, settings: agentSettings('Scripted', agent.config) });
  const { chat } = await s.open(workspace);

  // (a) The header names the account the agent pushed, in its own words, with the whole sentence as its name.
  const row = chat.frame.getByRole('group', { name: 'Scripted is signed in as Anthropic API key (ANTHROPIC_API_KEY)' });
  await row.waitFor({ timeout: uiTimeout });
  assert.equal((await row.locator('.account-name').textContent())?.trim(), 'Anthropic API key');

  // (b) The account's limits beside the context meter, the percentage and the reset in the row.
  const meter = chat.frame.getByRole('meter', { name: 'Account limits' });
  assert.equal(await meter.isVisible(), false, 'no meter before the agent reports a limit');
  await chat.send('first');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  await waitUntil(async () => (await meter.textContent()) === '5-hour limit 42% · resets in 3 hours', 'the meter at 42 %');
  assert.equal(await meter.getAttribute('aria-valuenow'), '42');
  assert.equal(await meter.getAttribute('data-level'), 'ok');
  const errorColor = await resolvedColor(chat, 'var(--tandem-error-foreground)');
  assert.notEqual(await colorOf(meter), errorColor, 'below 80 % the meter has the plain look');
  await chat.send('second');
  assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
  await waitUntil(async () => (await meter.textContent())?.startsWith('5-hour limit 96%') === true, 'the meter at 96 %');
  assert.equal(await meter.getAttribute('data-level'), 'critical');
  assert.equal(await colorOf(meter), errorColor, 'from 95 % the meter has the error look');
  assert.match((await meter.getAttribute('title')) ?? '', /Plan usage · 5-hour limit: 96% used, resets in 3 hours/);

  // (a) Sign out goes to the agent's own logout (advertised), then the row says what the agent says now.
  assert.equal(loggedMethods(agent.logFile).includes('logout'), false);
  await row.getByRole('button', { name: 'Sign out of Scripted' }).click();
  await waitUntil(async () => loggedMethods(agent.logFile).includes('logout'), 'logout received by the agent');
  const signedOut = chat.frame.getByRole('group', { name: 'Scripted is not signed in: Not logged in' });
  await signedOut.waitFor({ timeout: uiTimeout });
  assert.equal(await signedOut.getAttribute('data-signed-in'), 'false');
  assert.equal(await signedOut.getByRole('button', { name: 'Sign out of Scripted' }).isVisible(), false, 'nothing to sign out of any more');
  await waitUntil(async () => /Signed out of Scripted\./.test(await chat.threadText()), 'the notice in the thread');
  assert.equal(loggedMethods(agent.logFile).filter((m) => m === 'logout').length, 1);
});

scenario(e2e, 'the status bar item tandem.activity says a conversation waits for a permission answer, and its click shows it', async (s) => {
  const agent = s.agent({
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
  const workspace = s.workspace({ files: { 'README.md': '# Activity\n' }, settings: agentSettings('Scripted', agent.config) });
  const { chat } = await s.open(workspace);
  const item = chat.page.locator('.statusbar-item', { hasText: 'waiting for you' });
  assert.equal(await item.count(), 0, 'nothing waits yet');

  const prompt = chat.frame.locator('[role="group"][aria-label^="Permission"][data-permission-state="pending"]');
  await chat.send('alpha');
  await chat.waitForCount(prompt, 1, 'the permission prompt');
  const waitingSession = await chat.log.getAttribute('data-session-id');
  assert.ok(waitingSession);
  await item.first().waitFor({ state: 'visible', timeout: uiTimeout });
  assert.match((await item.first().textContent()) ?? '', /1 waiting for you/);
  // The accessible name (on the item or its inner label, by VS Code version) names the conversation.
  const name = await item.first().evaluate((el) => el.getAttribute('aria-label') ?? el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? '');
  assert.match(name, /Scripted waits for you in "[^"]*alpha[^"]*"/);

  // Another conversation in front; the waiting one is in the background, still counted.
  await chat.frame.getByRole('button', { name: 'New conversation' }).click();
  await waitUntil(async () => (await chat.entries().count()) === 0, 'the new conversation to be shown');
  assert.notEqual(await chat.log.getAttribute('data-session-id'), waitingSession);
  assert.match((await item.first().textContent()) ?? '', /1 waiting for you/);

  await item.first().click();
  await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === waitingSession, 'the waiting conversation to be shown');
  await chat.waitForCount(prompt, 1, 'its prompt, still pending');
  await prompt.first().getByRole('button', { name: 'Allow' }).click();
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.match(await chat.threadText(), /PERMISSION: selected yes \(alpha finished\)/);
  await waitUntil(async () => (await item.count()) === 0, 'the item to stop saying anything waits');
});
