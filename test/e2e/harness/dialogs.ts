// VS Code's own pickers as Playwright sees them in code-server: a quick pick's row, and the simple
// file dialog (a quick input holding a path).
import type { Page } from 'playwright-core';
import { uiTimeout, waitUntil } from './workbench';

/**
 * Answers VS Code's simple file dialog with `path`. Typing into it is racy (it completes and
 * re-selects names as it lists folders), so the value is set at once, as a paste would, once the
 * dialog shows where it starts.
 */
export async function answerFileDialog(page: Page, path: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: uiTimeout });
  await waitUntil(async () => (await input.inputValue()).startsWith('/'), 'the file dialog to show its folder');
  // The dialog may still put its own proposal in after listing the folder: set again until it stays.
  await waitUntil(async () => {
    if ((await input.inputValue()) !== path) {
      await input.evaluate((el: HTMLInputElement, value: string) => {
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, path);
    }
    await new Promise((r) => setTimeout(r, 300));
    return (await input.inputValue()) === path;
  }, `the file dialog to hold ${path}`);
  await input.press('Enter');
}

/** Picks the first row of the open quick pick that shows `label`. */
export async function pickQuickItem(page: Page, label: string): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: uiTimeout });
  await row.click();
}
