/**
 * The replay's matching (src/inspector/replayer.ts) without processes: a recording's agent side
 * played against a simulated client that numbers its requests differently, uses another session id
 * and folder, answers in another order, diverges; and transcripts that were cut short or edited.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replayer, REPLAY_ERROR_CODE } from '../../src/inspector/replayer';
import { buildScript } from '../../src/inspector/replayScript';
import { parseTranscript, serializeTranscript, TRANSCRIPT_TYPE, type TranscriptLine } from '../../src/inspector/transcript';

const at = (ms: number): string => new Date(1_700_000_000_000 + ms).toISOString();
const line = (ms: number, dir: 'in' | 'out', msg: Record<string, unknown>): TranscriptLine => ({ at: at(ms), dir, conn: 1, msg: { jsonrpc: '2.0', ...msg } });

/** initialize, session/new in /rec, a prompt with a chunk, a permission asked and answered, the answer. */
function recording(): string {
  const header = {
    type: TRANSCRIPT_TYPE,
    version: 1,
    exportedAt: at(0),
    tandemVersion: '0.2.0',
    protocolVersion: 1,
    messages: 9,
    dropped: 0,
    redactions: 0,
  } as const;
  return serializeTranscript(header, [
    line(0, 'out', { id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
    line(10, 'in', { id: 0, result: { protocolVersion: 1, agentInfo: { name: 'rec' } } }),
    line(20, 'out', { id: 1, method: 'session/new', params: { cwd: '/rec/work', mcpServers: [] } }),
    line(30, 'in', { id: 1, result: { sessionId: 'S-rec' } }),
    line(40, 'out', { id: 2, method: 'session/prompt', params: { sessionId: 'S-rec', prompt: [{ type: 'text', text: 'hi' }] } }),
    line(90, 'in', {
      method: 'session/update',
      params: {
        sessionId: 'S-rec',
        update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit /rec/work/a.txt', locations: [{ path: '/rec/work/a.txt' }] },
      },
    }),
    line(100, 'in', {
      id: 'p1',
      method: 'session/request_permission',
      params: { sessionId: 'S-rec', toolCall: { toolCallId: 't' }, options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }] },
    }),
    line(200, 'out', { id: 'p1', result: { outcome: { outcome: 'selected', optionId: 'yes' } } }),
    line(250, 'in', { id: 2, result: { stopReason: 'end_turn' } }),
  ]);
}

function client(text = recording(), pace: 'fast' | 'recorded' = 'fast') {
  const replies: Array<Record<string, unknown>> = [];
  const notes: string[] = [];
  const replayer = new Replayer(buildScript(parseTranscript(text)), { reply: (m) => replies.push(m), note: (t) => notes.push(t) }, pace);
  /** Everything the agent sends until it waits for the client. */
  const drain = (): Array<Record<string, unknown>> => {
    const sent: Array<Record<string, unknown>> = [];
    for (let a = replayer.next(); a.type === 'send'; a = replayer.next()) sent.push(a.msg);
    return sent;
  };
  const send = (msg: Record<string, unknown>): Array<Record<string, unknown>> => {
    replayer.receive({ jsonrpc: '2.0', ...msg });
    return drain();
  };
  return { replayer, replies, notes, send, drain };
}

test('recorded answers go out under the live ids, with the live session id and folder', () => {
  const c = client();
  assert.deepEqual(c.drain(), [], 'nothing is sent before the client speaks');
  assert.deepEqual(c.send({ id: 100, method: 'initialize', params: {} }), [
    { jsonrpc: '2.0', id: 100, result: { protocolVersion: 1, agentInfo: { name: 'rec' } } },
  ]);
  const [created] = c.send({ id: 101, method: 'session/new', params: { cwd: '/live/ws', mcpServers: [] } });
  assert.deepEqual(created, { jsonrpc: '2.0', id: 101, result: { sessionId: 'S-rec' } });
  // The client talks about the session under another id (as a loaded session would): mapped back.
  const turn = c.send({ id: 102, method: 'session/prompt', params: { sessionId: 'S-live', prompt: [{ type: 'text', text: 'anything' }] } });
  assert.equal(turn.length, 2);
  const toolCall = turn[0].params as { update: { title: string; locations: Array<{ path: string }> }; sessionId: string };
  assert.equal(toolCall.sessionId, 'S-live');
  assert.equal(toolCall.update.title, 'Edit /live/ws/a.txt');
  assert.equal(toolCall.update.locations[0].path, '/live/ws/a.txt');
  assert.equal(turn[1].id, 'p1', "the agent's own request keeps its recorded id");
  const end = c.send({ id: 'p1', result: { outcome: { outcome: 'selected', optionId: 'no' } } });
  assert.deepEqual(end, [{ jsonrpc: '2.0', id: 102, result: { stopReason: 'end_turn' } }]);
  assert.ok(
    c.notes.some((n) => n.includes('chose "no" where the recording (line 9) chose "yes"')),
    c.notes.join('\n'),
  );
  assert.equal(c.replayer.finished, true);
  c.send({ id: 103, method: 'session/prompt', params: { sessionId: 'S-live', prompt: [] } });
  assert.equal((c.replies[0].error as { message: string }).message, 'The recording ends here: it has no answer to session/prompt.');
});

test('the recorded pacing is kept between agent messages (capped), and none in fast mode', () => {
  const c = client(recording(), 'recorded');
  c.send({ id: 0, method: 'initialize', params: {} });
  c.send({ id: 1, method: 'session/new', params: { cwd: '/rec/work' } });
  c.replayer.receive({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'S-rec', prompt: [] } });
  const delays: number[] = [];
  for (let a = c.replayer.next(); a.type === 'send'; a = c.replayer.next()) delays.push(a.delayMs);
  assert.deepEqual(delays, [50, 10]);
});

test('a client that diverges is told where, with a JSON-RPC error, and the replay stops cleanly', () => {
  const c = client();
  c.send({ id: 0, method: 'initialize', params: {} });
  c.send({ id: 1, method: 'session/new', params: { cwd: '/x' } });
  const sent = c.send({ id: 2, method: 'session/set_mode', params: { sessionId: 'S-rec', modeId: 'plan' } });
  assert.deepEqual(sent, []);
  assert.equal(c.replies.length, 1);
  const error = c.replies[0].error as { code: number; message: string };
  assert.equal(c.replies[0].id, 2);
  assert.equal(error.code, REPLAY_ERROR_CODE);
  assert.equal(
    error.message,
    'Replay diverged at line 6 of the transcript: the recording expects the client to send session/prompt (request), but it sent session/set_mode (request 2).',
  );
  assert.ok(c.notes.includes(error.message));
  assert.equal(c.replayer.divergence, error.message);
  // Stopped: later requests get the same error, nothing recorded is sent any more.
  assert.deepEqual(c.send({ id: 3, method: 'session/prompt', params: { sessionId: 'S-rec', prompt: [] } }), []);
  assert.equal((c.replies[1].error as { message: string }).message, error.message);
  // session/close and cancels are still answered or ignored quietly.
  c.send({ id: 4, method: 'session/close', params: { sessionId: 'S-rec' } });
  assert.deepEqual(c.replies[2], { jsonrpc: '2.0', id: 4, result: {} });
});

test('cancels outside the recording are tolerated; messages of a run may arrive in another order', () => {
  const header = JSON.stringify({ type: TRANSCRIPT_TYPE, version: 1, messages: 4 });
  const text = [
    header,
    JSON.stringify(line(0, 'out', { id: 0, method: 'initialize', params: {} })),
    JSON.stringify(line(1, 'out', { method: 'custom/hello' })),
    JSON.stringify(line(2, 'in', { id: 0, result: { protocolVersion: 1 } })),
  ].join('\n');
  const c = client(text);
  assert.deepEqual(c.send({ method: 'session/cancel', params: { sessionId: 'x' } }), []);
  assert.deepEqual(c.send({ method: 'custom/hello' }), []);
  assert.deepEqual(c.send({ id: 7, method: 'initialize', params: {} }), [{ jsonrpc: '2.0', id: 7, result: { protocolVersion: 1 } }]);
  assert.ok(c.notes.some((n) => n.includes('session/cancel')));
  assert.equal(c.replayer.divergence, undefined);
});

test('a transcript cut short or edited by hand is read up to what is readable, with the line of each problem', () => {
  const full = recording();
  const cut = full.slice(0, full.lastIndexOf('"stopReason"'));
  const parsed = parseTranscript(cut);
  assert.equal(parsed.messages.length, 8);
  assert.deepEqual(
    parsed.problems.map((p) => p.text),
    ['Line 10 is cut short (the file ends in the middle of it); it is ignored.'],
  );
  const edited = full.split('\n');
  edited.splice(
    3,
    0,
    'this line was typed by hand',
    JSON.stringify({ dir: 'sideways', msg: {} }),
    JSON.stringify({ dir: 'in', at: 'yesterday', msg: { jsonrpc: '2.0', method: '_note' } }),
  );
  const again = parseTranscript(edited.join('\n'));
  assert.deepEqual(
    again.problems.map((p) => p.line),
    [4, 5, 6],
  );
  assert.match(again.problems[0].text, /Line 4 is not JSON/);
  assert.match(again.problems[1].text, /Line 5 has no direction/);
  assert.match(again.problems[2].text, /Line 6 has an unreadable time/);
  assert.equal(again.messages.length, 10);
  assert.match(parseTranscript('').problems[0].text, /no Tandem transcript/);
  assert.match(parseTranscript(JSON.stringify(line(0, 'in', { method: 'x' }))).problems[0].text, /no header line/);
  assert.match(parseTranscript(JSON.stringify({ type: TRANSCRIPT_TYPE, version: 7 })).problems[0].text, /format version 7/);
});
