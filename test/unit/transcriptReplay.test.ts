/**
 * Record → export → replay, through Tandem's real core (ConversationManager, AgentRuntime, the
 * transport tap): a conversation with the scripted agent process is recorded as the extension
 * records it, exported as a transcript (secrets masked), and replayed by the bundled replay agent
 * (dist/replayAgent.js) in another folder: the same cards appear. A client that does something
 * else than the recording is told where, and the conversation shows it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTranscript } from '../../src/inspector/transcript';
import type { Entry, ToolCallEntry } from '../../src/protocol/entryViews';
import { scriptedSession, type ScriptedSession } from '../support/scriptedSession';
import { cardShapes, recorder, replaySession } from '../support/transcripts';

const SECRET = 'sk-ant-tandem-secret-0123456789';

/** A turn with a bit of everything: thought, plan, text, a tool call with a diff and a permission. */
function script(cwd: string) {
  return {
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking about ${prompt}' } } },
          { update: { sessionUpdate: 'plan', entries: [{ content: 'Edit the notes', priority: 'high', status: 'in_progress' }] } },
          { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `I will edit notes.txt (key ${SECRET}).` } } },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'edit-1',
              title: `Edit ${join(cwd, 'notes.txt')}`,
              kind: 'edit',
              status: 'pending',
              locations: [{ path: join(cwd, 'notes.txt'), line: 1 }],
            },
          },
          {
            permission: {
              toolCall: { toolCallId: 'edit-1' },
              options: [
                { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'edit-1',
              status: 'completed',
              content: [{ type: 'diff', path: join(cwd, 'notes.txt'), oldText: 'draft\n', newText: 'done\n' }],
            },
          },
          { update: { sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'Run the check', kind: 'execute', status: 'in_progress' } },
          { terminal: { command: 'sh', args: ['-c', 'echo recorded-output; touch MARKER; exit 3'] }, toolCallId: 'run-1' },
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'completed' } },
          { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } } },
        ],
      },
      { steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Second answer.' } } }] },
    ],
  };
}

function pendingPermission(s: ScriptedSession): ToolCallEntry | undefined {
  return (s.session.conversation.snapshot().entries as Entry[]).find(
    (e): e is ToolCallEntry => e.kind === 'tool_call' && e.permission?.state.kind === 'pending',
  );
}

/** Sends a prompt and answers its permission prompt with `optionId`, like a user. */
async function promptAnswering(s: ScriptedSession, text: string, optionId: string): Promise<void> {
  s.session.conversation.prompt(text);
  const answering = (async () => {
    const end = Date.now() + 20_000;
    while (Date.now() < end && !s.session.conversation.internals.turns.busy) await new Promise((r) => setTimeout(r, 5));
    while (Date.now() < end && s.session.conversation.internals.turns.busy) {
      const call = pendingPermission(s);
      if (call?.permission) s.session.respondPermission(call.permission.requestId, optionId);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  await answering;
  await s.session.settled();
}

test('a conversation recorded through the core replays to the same cards in another folder', { timeout: 60_000 }, async () => {
  const base = mkdtempSync(join(tmpdir(), 'tandem-replay-'));
  const recDir = join(base, 'recorded');
  const liveDir = join(base, 'live');
  mkdirSync(recDir);
  mkdirSync(liveDir);
  const rec = recorder();
  const original = scriptedSession(recDir, script(recDir), { env: { FAKE_KEY: SECRET }, log: rec.log });
  let replay: ScriptedSession | undefined;
  try {
    await original.session.start();
    await promptAnswering(original, 'the notes', 'ok');
    await original.session.prompt('and again');
    const recordedCards = cardShapes(original.session.conversation.snapshot().entries as Entry[], recDir);
    assert.ok(existsSync(join(recDir, 'MARKER')), 'the recording really ran its command');
    const recordedTerminal = Object.values(original.session.conversation.snapshot().terminals)[0];
    const sessionId = original.session.conversation.meta.sessionId;
    const text = await rec.transcript({ agent: 'Scripted', session: sessionId }, [SECRET]);
    assert.ok(!text.includes(SECRET), 'the configured secret is masked in the transcript');
    const parsed = parseTranscript(text);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.header?.agent?.name, 'Scripted');
    assert.equal(parsed.messages[0].msg.method, 'initialize', 'the handshake comes first');
    assert.ok(parsed.messages.some((m) => m.msg.method === 'session/request_permission'));
    const file = join(base, 'conversation.jsonl');
    writeFileSync(file, text);

    replay = replaySession(liveDir, file);
    await replay.session.start();
    await promptAnswering(replay, 'anything at all', 'ok');
    await replay.session.prompt('the second prompt');
    const replayedCards = cardShapes(replay.session.conversation.snapshot().entries as Entry[], liveDir);
    // The user's own prompts are what this run typed; everything the agent did is the recording's.
    const agentSide = (cards: unknown[]) => cards.filter((c) => (c as Entry).kind !== 'user');
    // The agent's env values were masked (`***`) as the tap recorded them, like in the protocol log.
    assert.deepEqual(
      agentSide(replayedCards),
      agentSide(recordedCards).map((c) => JSON.parse(JSON.stringify(c).split(SECRET).join('***')) as unknown),
    );
    assert.equal(replay.session.status.kind, 'ready');
    const tool = (replay.session.conversation.snapshot().entries as Entry[]).find((e): e is ToolCallEntry => e.kind === 'tool_call');
    assert.equal(tool?.locations[0].path, join(liveDir, 'notes.txt'), 'paths follow the live folder');
    assert.equal(tool?.status, 'completed');
    // Recorded commands are never run again: the terminal prints what the recording printed.
    assert.ok(!existsSync(join(liveDir, 'MARKER')), 'the replay ran the recorded command');
    const terminal = Object.values(replay.session.conversation.snapshot().terminals)[0];
    assert.equal(terminal?.output, recordedTerminal.output);
    assert.equal(terminal?.output.trim(), 'recorded-output');
    assert.equal(terminal?.exit?.exitCode, 3);
  } finally {
    original.session.dispose();
    replay?.session.dispose();
    rec.dispose();
    rmSync(base, { recursive: true, force: true });
  }
});

test('a replay the client diverges from says where, in the conversation and on stderr, and stops cleanly', { timeout: 60_000 }, async () => {
  const base = mkdtempSync(join(tmpdir(), 'tandem-replay-diverge-'));
  const rec = recorder();
  const original = scriptedSession(
    base,
    { turns: [{ steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'only turn' } } }] }] },
    { log: rec.log },
  );
  const replays: ScriptedSession[] = [];
  try {
    await original.session.start();
    await original.session.prompt('one');
    const text = await rec.transcript();
    const played = join(base, 'one-turn.jsonl');
    writeFileSync(played, text);
    // Played to its end, one prompt more: answered with a clear error, the agent stays.
    const ended = replaySession(base, played);
    replays.push(ended);
    await ended.session.start();
    await ended.session.prompt('one');
    await ended.session.prompt('two: not in the recording');
    const endError = (ended.session.conversation.snapshot().entries as Entry[]).find((e) => e.kind === 'error');
    assert.ok(endError?.kind === 'error');
    assert.match(`${endError.message} ${endError.detail ?? ''}`, /The recording ends here: it has no answer to session\/prompt/);
    assert.equal(ended.session.status.kind, 'ready', 'the replay agent is still there');

    // Hand-edited: the prompt became another method, and a line is garbage. The client's prompt diverges.
    const lines = text.split('\n');
    const promptLine = lines.findIndex((l) => l.includes('"method":"session/prompt"'));
    lines[promptLine] = lines[promptLine].replace('"method":"session/prompt"', '"method":"session/set_mode"');
    lines.splice(2, 0, '{ not json');
    const edited = join(base, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    const diverged = replaySession(base, edited);
    replays.push(diverged);
    await diverged.session.start();
    await diverged.session.prompt('one');
    const error = (diverged.session.conversation.snapshot().entries as Entry[]).find((e) => e.kind === 'error');
    assert.ok(error?.kind === 'error');
    const shown = `${error.message} ${error.detail ?? ''}`;
    assert.match(
      shown,
      new RegExp(
        `Replay diverged at line ${promptLine + 2} of the transcript: the recording expects the client to send session/set_mode \\(request\\), but it sent session/prompt \\(request \\d+\\)`,
      ),
      shown,
    );
    const stderr = diverged.log.of('stderr').join('\n') + rec.store.stderrTail('Replay').join('\n');
    assert.match(stderr, /Line 3 is not JSON; it is ignored/);
    assert.match(stderr, /Replay diverged at line/);
    assert.equal(diverged.session.status.kind, 'ready', 'stopped replaying, still answering');
  } finally {
    original.session.dispose();
    for (const r of replays) r.session.dispose();
    rec.dispose();
    rmSync(base, { recursive: true, force: true });
  }
});
