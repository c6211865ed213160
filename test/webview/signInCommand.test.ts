/**
 * The sign-in card shows what a terminal method runs before anyone presses it: the command line in
 * the editor's font, in the theme's inline-code colours, wrapped inside the card however long, and as
 * the button's accessible description (a screen reader says it with the button's name). Checked
 * in real Chromium in the four theme variable sets; a card whose methods are all withheld says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthEntry } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { THEMES, useHarness } from './harness/harness';

const harness = useHarness();

const LONG = `npx -y @zed-industries/claude-agent-acp --cli --profile=${'x'.repeat(120)} 'two words'`;

const card: AuthEntry = {
  kind: 'auth',
  id: 'a1',
  agentName: 'Claude Code',
  message: 'Authentication required',
  methods: [
    { id: 'oauth', name: 'Log in with the agent', kind: 'agent' },
    { id: 'cli', name: 'Log in in a terminal', kind: 'terminal', commandLine: LONG },
  ],
  state: { kind: 'waiting' },
};

for (const theme of THEMES) {
  test(`${theme}: a terminal method's card shows its command line, describes its button with it, and wraps it inside the card`, async () => {
    const panel = await harness().open({ theme, width: 340 });
    const { page } = panel;
    await panel.post({
      type: 'snapshot',
      snapshot: snapshot({ status: { kind: 'stopped', agentName: 'Claude Code', reason: 'Sign-in required' }, entries: [card] }),
    });
    const article = page.locator('[data-entry-kind="auth"]');
    const command = article.locator('.auth-command');
    await command.waitFor();
    assert.equal(await command.count(), 1, 'only the terminal method has a command line');
    assert.equal((await command.textContent())?.replace(/\s+/g, ' '), `Runs: ${LONG}`);
    const button = article.getByRole('button', { name: 'Log in in a terminal' });
    const description = await button.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    assert.equal(description.replace(/\s+/g, ' '), `Runs: ${LONG}`, 'the button is described by the command line');
    const look = await command.locator('code').evaluate((code) => {
      const style = getComputedStyle(code);
      const probe = document.createElement('span');
      probe.style.background = 'var(--vscode-textPreformat-background)';
      probe.style.color = 'var(--vscode-textPreformat-foreground)';
      probe.style.fontFamily = 'var(--vscode-editor-font-family, monospace)';
      document.body.append(probe);
      const expected = getComputedStyle(probe);
      const result = {
        colours: [style.color, style.backgroundColor],
        font: style.fontFamily,
        themeColours: [expected.color, expected.backgroundColor],
        themeFont: expected.fontFamily,
      };
      probe.remove();
      return result;
    });
    assert.deepEqual([look.colours, look.font], [look.themeColours, look.themeFont], 'the theme’s inline-code colours and the editor’s font');
    const [box, within] = await Promise.all([command.boundingBox(), article.boundingBox()]);
    assert.ok(box && within && box.x + box.width <= within.x + within.width + 0.5, `the line wraps inside the card (${JSON.stringify({ box, within })})`);
    assert.deepEqual(await panel.violations(), []);
    await page.close();
  });
}

test('a card whose ways to sign in were all withheld (a replay, a remote agent) says none can be used here', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [{ ...card, methods: [] }] }) });
  const article = page.locator('[data-entry-kind="auth"]');
  await article.waitFor();
  assert.match(String(await article.textContent()), /None of the ways this agent offers to sign in can be used here/);
  assert.equal(await article.getByRole('button').count(), 0);
  await page.close();
});
