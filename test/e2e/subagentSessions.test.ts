// A subagent as a child session (ACP subagents RFD), in code-server with the real claude-agent-acp
// 0.101 (from .e2e/adapters, installed by scripts/setupE2e.sh) against the fake Anthropic server.
// Tandem declares `clientCapabilities.subagents`, so the agent runs its Agent tool's subagent as a
// child session: the test plays the user, who allows the subagent's command, sees the subagent's own
// thread nested in its card, opens the subagent's own tab while it works and stops only the
// subagent with that tab's Stop (its title bar); the tab then says it stopped, and the
// conversation's turn goes on to the agent's answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, scenario as anthropicScenario, startFakeAnthropic, SUBAGENT_STOP } from '../fixtures/fakeAnthropic/index';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { scenario, useE2e } from './harness/e2e';
import { waitUntil } from './harness/workbench';
import { changedEnv, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

scenario(
  e2e,
  'the real claude-agent-acp 0.101: a subagent is a child session nested in its card, with its own live tab whose Stop stops only the subagent',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-subagent-session-e2e-'));
    const workspace = s.workspace({});
    const fake = await startFakeAnthropic(anthropicScenario('subagentStop', workspace.dir));
    try {
      const env = agentEnv(fake.url, scratch);
      // Claude Code's auto mode asks the model whether to run the Agent call, which a fake cannot answer.
      writeDefaultMode(env);
      const config: AgentConfig = { command: process.execPath, args: [CLAUDE_AGENT_ACP_0101], env: changedEnv(env) };
      selectAgent(workspace.dir, 'Claude Agent 0.101 (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send(SUBAGENT_STOP.prompt);

      const card = chat.frame.locator('.thread-page > [role="article"][data-child-session]');
      const summary = card.locator('.subagent-summary');
      const allow = chat.frame.locator('[role="group"][data-permission-state="pending"] button[data-option-kind="allow_once"]');
      // The subagent asks to run its command (its prompt shows in its card, the state says it waits
      // for the user); allowed, it runs.
      let allowed = false;
      await waitUntil(
        async () => {
          if ((await allow.count()) > 0) {
            assert.equal(await card.getAttribute('data-child-state'), 'requires_action');
            await allow.first().click({ timeout: 2000 });
            allowed = true;
          }
          return allowed && (await allow.count()) === 0 && (await card.getAttribute('data-child-state')) === 'running';
        },
        "the subagent's command allowed and running",
        120_000,
      );
      assert.match((await summary.textContent()) ?? '', /^1 step · node -e/);
      assert.equal(await card.locator(':scope > .tool-header .tool-title').textContent(), 'Subagent: Wait for the build');
      // Its own thread: its message and its command, inside the card.
      await card.locator('.subagent-toggle').click();
      assert.match((await card.locator('.subagent-children').textContent()) ?? '', /Waiting for the build\./);
      assert.equal(await card.locator('.subagent-children [data-entry-kind="tool_call"] .tool-title').first().textContent(), SUBAGENT_STOP.command);

      const stop = card.locator(':scope > .tool-header .subagent-stop');
      assert.equal(await stop.getAttribute('aria-label'), 'Stop Subagent: Wait for the build');
      // Open while it works: its history in an editor tab of its own, read-only and live.
      await card.locator(':scope > .tool-header .subagent-open').click();
      const tab = chat.page.locator('.tabs-container .tab', { hasText: 'subagent-wait-for-the-build.md' });
      await tab.waitFor({ timeout: 30_000 });
      const group = chat.page.locator('.editor-group-container.active');
      const editor = group.locator('.monaco-editor .view-lines').first();
      const shown = async () => ((await editor.textContent()) ?? '').replace(/\u00a0/g, ' ');
      await waitUntil(async () => /State:\*\* Running/.test(await shown()), 'the running subagent in its tab', 30_000);
      const running = await shown();
      assert.match(running, /# Subagent: Wait for the build/);
      assert.match(running, /Wait for the build to finish\./);
      assert.match(running, /Waiting for the build\./);
      // The tab's own Stop, in its title bar while the subagent works.
      const tabStop = group.locator('.editor-actions .action-label[aria-label^="Stop Subagent"]');
      await tabStop.waitFor({ timeout: 10_000 });
      const stoppedAt = Date.now();
      await tabStop.click();
      await waitUntil(async () => (await card.getAttribute('data-child-state')) === 'idle', 'the subagent idle after Stop', 30_000);
      assert.ok(Date.now() - stoppedAt < 30_000, 'stopped long before its 45 s command would have finished');
      assert.equal(await card.getAttribute('data-status'), 'cancelled');
      assert.equal(await stop.isVisible(), false);
      // The tab follows: it says the subagent stopped, and its Stop goes.
      await waitUntil(async () => /State:\*\* Stopped \(cancelled\)/.test(await shown()), 'the tab showing the subagent stopped', 30_000);
      await waitUntil(async () => (await tabStop.count()) === 0, "the tab's Stop gone once the subagent is idle", 10_000);
      // The conversation's turn was not cancelled: the agent answers and ends it.
      assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
      const answers = chat.frame.locator('.thread-page > [data-entry-kind="agent"]');
      assert.ok((await answers.allTextContents()).some((t) => t.includes(SUBAGENT_STOP.after)));
      assert.doesNotMatch(await shown(), /works on its own/, "the parent's own answer is not the subagent's");
      assert.equal(await chat.entries('error').count(), 0);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);
