/**
 * Steering with the real November 2026 adapters (from `.e2e/adapters`, installed by
 * scripts/setupE2e.sh) through Tandem's real core: claude-agent-acp 0.101 against the fake Anthropic
 * server, codex-acp 2.6 against the fake Responses API. Each advertises `_meta.steering.supported`;
 * a prompt written while its reply still streams goes as `_session/steering` (answered `injected`),
 * never as a second `session/prompt` nor after a `session/cancel`; the model's next request of the
 * same turn carries it, and the turn ends once, with the answer to the steered message after the
 * steered entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, promptTexts, scenario, startFakeAnthropic, STEER, userTextOf } from '../fixtures/fakeAnthropic/index';
import { codexAgentEnv, startFakeResponses } from '../fixtures/fakeOpenAi/responses';
import type { Conversation } from '../../src/conversation/conversation';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { Entry } from '../../src/protocol/messages';
import { adapterSession, endAdapterSession, inScratch } from '../support/realAgentRuns';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { repoRoot } from '../support/scriptedSession';

const CODEX_ACP_26 = join(repoRoot, '.e2e', 'adapters', 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

test(
  'the real claude-agent-acp 0.101: a message steered into a streaming reply reaches the model in the same turn, with no cancel',
  { timeout: 150_000 },
  async () => {
    assert.ok(existsSync(CLAUDE_AGENT_ACP_0101), 'claude-agent-acp 0.101 is installed in .e2e/adapters (scripts/setupE2e.sh)');
    await inScratch('tandem-steer-', async (workspace, scratch) => {
      const fake = await startFakeAnthropic(scenario('steer', workspace));
      const env = agentEnv(fake.url, scratch);
      writeDefaultMode(env);
      const log = new MemoryProtocolLog();
      const s = adapterSession(workspace, 'claude-agent-acp', CLAUDE_AGENT_ACP_0101, env, log);
      try {
        await s.session.start();
        const c = s.session.conversation;
        const entries = await promptUntilHeldReplyStreams(c, log);
        assert.equal(c.status.kind, 'running');
        const steeredAt = fake.mainLoopRequests().length;
        c.prompt(STEER.steer);
        await s.session.settled(c, 60_000);

        assertSteeredOnce(c, log);
        // The model: the reply was cut short; a later request of the same conversation carries the steer
        // after the first prompt (the same turn: no second prompt was sent).
        const requests = fake.mainLoopRequests();
        assert.ok(!userTextOf(requests[0]).includes(STEER.marker), 'the first request had no steer yet');
        const later = requests.slice(Math.max(1, steeredAt)).find((r) => userTextOf(r).includes(STEER.steer));
        assert.ok(later, `a later model request carries the steered text:\n${requests.map((r) => promptTexts(r.body).join(' | ')).join('\n')}`);
        const texts = promptTexts(later.body);
        assert.ok(texts.indexOf(STEER.prompt) >= 0 && texts.findIndex((t) => t.includes(STEER.steer)) > texts.indexOf(STEER.prompt));

        assert.ok(!entries().some((e) => e.kind === 'agent' && e.text.includes(STEER.unsteered)), 'the held reply was cut short');
      } finally {
        await endAdapterSession(s, fake);
      }
    });
  },
);

/** Sends the first prompt to an agent that advertised steering and waits until the reply the fake model holds starts streaming. */
async function promptUntilHeldReplyStreams(c: Conversation, log: MemoryProtocolLog): Promise<() => Entry[]> {
  assert.equal(c.snapshot().promptCapabilities?.steering, true, 'the agent advertised steering');
  c.prompt(STEER.prompt);
  const entries = (): Entry[] => c.snapshot().entries as Entry[];
  const end = Date.now() + 90_000;
  while (Date.now() < end && !entries().some((e) => e.kind === 'agent' && e.text.includes(STEER.first))) await tick();
  assert.ok(
    entries().some((e) => e.kind === 'agent' && e.text.includes(STEER.first)),
    `the held reply started streaming:\n${log.toString().slice(-3000)}`,
  );
  return entries;
}

/** What went over the wire and what the thread shows after a steer, the same for every adapter. */
function assertSteeredOnce(c: Conversation, log: MemoryProtocolLog): void {
  const lines = log.toString().split('\n');
  const out = lines.filter((l) => l.includes(' out '));
  assert.equal(out.filter((l) => l.includes('"session/prompt"')).length, 1, 'one session/prompt: the steer was no prompt of its own');
  assert.equal(out.filter((l) => l.includes('"_session/steering"')).length, 1);
  assert.equal(out.filter((l) => l.includes('"session/cancel"')).length, 0, 'no session/cancel');
  assert.ok(
    lines.some((l) => l.includes(' in ') && l.includes('"outcome":"injected"')),
    'the agent answered injected',
  );
  const shown = c.snapshot().entries as Entry[];
  assert.deepEqual(
    shown.filter((e) => e.kind === 'user').map((u) => (u.kind === 'user' ? [u.text, u.steered] : [])),
    [
      [STEER.prompt, undefined],
      [STEER.steer, true],
    ],
  );
  const steeredIndex = shown.findIndex((e) => e.kind === 'user' && e.steered === true);
  const answerIndex = shown.findIndex((e) => e.kind === 'agent' && e.text.includes(STEER.answer));
  assert.ok(answerIndex > steeredIndex, `the answer to the steer comes after it:\n${JSON.stringify(shown, null, 1).slice(0, 3000)}`);
  assert.deepEqual(
    shown.filter((e) => e.kind === 'turn_end').map((e) => (e.kind === 'turn_end' ? e.stopReason : '')),
    ['end_turn'],
  );
  assert.equal(c.snapshot().queue?.items.length ?? 0, 0, 'nothing was left queued');
}

test('the real codex-acp 2.6: a message steered into a streaming reply reaches the model in the same turn, with no cancel', { timeout: 150_000 }, async () => {
  assert.ok(existsSync(CODEX_ACP_26), 'codex-acp 2.6 is installed in .e2e/adapters (scripts/setupE2e.sh)');
  await inScratch('tandem-steer-codex-', async (workspace, scratch) => {
    // The first piece of the reply (40 characters) is the held reply's opening words; then it holds.
    const fake = await startFakeResponses([{ text: `${STEER.first.padEnd(40, ' ')}${STEER.unsteered}`, holdMs: 45_000 }], {
      marker: STEER.marker,
      step: { text: STEER.answer },
    });
    const log = new MemoryProtocolLog();
    const s = adapterSession(workspace, 'codex-acp', CODEX_ACP_26, codexAgentEnv(fake.url, scratch), log);
    try {
      await s.session.start();
      const c = s.session.conversation;
      await promptUntilHeldReplyStreams(c, log);
      const before = fake.requests.length;
      c.prompt(STEER.steer);
      await s.session.settled(c, 60_000);
      assertSteeredOnce(c, log);
      // The model: a later request of the same conversation carries the steer after the first prompt.
      const later = fake.requests.slice(before).find((r) => JSON.stringify(r.body).includes(STEER.steer));
      assert.ok(later, 'a later model request carries the steered text');
      const input = JSON.stringify((later.body as { input?: unknown }).input ?? []);
      assert.ok(input.indexOf(STEER.prompt) >= 0 && input.indexOf(STEER.steer) > input.indexOf(STEER.prompt));
    } finally {
      await endAdapterSession(s, fake);
    }
  });
});
