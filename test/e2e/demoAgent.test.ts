// The bundled "Tandem Demo" agent works out of the box in the installed .vsix: selected by
// tandem.defaultAgent alone (no tandem.agents entry), it streams a turn with tool calls to the end.
import assert from 'node:assert/strict';
import { scenario, useE2e } from './harness/e2e';
import { headerPicker, waitUntil } from './harness/workbench';

const e2e = useE2e();

scenario(
  e2e,
  'the demo agent holds a conversation with no agent configured',
  async (s) => {
    const workspace = s.workspace({
      files: { 'README.md': '# Demo\n', 'src/hello.ts': 'export function hello(): string {\n  return "hi";\n}\n' },
      settings: { 'tandem.defaultAgent': 'Tandem Demo' },
    });
    const { chat } = await s.open(workspace);

    await chat.send('Show me what you can do');
    // The demo asks for permission on the way: allow whatever it asks until the turn ends.
    await waitUntil(
      async () => {
        if ((await chat.stopReasons().count()) > 0) return true;
        const allow = chat.frame.locator('[role="group"][aria-label^="Permission"] button[data-option-kind^="allow"]');
        if (await allow.first().isVisible()) await allow.first().click();
        return false;
      },
      'the demo turn to finish',
      90_000,
    );

    assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');
    assert.ok((await chat.entries('agent').count()) >= 1, 'the demo streamed an answer');
    assert.ok((await chat.entries('tool_call').count()) >= 1, 'the demo showed tool calls');
    assert.equal(await chat.entries('error').count(), 0);
  },
  150_000,
);

scenario(e2e, 'slash commands and modes from the agent: "/" suggests, the Mode picker switches', async (s) => {
  const workspace = s.workspace({ files: { 'README.md': '# Demo\n' }, settings: { 'tandem.defaultAgent': 'Tandem Demo' } });
  const { chat } = await s.open(workspace);
  const mode = await headerPicker(chat, 'select[aria-label="Mode"]');
  assert.equal(await mode.inputValue(), 'tour');
  await mode.selectOption('fast');
  // The agent confirms with current_mode_update; the picker shows what the agent says.
  await waitUntil(async () => (await mode.inputValue()) === 'fast', 'the mode to switch to Fast');

  await chat.composer.fill('/pl');
  const list = chat.frame.getByRole('listbox');
  await list.waitFor({ state: 'visible' });
  const options = await list.getByRole('option').allTextContents();
  assert.equal(options.length, 1, `only /plan matches "/pl": ${JSON.stringify(options)}`);
  assert.match(options[0], /^\/plan/);
  await chat.composer.press('Enter');
  assert.equal(await chat.composer.inputValue(), '/plan ');
  await chat.composer.press('Enter');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.equal(await chat.entries('plan').count(), 1, 'the /plan command ran the plan show');
});
