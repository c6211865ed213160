import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { OutputBuffer } from '../../src/client/outputBuffer';
import { PathPolicy } from '../../src/client/pathPolicy';
import { OUTPUT_EVENT_WINDOW_BYTES } from '../../src/client/terminal';
import { TerminalManager } from '../../src/client/terminalManager';
import type { TerminalEvent } from '../../src/client/terminalEvents';
import { bareClient, rejection } from '../support/bareClient';

const posix = process.platform !== 'win32';
const S = 'sess-1';

function manager(t: { after: (fn: () => Promise<void>) => void }, extra: Partial<ConstructorParameters<typeof TerminalManager>[0]> = {}) {
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-term-')));
  const m = new TerminalManager({ defaultCwd: cwd, baseEnv: { PATH: process.env.PATH, HOME: os.homedir() }, shell: '/bin/sh', ...extra });
  const events: TerminalEvent[] = [];
  m.onDidChange((e) => events.push(e));
  t.after(async () => {
    await m.disposeAll();
    fs.rmSync(cwd, { recursive: true, force: true });
  });
  const run = async (command: string, args?: string[], more: Record<string, unknown> = {}) => {
    const { terminalId } = await m.create({ sessionId: S, command, args, ...more });
    const exit = await m.waitForExit({ sessionId: S, terminalId });
    const out = await m.output({ sessionId: S, terminalId });
    return { terminalId, exit, out };
  };
  return { m, cwd, events, run };
}

/** Alive and not a zombie (a zombie is dead but still answers kill(pid, 0)). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function groupPids(pgid: number): number[] {
  try {
    return execFileSync('pgrep', ['-g', String(pgid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('exit code and merged stdout+stderr, with args (no shell)', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { exit, out } = await run('sh', ['-c', 'printf out; printf err >&2; exit 3']);
  assert.deepEqual(exit, { exitCode: 3, signal: null });
  // The order between the two pipes is not defined; both land in the one buffer.
  assert.ok(out.output === 'outerr' || out.output === 'errout', out.output);
  assert.equal(out.truncated, false);
  assert.deepEqual(out.exitStatus, { exitCode: 3, signal: null });
});

test('args are passed verbatim, never through a shell', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { out } = await run('printf', ['%s|', '$HOME', 'a b', '`x`']);
  assert.equal(out.output, '$HOME|a b|`x`|');
});

test('a command line without args runs through the shell: pipes, quotes, variables', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { out, exit } = await run("printf 'a\\nb\\nc\\n' | wc -l | tr -d ' ' && echo \"$HOME\"");
  assert.equal(exit.exitCode, 0);
  assert.equal(out.output, `3\n${os.homedir()}\n`);
});

test('a single word without args is spawned directly', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { out } = await run('pwd');
  assert.ok(out.output.trim().length > 0);
});

test('env is merged over the base env', { skip: !posix }, async (t) => {
  const { run } = manager(t, { baseEnv: { PATH: process.env.PATH, FOO: 'base', KEEP: 'kept' } });
  const { out } = await run('echo "$FOO $KEEP $NEW"', [], {
    env: [
      { name: 'FOO', value: 'over' },
      { name: 'NEW', value: 'n' },
    ],
  });
  assert.equal(out.output, 'over kept n\n');
});

test('cwd: given, default, relative (refused), missing (refused), outside by policy (refused)', { skip: !posix }, async (t) => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-ws-')));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  fs.mkdirSync(path.join(ws, 'sub'));
  const policy = new PathPolicy({ roots: () => [ws], allowOutside: () => false, askOutside: async () => false });
  const { run, m, cwd } = manager(t, { policy, defaultCwd: ws });
  assert.equal((await run('pwd', [], { cwd: path.join(ws, 'sub') })).out.output, `${path.join(ws, 'sub')}\n`);
  assert.equal((await run('pwd')).out.output, `${ws}\n`);
  assert.match((await rejection(m.create({ sessionId: S, command: 'pwd', cwd: 'sub' }))).message, /absolute/);
  assert.match((await rejection(m.create({ sessionId: S, command: 'pwd', cwd: path.join(ws, 'nope') }))).message, /does not exist/);
  assert.match((await rejection(m.create({ sessionId: S, command: 'pwd', cwd }))).message, /outside the workspace/);
});

test('outputByteLimit keeps the end, cut at a UTF-8 character boundary', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  // "aéééé" = 1 + 4×2 bytes; the last 7 bytes start in the middle of an "é".
  const two = await run('printf', ['aéééé'], { outputByteLimit: 7 });
  assert.equal(two.out.output, 'ééé');
  assert.equal(two.out.truncated, true);
  // 4-byte characters: 🎉 = F0 9F 8E 89. Limit 6 keeps one whole emoji.
  const four = await run('printf', ['x🎉🎉'], { outputByteLimit: 6 });
  assert.equal(four.out.output, '🎉');
  assert.equal(four.out.truncated, true);
  const exact = await run('printf', ['ééé'], { outputByteLimit: 6 });
  assert.deepEqual([exact.out.output, exact.out.truncated], ['ééé', false]);
  const zero = await run('printf', ['abc'], { outputByteLimit: 0 });
  assert.deepEqual([zero.out.output, zero.out.truncated], ['', true]);
});

test('a character split across chunks is never broken, in events or in output()', { skip: !posix }, async (t) => {
  const { m, events } = manager(t);
  // 世 = E4 B8 96: two bytes, a pause, then the last byte.
  const { terminalId } = await m.create({ sessionId: S, command: "printf '\\344\\270'; sleep 0.3; printf '\\226\\n'" });
  await new Promise((r) => setTimeout(r, 150));
  const mid = await m.output({ sessionId: S, terminalId });
  assert.equal(mid.output, '');
  assert.equal(mid.exitStatus, undefined);
  await m.waitForExit({ sessionId: S, terminalId });
  const texts = events.flatMap((e) => (e.kind === 'output' && e.terminalId === terminalId ? [e.text] : []));
  assert.equal(texts.join(''), '世\n');
  assert.ok(texts.every((s) => !s.includes('\uFFFD')));
  assert.equal((await m.output({ sessionId: S, terminalId })).output, '世\n');
});

test('CR progress output and ANSI escapes pass through untouched', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { out } = await run("printf '10%%\\r50%%\\r100%%\\r\\n\\033[31mred\\033[0m\\r\\n'");
  assert.equal(out.output, '10%\r50%\r100%\r\n\u001b[31mred\u001b[0m\r\n');
});

test('events: created, output as it arrives, exit', { skip: !posix }, async (t) => {
  const { run, events } = manager(t);
  const { terminalId } = await run('echo hi; exit 2');
  const mine = events.filter((e) => e.terminalId === terminalId);
  assert.deepEqual(mine[0], { kind: 'created', terminalId, command: 'echo hi; exit 2' });
  assert.deepEqual(mine.slice(1), [
    { kind: 'output', terminalId, text: 'hi\n', truncated: false },
    { kind: 'exit', terminalId, exitCode: 2, signal: null },
  ]);
});

test('a process killed by a signal reports the signal and a null exit code', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { exit, out } = await run('sh', ['-c', 'kill -KILL $$']);
  assert.deepEqual(exit, { exitCode: null, signal: 'SIGKILL' });
  assert.deepEqual(out.exitStatus, { exitCode: null, signal: 'SIGKILL' });
});

test('a missing command exits 127 with a message instead of failing the request', { skip: !posix }, async (t) => {
  const { run } = manager(t);
  const { exit, out } = await run('tandem-no-such-command-xyz', ['a']);
  assert.equal(exit.exitCode, 127);
  assert.match(out.output, /cannot run tandem-no-such-command-xyz/);
});

test('kill stops the whole process tree; the terminal stays readable', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const { terminalId } = await m.create({ sessionId: S, command: 'sh', args: ['-c', 'sleep 100 & sleep 100'] });
  const pgid = m.get(terminalId)?.pid as number;
  await waitFor(() => groupPids(pgid).length >= 2);
  const pids = groupPids(pgid);
  assert.ok(
    pids.some((p) => p !== pgid),
    'a background child exists',
  );
  await m.kill({ sessionId: S, terminalId });
  const exit = await m.waitForExit({ sessionId: S, terminalId });
  assert.equal(exit.signal, 'SIGTERM');
  await waitFor(() => pids.every((p) => !alive(p)));
  const out = await m.output({ sessionId: S, terminalId });
  assert.deepEqual(out.exitStatus, { exitCode: null, signal: 'SIGTERM' });
});

test('kill escalates to SIGKILL when TERM is ignored', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const { terminalId } = await m.create({ sessionId: S, command: "trap '' TERM; sleep 100 & sleep 100; echo survived" });
  const pgid = m.get(terminalId)?.pid as number;
  await waitFor(() => groupPids(pgid).length >= 3);
  const pids = groupPids(pgid);
  await m.kill({ sessionId: S, terminalId });
  const exit = await m.waitForExit({ sessionId: S, terminalId });
  assert.equal(exit.signal, 'SIGKILL');
  await waitFor(() => pids.every((p) => !alive(p)));
});

test('kill also reaches background children left behind after the shell exited', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const { terminalId } = await m.create({ sessionId: S, command: 'sleep 100 > /dev/null 2>&1 & echo started' });
  const pgid = m.get(terminalId)?.pid as number;
  assert.equal((await m.waitForExit({ sessionId: S, terminalId })).exitCode, 0);
  const left = groupPids(pgid);
  assert.equal(left.length, 1, 'the background sleep is still running');
  await m.kill({ sessionId: S, terminalId });
  await waitFor(() => left.every((p) => !alive(p)));
});

test('release kills a running command, frees it, and the id becomes unknown', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const { terminalId } = await m.create({ sessionId: S, command: 'echo before; sleep 100' });
  const pid = m.get(terminalId)?.pid as number;
  await waitFor(() => (m.get(terminalId)?.output ?? '') === 'before\n');
  const waiting = m.waitForExit({ sessionId: S, terminalId });
  await m.release({ sessionId: S, terminalId });
  assert.equal(m.get(terminalId), undefined);
  assert.equal((await waiting).signal, 'SIGTERM');
  await waitFor(() => !alive(pid));
  for (const call of [
    m.output({ sessionId: S, terminalId }),
    m.waitForExit({ sessionId: S, terminalId }),
    m.kill({ sessionId: S, terminalId }),
    m.release({ sessionId: S, terminalId }),
  ]) {
    assert.match((await rejection(call)).message, /Unknown terminal id/);
  }
});

test('a terminal id is unknown to another session', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const { terminalId } = await m.create({ sessionId: S, command: 'true' });
  assert.match((await rejection(m.output({ sessionId: 'other', terminalId }))).message, /Unknown terminal id/);
});

test('memory stays bounded while a command prints 50 MB', { skip: !posix }, async (t) => {
  const { m, events } = manager(t);
  const limit = 1024 * 1024;
  const total = 50 * 1024 * 1024;
  const { terminalId } = await m.create({
    sessionId: S,
    command: `head -c ${total} /dev/zero | tr '\\0' 'x'`,
    outputByteLimit: limit,
  });
  let maxSeen = 0;
  const sub = m.onDidChange(() => (maxSeen = Math.max(maxSeen, m.get(terminalId)?.bufferedBytes ?? 0)));
  const exit = await m.waitForExit({ sessionId: S, terminalId });
  sub.dispose();
  assert.equal(exit.exitCode, 0);
  const info = m.get(terminalId);
  assert.ok(info);
  assert.ok(info.peakBufferedBytes <= 2 * limit, `peak ${info.peakBufferedBytes} > 2× limit`);
  assert.ok(maxSeen <= 2 * limit);
  assert.equal(info.output.length, limit);
  assert.equal(info.truncated, true);
  // The events sample the flood (at most one window per interval) instead of turning all 50 MB
  // into strings; what they carry is still bounded per event and ends with the real output.
  const texts = events.flatMap((e) => (e.kind === 'output' && e.terminalId === terminalId ? [e.text] : []));
  assert.ok(texts.length > 0);
  assert.ok(texts.every((s) => Buffer.byteLength(s) <= OUTPUT_EVENT_WINDOW_BYTES));
  assert.ok(texts.reduce((n, s) => n + s.length, 0) <= total);
  assert.ok(texts[texts.length - 1].endsWith('xxxx'));
});

test('output events are contiguous, and say truncated exactly where a flood was skipped', { skip: !posix }, async (t) => {
  const { run, events } = manager(t);
  const lines = 1_500_000; // about 10 MB: under the default byte limit, so the agent sees it all
  const { terminalId, out } = await run('seq', ['1', String(lines)]);
  let expected = '';
  for (let i = 1; i <= lines; i++) expected += `${i}\n`;
  assert.equal(out.output.length, expected.length);
  assert.ok(out.output === expected, 'the agent gets every byte');
  let at = 0;
  for (const e of events) {
    if (e.kind !== 'output' || e.terminalId !== terminalId) continue;
    const found = expected.indexOf(e.text, at);
    // Nothing was cut for the agent, so `truncated` here can only mean "the panel skipped some".
    if (e.truncated) assert.ok(found > at, `a skipped stretch before offset ${found}`);
    else assert.equal(found, at, 'continues where the previous event ended');
    at = found + e.text.length;
  }
  assert.equal(at, expected.length, 'the events end with the end of the output');
});

test('disposeAll stops every running terminal', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const a = await m.create({ sessionId: S, command: 'sleep 100' });
  const b = await m.create({ sessionId: S, command: 'sleep', args: ['100'] });
  const pids = [m.get(a.terminalId)?.pid as number, m.get(b.terminalId)?.pid as number];
  await m.disposeAll();
  await waitFor(() => pids.every((p) => !alive(p)));
  assert.equal(m.get(a.terminalId), undefined);
});

test('OutputBuffer: many tiny writes stay bounded and keep the exact tail', () => {
  const buf = new OutputBuffer(1000);
  let all = '';
  for (let i = 0; i < 200_000; i++) {
    const s = String.fromCharCode(97 + (i % 26));
    all += s;
    buf.append(Buffer.from(s));
  }
  assert.ok(buf.peakBufferedBytes <= 1000 + 2 * 64 * 1024);
  assert.deepEqual(buf.read(true), { text: all.slice(-1000), truncated: true });
});

test('OutputBuffer: invalid UTF-8 never yields more than the limit in bytes', () => {
  const buf = new OutputBuffer(8);
  buf.append(Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8]));
  const { text } = buf.read(true);
  assert.ok(Buffer.byteLength(text) <= 8);
});

test('OutputBuffer: an incomplete trailing character is held back until complete', () => {
  const buf = new OutputBuffer(100);
  buf.append(Buffer.from([0x61, 0xe4, 0xb8]));
  assert.equal(buf.read(false).text, 'a');
  buf.append(Buffer.from([0x96]));
  assert.equal(buf.read(false).text, 'a世');
});

test('malformed arguments are an invalid-params error, not a crash', { skip: !posix }, async (t) => {
  const { m } = manager(t);
  const err = await rejection(m.create({ sessionId: S, command: 'echo', args: ['a\u0000b'] }));
  assert.equal(err.code, -32602);
  assert.equal((await rejection(m.create({ sessionId: S, command: '  ' }))).code, -32602);
});

test('over stdio: a real agent runs commands through the manager', { skip: !posix }, async (t) => {
  const { m, cwd } = manager(t);
  const steps = [
    { terminal: { command: 'printf', args: ['aéééé'], outputByteLimit: 7 } },
    { terminal: { command: 'echo "$GREETING from $(pwd)" | tr a-z A-Z', env: [{ name: 'GREETING', value: 'hi' }] } },
    { terminal: { command: 'echo started; sleep 100' }, kill: true },
  ];
  const created: string[] = [];
  m.onDidChange((e) => e.kind === 'created' && created.push(e.terminalId));
  const client = await bareClient(
    t,
    steps,
    (app) =>
      app
        .onRequest(acp.methods.client.terminal.create, ({ params }) => m.create(params))
        .onRequest(acp.methods.client.terminal.output, ({ params }) => m.output(params))
        .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => m.waitForExit(params))
        .onRequest(acp.methods.client.terminal.kill, ({ params }) => m.kill(params))
        .onRequest(acp.methods.client.terminal.release, ({ params }) => m.release(params)),
    { capabilities: { terminal: true }, cwd },
  );
  await client.prompt();
  const said = await client.saidAtLeast(steps.length);
  assert.deepEqual(said, [
    'TERMINAL: exit=0 signal=null truncated=true output=ééé',
    `TERMINAL: exit=0 signal=null truncated=false output=HI FROM ${cwd.toUpperCase()}\n`,
    'TERMINAL: exit=null signal=SIGTERM truncated=false output=started\n',
  ]);
  // Every terminal was released by the agent: nothing is kept.
  assert.equal(created.length, 3);
  assert.ok(created.every((id) => m.get(id) === undefined));
});
