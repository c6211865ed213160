/**
 * A subagent's tab stays live (src/thread/markdown/subagentLive.ts): the recorded stream of the real
 * claude-agent-acp 0.101 (claude-agent-acp-0.101-subagents.json) plays through Tandem's SessionRouter
 * into a real Thread whose changes the document listens to, as the editor's tab does through the
 * conversation. Its text must follow the child's work, ignore the parent's own, end with the child's
 * final state, and offer Stop only while the child works and the agent lets it be cancelled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import type { SessionRouter } from '../../src/runtime/sessionRouter';
import type { Thread } from '../../src/thread/thread';
import { childCardId } from '../../src/thread/childSessions';
import { SubagentLive } from '../../src/thread/markdown/subagentLive';
import type { ConversationChange } from '../../src/protocol/messages';
import type { RecordedPayload } from '../fixtures/agentPayloads/recordPayloads';
import { routedThread, SUBAGENT_CWD, subagentPayloads } from '../support/subagentRig';

const CWD = SUBAGENT_CWD;
const payloads = subagentPayloads;

interface Rig {
  thread: Thread;
  router: SessionRouter;
  /** A document of `cardId` listening to the thread's changes, as the conversation forwards them. */
  live(cardId: string, delayMs: number): SubagentLive;
  /** The entry id of child session `sessionId`'s card (what the panel's Open names). */
  card(sessionId: string): string;
  /** Plays one payload as the agent sent it. */
  play(p: RecordedPayload): Promise<void>;
}

function rig(): Rig {
  const listeners = new Set<(changes: readonly ConversationChange[]) => void>();
  const { thread, router } = routedThread({ emit: (changes) => listeners.forEach((l) => l(changes)) });
  const handlers = router.handlers();
  return {
    thread,
    router,
    live: (cardId, delayMs) =>
      new SubagentLive(cardId, {
        source: () => ({ title: 'The conversation', agentName: 'Claude', createdAt: 0, entries: thread.storedEntries(), terminals: {}, cwd: CWD }),
        changes: (listener) => {
          listeners.add(listener);
          return { dispose: () => listeners.delete(listener) };
        },
        secrets: () => [],
        delayMs,
      }),
    card: (sessionId) => thread.entries().find((e) => e.kind === 'tool_call' && e.toolCallId === childCardId(sessionId))?.id ?? 'none',
    play: async (p) => {
      if (p.method === 'session/update') router.update(p.params.sessionId as string, p.params.update as Record<string, unknown>);
      else await handlers.requestPermission(p.params as unknown as acp.RequestPermissionRequest, new AbortController().signal);
    },
  };
}

const kindOf = (p: RecordedPayload): string | undefined => (p.params.update as { sessionUpdate?: string } | undefined)?.sessionUpdate;
/** The payload is about the child: its own update, or the parent telling of it. */
const aboutChild = (p: RecordedPayload): boolean => p.params.sessionId === '<child-1>' || kindOf(p) === 'subagent_update' || kindOf(p) === 'session_message';

test('the tab follows the child as the recorded stream plays, ignores the parent’s own work, and ends with its final state', async () => {
  const r = rig();
  const all = payloads();
  const first = all.findIndex((p) => kindOf(p) === 'subagent_update');
  for (const p of all.slice(0, first + 1)) await r.play(p);
  // Opened as soon as the card exists (a long delay: only flush() renders, after each payload).
  const live = r.live(r.card('<child-1>'), 60_000);
  assert.equal(live.exists, true);
  assert.match(live.text, /^# Subagent: Check the notes\n/);
  assert.match(live.text, /- \*\*State:\*\* Running/);
  assert.equal(live.stoppable, true);
  let fired = 0;
  live.onDidChange(() => fired++);
  const texts = [live.text];
  const firedOn: RecordedPayload[] = [];
  for (const p of all.slice(first + 1)) {
    await r.play(p);
    const before = fired;
    live.flush();
    if (fired > before) {
      firedOn.push(p);
      texts.push(live.text);
    }
  }
  assert.ok(texts.length >= 5, `the tab changed with the child's work (${texts.length} versions)`);
  assert.deepEqual(firedOn.filter((p) => !aboutChild(p)).map(kindOf), [], 'never re-rendered for the parent’s own updates');
  // The stream is seen as it comes: the child's first words before its answer, its task once sent.
  const reading = texts.findIndex((t) => t.includes('Reading the notes.'));
  const answer = texts.findIndex((t) => t.includes('The notes say status: draft.'));
  assert.ok(reading > 0 && answer > reading, `its first words (version ${reading}) before its answer (version ${answer})`);
  assert.ok(
    texts.slice(reading, -1).every((t) => /State:\*\* Running/.test(t)),
    'running until the agent says it is idle',
  );
  assert.match(texts[reading], /## Task\n\nRead notes\.txt and report its status\./);
  const last = live.text;
  assert.match(last, /- \*\*State:\*\* Finished \(end_turn\)/);
  assert.match(last, /echo hello-from-native-bash/);
  assert.doesNotMatch(last, /Let a subagent look first|Done: the subagent/);
  assert.equal(live.stoppable, false, 'nothing to stop once it is idle');
  live.dispose();
});

test('a burst of changes is one render after the delay, not one per change', async () => {
  const r = rig();
  const all = payloads();
  const first = all.findIndex((p) => kindOf(p) === 'subagent_update');
  for (const p of all.slice(0, first + 1)) await r.play(p);
  const live = r.live(r.card('<child-1>'), 40);
  let fired = 0;
  live.onDidChange(() => fired++);
  // The rest of the stream at once (its permission answer resolves at once: no timer runs meanwhile).
  for (const p of all.slice(first + 1)) await r.play(p);
  assert.equal(fired, 0, 'nothing rendered before the delay');
  assert.match(live.text, /State:\*\* Running/);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(fired, 1);
  assert.match(live.text, /The notes say status: draft\./);
  assert.match(live.text, /State:\*\* Finished \(end_turn\)/);
  live.dispose();
  // Disposed: later changes render nothing.
  r.router.update('<child-1>', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'After.' } });
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(fired, 1);
  assert.doesNotMatch(live.text, /After\./);
});

test('Stop is offered only while the child works and the agent lets it be cancelled', () => {
  const r = rig();
  const update = (u: Record<string, unknown>) => r.router.update('<parent>', { sessionUpdate: 'subagent_update', ...u });
  update({ sessionId: 'c1', title: 'Free', capabilities: { cancel: {} }, state: { state: 'running' } });
  update({ sessionId: 'c2', title: 'Bound', capabilities: {}, state: { state: 'running' } });
  const free = r.live(r.card('c1'), 60_000);
  const bound = r.live(r.card('c2'), 60_000);
  assert.equal(free.stoppable, true);
  assert.equal(bound.stoppable, false, 'no capabilities.cancel: no Stop');
  const seen: boolean[] = [];
  free.onDidChange(() => seen.push(free.stoppable));
  update({ sessionId: 'c1', state: { state: 'requires_action' } });
  free.flush();
  update({ sessionId: 'c1', state: { state: 'idle', stopReason: 'cancelled' } });
  free.flush();
  assert.deepEqual(seen, [true, false]);
  assert.match(free.text, /State:\*\* Stopped \(cancelled\)/);
  update({ sessionId: 'c2', state: { state: 'requires_action' } });
  bound.flush();
  assert.equal(bound.stoppable, false);
  assert.match(bound.text, /State:\*\* Waiting for you/);
  // No such card (or not a subagent's): nothing to open.
  assert.equal(r.live('nope', 10).exists, false);
  free.dispose();
  bound.dispose();
});
