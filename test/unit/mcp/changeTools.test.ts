// The changing tools over a scripted editor: edit_file's exact-once matching and one whole-text
// write, write_file, and run_in_terminal's exit code and output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { applyEdits } from '../../../src/mcp/changeTools';
import { EditorToolRegistry } from '../../../src/mcp/toolRegistry';
import { fakePort, fakeWorkspace, methods, type FakePortOptions } from '../../support/fakeToolPort';

const signal = new AbortController().signal;

function rig(t: { after: (fn: () => void) => void }, text: string | undefined, opts: FakePortOptions = {}) {
  const w = fakeWorkspace(t);
  const file = text === undefined ? path.join(w.ws, 'src/a.ts') : w.file('src/a.ts', text);
  const port = fakePort(w, opts);
  const registry = new EditorToolRegistry(port);
  return { w, file, port, call: (name: string, args: Record<string, unknown>) => registry.call(name, args, signal) };
}

test('edit_file: edits apply in order on the editor text, and writeText gets the whole new text once', async (t) => {
  const r = rig(t, 'const a = 1;\nconst b = 2;\nexport { a, b };\n');
  const outcome = await r.call('edit_file', {
    path: 'src/a.ts',
    edits: [
      { oldText: 'const a = 1;', newText: 'const a = 10;' },
      { oldText: 'const b = 2;\n', newText: '' },
      // Sees the text the first two edits left.
      { oldText: 'a = 10;\nexport { a, b }', newText: 'a = 10;\nexport { a }' },
    ],
  });
  assert.deepEqual(outcome, { text: 'Edited src/a.ts (3 replacements).', isError: false, truncated: false });
  assert.deepEqual(r.port.writes, [{ path: r.file, text: 'const a = 10;\nexport { a };\n' }]);
  assert.deepEqual(methods(r.port), ['readText', 'writeText']);
});

test('edit_file: an oldText found nowhere is an error naming it, and nothing is written', async (t) => {
  const r = rig(t, 'one\ntwo\n');
  const single = await r.call('edit_file', { path: 'src/a.ts', edits: [{ oldText: 'three', newText: '3' }] });
  assert.deepEqual(single, {
    text: 'edit_file failed: oldText was not found in the file. Read the file again and copy the text exactly.',
    isError: true,
    truncated: false,
  });
  const later = await r.call('edit_file', {
    path: 'src/a.ts',
    edits: [
      { oldText: 'one', newText: 'uno' },
      { oldText: 'one', newText: 'eins' },
    ],
  });
  assert.equal(
    later.text,
    'edit_file failed: edits[1].oldText was not found in the file (after the earlier edits). Read the file again and copy the text exactly.',
  );
  assert.deepEqual(r.port.writes, [], 'an earlier edit that matched is not written either');
});

test('edit_file: an oldText found more than once is an error with the count, and nothing is written', async (t) => {
  const r = rig(t, 'x = 1;\nx = 1;\nx = 1;\ny = 2;\n');
  const outcome = await r.call('edit_file', {
    path: 'src/a.ts',
    edits: [
      { oldText: 'y = 2;', newText: 'y = 3;' },
      { oldText: 'x = 1;', newText: 'x = 2;' },
    ],
  });
  assert.equal(outcome.isError, true);
  assert.equal(outcome.text, 'edit_file failed: edits[1].oldText occurs 3 times in the file; include more surrounding lines so it occurs once.');
  assert.deepEqual(r.port.writes, []);
});

test('edit_file: overlapping occurrences count as more than one, with the right count', () => {
  assert.throws(() => applyEdits('aaa', [{ oldText: 'aa', newText: 'b' }]), /^Error: oldText occurs 2 times in the file/);
  assert.throws(() => applyEdits('abab-abab', [{ oldText: 'abab', newText: '' }]), /occurs 2 times/);
});

test('edit_file: replacement text is taken literally ($ patterns are not special)', () => {
  assert.equal(applyEdits('price', [{ oldText: 'price', newText: "$& $1 $$ $'" }]), "$& $1 $$ $'");
});

test('edit_file: an oldText written with \\n matches a CRLF file, and the new text gets CRLF', async (t) => {
  const r = rig(t, 'one\r\ntwo\r\nthree\r\n');
  const outcome = await r.call('edit_file', { path: 'src/a.ts', edits: [{ oldText: 'one\ntwo', newText: 'one\n1.5\ntwo' }] });
  assert.equal(outcome.isError, false, outcome.text);
  assert.deepEqual(r.port.writes, [{ path: r.file, text: 'one\r\n1.5\r\ntwo\r\nthree\r\n' }]);
});

test('edit_file: edits that change nothing write nothing and say so', async (t) => {
  const r = rig(t, 'same\n');
  assert.equal(
    (await r.call('edit_file', { path: 'src/a.ts', edits: [{ oldText: 'same', newText: 'same' }] })).text,
    'No change: the edits leave src/a.ts as it is.',
  );
  assert.deepEqual(r.port.writes, []);
});

test('edit_file: a missing file points to write_file', async (t) => {
  const r = rig(t, undefined);
  assert.equal(
    (await r.call('edit_file', { path: 'src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] })).text,
    'edit_file failed: src/a.ts does not exist. Use write_file to create it.',
  );
});

test('edit_file and write_file: a refused write (permission, review) is the error the model reads', async (t) => {
  const r = rig(t, 'a\n', {
    writeText: () => Promise.reject(new Error('The user refused this edit.')),
  });
  assert.deepEqual(await r.call('edit_file', { path: 'src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] }), {
    text: 'edit_file failed: The user refused this edit.',
    isError: true,
    truncated: false,
  });
  assert.deepEqual(await r.call('write_file', { path: 'src/a.ts', content: 'b\n' }), {
    text: 'write_file failed: The user refused this edit.',
    isError: true,
    truncated: false,
  });
});

test('write_file: the whole content to writeText at the real path, new files and folders included', async (t) => {
  const r = rig(t, 'old\n');
  assert.equal((await r.call('write_file', { path: 'src/a.ts', content: 'new\n' })).text, 'Wrote src/a.ts (4 characters).');
  assert.equal((await r.call('write_file', { path: 'src/deep/new/b.ts', content: '' })).text, 'Wrote src/deep/new/b.ts (0 characters).');
  assert.deepEqual(r.port.writes, [
    { path: r.file, text: 'new\n' },
    { path: path.join(r.w.ws, 'src/deep/new/b.ts'), text: '' },
  ]);
  assert.deepEqual(methods(r.port), ['writeText', 'writeText'], 'write_file does not read first');
});

test('write_file and edit_file never write inside .git, and outside the workspace only with consent', async (t) => {
  const r = rig(t, 'a\n');
  r.w.file('.git/config', '[core]\n');
  const git = await r.call('write_file', { path: '.git/config', content: '[core]\n\tfsmonitor = evil\n' });
  assert.match(git.text, /^write_file failed: Tandem does not let agents write inside \.git/);
  const edit = await r.call('edit_file', { path: '.git/config', edits: [{ oldText: '[core]', newText: '[x]' }] });
  assert.match(edit.text, /^edit_file failed: Tandem does not let agents write inside \.git/);
  const outside = await r.call('write_file', { path: path.join(r.w.outside, 'x.txt'), content: 'x' });
  assert.match(outside.text, /is outside the workspace folders; the user did not allow write access/);
  assert.deepEqual(r.w.asked, [{ path: path.join(r.w.outside, 'x.txt'), op: 'write' }]);
  assert.deepEqual(r.port.writes, []);
});

test('run_in_terminal: the command to the terminal; exit code and output back, a failure is an answer', async (t) => {
  const r = rig(t, undefined, {
    runCommand: async (command) =>
      command === 'npm test' ? { exitCode: 1, output: '1 failing\n', truncated: false } : { exitCode: null, signal: 'SIGTERM', output: '', truncated: false },
  });
  assert.deepEqual(await r.call('run_in_terminal', { command: 'npm test' }), { text: 'exit code 1\n1 failing\n', isError: false, truncated: false });
  assert.equal((await r.call('run_in_terminal', { command: 'sleep 9' })).text, 'ended by signal SIGTERM\n');
  assert.deepEqual(
    r.port.calls.map((c) => c.args),
    [['npm test'], ['sleep 9']],
  );
});

test('run_in_terminal: long output keeps its end, says the start was dropped, and is marked truncated', async (t) => {
  const output = `${'start\n'.repeat(10_000)}the verdict: ok\n`;
  const r = rig(t, undefined, { runCommand: async () => ({ exitCode: 0, output, truncated: false }) });
  const outcome = await r.call('run_in_terminal', { command: 'build' });
  assert.ok(outcome.text.length <= 48_000, `${outcome.text.length}`);
  assert.match(outcome.text, /^exit code 0\n\[truncated: the start of the output was dropped; showing the last 47500 characters\]\n/);
  assert.ok(outcome.text.endsWith('the verdict: ok\n'));
  const tool = rig(t, undefined, { runCommand: async () => ({ exitCode: 0, output: 'tail only', truncated: true }) });
  const dropped = await tool.call('run_in_terminal', { command: 'build' });
  assert.equal(dropped.text, 'exit code 0\n[truncated: the start of the output was dropped; showing the last 9 characters]\ntail only');
});

test('run_in_terminal: the kept tail never starts inside a surrogate pair', async (t) => {
  // 60,001 units, 47,500 kept: the cut falls between the two UTF-16 units of an emoji.
  const output = `${'😀'.repeat(30_000)}x`;
  const r = rig(t, undefined, { runCommand: async () => ({ exitCode: 0, output, truncated: false }) });
  const text = (await r.call('run_in_terminal', { command: 'emoji' })).text;
  const body = text.slice(text.indexOf(']\n') + 2);
  const first = body.charCodeAt(0);
  assert.ok(!(first >= 0xdc00 && first <= 0xdfff), 'starts with a lone low surrogate');
  assert.equal(body, `${'😀'.repeat((body.length - 1) / 2)}x`);
});
