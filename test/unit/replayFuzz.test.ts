/**
 * Random transcripts thrown at the replay (fast-check): ids of every JSON type, the methods that
 * act (terminal/create, fs/write_text_file, fs/read_text_file) and others, batches, garbage lines,
 * lines without `jsonrpc`, messages that are both request and answer, shuffled order.
 * - The Replayer alone, many runs: it never throws, and everything it lets out is well-formed
 *   JSON-RPC 2.0; every terminal/create carries recorded output and no env or cwd.
 * - A few runs through the real core (the bundled replay agent, the runtime's sandbox, the user
 *   rejecting every prompt): no command runs, no file in or around the workspace changes, and the
 *   replay gets to its end (or stops) without the conversation failing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { Replayer } from '../../src/inspector/replayer';
import { buildScript } from '../../src/inspector/replayScript';
import { parseTranscript } from '../../src/inspector/transcript';
import type { Entry } from '../../src/protocol/entryViews';
import { client, handshake, RECORDED_CWD, replayCrafted, SESSION, transcriptText, type CraftedLine } from '../support/craftedTranscripts';

// Every JSON type, usable ids (string, number) about as often as all the others together.
const anyId = fc.oneof(
  { arbitrary: fc.oneof(fc.integer({ min: -5, max: 40 }), fc.constantFrom('a', 'b', '', 'p1')), weight: 4 },
  {
    arbitrary: fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.double({ noNaN: false }), fc.constant({ n: 1 }), fc.constant([1])),
    weight: 3,
  },
);
// Weighted towards what acts (commands, writes) on the live session, so a few runs reach it.
const method = fc.oneof(
  { arbitrary: fc.constantFrom('terminal/create', 'fs/write_text_file'), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      'fs/read_text_file',
      'terminal/output',
      'terminal/wait_for_exit',
      'terminal/kill',
      'session/request_permission',
      'session/update',
      'x/unknown',
    ),
    weight: 3,
  },
);
const sessionId = fc.oneof({ arbitrary: fc.constant(SESSION), weight: 3 }, { arbitrary: fc.constantFrom('not-a-session', '', 'S1 '), weight: 1 });
const relPath = fc.constantFrom('.vscode/settings.json', '.git/config', 'a.txt', 'sub/b.txt', '../outside.txt');

/** Params an agent might send with `m` (enough to be served, if it were ever served). */
const params = (m: string) =>
  fc.record({ sessionId, rel: relPath, n: fc.nat(9) }).map(({ sessionId, rel, n }) => ({
    sessionId,
    path: `${RECORDED_CWD}/${rel}`,
    content: `fuzz ${n}\n`,
    command: 'sh',
    args: ['-c', `touch ${RECORDED_CWD}/M-${m.replace('/', '-')}-${n}`],
    env: [{ name: 'X', value: '1' }],
    cwd: RECORDED_CWD,
    terminalId: `T-${n}`,
    toolCall: { toolCallId: `t${n}` },
    options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }],
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${n}` } },
  }));

/** One agent message: a request, a notification, or something broken. */
const agentMessage = fc
  .tuple(
    method,
    anyId,
    fc.oneof({ arbitrary: fc.constant('ok'), weight: 3 }, { arbitrary: fc.constantFrom('noJsonrpc', 'alsoResult', 'arrayParams'), weight: 1 }),
  )
  .chain(([m, id, flaw]) =>
    params(m).map((p) => {
      const msg: Record<string, unknown> = { jsonrpc: '2.0', method: m, params: flaw === 'arrayParams' ? [p] : p };
      if (id !== undefined) msg.id = id;
      if (flaw === 'noJsonrpc') delete msg.jsonrpc;
      if (flaw === 'alsoResult') msg.result = {};
      return msg;
    }),
  );

/** A transcript line of any kind, in any direction (the order is random too). */
const anyLine: fc.Arbitrary<CraftedLine> = fc.oneof(
  agentMessage.map((msg) => ({ dir: 'in' as const, msg })),
  fc.tuple(anyId, fc.boolean()).map(([id, error]) => client(error ? { id, error: { code: -1, message: 'x' } } : { id, result: {} })),
  fc.tuple(anyId, method).map(([id, m]) => client({ id, method: m, params: {} })),
  fc.constantFrom<CraftedLine>(
    { raw: '{ not json' },
    { raw: '[{"jsonrpc":"2.0","id":5,"method":"terminal/create","params":{"command":"sh"}}]' },
    { raw: JSON.stringify({ at: new Date(0).toISOString(), dir: 'in', conn: 1, msg: [{ jsonrpc: '2.0', id: 1, method: 'terminal/create' }] }) },
    {
      raw: JSON.stringify({
        at: new Date(0).toISOString(),
        dir: 'in',
        conn: 1,
        msg: { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
      }),
    },
    { raw: '' },
  ),
);

const isId = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

/** JSON-RPC 2.0 as the spec says it, checked here on its own (not with the code under test). */
function assertWellFormed(msg: Record<string, unknown>): void {
  const what = JSON.stringify(msg);
  assert.ok(!Array.isArray(msg) && msg.jsonrpc === '2.0', what);
  if ('method' in msg) {
    assert.equal(typeof msg.method, 'string', what);
    assert.ok(!('result' in msg) && !('error' in msg), what);
    if ('id' in msg) assert.ok(isId(msg.id), what);
    if ('params' in msg) assert.ok(typeof msg.params === 'object' && msg.params !== null, what);
  } else {
    assert.ok(isId(msg.id), what);
    assert.ok('result' in msg !== 'error' in msg, what);
  }
}

test('the Replayer lets out only well-formed JSON-RPC 2.0, whatever the transcript and the client do, and never throws', () => {
  fc.assert(
    fc.property(fc.array(anyLine, { maxLength: 30 }), fc.array(fc.tuple(anyId, method), { maxLength: 10 }), (lines, clientSends) => {
      const out: Array<Record<string, unknown>> = [];
      const replayer = new Replayer(
        buildScript(parseTranscript(transcriptText([...handshake(), ...lines]))),
        { reply: (m) => out.push(m), note: () => undefined },
        'fast',
      );
      const drain = () => {
        for (let a = replayer.next(); a.type === 'send'; a = replayer.next()) out.push(a.msg);
      };
      drain();
      replayer.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
      drain();
      replayer.receive({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/live/ws', mcpServers: [] } });
      drain();
      for (const [id, m] of clientSends) {
        replayer.receive(id === undefined ? { jsonrpc: '2.0', method: m } : { jsonrpc: '2.0', id, method: m, params: {} });
        drain();
        replayer.receive({ jsonrpc: '2.0', id, result: {} });
        drain();
      }
      for (const msg of out) assertWellFormed(msg);
      for (const msg of out) {
        if (msg.method === 'terminal/create') {
          const p = msg.params as Record<string, unknown>;
          assert.equal(typeof (p._meta as { tandem?: { replay?: { output?: unknown } } }).tandem?.replay?.output, 'string');
          assert.ok(!('env' in p) && !('cwd' in p), JSON.stringify(p));
        }
      }
    }),
    { numRuns: 400 },
  );
});

/** Every file under `root` with its content (folders as such), except the harness's own files at the top. */
function tree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const rel = relative(root, full);
      if (dir === root && /^(script-\d+\.json|agent-\d+\.log|fuzz-\d+\.jsonl)$/.test(name)) continue;
      if (statSync(full).isDirectory()) {
        files.set(`${rel}/`, '');
        walk(full);
      } else files.set(rel, readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** The user's answer to every prompt: no (a proposed write rejected, a recorded permission refused). */
function rejectAll(s: Awaited<ReturnType<typeof replayCrafted>>): void {
  for (const e of s.session.conversation.snapshot().entries as Entry[]) {
    if (e.kind !== 'tool_call' || e.permission?.state.kind !== 'pending') continue;
    const option = e.permission.options.find((o) => o.kind.startsWith('reject')) ?? e.permission.options[0];
    if (option) s.session.respondPermission(e.permission.requestId, option.optionId);
  }
}

test('random transcripts through the real replay agent and sandbox: nothing runs, nothing is written, no crash', { timeout: 120_000 }, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(agentMessage, { minLength: 4, maxLength: 12 }), fc.array(anyLine, { maxLength: 4 }), async (messages, noise) => {
      const base = mkdtempSync(join(tmpdir(), 'tandem-fuzz-'));
      const live = join(base, 'live');
      mkdirSync(join(live, '.git'), { recursive: true });
      writeFileSync(join(live, '.git', 'config'), '[core]\n');
      writeFileSync(join(live, 'a.txt'), 'mine\n');
      try {
        // The agent's lines in the random order drawn, then the client's answers to them as one run
        // (any order is fine there), so the replay can get to its end whatever the host answers.
        const answers = messages.filter((m) => 'id' in m && typeof m.method === 'string').map((m) => client({ id: m.id, result: {} }));
        const lines: CraftedLine[] = [...handshake(), ...noise.filter((l) => 'raw' in l), ...messages.map((msg) => ({ dir: 'in' as const, msg })), ...answers];
        const before = tree(base);
        const s = await replayCrafted(base, live, lines, { name: `fuzz-${++run}`, answer: rejectAll });
        try {
          assert.deepEqual(tree(base), before, 'a file changed (or a command ran)');
          assert.equal(Object.values(s.session.conversation.snapshot().terminals).filter((t) => t.exit === undefined).length, 0, 'no terminal is running');
          assert.notEqual(s.session.status.kind, 'error', JSON.stringify(s.session.status));
        } finally {
          s.session.dispose();
        }
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    }),
    { numRuns: 8 },
  );
});
