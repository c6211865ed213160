// The bundled "Tandem Demo" agent works out of the box in the installed .vsix: selected by
// tandem.defaultAgent alone (no tandem.agents entry), it streams a turn with tool calls to the end.
import assert from 'node:assert/strict';
import { scenario, useE2e } from './harness/e2e';
import { waitUntil } from './harness/workbench';

const e2e = useE2e();

scenario(e2e, 'the demo agent holds a conversation with no agent configured', async (s) => {
  const workspace = s.workspace({
    files: { 'README.md': '# Demo\n', 'src/hello.ts': 'export function hello(): string {\n  return "hi";\n}\n' },
    settings: { 'tandem.defaultAgent': 'Tandem Demo' },
  });
  const { chat } = await s.open(workspace);

  await chat.send('Show me what you can do');
  // The demo asks for permission on the way: allow whatever it asks until the turn ends.
  await waitUntil(async () => {
    if ((await chat.stopReasons().count()) > 0) return true;
    const allow = chat.frame.locator('[role="group"][aria-label^="Permission"] button[data-option-kind^="allow"]');
    if (await allow.first().isVisible()) await allow.first().click();
    return false;
  }, 'the demo turn to finish', 90_000);

  assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');
  assert.ok((await chat.entries('agent').count()) >= 1, 'the demo streamed an answer');
  assert.ok((await chat.entries('tool_call').count()) >= 1, 'the demo showed tool calls');
  assert.equal(await chat.entries('error').count(), 0);
}, 150_000);
