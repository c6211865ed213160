/**
 * "Open in terminal" follows an agent terminal through its thread: appends are written as they
 * come, and a snapshot that replaced the output (v2 `terminal_update`, claude's `terminal_output`)
 * redraws the mirror, so it never keeps showing output the agent took back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Thread } from '../../src/thread/thread';
import { feedTerminalMirror } from '../../src/vscode/terminals/terminalMirrorFeed';

const CLEAR = '\x1b[2J\x1b[3J\x1b[H';
const b64 = (text: string) => Buffer.from(text).toString('base64');

function mirrored(terminalId: string, setUp: (t: Thread) => void) {
  const t = new Thread({
    isInWorkspace: () => true,
    roots: () => ['/w'],
    warn: () => undefined,
    emit: () => undefined,
    follow: () => undefined,
    titled: () => undefined,
    readDisk: async () => null,
  });
  setUp(t);
  const view = t.terminalView(terminalId);
  assert.ok(view);
  const writes: string[] = [];
  const feed = feedTerminalMirror(
    view,
    (l) => t.onTerminalOutput(l),
    (d) => writes.push(d),
  );
  return { t, writes, feed };
}

test('the mirror replays the output, follows appends, and redraws from a v2 terminal_update snapshot', () => {
  const { t, writes, feed } = mirrored('term-1', (t) => {
    t.dispatch({ sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'npm test' });
    t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64('stale line\n') });
  });
  assert.deepEqual(writes, ['\x1b[2m$ npm test\x1b[0m\r\n', 'stale line\r\n']);
  t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64('more\n') });
  assert.equal(writes.at(-1), 'more\r\n');
  t.dispatch({ sessionUpdate: 'terminal_update', terminalId: 'term-1', output: { data: b64('replaced\n') } });
  const last = writes.at(-1) ?? '';
  assert.ok(last.startsWith(CLEAR), 'the screen and scrollback are cleared first');
  assert.equal(last, `${CLEAR}\x1b[2m$ npm test\x1b[0m\r\nreplaced\r\n`);
  // Another terminal's output stays out; after dispose nothing more is written.
  t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'other', data: b64('x') });
  feed.dispose();
  t.dispatch({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64('late\n') });
  assert.equal(writes.at(-1), last);
});

test("the mirror redraws when claude's terminal_output replaces a background command's placeholder", () => {
  const { t, writes } = mirrored('toolu_bg', (t) => {
    t.dispatch({
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_bg',
      title: 'npm run watch',
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 'toolu_bg' }],
      _meta: { terminal_info: { terminal_id: 'toolu_bg' } },
    });
    t.dispatch({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'toolu_bg',
      _meta: { terminal_output_delta: { terminal_id: 'toolu_bg', data: 'Command running in background with ID: b1x.' } },
    });
  });
  t.dispatch({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_bg', _meta: { terminal_output: { terminal_id: 'toolu_bg', data: 'watching\n' } } });
  assert.equal(writes.at(-1), `${CLEAR}\x1b[2m$ npm run watch\x1b[0m\r\nwatching\r\n`);
  assert.ok(!(writes.at(-1) ?? '').includes('background with ID'));
});
