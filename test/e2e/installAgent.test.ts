// `Tandem: Install Agent…` and `Tandem: Check Agent` in real VS Code (code-server) with the installed
// .vsix, against an ACP registry served by a local HTTP server (never the internet; pointed at by the
// user setting tandem.registryUrl). The registry lists a per-platform binary: a tar.gz whose sha256
// the registry publishes, holding an executable that runs the bundled demo agent (a real ACP agent
// over stdio). The user installs it from the quick pick, clicks "Use It", talks to it in the panel,
// checks it (the report in a markdown preview), updates it to a newer registry version, rolls back
// and uninstalls it — each step visible in the user settings and on disk.
import assert from 'node:assert/strict';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { platformKey } from '../../src/agents/installPlan';
import { makeTarGz, sha256, startServer } from '../support/registryFixtures';
import type { TestServer } from '../support/registryFixtures';
import { baseUserSettings, writeUserSettings } from './harness/codeServer';
import { scenario, useE2e } from './harness/e2e';
import { repoRoot } from './harness/paths';
import { openQuickPick, openTandemView, runCommand, uiTimeout, waitUntil } from './harness/workbench';

const e2e = useE2e();
const NAME = 'Local Demo';

interface AgentSetting {
  command: string;
  args: string[];
}

function userSettings(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(e2e.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

function installed(): AgentSetting | undefined {
  return (userSettings()['tandem.agents'] as Record<string, AgentSetting> | undefined)?.[NAME];
}

/** Publishes `version` (and its archive) as the registry's only agent. */
function publish(server: TestServer, version: string): void {
  const key = platformKey({ platform: process.platform, arch: process.arch });
  assert.ok(key, `this machine (${process.platform}-${process.arch}) has a registry platform key`);
  // The "binary" is a script running the bundled demo agent; its version is in a comment so the
  // test can tell which download a setting points at.
  const script = `#!/bin/sh\n# ${NAME} ${version}\nexec node "${join(repoRoot, 'dist', 'demoAgent.js')}" "$@"\n`;
  const archive = makeTarGz([{ name: 'local-demo', content: script, mode: 0o755 }]);
  const file = `/local-demo-${version}.tar.gz`;
  server.routes.set(file, { body: archive, headers: { 'content-type': 'application/gzip' } });
  const registry = {
    version: '1.0.0',
    agents: [
      {
        id: 'local-demo',
        name: NAME,
        version,
        description: 'The demo agent, installed from a local registry',
        distribution: { binary: { [key]: { archive: server.url(file), cmd: './local-demo', sha256: sha256(archive) } } },
      },
    ],
    extensions: [],
  };
  server.routes.set('/registry.json', { body: JSON.stringify(registry), headers: { 'content-type': 'application/json' } });
}

/**
 * Picks the row of the open quick pick whose text contains `text` (a string matches any case, so the
 * action labels are matched with case-sensitive patterns: "Update to 1.1.0" must not match the row
 * before it that says "update to 1.1.0 available").
 */
async function pickRow(page: Page, text: string | RegExp): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: uiTimeout });
  await row.click();
}

/** The version named in the installed script's comment. */
function installedVersion(): string | undefined {
  const command = installed()?.command;
  if (!command || !existsSync(command)) return undefined;
  return /# Local Demo (\S+)/.exec(readFileSync(command, 'utf8'))?.[1];
}

/**
 * Opens Install Agent and picks the installed agent once its row says `state`. With `refresh`, the
 * registry is read again first (its index is cached for an hour); `state` must then be something only
 * the refreshed list says, so the pick cannot land on the cached list being replaced.
 */
async function openInstalled(page: Page, state: string, refresh = false): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: NAME }).first();
  // The Check Agent preview before it can take focus as it settles, closing the picker: opened again then.
  await openQuickPick(page, () => runCommand(page, 'Tandem: Install Agent'), row);
  if (refresh) await page.locator('.quick-input-widget a.codicon-refresh, .quick-input-widget .action-label.codicon-refresh').first().click();
  await pickRow(page, state);
}

scenario(
  e2e,
  'Install Agent: a registry download checked against its sha256 is added to tandem.agents, used, checked, updated, rolled back and uninstalled',
  async (s) => {
    const server = await startServer();
    try {
      publish(server, '1.0.0');
      writeUserSettings(e2e.server.userDataDir, { ...baseUserSettings, 'tandem.registryUrl': server.url('/registry.json') });
      const workspace = s.workspace({ files: { 'README.md': '# Install an agent\n' } });
      const { workbench } = await s.open(workspace);
      const page = workbench.page;

      // Install: the registry's agent, then its one action.
      await runCommand(page, 'Tandem: Install Agent');
      await pickRow(page, NAME);
      await pickRow(page, /Install 1\.0\.0/);
      const toast = page.locator('.notification-toast', { hasText: `${NAME} 1.0.0 is installed.` });
      await toast.waitFor({ timeout: 60_000 });
      assert.equal(server.hits.get('/local-demo-1.0.0.tar.gz'), 1, 'the archive was downloaded once');
      await toast.locator('.monaco-button', { hasText: 'Use It' }).click();
      await waitUntil(async () => userSettings()['tandem.defaultAgent'] === NAME, 'Local Demo to become the default agent');
      const first = installed();
      assert.ok(first, 'tandem.agents has the agent');
      assert.ok(
        first.command.startsWith(join(e2e.server.userDataDir)) || first.command.includes('globalStorage'),
        `the download lives in the extension's storage: ${first.command}`,
      );
      accessSync(first.command, constants.X_OK);
      assert.equal(installedVersion(), '1.0.0');

      // Used: the panel starts it like any configured agent, and it answers.
      const panel = await openTandemView(page);
      await panel.frame.locator('select[aria-label="Agent"]').selectOption(NAME);
      await panel.frame.locator('[role="status"]', { hasText: `${NAME} ready` }).waitFor({ timeout: 60_000 });
      await panel.send('help');
      assert.equal(await panel.waitForTurnEnd(1), 'end_turn');
      assert.match(await panel.threadText(), /keywords/);

      // Checked: started once, its initialize answer in a report.
      await runCommand(page, 'Tandem: Check Agent');
      await pickRow(page, NAME);
      const preview = page.frameLocator('iframe.webview.ready[src*="markdown-language-features"]').frameLocator('iframe#active-frame');
      await preview.getByText(/Protocol version: 1/).waitFor({ timeout: 60_000 });
      assert.match((await preview.locator('body').textContent()) ?? '', /Local Demo|tandem-demo/);

      // Updated: a newer version in the registry is offered on the installed agent.
      publish(server, '1.1.0');
      await openInstalled(page, 'update to 1.1.0 available', true);
      await pickRow(page, /Update to 1\.1\.0/);
      await page.locator('.notification-toast', { hasText: `${NAME} 1.1.0 is installed.` }).waitFor({ timeout: 60_000 });
      await waitUntil(async () => installedVersion() === '1.1.0', 'tandem.agents to point at 1.1.0');

      // Rolled back: the previous download is still there and the setting points at it again.
      await openInstalled(page, '1.1.0 installed');
      await pickRow(page, /Roll back to 1\.0\.0/);
      await waitUntil(async () => installedVersion() === '1.0.0', 'tandem.agents to point at 1.0.0 again');

      // Uninstalled, after a confirmation: gone from the settings (and the default) and from disk.
      const command = installed()!.command;
      await openInstalled(page, 'update to 1.1.0 available');
      await pickRow(page, /Uninstall/);
      await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Uninstall' }).click();
      await waitUntil(async () => installed() === undefined && userSettings()['tandem.defaultAgent'] === undefined, 'the agent to leave the user settings');
      await waitUntil(async () => !existsSync(command), 'the downloaded files to be deleted');
    } finally {
      await server.close();
      // User settings are shared by every e2e test in this run.
      writeUserSettings(e2e.server.userDataDir, { ...baseUserSettings });
    }
  },
  240_000,
);
