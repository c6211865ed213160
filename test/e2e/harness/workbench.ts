// Opens the VS Code workbench served by code-server, opens the Tandem view, and drives the chat panel
// through the DOM contract of issue 2 (textarea[aria-label="Message"], Send/Stop, [role="log"],
// [role="article"][data-entry-kind], [data-stop-reason]).
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { extensionId } from './paths';

export const uiTimeout = 30_000;

export interface Workbench {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export function workbenchUrl(server: CodeServer, folder: string, payload?: Array<[string, string]>): string {
  const url = new URL(`${server.url}/`);
  url.searchParams.set('folder', folder);
  if (payload) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

/** A fresh browser context (no state left from earlier tests) showing `folder` in the workbench. */
export async function openWorkbench(browser: Browser, server: CodeServer, folder: string): Promise<Workbench> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(workbenchUrl(server, folder));
  await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  return { context, page, close: () => context.close() };
}

/** Polls `check` until it returns true; the error names `what` so a timeout explains itself. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = uiTimeout): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Plays the user through a turn: allows every prompt once until `turns` turns have ended. */
export async function allowEveryPromptOnce(chat: Chat, what: string, timeoutMs: number, turns = 1): Promise<void> {
  await waitUntil(
    async () => {
      const allow = chat.frame.locator('[role="group"][data-permission-state="pending"] button[data-option-kind="allow_once"]');
      if ((await allow.count()) > 0)
        await allow
          .first()
          .click({ timeout: 2000 })
          .catch(() => {});
      return (await chat.stopReasons().count()) >= turns;
    },
    what,
    timeoutMs,
  );
}

export type EntryKind = 'user' | 'agent' | 'thought' | 'tool_call' | 'plan' | 'error';

/** The Tandem chat webview: two nested iframes, the inner one holding the panel's document. */
export class Chat {
  constructor(
    readonly page: Page,
    readonly frame: FrameLocator,
  ) {}

  get composer(): Locator {
    return this.frame.locator('textarea[aria-label="Message"]');
  }
  get log(): Locator {
    return this.frame.locator('[role="log"]');
  }
  button(name: string | RegExp, scope?: Locator): Locator {
    const options = { name, exact: typeof name === 'string' };
    return scope ? scope.getByRole('button', options) : this.frame.getByRole('button', options);
  }
  entries(kind?: EntryKind): Locator {
    return this.frame.locator(kind ? `[role="article"][data-entry-kind="${kind}"]` : '[role="article"]');
  }
  stopReasons(reason?: string): Locator {
    return this.frame.locator(reason ? `[data-stop-reason="${reason}"]` : '[data-stop-reason]');
  }

  /** Types `text` into the composer and, once the panel accepts prompts, presses Enter (which sends). */
  async send(text: string): Promise<void> {
    await this.composer.waitFor({ state: 'visible', timeout: uiTimeout });
    await this.composer.fill(text);
    // Send stays disabled (and Enter does nothing) until the agent is ready for a prompt.
    const send = this.button('Send');
    await waitUntil(() => send.isEnabled(), 'the Send button to be enabled (agent ready)');
    await this.composer.press('Enter');
  }

  /** Waits until `locator` matches at least `count` elements. */
  async waitForCount(locator: Locator, count: number, what: string, timeoutMs = uiTimeout): Promise<void> {
    await waitUntil(async () => (await locator.count()) >= count, `${count}× ${what}`, timeoutMs);
  }

  /** Waits for the `n`-th finished turn (1-based) and returns its stop reason. */
  async waitForTurnEnd(n: number, timeoutMs = uiTimeout): Promise<string> {
    await this.waitForCount(this.stopReasons(), n, 'finished turn ([data-stop-reason])', timeoutMs);
    return (
      (await this.stopReasons()
        .nth(n - 1)
        .getAttribute('data-stop-reason')) ?? ''
    );
  }

  async threadText(): Promise<string> {
    return (await this.log.textContent()) ?? '';
  }
}

function activityBarItem(page: Page): Locator {
  // In VS Code 1.100 the label sits on the inner <a>, the selection state on the <li role="tab">.
  return page.locator('.activitybar [role="tab"]:has(a[aria-label^="Tandem"])').first();
}

/** Clicks the Tandem activity bar entry (unless its view is already showing) and waits for the panel. */
export async function openTandemView(page: Page): Promise<Chat> {
  const item = activityBarItem(page);
  await item.waitFor({ state: 'visible', timeout: uiTimeout });
  // Clicking the entry of the container already shown would close the side bar.
  const selected = (await item.getAttribute('aria-selected')) === 'true' || /\bchecked\b/.test((await item.getAttribute('class')) ?? '');
  if (!selected) await item.click();
  // The activity bar's hover ("Tandem") would otherwise stay over the panel and catch clicks.
  await page.mouse.move(900, 500);
  const frame = page.frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).frameLocator('iframe#active-frame');
  const chat = new Chat(page, frame);
  await chat.composer.waitFor({ state: 'visible', timeout: uiTimeout });
  return chat;
}

/** The names of every editor tab that ever appears in the workbench (install before the agent acts); a preview tab may be replaced before anyone looks. */
export async function watchTabs(page: Page): Promise<() => Promise<string[]>> {
  // A string, not a function: the test runner's transpiler would wrap named functions in helpers the page lacks.
  await page.evaluate(`(() => {
    const seen = new Set();
    window.tabsSeen = seen;
    const record = () => document.querySelectorAll('.tabs-container .tab').forEach((t) => seen.add(t.getAttribute('aria-label') || ''));
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    record();
  })()`);
  return async () => (await page.evaluate('[...window.tabsSeen]')) as string[];
}

/** Runs a command by its title from the Command Palette (F1), as a user would. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await input.press('Enter');
}

/**
 * Opens a quick pick with `open` until `ready` (something in it) shows. A focus change in the
 * workbench right after (a webview or the Welcome page taking focus as it settles) closes a quick
 * pick that loses focus; on a slow machine that can land just after it opened, so it is opened again.
 */
export async function openQuickPick(page: Page, open: () => Promise<void>, ready: Locator, tries = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await open();
    try {
      await ready.waitFor({ state: 'visible', timeout: attempt < tries ? 10_000 : uiTimeout });
      return;
    } catch (err) {
      if (attempt >= tries) throw err;
      // Still open but slow (its items on their way): not closed, so close it before opening again.
      if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
    }
  }
}

/**
 * A picker of the panel's header (by CSS selector), shown: a narrow sidebar moves pickers that would
 * be cut into the options menu, so it is opened when the picker is there.
 */
export async function headerPicker(chat: Chat, selector: string): Promise<Locator> {
  const picker = chat.frame.locator(selector);
  await picker.waitFor({ state: 'attached', timeout: 30_000 });
  if (!(await picker.isVisible())) await chat.frame.getByRole('button', { name: 'Session options' }).click();
  await picker.waitFor({ state: 'visible', timeout: 10_000 });
  return picker;
}

/** Opens a workspace file in the editor through Quick Open. */
export async function openFile(page: Page, name: string): Promise<Locator> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await input.press('Enter');
  await waitUntil(
    async () => (await page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label'))?.startsWith(name) ?? false,
    `${name} to open`,
  );
  return page.locator('.editor-group-container.active .monaco-editor').first();
}
