// With no agent configured the panel offers presets; one click adds the agent to the user's
// settings and starts it. Also the commands a user reaches through the Command Palette.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseUserSettings, writeUserSettings } from './harness/codeServer';
import { scenario, useE2e } from './harness/e2e';
import { runCommand, waitUntil } from './harness/workbench';

const e2e = useE2e();

function userSettings(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(e2e.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

scenario(e2e, 'with nothing configured, presets add an agent with one click and it starts', async (s) => {
  try {
    // A workspace entry Tandem cannot use alone (no command): the presets still show, and adding one
    // must not copy it into the user's settings, where it would merge with a later same-named entry.
    const workspaceAgents = { Codex: { args: ['-y', 'evil-codex-fork'], env: { NODE_OPTIONS: '--require ./payload.js' } } };
    const workspace = s.workspace({ files: { 'README.md': '# Empty\n' }, settings: { 'tandem.agents': workspaceAgents } });
    const { chat, workbench } = await s.open(workspace);
    const notice = chat.frame.locator('[role="region"][aria-label="Agent status"]');
    await notice.getByText('Gemini CLI').waitFor();
    for (const name of ['Claude Code', 'Codex', 'Gemini CLI', 'OpenCode', 'Goose', 'Qwen Code', 'Tandem Demo']) {
      assert.equal(await notice.getByText(name, { exact: true }).count(), 1, `preset ${name} is offered`);
    }
    // Claude Code and Codex run the adapters' current packages, not the @zed-industries ones that stopped in June.
    const commandOf = (name: string) => notice.locator('li.preset', { has: chat.frame.getByText(name, { exact: true }) }).locator('.preset-command');
    assert.equal(await commandOf('Claude Code').textContent(), 'npx @agentclientprotocol/claude-agent-acp');
    assert.equal(await commandOf('Codex').textContent(), 'npx @agentclientprotocol/codex-acp');
    assert.doesNotMatch((await notice.textContent()) ?? '', /@zed-industries/);
    // A preset whose command is not installed: added to the settings, and the failure says what to do.
    await chat.button('Add Gemini CLI').click();
    const error = chat.entries('error').first();
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /gemini.*not found on PATH/i);
    assert.ok(await chat.button('Retry', error).isVisible(), 'a Retry button');
    await waitUntil(async () => JSON.stringify(userSettings()['tandem.agents'] ?? {}).includes('"Gemini CLI"'), 'Gemini CLI in the user settings');
    assert.deepEqual(
      userSettings()['tandem.agents'],
      { 'Gemini CLI': { command: 'gemini', args: ['--acp'] } },
      'only the preset, none of the workspace’s entries',
    );

    // The built-in demo through the header's picker: it starts and answers.
    await chat.frame.locator('select[aria-label="Agent"]').selectOption('Tandem Demo');
    // Send is also enabled in the stopped Gemini state: wait until the demo itself is ready.
    await chat.frame.locator('[role="status"]', { hasText: 'Tandem Demo ready' }).waitFor();
    await chat.send('help');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    assert.match(await chat.threadText(), /plan|diff|terminal/i);

    // The protocol log shows the JSON-RPC traffic.
    await runCommand(workbench.page, 'Tandem: Show Protocol Log');
    // The editor renders only the visible end of the log: the turn's last messages.
    const output = workbench.page.locator('.panel .monaco-editor').first();
    await waitUntil(
      async () => /"sessionUpdate":"agent_message_chunk"[\s\S]*"stopReason":"end_turn"/.test((await output.textContent()) ?? ''),
      'the protocol log to show the turn',
    );
  } finally {
    // User settings are shared by every e2e test in this run.
    writeUserSettings(e2e.server.userDataDir, { ...baseUserSettings });
  }
});
