/**
 * Commands the agent runs itself, in the card's terminal: played from what codex-acp 2.6 and
 * claude-agent-acp 0.101 really sent to Tandem (test/fixtures/agentPayloads/*-terminal.json,
 * recorded by recordTerminals.ts against the fake model servers), plus the shapes those recordings
 * do not hold (codex's `terminal_output_delta` for a client that declares nothing, v2's
 * `terminal_update` / `terminal_output_chunk`, bad input).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TERMINAL_VIEW_LIMIT_CHARS, type ToolCallEntry } from '../../src/protocol/messages';
import { Thread } from '../../src/thread/thread';
import { capabilitiesFor } from '../../src/acp/agentRequests';
import { clientCapabilities } from '../../src/conversation/conversationWiring';
import { replacePaths } from '../fixtures/agentPayloads/recordPayloads';
import { CAT_TEXT, ECHO_TEXT, LISTED_FILE, type TerminalAgent, type TerminalRecording } from '../fixtures/agentPayloads/recordTerminals';
import { repoRoot } from '../support/scriptedSession';

const CWD = '/home/me/proj';

function thread() {
  const warnings: string[] = [];
  const t = new Thread({
    isInWorkspace: (p) => p.startsWith(`${CWD}/`),
    roots: () => [CWD],
    warn: (w) => warnings.push(w),
    emit: () => undefined,
    follow: () => undefined,
    titled: () => undefined,
    readDisk: async () => null,
  });
  return { t, warnings };
}

function played(agent: TerminalAgent) {
  const raw = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'agentPayloads', `${agent}-terminal.json`), 'utf8')) as TerminalRecording;
  const recording = replacePaths(raw, '<cwd>', CWD);
  const { t, warnings } = thread();
  for (const p of recording.payloads) if (p.method === 'session/update') t.dispatch(p.params.update as Record<string, unknown>);
  const cards = t.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call');
  return { t, warnings, cards, recording };
}

const terminalIds = (card: ToolCallEntry) => card.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : []));
const texts = (card: ToolCallEntry) => card.content.flatMap((c) => (c.type === 'output' || c.type === 'markdown' ? [c.text] : []));

test('codex-acp 2.6: a command streams into its card terminal (progress line and colours kept) and exits 0', () => {
  const { t, cards, warnings, recording } = played('codex-acp');
  assert.equal((recording.agentInfo as { version?: string }).version, '2.6.0');
  const run = cards.find((c) => c.toolKind === 'execute');
  assert.ok(run, `an execute card among ${JSON.stringify(cards.map((c) => c.title))}`);
  const [id] = terminalIds(run);
  assert.ok(id, 'the card embeds its terminal');
  const view = t.terminalView(id);
  assert.ok(view, 'the agent-owned terminal exists in the same terminal views as client terminals');
  // The raw bytes reach the emulator: \r redraws the progress line, the escape colours the word.
  assert.equal(view.output, 'building 50%\rbuilding 100%\n\u001b[32mbuilt ok\u001b[0m\n');
  assert.deepEqual(view.exit, { exitCode: 0, signal: null });
  assert.equal(run.status, 'completed');
  assert.deepEqual(warnings, []);
});

test('codex-acp 2.6: ls and cat stream their output under a card with no terminal: the card gets that terminal, ended', () => {
  const { t, cards, recording } = played('codex-acp');
  const reads = cards.filter((c) => c.toolKind === 'read');
  assert.equal(reads.length, 2);
  // What the recording holds: output for a terminal the card's content never names.
  const readUpdates = recording.payloads.filter((p) => (p.params.update as { toolCallId?: string }).toolCallId === reads[0].toolCallId);
  assert.ok(!JSON.stringify(readUpdates).includes('"type":"terminal"'), 'codex names no terminal for a read');
  for (const [read, expected] of [
    [reads[0], LISTED_FILE],
    [reads[1], CAT_TEXT.trim()],
  ] as const) {
    const [id] = terminalIds(read);
    assert.ok(id, `the read's card shows the terminal it streamed to: ${JSON.stringify(read.content)}`);
    assert.ok(t.terminalView(id)?.output.includes(expected), `its output: ${JSON.stringify(t.terminalView(id))}`);
    assert.deepEqual(t.terminalView(id)?.exit, { exitCode: 0, signal: null }, 'it ends with its card (exit_code from rawOutput)');
    assert.ok(!texts(read).some((x) => /exit_code/.test(x)), 'no rawOutput dump beside it');
  }
});

test('output streamed before its card settles shows at once, and a later content list keeps the terminal', () => {
  const { t } = thread();
  t.dispatch({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'List files', kind: 'read', status: 'in_progress' });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', _meta: { terminal_output_delta: { terminal_id: 'r1', data: 'a.txt\n' } } });
  const card = () => t.entries().find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'r1');
  assert.deepEqual(terminalIds(card()!), ['r1']);
  assert.equal(t.terminalView('r1')?.exit, undefined, 'running while its card runs');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', content: [{ type: 'content', content: { type: 'text', text: 'listed' } }] });
  assert.deepEqual(terminalIds(card()!), ['r1'], 'the agent replacing its content does not hide the output');
  assert.ok(texts(card()!).includes('listed'));
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'failed', rawOutput: { exit_code: 2 } });
  assert.equal(t.terminalView('r1')?.output, 'a.txt\n');
  assert.deepEqual(t.terminalView('r1')?.exit, { exitCode: 2, signal: null });
});

test('claude-agent-acp 0.101: Bash output is in the card terminal, exit 0', () => {
  const { t, cards, recording } = played('claude-agent-acp');
  assert.equal((recording.agentInfo as { version?: string }).version, '0.101.0');
  const bash = cards.find((c) => c.toolKind === 'execute');
  assert.ok(bash);
  const [id] = terminalIds(bash);
  const view = t.terminalView(id);
  assert.equal(view?.output, ECHO_TEXT);
  assert.deepEqual(view?.exit, { exitCode: 0, signal: null });
  // Announced as "Terminal" before the input streamed in, then named by the command it ran.
  assert.equal(view?.command, `echo '${ECHO_TEXT}'`);
});

test('terminal_output_delta (codex-acp 2.6 without the capability) appends to the terminal', () => {
  const { t } = thread();
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'make',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'c1' }],
  });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { data: 'one\n', terminal_id: 'c1' } } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { data: 'two\n', terminal_id: 'c1' } } });
  t.dispatch({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'c1',
    status: 'failed',
    _meta: { terminal_exit: { exit_code: 2, signal: null, terminal_id: 'c1' } },
  });
  assert.equal(t.terminalView('c1')?.output, 'one\ntwo\n');
  assert.deepEqual(t.terminalView('c1')?.exit, { exitCode: 2, signal: null });
  assert.equal(t.terminalView('c1')?.command, 'make', 'named after its card when the agent never says the command');
});

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

test('v2 terminal_update / terminal_output_chunk: base64 chunks (a character split across two), snapshot, exit', () => {
  const { t, warnings } = thread();
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'Run',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'term-1' }],
  });
  t.dispatch({ sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'npm test' });
  const euro = Buffer.from('price: €5\n');
  t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64(euro.subarray(0, 8)) });
  t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64(euro.subarray(8)) });
  assert.equal(t.terminalView('term-1')?.output, 'price: €5\n');
  assert.equal(t.terminalView('term-1')?.command, 'npm test');
  assert.equal(t.terminalView('term-1')?.exit, undefined, 'running');
  t.dispatch({
    sessionUpdate: 'terminal_update',
    terminalId: 'term-1',
    output: { data: b64('all replaced\n') },
    exitStatus: { exitCode: null, signal: 'SIGTERM' },
  });
  assert.equal(t.terminalView('term-1')?.output, 'all replaced\n');
  assert.deepEqual(t.terminalView('term-1')?.exit, { exitCode: null, signal: 'SIGTERM' });
  assert.deepEqual(warnings, [], 'v2 terminal updates are not "unknown kinds"');
});

test('bad terminal input is warned about and never throws', () => {
  const { t, warnings } = thread();
  assert.doesNotThrow(() => {
    t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 7, data: 'x' });
    t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: '%%% not base64' });
    t.dispatch({ sessionUpdate: 'terminal_update', terminalId: 't', output: { data: 12 }, exitStatus: 'done' });
    t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'x', _meta: { terminal_output_delta: { terminal_id: 3, data: 'a' }, terminal_exit: null } });
    t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'x', _meta: { terminal_output: 'nope' } });
  });
  assert.ok(warnings.some((w) => w.includes('without a terminalId')));
  assert.ok(warnings.some((w) => w.includes('not base64')));
  assert.equal(t.terminalView('t')?.output, '', 'the terminal exists, holding nothing that was malformed');
});

test('agent terminals are bounded like client terminals: a huge output keeps its tail', () => {
  const { t } = thread();
  const big = `${'x'.repeat(TERMINAL_VIEW_LIMIT_CHARS)}TAIL`;
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { terminal_id: 'c1', data: big } } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { terminal_id: 'c1', data: 'END' } } });
  const view = t.terminalView('c1');
  assert.ok(view && view.output.length <= TERMINAL_VIEW_LIMIT_CHARS);
  assert.ok(view.output.endsWith('TAILEND'));
  assert.equal(view.truncated, true);
});

test('a settled card whose terminal stayed empty shows the rawOutput text in it, not an empty "exited"', () => {
  const { t } = thread();
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'ls',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'c1' }],
    _meta: { terminal_info: { terminal_id: 'c1' } },
  });
  t.dispatch({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'c1',
    status: 'completed',
    rawOutput: { stdout: 'a.txt\nb.txt', exit_code: 0 },
    _meta: { terminal_exit: { terminal_id: 'c1', exit_code: 0 } },
  });
  assert.match(t.terminalView('c1')?.output ?? '', /a\.txt\nb\.txt/);
  // A terminal that did get output keeps only it.
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c2',
    title: 'echo',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'c2' }],
    _meta: { terminal_output: { terminal_id: 'c2', data: 'streamed\n' } },
  });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'completed', rawOutput: { stdout: 'streamed' } });
  assert.equal(t.terminalView('c2')?.output, 'streamed\n');
});

test('Tandem declares _meta.terminal_output and terminal_output_delta to every agent, beside its other capabilities', () => {
  const extra = clientCapabilities(false)({ name: 'a', command: 'x', args: [], env: {}, cwd: '/' } as never);
  const caps = capabilitiesFor({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }, extra);
  assert.deepEqual(caps._meta, { terminal_output: true, terminal_output_delta: true });
  assert.ok(caps.session, 'the session extras stay');
});

test('a settled card naming a terminal nobody streamed gets it, ended, with the rawOutput text, not "Running…" forever', () => {
  const { t } = thread();
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'npm test',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'c1' }],
  });
  assert.equal(t.terminalView('c1'), undefined, 'nothing is made up while the command runs');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed', rawOutput: { output: '1 failing', exit_code: 1 } });
  assert.equal(t.terminalView('c1')?.output, '1 failing\n');
  assert.deepEqual(t.terminalView('c1')?.exit, { exitCode: 1, signal: null });
  // Without any output it still ends, named after the card.
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: 'c2',
    title: 'true',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 't2' }],
  });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'completed' });
  assert.deepEqual(t.terminalView('t2'), { terminalId: 't2', command: 'true', output: '', truncated: false, exit: { exitCode: null, signal: null } });
});

// claude-agent-acp 0.101 (background-work.js terminalOutputUpdate, background-output.js): a Bash
// command sent to the background shows the placeholder of its Bash result, appended, and its card
// completes without terminal_exit; the output file's first read replaces it (`terminal_output`),
// later reads append (`terminal_output_delta`), and the terminal exits with no code.
test('claude-agent-acp background command: terminal_output replaces the placeholder, deltas append, it runs past its card', () => {
  const { t } = thread();
  const id = 'toolu_bg';
  t.dispatch({
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: 'Terminal',
    kind: 'execute',
    status: 'pending',
    rawInput: {},
    content: [{ type: 'terminal', terminalId: id }],
    _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: id } },
  });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, rawInput: { command: 'npm run watch', run_in_background: true } });
  const placeholder = 'Command running in background with ID: b1x. Output is being written to: /tmp/claude/b1x.output';
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output_delta: { terminal_id: id, data: placeholder } } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', _meta: { claudeCode: { toolName: 'Bash' } } });
  assert.equal(t.terminalView(id)?.output, placeholder);
  assert.equal(t.terminalView(id)?.exit, undefined, 'the command still runs although its card completed');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output: { terminal_id: id, data: 'watching…\n' } } });
  assert.equal(t.terminalView(id)?.output, 'watching…\n', 'the placeholder is gone, not left above the real output');
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output_delta: { terminal_id: id, data: 'rebuilt\n' } } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_exit: { terminal_id: id, exit_code: null, signal: null } } });
  assert.equal(t.terminalView(id)?.output, 'watching…\nrebuilt\n');
  assert.deepEqual(t.terminalView(id)?.exit, { exitCode: null, signal: null });
  // A command that printed nothing still replaces the placeholder (an empty snapshot).
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'b2', _meta: { terminal_output_delta: { terminal_id: 'b2', data: placeholder } } });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'b2', _meta: { terminal_output: { terminal_id: 'b2', data: '' } } });
  assert.equal(t.terminalView('b2')?.output, '');
});

test("an agent that never sends a delta (Zed's convention, codex-acp declaring only terminal_output) has its terminal_output chunks appended", () => {
  const { t } = thread();
  // The chunks codex-acp 2.6 sent a client that declared only `terminal_output`.
  const chunks = ['building 50%\rbuilding 100%\n', '\u001b[32mbuilt ok\u001b[0m\n'];
  for (const data of chunks) t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output: { terminal_id: 'c1', data } } });
  assert.equal(t.terminalView('c1')?.output, chunks.join(''));
});
