// Terminal cards of a stored transcript: nothing of the editor run that saved them is running any
// more, so a terminal saved while its command ran comes back as ended with that run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTranscript } from '../../src/store/conversationFormat';
import { TerminalViews } from '../../src/thread/terminalViews';

test('a terminal restored without an exit is marked as lost with the earlier run; one with an exit keeps it', () => {
  const views = new TerminalViews();
  views.restore({
    t1: { terminalId: 't1', command: 'sleep 300', output: 'waiting\n', truncated: false },
    t2: { terminalId: 't2', command: 'true', output: '', truncated: false, exit: { exitCode: 0, signal: null } },
  });
  assert.deepEqual(views.get('t1')?.exit, { exitCode: null, signal: null, lost: true });
  assert.deepEqual(views.get('t2')?.exit, { exitCode: 0, signal: null });
});

test('the lost mark survives a save and a load; a hand-edited one is read as a boolean only', () => {
  const stored = (exit: unknown) =>
    JSON.stringify({ version: 1, entries: [], terminals: { t1: { terminalId: 't1', command: 'c', output: '', truncated: false, exit } } });
  const lost = parseTranscript(stored({ exitCode: null, signal: null, lost: true }));
  assert.ok(lost.ok);
  assert.deepEqual(lost.value.terminals.t1?.exit, { exitCode: null, signal: null, lost: true });
  const odd = parseTranscript(stored({ exitCode: 1, signal: null, lost: 'yes' }));
  assert.ok(odd.ok);
  assert.deepEqual(odd.value.terminals.t1?.exit, { exitCode: 1, signal: null });
});
