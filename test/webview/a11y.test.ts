/**
 * An accessibility audit of the panel, in real Chromium: axe-core (WCAG 2.0/2.1 A and AA, best
 * practices) inside the panel's document, over its states (harness/a11yStates.ts) in VS Code's
 * Default Dark Modern, Default Light Modern, High Contrast and High Contrast Light themes, failing
 * on any serious or critical violation. Then what axe only sees part of: the composer as a
 * combobox, and terminal cards (the emulator hidden and out of the Tab order, the output as text).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { STATES, built } from './harness/a11yStates';
import { audit, blocking, describe } from './harness/audit';
import { ready, snapshot, terminal, toolCall } from './harness/fixtures';
import { THEMES, useHarness } from './harness/harness';
import { usedVariables } from './harness/themes/usedVariables';

const harness = useHarness();

test('the theme files know every variable the panel uses (else run harness/themes/extractThemes.ts)', () => {
  for (const theme of THEMES) {
    const css = readFileSync(join(__dirname, 'harness', 'themes', `${theme}.css`), 'utf8');
    const known = new Set(css.match(/--vscode-[A-Za-z0-9-]+/g));
    assert.deepEqual(
      usedVariables().filter((name) => !known.has(name)),
      [],
      `${theme}.css`,
    );
  }
});

for (const theme of THEMES) {
  for (const state of STATES) {
    test(`axe, ${theme}: ${state.name}`, async (t) => {
      // Tall enough that nothing is scrolled away: axe judges contrast only where it can see it.
      const panel = await harness().open({ theme, height: 3000 });
      await state.enter(panel);
      await built(panel);
      const { violations, incomplete } = await audit(panel.page);
      const minor = violations.filter((v) => !blocking([v]).length);
      if (minor.length > 0) t.diagnostic(`not failed on (moderate, minor):\n${describe(minor)}`);
      const undecided = incomplete.filter((f) => f.rule === 'color-contrast');
      if (undecided.length > 0) t.diagnostic(`contrast axe could not decide:\n${describe(undecided)}`);
      assert.equal(describe(blocking(violations)), '', 'no serious or critical violation');
      assert.deepEqual(panel.errors, []);
      await panel.page.close();
    });
  }
}

test('the composer is a combobox whose popup is whichever list is open, with the highlighted option as its active descendant', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, commands: [{ name: 'review', description: 'Review the changes' }] }) });
  const box = page.getByRole('combobox', { name: 'Message' });
  assert.equal(await box.evaluate((el) => el.tagName), 'TEXTAREA');
  assert.equal(await box.getAttribute('aria-autocomplete'), 'list');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  await box.focus();
  await box.pressSequentially('/');
  const commands = page.getByRole('listbox', { name: 'Slash commands' });
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.getAttribute('aria-controls'), await commands.getAttribute('id'));
  assert.equal(await box.getAttribute('aria-activedescendant'), await commands.getByRole('option', { selected: true }).getAttribute('id'));
  await box.press('Escape');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.equal(await box.getAttribute('aria-activedescendant'), null);
  await box.fill('');
  await box.pressSequentially('@lo');
  const mentions = page.getByRole('listbox', { name: 'Mention suggestions' });
  const query = await page.waitForFunction(
    () => (window as unknown as { __posted: Array<{ type: string; requestId?: number }> }).__posted.filter((m) => m.type === 'mentionQuery').at(-1)?.requestId,
  );
  await panel.post({
    type: 'mentionResults',
    requestId: (await query.jsonValue()) as number,
    items: [{ group: 'Files', spec: { kind: 'file', path: '/w/a.ts' }, view: { kind: 'file', label: 'a.ts', icon: 'file' } }],
  });
  assert.equal(await box.getAttribute('aria-controls'), await mentions.getAttribute('id'), 'the @ list took over');
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.getAttribute('aria-activedescendant'), await mentions.getByRole('option', { selected: true }).getAttribute('id'));
  await page.close();
});

test('a terminal card: the emulator is hidden from assistive technology and out of the Tab order; its output is text; the region scrolls by keyboard', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const output = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: ready,
      entries: [toolCall('c1', { toolKind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId: 't1' }] })],
      terminals: { t1: terminal('t1', { command: 'seq 40', output, exit: { exitCode: 0, signal: null } }) },
    }),
  });
  await built(panel);
  const region = page.getByRole('region', { name: 'Terminal: seq 40' });
  // Nothing inside the hidden screen can take a Tab stop (xterm's input textarea would).
  const tabbable = await page
    .locator('.terminal-screen')
    .evaluate((screen) =>
      [...screen.querySelectorAll<HTMLElement>('textarea, input, button, a[href], [tabindex]')].filter((el) => el.tabIndex >= 0).map((el) => el.className),
    );
  assert.deepEqual(tabbable, []);
  assert.equal(await page.locator('.terminal-screen').getAttribute('aria-hidden'), 'true');
  assert.equal(await page.locator('.xterm-helper-textarea').count(), 1, 'the emulator is open');
  // The output for assistive technology: the whole buffer as text, not just the rows on screen.
  const accessible = await page.locator('.terminal-text').textContent();
  assert.match(String(accessible), /^line 1\n[\s\S]*\nline 40$/);
  // Tab reaches the region itself (one stop), then its button; arrows and Home/End scroll the emulator.
  // The rows xterm draws are what the emulator shows: its first row tells where it is scrolled.
  const firstRow = (): Promise<string> => page.evaluate(() => document.querySelector('.xterm-rows > div')?.textContent?.trim() ?? '');
  await region.focus();
  assert.notEqual(await firstRow(), 'line 1', 'a 40-line output in 16 rows starts scrolled to its end');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('.xterm-rows > div')?.textContent?.trim() === 'line 1');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('.xterm-rows > div')?.textContent?.trim() === 'line 2');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.xterm-rows > div:last-child')?.textContent?.includes('line 40'));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Open in terminal');
  await page.close();
});
