// Agent controls in real VS Code (code-server) with a scripted agent as a real process: session
// settings in the header (set_config_option, answer rendered), the usage meter, a question form
// answered in the thread, and signing in through a terminal method that runs the agent's own login
// in a real VS Code terminal.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenario, useE2e } from './harness/e2e';
import { headerPicker, waitUntil } from './harness/workbench';
import { agentSettings, loggedMethods, say } from './harness/workspace';

const e2e = useE2e();

scenario(e2e, 'settings pickers, usage meter and a question form from a scripted agent', async (s) => {
  const agent = s.agent({
    newSession: {
      configOptions: [
        {
          id: 'model',
          name: 'Model',
          category: 'model',
          type: 'select',
          currentValue: 'sonnet',
          options: [
            { value: 'sonnet', name: 'Sonnet' },
            { value: 'opus', name: 'Opus' },
          ],
        },
        {
          id: 'effort',
          name: 'Reasoning',
          category: 'thought_level',
          type: 'select',
          currentValue: 'low',
          options: [
            { value: 'low', name: 'Low' },
            { value: 'high', name: 'High' },
          ],
        },
      ],
    },
    setConfigOption: { sideEffects: { model: { opus: { effort: 'high' } } } },
    turns: [
      {
        steps: [
          { usage: { used: 84_000, size: 200_000 } },
          {
            elicit: {
              mode: 'form',
              message: 'Which project?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Project name' } }, required: ['name'] },
            },
          },
          say(' done'),
        ],
      },
    ],
  });
  const workspace = s.workspace({ files: { 'README.md': '# Controls\n' }, settings: agentSettings('Scripted', agent.config) });
  const { chat } = await s.open(workspace);
  const model = await headerPicker(chat, '[data-config-id="model"]');
  assert.equal(await model.getAttribute('aria-label'), 'Model');
  assert.equal(await model.inputValue(), 'sonnet');
  await model.selectOption('opus');
  // The agent's answer is rendered: it raised the reasoning level along with the model.
  await waitUntil(async () => (await chat.frame.locator('[data-config-id="effort"]').inputValue()) === 'high', 'the answer of set_config_option rendered');
  assert.ok(loggedMethods(agent.logFile).includes('session/set_config_option'));

  await chat.send('start');
  const meter = chat.frame.getByRole('meter', { name: 'Context used' });
  await waitUntil(async () => (await meter.textContent()) === 'Context 42% · 84k / 200k', 'the usage meter');
  const form = chat.frame.locator('[data-entry-kind="question"][data-question-state="pending"]');
  await form.waitFor({ timeout: 30_000 });
  await form.getByLabel('Project name').fill('Tandem');
  await form.getByRole('button', { name: 'Accept' }).click();
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.match(await chat.threadText(), /ELICIT: \{"action":"accept","content":\{"name":"Tandem"\}\}/);
});

scenario(e2e, 'sign-in through a terminal method: the agent\u2019s own login runs in a VS Code terminal, then the session opens', async (s) => {
  const agent = s.agent({
    initialize: {
      authMethods: [
        { id: 'cli', name: 'Log in with the scripted CLI', description: 'Runs the login in a terminal', type: 'terminal', args: ['--scripted-login'] },
      ],
    },
    newSession: { requireAuth: true },
    turns: [{ steps: [say('hello after sign-in')] }],
  });
  const marker = join(agent.dir, 'login-marker.json');
  const config = { ...agent.config, env: { ...agent.config.env, SCRIPTED_AGENT_LOGIN_FILE: marker } };
  const workspace = s.workspace({ files: { 'README.md': '# Sign in\n' }, settings: agentSettings('Scripted', config) });
  const { chat } = await s.open(workspace);
  const card = chat.frame.locator('[data-entry-kind="auth"]');
  await card.waitFor({ timeout: 30_000 });
  assert.match((await card.textContent()) ?? '', /Scripted needs you to sign in/);
  // The card shows what the button runs: the agent's own command with the method's args.
  const shown = (await card.locator('.auth-command code').textContent()) ?? '';
  assert.match(shown, /scriptedAgent\.js.* --scripted-login$/);
  await card.getByRole('button', { name: 'Log in with the scripted CLI' }).click();
  // The first run asks, naming the command; nothing runs before the answer.
  const dialog = chat.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.textContent()) ?? '', /Run the sign-in command of Scripted\?/);
  assert.ok(((await dialog.textContent()) ?? '').includes(shown), 'the dialog names the command the card shows');
  assert.equal(existsSync(marker), false);
  await dialog.getByRole('button', { name: 'Run in Terminal' }).click();
  await waitUntil(async () => existsSync(marker), 'the login command to run in the terminal', 60_000);
  await waitUntil(async () => (await card.getAttribute('data-auth-state')) === 'done', 'the card to say signed in', 60_000);
  await chat.send('hi');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.match(await chat.threadText(), /hello after sign-in/);
  const caps =
    readFileSync(agent.logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('"initialize"')) ?? '';
  assert.match(caps, /"auth":\{"terminal":true\}/, 'terminal sign-in is advertised where a terminal can run it');
});
