/**
 * Stop on a subagent, with the real claude-agent-acp 0.101 (from `.e2e/adapters`, installed by
 * scripts/setupE2e.sh) against the fake Anthropic server, through Tandem's real core: the
 * subagent runs a long command; `cancelChild` sends `session/cancel` with the child's session id
 * only; the agent reports the child idle with `stopReason: cancelled`, and the parent's turn goes
 * on to its own answer (end_turn), not cancelled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { agentEnv, scenario, startFakeAnthropic, SUBAGENT_STOP } from '../fixtures/fakeAnthropic/index';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { adapterSession, endAdapterSession, inScratch } from '../support/realAgentRuns';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

/** Runs the scenario; `prompted`: Stop while the subagent's command waits for permission (else after allowing it, while it runs). */
async function stopSubagent(prompted: boolean): Promise<void> {
  assert.ok(existsSync(CLAUDE_AGENT_ACP_0101), 'claude-agent-acp 0.101 is installed in .e2e/adapters (scripts/setupE2e.sh)');
  await inScratch('tandem-subagent-stop-', async (workspace, scratch) => {
    const fake = await startFakeAnthropic(scenario('subagentStop', workspace));
    const env = agentEnv(fake.url, scratch);
    writeDefaultMode(env);
    const log = new MemoryProtocolLog();
    const s = adapterSession(workspace, 'claude-agent-acp', CLAUDE_AGENT_ACP_0101, env, log);
    try {
      await s.session.start();
      const c = s.session.conversation;
      c.prompt(SUBAGENT_STOP.prompt);
      const end = Date.now() + 90_000;
      let child: string | undefined;
      const tools = (): ToolCallEntry[] => (c.snapshot().entries as Entry[]).filter((e): e is ToolCallEntry => e.kind === 'tool_call');
      while (Date.now() < end && child === undefined) {
        const pending = tools().find((e) => e.permission?.state.kind === 'pending');
        const allow = pending?.permission?.options.find((o) => o.kind === 'allow_once');
        if (!prompted && pending?.permission && allow) s.session.respondPermission(pending.permission.requestId, allow.optionId);
        const card = tools().find((e) => e.childSession?.state === (prompted ? 'requires_action' : 'running'));
        const command = tools().find(
          (e) => e.title === SUBAGENT_STOP.command && e.permission?.state.kind === (prompted ? 'pending' : 'selected') && e.status !== 'completed',
        );
        if (card && command) {
          assert.equal(command.parentId, card.id, "the long command is the subagent's, under its card");
          child = card.childSession!.sessionId;
          c.stopSubagent(child);
        }
        await tick();
      }
      assert.ok(child, `the subagent ran its command:\n${log.toString().slice(-3000)}`);
      await s.session.settled(c, 60_000);
      const card = tools().find((e) => e.childSession?.sessionId === child)!;
      assert.deepEqual(card.childSession, { sessionId: child, state: 'idle', stopReason: 'cancelled', cancel: true });
      assert.equal(card.status, 'cancelled');
      const command = tools().find((e) => e.title === SUBAGENT_STOP.command)!;
      assert.equal(command.parentId, card.id);
      // A prompt still waiting when the user stopped the subagent was answered cancelled, not left open.
      assert.equal(command.permission?.state.kind, prompted ? 'cancelled' : 'selected');
      assert.notEqual(command.status, 'completed', 'the 45 s command never finished');
      const entries = c.snapshot().entries as Entry[];
      const turnEnd = entries.find((e) => e.kind === 'turn_end');
      assert.equal(turnEnd?.kind === 'turn_end' ? turnEnd.stopReason : undefined, 'end_turn', 'the parent turn was not cancelled');
      assert.ok(entries.some((e) => e.kind === 'agent' && e.parentId === undefined && e.text.includes(SUBAGENT_STOP.after)));
      const cancels = log
        .toString()
        .split('\n')
        .filter((l) => l.includes(' out ') && l.includes('"session/cancel"'));
      assert.equal(cancels.length, 1);
      if (prompted) {
        // Answered cancelled before the agent reports the child stopped (Tandem answers it on Stop, and
        // claude-agent-acp also withdraws it on session/cancel), not left open until the turn's end.
        const lines = log.toString().split('\n');
        const answered = lines.findIndex((l) => l.includes(' out ') && l.includes('"outcome":{"outcome":"cancelled"}'));
        const idle = lines.findIndex((l) => l.includes(' in ') && l.includes('"stopReason":"cancelled"') && l.includes('subagent_update'));
        assert.ok(answered >= 0 && idle >= 0 && answered < idle, `the prompt answered cancelled (line ${answered}) before the child went idle (line ${idle})`);
      }
      assert.match(cancels[0], new RegExp(`"sessionId":"${child}"`));
    } finally {
      await endAdapterSession(s, fake);
    }
  });
}

test('claude-agent-acp 0.101: Stop on a running subagent cancels that child session only; the turn goes on', { timeout: 120_000 }, () => stopSubagent(false));

test('claude-agent-acp 0.101: Stop while the subagent waits for permission answers its prompt cancelled and stops it', { timeout: 120_000 }, () =>
  stopSubagent(true),
);
