/**
 * Terminal emulators open one per frame and not while the log scrolls (webview/terminal/terminalLook.ts):
 * opening one measures the font with forced layouts, which a long thread cannot afford for every
 * card it builds during a fast scroll. Until its emulator opens, a card shows the output as text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry } from '../../src/protocol/messages';
import { useHarness } from './harness/harness';
import { agent, ready, snapshot, terminal, toolCall } from './harness/fixtures';

const harness = useHarness();

const run = (i: number): Entry =>
  toolCall(`run${i}`, { toolKind: 'execute', status: 'completed', title: `Run ${i}`, content: [{ type: 'terminal', terminalId: `term${i}` }] });

test('terminals open one per frame, and show their output as text until then', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const terminals = Object.fromEntries(
    Array.from({ length: 6 }, (_, i) => [
      `term${i}`,
      terminal(`term${i}`, { output: `\u001b[32mok\u001b[0m output of run ${i}\r\n`, exit: { exitCode: 0, signal: null } }),
    ]),
  );
  // Per frame from now on: how many terminals have their emulator open.
  await page.evaluate(
    `window.__opened = []; const tick = () => { window.__opened.push(document.querySelectorAll('.terminal[data-emulated="true"]').length); if (window.__opened.length < 40) requestAnimationFrame(tick); }; requestAnimationFrame(tick);`,
  );
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: Array.from({ length: 6 }, (_, i) => run(i)), terminals }) });
  await page.waitForFunction(() => (window as unknown as { __opened: number[] }).__opened.length >= 40);
  const opened = await page.evaluate(() => (window as unknown as { __opened: number[] }).__opened);
  assert.equal(opened[opened.length - 1], 6, `all open in the end: ${opened.join(',')}`);
  for (let i = 1; i < opened.length; i++) assert.ok(opened[i] - opened[i - 1] <= 1, `at most one opens per frame: ${opened.join(',')}`);
  assert.equal(await page.locator('.terminal .xterm-rows').count(), 6);
  assert.match((await page.locator('[data-terminal-id="term5"] .terminal-text').textContent()) ?? '', /ok output of run 5/);
  await page.close();
});

test('while the log scrolls, a new terminal shows plain text; its emulator opens once scrolling stops', async () => {
  const panel = await harness().open({ height: 500 });
  const { page } = panel;
  const filler = Array.from({ length: 120 }, (_, i) => agent(`a${i}`, `Paragraph ${i}. ${'Words to scroll past. '.repeat(10)}`));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: filler }) });
  // Scroll fast (150 px a frame), back and forth, until told to stop.
  await page.evaluate(
    `window.__scrolling = true; const log = document.querySelector('[role="log"]'); let dir = -1; const step = () => { if (!window.__scrolling) return; log.scrollTop += dir * 150; if (log.scrollTop <= 0 || log.scrollTop + log.clientHeight >= log.scrollHeight) dir = -dir; requestAnimationFrame(step); }; requestAnimationFrame(step);`,
  );
  await panel.post({ type: 'terminalChanged', terminal: terminal('late', { output: 'late output\r\n', exit: { exitCode: 1, signal: null } }) });
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('late-run', { toolKind: 'execute', status: 'failed', content: [{ type: 'terminal', terminalId: 'late' }] }),
  });
  const card = page.locator('[data-terminal-id="late"]');
  await card.waitFor();
  await page.waitForTimeout(400); // many frames of scrolling: the emulator must still wait
  assert.equal(await card.getAttribute('data-emulated'), null, 'no emulator while scrolling');
  const text = card.locator('.terminal-text');
  assert.match((await text.textContent()) ?? '', /late output/);
  assert.ok(((await text.boundingBox())?.height ?? 0) > 5, 'the plain text is shown, not visually hidden');
  await page.evaluate(() => ((window as unknown as { __scrolling: boolean }).__scrolling = false));
  await page.locator('[data-terminal-id="late"][data-emulated="true"] .xterm-rows').waitFor();
  assert.ok(((await card.locator('.terminal-text').boundingBox())?.height ?? 0) <= 1, 'the text mirror is hidden again once emulated');
  await page.close();
});
