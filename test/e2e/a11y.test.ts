// The accessibility audit again in real VS Code (code-server 1.100.3, its webview, its theme
// variables and default webview styles), with the bundled demo agent: axe-core inside the panel's
// frame finds nothing serious before a turn, with a permission prompt waiting and after the turn
// (cards, diff, terminal, plan), in Dark Modern and Light Modern; the Agent picker's keyboard
// focus ring is the theme's focusBorder at >= 3:1.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { audit, blocking, describe, focusIndicator, themeColour } from '../webview/harness/audit';
import { scenario, useE2e } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { waitUntil } from './harness/workbench';

const e2e = useE2e();

async function panelFrame(chat: Chat): Promise<Frame> {
  const frame = await (await chat.frame.locator('html').elementHandle())?.ownerFrame();
  if (!frame) throw new Error('the panel frame is not there');
  return frame;
}

async function assertNothingSerious(frame: Frame, where: string): Promise<void> {
  const { violations } = await audit(frame);
  assert.equal(describe(blocking(violations)), '', `${where}: no serious or critical violation`);
}

for (const [theme, kind] of [
  ['Default Dark Modern', 'vscode-dark'],
  ['Default Light Modern', 'vscode-light'],
] as const) {
  scenario(
    e2e,
    `${theme}: axe finds nothing serious in the panel before, during and after a demo turn; the Agent picker's focus shows`,
    async (s) => {
      const workspace = s.workspace({
        files: { 'README.md': '# Demo\n', 'src/hello.ts': 'export function hello(): string {\n  return "hi";\n}\n' },
        settings: { 'tandem.defaultAgent': 'Tandem Demo', 'workbench.colorTheme': theme },
      });
      const { chat } = await s.open(workspace);
      await chat.frame.locator('[role="status"]', { hasText: 'Tandem Demo ready' }).waitFor();
      const frame = await panelFrame(chat);
      await waitUntil(async () => (await frame.evaluate(() => document.body.className)).includes(kind), `the webview in ${theme}`);
      await assertNothingSerious(frame, 'ready');

      // Keyboard focus on the Agent picker: VS Code's own select:focus outline must not win.
      await chat.button('Conversation in a new worktree').focus();
      await chat.page.keyboard.press('Tab');
      const ring = await focusIndicator(frame);
      assert.match(String(ring?.element), /^select\.agent-picker/);
      assert.equal(ring?.outlineColor, await themeColour(frame, '--vscode-focusBorder'), `the ring is the theme's focusBorder: ${JSON.stringify(ring)}`);
      assert.ok((ring?.contrast ?? 0) >= 3, `the ring stands out: ${JSON.stringify(ring)}`);

      await chat.send('Show me what you can do');
      const prompt = chat.frame.locator('[role="group"][aria-label^="Permission"]');
      await prompt.first().waitFor({ timeout: 60_000 });
      await assertNothingSerious(frame, 'a permission prompt waiting');
      // Answer every prompt from the keyboard until the turn ends.
      await waitUntil(
        async () => {
          if ((await chat.stopReasons().count()) > 0) return true;
          const allow = prompt.first().locator('button[data-option-kind="allow_once"]');
          if (await allow.isVisible()) {
            await allow.focus();
            await chat.page.keyboard.press('Enter');
          }
          return false;
        },
        'the demo turn to finish',
        90_000,
      );
      assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');
      // Terminals open their emulators a frame at a time: audit once they all have.
      await waitUntil(
        async () => frame.evaluate(() => [...document.querySelectorAll('[data-terminal-id]')].every((t) => t.hasAttribute('data-emulated'))),
        'the terminal emulators',
      );
      await assertNothingSerious(frame, 'a finished turn');
      assert.ok((await chat.entries('tool_call').count()) >= 1, 'the turn showed tool calls');
    },
    180_000,
  );
}
