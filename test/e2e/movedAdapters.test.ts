// Entries still running a @zed-industries/* adapter (issue 31): in real VS Code (code-server) with the
// installed .vsix, Tandem tells each such entry once, and its Update rewrites settings.json — the
// user's for a user entry, the workspace's for a workspace entry — to the @agentclientprotocol
// package, keeping the entry's other fields. An entry it cannot rewrite (a file on another machine
// over ssh) is named but not told again when the settings change. No agent is started (the demo is
// the default).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseUserSettings, writeUserSettings } from './harness/codeServer';
import { scenario, useE2e } from './harness/e2e';
import { uiTimeout, waitUntil } from './harness/workbench';

const e2e = useE2e();

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

scenario(e2e, 'an old @zed-industries/codex-acp entry gets the moved notice once, and Update rewrites settings.json in its scope', async (s) => {
  // globalState outlives a scenario's attempt: fresh names each time, so "once" is this attempt's.
  const tag = Date.now().toString(36);
  const codex = `Old Codex ${tag}`;
  const claude = `Old Claude ${tag}`;
  const remote = `Remote ${tag}`;
  const userFile = join(e2e.server.userDataDir, 'User', 'settings.json');
  const remoteEntry = { command: 'ssh', args: ['build-box', '/opt/node_modules/@zed-industries/codex-acp/dist/index.js'] };
  const userAgents = {
    [codex]: { command: 'npx', args: ['-y', '@zed-industries/codex-acp@0.16.0'], env: { CODEX_HOME: '/tmp/codex-home' } },
    [remote]: remoteEntry,
    Gemini: { command: 'gemini', args: ['--acp'] },
  };
  try {
    writeUserSettings(e2e.server.userDataDir, { 'tandem.agents': userAgents, 'tandem.defaultAgent': 'Tandem Demo' });
    const workspace = s.workspace({
      files: { 'README.md': '# Moved adapters\n' },
      settings: { 'tandem.agents': { [claude]: { command: 'node', args: ['/opt/ai/node_modules/@zed-industries/claude-agent-acp/dist/index.js'] } } },
    });
    // Opening the panel loads Tandem's host, which looks at the entries: one notice names all three.
    const { workbench, chat } = await s.open(workspace);
    const page = workbench.page;
    const moved = page.locator('.notification-toast', { hasText: 'agents run adapters that moved' });
    await moved.waitFor({ timeout: uiTimeout });
    const text = (await moved.textContent()) ?? '';
    assert.ok(text.includes('3 agents run adapters that moved:'), text);
    assert.ok(text.includes(`"${codex}" (@zed-industries/codex-acp → @agentclientprotocol/codex-acp)`), text);
    assert.ok(text.includes(`"${claude}" (@zed-industries/claude-agent-acp → @agentclientprotocol/claude-agent-acp)`), text);
    assert.ok(text.includes(`"${remote}" (@zed-industries/codex-acp → @agentclientprotocol/codex-acp)`), text);
    await moved.locator('.monaco-button', { hasText: 'Update' }).click();

    // The user's entry: rewritten in the user's settings.json, its other fields kept.
    await waitUntil(async () => {
      const agents = readJson(userFile)['tandem.agents'] as Record<string, { args?: string[] }>;
      return agents[codex]?.args?.[1] === '@agentclientprotocol/codex-acp';
    }, 'the user settings to run the new codex-acp');
    const agents = readJson(userFile)['tandem.agents'] as Record<string, unknown>;
    assert.deepEqual(
      agents[codex],
      { command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], env: { CODEX_HOME: '/tmp/codex-home' } },
      'other fields kept',
    );
    assert.deepEqual(agents.Gemini, userAgents.Gemini, 'other entries untouched');
    assert.deepEqual(agents[remote], remoteEntry, 'a file on another machine is not rewritten to a local npx');
    // The workspace's entry (a local install's file): rewritten in .vscode/settings.json, not copied to the user's.
    const workspaceFile = workspace.path('.vscode/settings.json');
    await waitUntil(
      async () => JSON.stringify(readJson(workspaceFile)['tandem.agents']).includes('@agentclientprotocol/claude-agent-acp'),
      'the workspace settings to run the new claude-agent-acp',
    );
    assert.deepEqual((readJson(workspaceFile)['tandem.agents'] as Record<string, unknown>)[claude], {
      command: 'npx',
      args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    });
    assert.equal(Object.hasOwn(readJson(userFile)['tandem.agents'] as object, claude), false, 'not written into the user settings');
    await page.locator('.notification-toast', { hasText: `Updated "${codex}", "${claude}"` }).waitFor({ timeout: uiTimeout });
    await page.locator('.notification-toast', { hasText: `Not updated: "${remote}"` }).waitFor({ timeout: uiTimeout });

    // Both rewrites changed tandem.agents (the notice looks again on every change): the entry still
    // running the old adapter was told once and is not told again.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(await page.locator('.notification-toast', { hasText: 'run adapters that moved' }).count(), 0, 'no second notice');
    assert.equal(await page.locator('.notification-toast', { hasText: `The agent "${remote}" runs` }).count(), 0, 'not told alone either');

    // No agent was started for any of this: the panel still offers the demo.
    assert.equal(await chat.frame.locator('select[aria-label="Agent"]').inputValue(), 'Tandem Demo');
  } finally {
    // User settings are shared by every e2e test in this run.
    writeUserSettings(e2e.server.userDataDir, { ...baseUserSettings });
  }
});
