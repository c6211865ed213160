// Workspace trust (issue 2): in a workspace opened in Restricted Mode, Tandem says why it does not
// start agents and spawns none. Needs its own code-server with workspace trust ON (the shared one
// runs with trust disabled); it is started and stopped here. Trusting the workspace afterwards
// starts the agent, which shows the check above could have failed.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { scenario, useE2e } from './harness/e2e';
import { openTandemView, openWorkbench, uiTimeout, waitUntil } from './harness/workbench';
import type { Workbench } from './harness/workbench';
import { agentSettings, scriptedAgent, say } from './harness/workspace';
import type { ScriptedAgent } from './harness/workspace';

// In restricted mode VS Code ignores workspace values of tandem.agents (a restricted setting), so
// the agent is configured in the user settings: a Tandem that ignored trust would start it.
const agent: ScriptedAgent = scriptedAgent({ turns: [{ steps: [say('trusted now: ${prompt}')], stopReason: 'end_turn' }] });
const e2e = useE2e({ ownServer: { workspaceTrust: true, userSettings: agentSettings('Scripted', agent.config) } });
after(() => rmSync(agent.dir, { recursive: true, force: true }));

/** VS Code's startup question "Do you trust the authors…?": answered with "No" (Restricted Mode). */
async function declineTrust(page: Page): Promise<void> {
  const no = page.getByRole('button', { name: /No, I don.t trust the authors/i });
  await no.waitFor({ state: 'visible', timeout: uiTimeout });
  await no.click();
  await no.waitFor({ state: 'hidden', timeout: uiTimeout });
}

scenario(
  e2e,
  'an untrusted workspace: the panel says so and no agent process is spawned',
  async (s) => {
    const current = agent;
    // The helper creates the log empty; the agent creates it again on the first message it receives.
    unlinkSync(current.logFile);
    const workspace = s.workspace({ files: { 'README.md': '# Untrusted\n' } });
    let workbench: Workbench | undefined;
    try {
      workbench = await openWorkbench(e2e.browser, e2e.server, workspace.dir);
      const page = workbench.page;
      await declineTrust(page);
      // The workbench itself is in Restricted Mode.
      await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ state: 'visible', timeout: uiTimeout });

      const chat = await openTandemView(page);
      await waitUntil(async () => /not trusted/i.test((await chat.frame.locator('body').textContent()) ?? ''), 'the panel to say the workspace is not trusted');
      const body = (await chat.frame.locator('body').textContent()) ?? '';
      assert.match(body, /Workspace not trusted/);
      assert.match(body, /does not start agents here/);
      assert.equal(await chat.button('Send').isEnabled(), false, 'no prompt can be sent');
      // No worktrees either (git is not run here), and the button says why.
      const inWorktree = chat.frame.getByRole('button', { name: 'Conversation in a new worktree' });
      assert.equal(await inWorktree.getAttribute('aria-disabled'), 'true');
      assert.match((await inWorktree.getAttribute('title')) ?? '', /not trusted, so Tandem does not run git/);
      // Give a wrongly started agent time to show up before concluding none was spawned.
      await page.waitForTimeout(2000);
      assert.equal(existsSync(current.logFile), false, 'the agent process was never spawned (it writes SCRIPTED_AGENT_LOG on its first message)');

      // Trusting the workspace starts the agent: the same panel then works.
      await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().click();
      const trust = page.getByRole('button', { name: /^Trust( Folder)?$/ }).first();
      await trust.waitFor({ state: 'visible', timeout: uiTimeout });
      await trust.click();
      await waitUntil(async () => existsSync(current.logFile), 'the agent to start once the workspace is trusted');
      // Trusted now, but this folder is no git repository: still no worktrees, for that reason.
      await waitUntil(async () => /not in a git repository/.test((await inWorktree.getAttribute('title')) ?? ''), 'the reason to change');
      await chat.send('hello');
      assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
      assert.match(await chat.threadText(), /trusted now: hello/);
    } catch (err) {
      if (workbench) {
        const shot = join(mkdtempSync(join(tmpdir(), 'tandem-e2e-trust-failure-')), 'workbench.png');
        await workbench.page.screenshot({ path: shot }).catch(() => {});
        console.error(`[e2e] untrusted: screenshot in ${shot}; code-server log ${e2e.server.logFile}`);
      }
      throw err;
    } finally {
      await workbench?.close().catch(() => {});
    }
  },
  120_000,
);
