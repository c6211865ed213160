// Context in, in real VS Code (code-server) with a scripted agent as a real process that records
// the prompt blocks it receives: an @ mention picked with the keyboard, a selection added from the
// editor's context menu (with unsaved edits: the agent gets the editor's text), a file added from
// the Explorer's context menu, a pasted image, and an agent that takes neither embedded context
// nor images (links only; the image is refused and not sent).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { scenario, useE2e } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { openFile, waitUntil } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';

const e2e = useE2e();

type Block = { type: string; text?: string; uri?: string; name?: string; mimeType?: string; data?: string; resource?: { uri: string; text?: string } };

/** The `prompt` of each session/prompt the agent received, in order. */
function prompts(logFile: string): Block[][] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method?: string; params?: { prompt?: Block[] } })
    .filter((m) => m.method === 'session/prompt')
    .map((m) => m.params?.prompt ?? []);
}

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Pastes a PNG into the composer the way the browser delivers a clipboard image. */
async function pasteImage(chat: Chat, name: string): Promise<void> {
  await chat.composer.evaluate(
    (el, { name, data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { name, data: PNG_1PX },
  );
}

/** Clicks an entry of the context menu VS Code shows (its own, not the browser's). */
async function contextMenuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .monaco-menu .action-menu-item', { hasText: label }).first();
  await item.waitFor({ state: 'visible' });
  // The menu ignores a click that comes right after it opened (the right button's own mouseup).
  await item.hover();
  await page.waitForTimeout(300);
  await item.click();
  await item.waitFor({ state: 'hidden', timeout: 5000 });
}

scenario(
  e2e,
  'an @ mention, a selection with unsaved edits from the editor menu, a file from the Explorer menu and a pasted image reach the agent',
  async (s) => {
    const agent = s.agent({
      initialize: { agentCapabilities: { promptCapabilities: { embeddedContext: true, image: true } } },
      turns: [{ steps: [say('seen')] }],
    });
    const workspace = s.workspace({
      files: { 'src/calc.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n', 'notes.md': '# Notes\n' },
      // VS Code for the web saves after a delay by default; the edit must stay unsaved here.
      settings: { ...agentSettings('Scripted', agent.config), 'files.autoSave': 'off' },
    });
    const calc = workspace.path('src/calc.ts');
    const { chat, workbench } = await s.open(workspace);
    const page = workbench.page;

    // @ with the keyboard: the picker lists the file, Enter makes it a chip.
    await chat.composer.click();
    await chat.composer.pressSequentially('@calc');
    const picker = chat.frame.locator('[role="listbox"][aria-label^="Mention"]');
    await picker.waitFor({ timeout: 30_000 });
    await waitUntil(
      async () => /calc\.ts/.test((await picker.locator('[role="option"][aria-selected="true"]').textContent()) ?? ''),
      'calc.ts to be the first suggestion',
    );
    await chat.composer.press('Enter');
    const fileChip = chat.frame.locator(`.composer [data-mention-uri="file://${calc}"]`);
    await fileChip.waitFor({ timeout: 10_000 });
    await chat.composer.pressSequentially('explain');
    await chat.composer.press('Enter');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    let sent = prompts(agent.logFile)[0];
    assert.equal(sent[0].type, 'text');
    assert.match(sent[0].text ?? '', /explain/);
    const embedded = sent.find((b) => b.type === 'resource');
    assert.equal(embedded?.resource?.uri, `file://${calc}`);
    assert.match(embedded?.resource?.text ?? '', /return a \+ b/);
    assert.equal(await chat.entries('user').first().locator(`[data-mention-uri="file://${calc}"]`).count(), 1, 'the user entry shows the chip');

    // A selection from the editor's context menu, with an unsaved edit in it.
    const editor = await openFile(page, 'calc.ts');
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('const UNSAVED = 1;');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await editor.locator('.view-lines').click({ button: 'right', position: { x: 20, y: 5 } });
    await contextMenuItem(page, 'Add Selection to Conversation');
    const selectionChip = chat.frame.locator(`[data-mention-uri="file://${calc}#L1-L2"]`).first();
    await selectionChip.waitFor({ timeout: 15_000 });

    // A file from the Explorer's context menu: the Explorer takes the side bar (the panel's webview
    // goes away), the command brings the panel back, and the selection chip is still there.
    await page.keyboard.press('Control+Shift+E');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes.md' }).first();
    await row.click({ button: 'right' });
    await contextMenuItem(page, 'Add File to Conversation');
    await chat.frame
      .locator(`[data-mention-uri="file://${workspace.path('notes.md')}"]`)
      .first()
      .waitFor({ timeout: 15_000 });
    assert.equal(await chat.frame.locator(`.composer [data-mention-uri="file://${calc}#L1-L2"]`).count(), 1, 'the selection chip survived the reload');

    // A pasted image: a chip with a thumbnail.
    await pasteImage(chat, 'shot.png');
    await chat.frame.locator('[data-mention-kind="image"]').first().waitFor({ timeout: 10_000 });

    await chat.composer.click();
    await chat.composer.pressSequentially('and these');
    await chat.composer.press('Enter');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    sent = prompts(agent.logFile)[1];
    const selection = sent.find((b) => b.type === 'resource' && b.resource?.uri === `file://${calc}#L1-L2`);
    assert.ok(selection, `the selection as a resource: ${JSON.stringify(sent.map((b) => b.resource?.uri ?? b.type))}`);
    assert.equal(
      selection.resource?.text,
      'const UNSAVED = 1;\nexport function add(a: number, b: number) {\n',
      'the editor’s unsaved text, the selected lines only',
    );
    assert.ok(
      sent.some((b) => b.type === 'resource' && b.resource?.uri === `file://${workspace.path('notes.md')}`),
      'notes.md embedded',
    );
    const image = sent.find((b) => b.type === 'image');
    assert.equal(image?.mimeType, 'image/png');
    assert.equal(image?.data, PNG_1PX);
    assert.equal(readFileSync(calc, 'utf8').includes('UNSAVED'), false, 'nothing was saved to disk');
  },
);

scenario(e2e, 'an agent without embeddedContext or image support: files go as links, an image is refused and not sent', async (s) => {
  const agent = s.agent({ turns: [{ steps: [say('seen')] }] });
  const workspace = s.workspace({ files: { 'lib.py': 'print("hi")\n' }, settings: agentSettings('Scripted', agent.config) });
  const lib = workspace.path('lib.py');
  const { chat } = await s.open(workspace);
  await chat.composer.click();
  await chat.composer.pressSequentially('@lib');
  const picker = chat.frame.locator('[role="listbox"][aria-label^="Mention"]');
  await picker.waitFor({ timeout: 30_000 });
  await waitUntil(async () => /lib\.py/.test((await picker.locator('[role="option"][aria-selected="true"]').textContent()) ?? ''), 'lib.py suggested');
  await chat.composer.press('Enter');
  await chat.frame.locator(`[data-mention-uri="file://${lib}"]`).first().waitFor();
  await pasteImage(chat, 'shot.png');
  const imageChip = chat.frame.locator('[data-mention-kind="image"]').first();
  await imageChip.waitFor({ timeout: 10_000 });
  // Once the agent initialized the composer knows it takes no images, and says so before sending.
  await waitUntil(
    async () => /does not accept images/.test((await chat.frame.locator('.composer-warning').textContent()) ?? ''),
    'the composer to say the agent does not take images',
  );
  await chat.composer.pressSequentially('read it');
  await chat.composer.press('Enter');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const [sent] = prompts(agent.logFile);
  assert.deepEqual(
    sent.map((b) => b.type),
    ['text', 'resource_link'],
    'text and a link, no image',
  );
  assert.equal(sent[1].uri, `file://${lib}`);
  assert.equal(sent[1].name, 'lib.py');
});

/** Types `@query` in the composer and picks the suggestion that reads `label`. */
async function mention(chat: Chat, query: string, label: RegExp): Promise<void> {
  await chat.composer.pressSequentially(`@${query}`);
  const option = chat.frame.locator('[role="listbox"][aria-label^="Mention"] [role="option"][aria-selected="true"]');
  await waitUntil(async () => label.test((await option.textContent()) ?? ''), `${label} to be the first suggestion for @${query}`);
  await chat.composer.press('Enter');
}

scenario(e2e, 'problems, a terminal’s output and the git diff are read from VS Code when the prompt goes', async (s) => {
  const agent = s.agent({
    initialize: { agentCapabilities: { promptCapabilities: { embeddedContext: true } } },
    turns: [{ steps: [say('seen')] }],
  });
  const workspace = s.workspace({
    files: { 'tracked.txt': 'old line\n', 'bad.json': '{ "a": }\n' },
    settings: { ...agentSettings('Scripted', agent.config), 'files.autoSave': 'off' },
  });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: workspace.dir });
  git('init', '-q');
  git('add', 'tracked.txt');
  git('commit', '-qm', 'start');
  writeFileSync(workspace.path('tracked.txt'), 'new line\n');
  const { chat, workbench } = await s.open(workspace);
  const page = workbench.page;

  // A JSON error the JSON language service reports for the open file.
  await openFile(page, 'bad.json');
  await waitUntil(
    async () => /[1-9]/.test((await page.locator('.statusbar-item[id="status.problems"]').textContent()) ?? ''),
    'the problem in bad.json to be reported',
    60_000,
  );
  // A command run in a VS Code terminal with shell integration.
  await page.keyboard.press('Control+`');
  const terminal = page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').first();
  await terminal.waitFor({ state: 'visible', timeout: 30_000 });
  await terminal.click();
  await page.waitForTimeout(1500);
  await page.keyboard.type('echo TERMINAL-MARKER-$((6*7)) | tee printed.txt');
  await page.keyboard.press('Enter');
  // The terminal draws on a canvas: the file says the command ran.
  await waitUntil(async () => existsSync(workspace.path('printed.txt')), 'the command to run');
  await page.waitForTimeout(1000);

  await chat.composer.click();
  await mention(chat, 'problems', /^Problems$|Problems(?!:)/);
  await mention(chat, 'git', /Git diff/);
  await mention(chat, 'bash', /bash/);
  for (const uri of ['tandem://problems', 'tandem://git/diff', 'tandem://terminal/bash'])
    await chat.frame.locator(`.composer [data-mention-uri="${uri}"]`).waitFor({ timeout: 10_000 });
  await chat.composer.pressSequentially('why');
  await chat.composer.press('Enter');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const [sent] = prompts(agent.logFile);
  const text = (uri: string) => sent.find((b) => b.type === 'resource' && b.resource?.uri === uri)?.resource?.text ?? `(no ${uri} in ${JSON.stringify(sent)})`;
  assert.match(text('tandem://problems'), /bad\.json:1:\d+/);
  assert.match(text('tandem://git/diff'), /-old line\n\+new line/);
  assert.match(text('tandem://terminal/bash'), /TERMINAL-MARKER-42/);
});
