// Code blocks of a reply in real VS Code (code-server, installed .vsix), with a scripted agent as a
// real process: the block is highlighted inside the real webview (the highlighter bundle loads under
// the real CSP), Insert at Cursor puts the exact code at the active editor's cursor as one undoable
// edit, and New File opens an untitled editor in the block's language.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scenario, useE2e } from './harness/e2e';
import { openFile, waitUntil } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';

const e2e = useE2e();

const CODE = 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n';
const ORIGINAL = 'export const one = 1;\n';

scenario(e2e, 'a highlighted code block goes into the active editor at its cursor (one Undo), and into a new TypeScript file', async (s) => {
  const agent = s.agent({ turns: [{ steps: [say('Here it is:\n\n```ts\n'), say(CODE.slice(0, 30)), say(CODE.slice(30) + '```\n\nDone.')] }] });
  const workspace = s.workspace({
    files: { 'src/app.ts': ORIGINAL },
    settings: { ...agentSettings('Scripted', agent.config), 'files.autoSave': 'off' },
  });
  const file = workspace.path('src/app.ts');
  const { chat, workbench } = await s.open(workspace);
  const page = workbench.page;

  // The editor first, its cursor at the end of the file.
  const editor = await openFile(page, 'app.ts');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');

  await chat.send('show me a greeting function');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const block = chat.entries('agent').locator('.code-block').first();
  await block.locator('.hljs-keyword').first().waitFor({ timeout: 30_000 });
  assert.equal(await block.locator('pre code').textContent(), CODE);

  await chat.button('Insert at Cursor', block).click();
  // Saved from the editor, the file is the original text with the code at the cursor.
  await waitUntil(async () => (await editor.locator('.view-lines').textContent())?.includes('greet(name') ?? false, 'the code in the editor');
  await editor.locator('.view-lines').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+S');
  // (Saving truncates, then writes: wait for the whole text rather than for any change.)
  const inserted = ORIGINAL + CODE.slice(0, -1);
  await waitUntil(async () => readFileSync(file, 'utf8') === inserted, 'the file to be saved with the code at the cursor').catch(() => {
    assert.equal(readFileSync(file, 'utf8'), inserted);
  });
  // One Undo takes the whole insertion back.
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+S');
  await waitUntil(async () => readFileSync(file, 'utf8') === ORIGINAL, 'one Undo to restore the file');

  await chat.button('New File', block).click();
  // An untitled editor is titled by its first line, with "Untitled-N" beside it.
  const tab = page.locator('.editor-group-container.active .tab.active');
  await waitUntil(async () => /Untitled-\d/.test(`${await tab.getAttribute('aria-label')} ${await tab.textContent()}`), 'an untitled editor');
  const language = page.locator('.statusbar-item#status\\.editor\\.mode');
  await waitUntil(async () => ((await language.textContent()) ?? '').includes('TypeScript'), 'the new editor to be TypeScript');
  const untitled = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  // The editor draws spaces as no-break spaces.
  assert.match(((await untitled.textContent()) ?? '').replace(/\u00a0/g, ' '), /export function greet\(name: string\)/);
});
