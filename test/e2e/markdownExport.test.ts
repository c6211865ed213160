// Export as Markdown in real VS Code (code-server, the packaged .vsix), issue 36: a real conversation
// with the scripted agent process (a reply with a nested fence, a plan, an edit with its diff, a
// command run in a terminal, a secret in the agent's env) is written by `Tandem: Export Conversation
// as Markdown…` to the file the save dialog proposes, with every section and the secret masked, and
// opens in an editor; Copy as Markdown on a reply puts that reply on the clipboard and says so.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { answerFileDialog } from './harness/dialogs';
import { scenario, useE2e } from './harness/e2e';
import { agentSettings, say } from './harness/workspace';
import { runCommand, uiTimeout, waitUntil } from './harness/workbench';

const e2e = useE2e();
const SECRET = 'sk-ant-e2e-markdown-secret-0123456789';
const update = (u: Record<string, unknown>): Record<string, unknown> => ({ update: u });

scenario(e2e, 'Export Conversation as Markdown writes the conversation with its sections and opens it; Copy as Markdown copies one reply', async (s) => {
  const agent = s.agent({
    turns: [
      {
        steps: [
          update({ sessionUpdate: 'plan', entries: [{ content: 'Greet the world', priority: 'high', status: 'completed' }] }),
          say(`Here is the fix (key ${SECRET}):\n\n\`\`\`\`md\n\`\`\`js\nconsole.log('hi');\n\`\`\`\n\`\`\`\`\n`),
          update({
            sessionUpdate: 'tool_call',
            toolCallId: 'edit-1',
            title: 'Edit greet.ts',
            kind: 'edit',
            status: 'completed',
            content: [{ type: 'diff', path: '${cwd}/greet.ts', oldText: "export const greet = 'hello';\n", newText: "export const greet = 'Hello, world';\n" }],
          }),
          update({ sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'Run the greeting', kind: 'execute', status: 'in_progress' }),
          { terminal: { command: 'sh', args: ['-c', 'echo greeting-output-line'] }, toolCallId: 'run-1' },
          update({ sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'completed' }),
          say('Done.'),
        ],
        stopReason: 'end_turn',
      },
    ],
  });
  agent.config.env = { ...agent.config.env, SCRIPTED_KEY: SECRET };
  const workspace = s.workspace({ files: { 'greet.ts': "export const greet = 'hello';\n" }, settings: agentSettings('Scripted', agent.config) });
  const { workbench, chat } = await s.open(workspace);
  const page = workbench.page;

  await chat.send('Fix the greeting');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');

  // The save dialog proposes the title's name in the workspace folder; the file is written and opened.
  await runCommand(page, 'Tandem: Export Conversation as Markdown…');
  const proposed = page.locator('.quick-input-widget input');
  await waitUntil(async () => /\/fix-the-greeting\.md$/.test(await proposed.inputValue()), 'the save dialog to propose a name from the title');
  assert.equal(dirname(await proposed.inputValue()), workspace.dir, 'the save dialog starts in the workspace folder');
  const file = join(workspace.dir, 'exported.md');
  await answerFileDialog(page, file);
  await waitUntil(async () => existsSync(file) && readFileSync(file, 'utf8').includes('## Files changed'), 'the exported Markdown');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^# Fix the greeting\n/);
  assert.match(text, /\*\*Agent:\*\* Scripted/);
  assert.match(text, /\*\*Started:\*\* \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  assert.match(text, /## You\n\nFix the greeting\n\n## Scripted\n/);
  assert.match(text, /- \[x\] Greet the world/);
  assert.match(text, /````md\n```js\nconsole\.log\('hi'\);\n```\n````/, 'the reply’s nested fence kept as written');
  assert.match(
    text,
    /- \*\*Edit\*\* · Edit greet\.ts · \*completed\*\n\n```diff\n--- a\/greet\.ts\n\+\+\+ b\/greet\.ts\n@@ -1,1 \+1,1 @@\n-export const greet = 'hello';\n\+export const greet = 'Hello, world';\n```/,
  );
  assert.match(text, /- \*\*Run\*\* · Run the greeting · \*completed\*\n\n```console\n\$ sh .*greeting-output-line.*\ngreeting-output-line\n```/);
  assert.match(text, /## Files changed\n\n- `greet\.ts` — modified \(\+1 −1\)/);
  assert.ok(!text.includes(SECRET), "the agent's env value is masked");
  assert.match(text, /\(key \[REDACTED\]\)/);
  await page.locator('.tabs-container .tab', { hasText: 'exported.md' }).waitFor({ timeout: uiTimeout });
  // The review does not count Tandem's own file as the agent's change.
  assert.equal(await chat.frame.locator('.changed-files').getByText('exported.md').count(), 0);

  // Copy as Markdown on the first reply: the host masks it onto the clipboard, the panel announces it.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  const reply = chat.entries('agent').first();
  await reply.getByRole('button', { name: 'Copy as Markdown' }).click();
  await waitUntil(async () => /Copied as Markdown\./.test((await chat.frame.locator('[data-announcer]').textContent()) ?? ''), 'the copy announced');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, "Here is the fix (key [REDACTED]):\n\n````md\n```js\nconsole.log('hi');\n```\n````\n");
});
