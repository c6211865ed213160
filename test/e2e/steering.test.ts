// Steering in code-server with the real claude-agent-acp 0.101 (from .e2e/adapters, installed by
// scripts/setupE2e.sh) against the fake Anthropic server, whose first reply holds after its first
// words as a slow model would. The test plays the user: while the reply streams they type a
// correction and press Enter. The thread shows it as a user message marked steered, the turn goes on
// to the answer to it and ends once; the fake model's log shows a later request of that same turn
// carrying the steered text, and the wire (the agent run through test/fixtures/wireTap.js) shows one
// session/prompt, one _session/steering and never a session/cancel.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, promptTexts, scenario as anthropicScenario, startFakeAnthropic, STEER, userTextOf } from '../fixtures/fakeAnthropic/index';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { scenario, useE2e } from './harness/e2e';
import { repoRoot } from './harness/paths';
import { changedEnv, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();
const WIRE_TAP = join(repoRoot, 'test', 'fixtures', 'wireTap.js');

/** The methods the client sent the agent, in order. */
function sentMethods(wireLog: string): string[] {
  return readFileSync(wireLog, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { method?: string }).method ?? '(answer)');
}

scenario(
  e2e,
  'the real claude-agent-acp 0.101: Enter during a streaming reply steers the message into the running turn — it reaches the model in that turn, with no cancel',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-steer-e2e-'));
    const wireLog = join(scratch, 'wire.log');
    writeFileSync(wireLog, '');
    const workspace = s.workspace({});
    const fake = await startFakeAnthropic(anthropicScenario('steer', workspace.dir));
    try {
      const env = agentEnv(fake.url, scratch);
      writeDefaultMode(env);
      const config: AgentConfig = { command: process.execPath, args: [WIRE_TAP, wireLog, CLAUDE_AGENT_ACP_0101], env: changedEnv(env) };
      selectAgent(workspace.dir, 'Claude Agent 0.101 (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send(STEER.prompt);
      // The reply streams its first words, then holds (a slow model): the turn is running.
      await chat.entries('agent').filter({ hasText: STEER.first }).waitFor({ timeout: 90_000 });
      await chat.composer.waitFor();
      // The composer says what Enter does now.
      assert.match((await chat.composer.getAttribute('placeholder')) ?? '', /^Enter steers the running turn/);
      const requestsBefore = fake.mainLoopRequests().length;
      await chat.composer.fill(STEER.steer);
      await chat.composer.press('Enter');

      const steered = chat.frame.locator('[role="article"][data-entry-kind="user"][data-steered="true"]');
      await steered.waitFor({ timeout: 30_000 });
      assert.match((await steered.textContent()) ?? '', /steered into the turn/);
      assert.match((await steered.textContent()) ?? '', /Use the existing retry helper/);
      assert.equal(await chat.frame.locator('[role="article"][data-queued="true"]').count(), 0, 'nothing was queued');
      // The turn goes on to the answer to the steer, and ends once.
      assert.equal(await chat.waitForTurnEnd(1, 60_000), 'end_turn');
      await chat.entries('agent').filter({ hasText: STEER.answer }).waitFor({ timeout: 10_000 });
      assert.equal(await chat.stopReasons().count(), 1, 'one turn');
      assert.equal(await chat.entries('agent').filter({ hasText: STEER.unsteered }).count(), 0, 'the held reply was cut short');
      const users = chat.frame.locator('[role="log"] [role="article"][data-entry-kind="user"]');
      assert.equal(await users.count(), 2);
      assert.equal(await users.first().getAttribute('data-steered'), null, 'the turn’s own prompt is not steered');

      // The model: a later request of the same conversation carries the steered text after the prompt.
      const requests = fake.mainLoopRequests();
      assert.ok(!userTextOf(requests[0]).includes(STEER.marker));
      const later = requests.slice(Math.max(1, requestsBefore)).find((r) => userTextOf(r).includes(STEER.steer));
      assert.ok(later, `a later model request carries the steer:\n${requests.map((r) => promptTexts(r.body).join(' | ')).join('\n')}`);
      const texts = promptTexts(later.body);
      assert.ok(texts.indexOf(STEER.prompt) >= 0 && texts.findIndex((t) => t.includes(STEER.steer)) > texts.indexOf(STEER.prompt));
      // The wire: the same turn (one session/prompt), steered, never cancelled.
      const methods = sentMethods(wireLog);
      assert.equal(methods.filter((m) => m === 'session/prompt').length, 1, methods.join(', '));
      assert.equal(methods.filter((m) => m === '_session/steering').length, 1, methods.join(', '));
      assert.ok(!methods.includes('session/cancel'), methods.join(', '));
      assert.equal(await chat.entries('error').count(), 0);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);
