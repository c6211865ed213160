// Takes the README's and the walkthrough's screenshots from the real panel: the installed .vsix in
// code-server, driven by Playwright, with the bundled Tandem Demo agent (and, for the sign-in card,
// the scripted test agent). Not a test: scripts/screenshots.sh runs it through the e2e harness
//   node --import tsx test/e2e/harness/cli.ts run -- node --import tsx test/e2e/screenshots.ts
// and the PNGs it writes are committed (media/screenshots/ for the README, media/walkthrough/ for the
// walkthrough, which ships in the .vsix). Each shot is cropped to the panel or the part of the
// workbench it shows, so the files stay small.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from './harness/browser';
import { attachedCodeServer, baseUserSettings, startCodeServer, writeUserSettings } from './harness/codeServer';
import type { CodeServer } from './harness/codeServer';
import { repoRoot, vsixPath } from './harness/paths';
import { openTandemView, runCommand, uiTimeout, waitUntil, workbenchUrl } from './harness/workbench';
import type { Chat } from './harness/workbench';
import { scriptedAgent } from './harness/workspace';

export const readmeShots = join(repoRoot, 'media', 'screenshots');
export const walkthroughShots = join(repoRoot, 'media', 'walkthrough');

/** Dark, as most people see VS Code; the rest of the settings are the harness's. */
const shotSettings = { 'workbench.colorTheme': 'Default Dark Modern', 'editor.minimap.enabled': false, 'breadcrumbs.enabled': false };
const viewport = { width: 1200, height: 760 };
/** The pixel density VS Code assumes for walkthrough images. */
const walkthroughDensity = 1.5;
/** Side bar width for the shots: room for a diff without the panel's narrow-layout wrapping. */
const sideBarWidth = 440;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`no bounding box for ${String(locator)}`);
  return b;
}

/** The smallest box around `boxes`, grown by `pad` and kept inside `within`. */
function around(boxes: Box[], within: Box, pad = 8): Box {
  const x0 = Math.max(within.x, Math.min(...boxes.map((b) => b.x)) - pad);
  const y0 = Math.max(within.y, Math.min(...boxes.map((b) => b.y)) - pad);
  const x1 = Math.min(within.x + within.width, Math.max(...boxes.map((b) => b.x + b.width)) + pad);
  const y1 = Math.min(within.y + within.height, Math.max(...boxes.map((b) => b.y + b.height)) + pad);
  return { x: Math.round(x0), y: Math.round(y0), width: Math.round(x1 - x0), height: Math.round(y1 - y0) };
}

/** Temp folders to remove at the end. */
const scratch: string[] = [];

/**
 * A workspace folder named `name` (the name shows in the workbench's title and Explorer, so not the
 * harness's random temp name), with `files` and workspace `settings`.
 */
function project(name: string, files: Record<string, string>, settings?: Record<string, unknown>): string {
  const parent = mkdtempSync(join(tmpdir(), 'tandem-shots-'));
  scratch.push(parent);
  const dir = join(parent, name);
  const all = settings ? { ...files, '.vscode/settings.json': JSON.stringify(settings, null, 2) } : files;
  for (const [rel, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

class Shooter {
  readonly written: string[] = [];

  constructor(readonly page: Page) {}

  sideBar(): Locator {
    return this.page.locator('.part.sidebar');
  }

  async save(dir: string, name: string, clip: Box): Promise<void> {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    // Let the last layout and the caret blink settle into the frame.
    await this.page.waitForTimeout(300);
    // VS Code shows walkthrough images as 1.5x (`srcset … 1.5x`): those keep the device pixels; the
    // README's are shown at their own size, so one pixel per CSS pixel.
    await this.page.screenshot({ path, clip, scale: dir === walkthroughShots ? 'device' : 'css' });
    this.written.push(path);
    console.log(`[screenshots] ${path.slice(repoRoot.length + 1)} ${clip.width}×${clip.height} CSS px, ${Math.round(statSync(path).size / 1024)} KB`);
  }

  /** The side bar (title bar and panel) from its top down to `below` (or all of it). */
  async sideBarDownTo(below?: Locator, pad = 12): Promise<Box> {
    const bar = await box(this.sideBar());
    if (!below) return bar;
    const b = await box(below);
    return { ...bar, height: Math.min(bar.height, Math.round(b.y + b.height + pad - bar.y)) };
  }
}

/** Drags the sash between the side bar and the editor to `width`. */
async function widenSideBar(page: Page, width: number): Promise<void> {
  const bar = await box(page.locator('.part.sidebar'));
  const y = bar.y + bar.height / 2;
  const edge = bar.x + bar.width;
  await page.mouse.move(edge - 1, y);
  await page.mouse.down();
  await page.mouse.move(edge + 20, y, { steps: 4 });
  await page.mouse.move(bar.x + width, y, { steps: 8 });
  await page.mouse.up();
  await waitUntil(async () => Math.abs((await box(page.locator('.part.sidebar'))).width - width) < 4, `the side bar to be ${width} px wide`);
  await page.mouse.move(900, 500);
}

async function openPanel(browser: Browser, server: CodeServer, folder: string): Promise<{ page: Page; chat: Chat; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: walkthroughDensity, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(workbenchUrl(server, folder));
  await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  const chat = await openTandemView(page);
  await widenSideBar(page, sideBarWidth);
  return { page, chat, close: () => context.close() };
}

/** Clicks every pending permission prompt's one-time Allow until the turn `n` has ended. */
async function allowUntilTurnEnds(chat: Chat, n: number): Promise<void> {
  await waitUntil(
    async () => {
      if ((await chat.stopReasons().count()) >= n) return true;
      const allow = chat.frame.locator('[role="group"][data-permission-state="pending"] button[data-option-kind="allow_once"]');
      if (await allow.first().isVisible()) await allow.first().click();
      return false;
    },
    `turn ${n} to end`,
    120_000,
  );
}

/** With nothing configured: the presets the panel offers. */
async function agentsShot(browser: Browser, server: CodeServer): Promise<string[]> {
  const folder = project('my-project', { 'README.md': '# My project\n' });
  const { page, chat, close } = await openPanel(browser, server, folder);
  const shooter = new Shooter(page);
  try {
    const notice = chat.frame.locator('[role="region"][aria-label="Agent status"]');
    await notice.getByText('Tandem Demo', { exact: true }).waitFor({ timeout: uiTimeout });
    await shooter.save(walkthroughShots, 'agents.png', await shooter.sideBarDownTo(notice));
  } finally {
    await close();
  }
  return shooter.written;
}

/** An agent that needs signing in: its card, with the agent's own, a terminal and an API-key method. */
async function signInShot(browser: Browser, server: CodeServer): Promise<string[]> {
  const agent = scriptedAgent({
    initialize: {
      authMethods: [
        // No descriptions: the card explains each kind of method itself.
        { id: 'account', name: 'Log in with your account' },
        { id: 'cli', name: 'Log in from a terminal', type: 'terminal', args: ['--scripted-login'] },
        { id: 'key', name: 'Use an API key (EXAMPLE_API_KEY)' },
      ],
    },
    newSession: { requireAuth: true },
  });
  scratch.push(agent.dir);
  const folder = project(
    'my-project',
    { 'README.md': '# My project\n' },
    { 'tandem.agents': { 'Example Agent': agent.config }, 'tandem.defaultAgent': 'Example Agent' },
  );
  const { page, chat, close } = await openPanel(browser, server, folder);
  const shooter = new Shooter(page);
  try {
    const card = chat.frame.locator('[data-entry-kind="auth"]');
    await card.waitFor({ timeout: uiTimeout });
    await shooter.save(walkthroughShots, 'signin.png', around([await box(card)], await box(shooter.sideBar()), 10));
  } finally {
    await close();
  }
  return shooter.written;
}

/**
 * The demo's tour in a small project: the permission prompt on the way, then the finished thread
 * (tool cards, the diff), the editor following the agent, the changed-files strip, the @ picker;
 * then two more conversations and the history that lists them.
 */
async function demoShots(browser: Browser, server: CodeServer): Promise<string[]> {
  const folder = project(
    'greeter',
    {
      'README.md': '# Greeter\n\nA tiny library that greets people.\n',
      'src/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
      'src/greet.test.ts': "import { greet } from './greet';\n\nconsole.assert(greet('Ada') === 'Hello, Ada!');\n",
      'package.json': '{\n  "name": "greeter",\n  "version": "1.0.0",\n  "scripts": { "test": "node src/greet.test.ts" }\n}\n',
    },
    { 'tandem.defaultAgent': 'Tandem Demo', 'tandem.followAgent': true },
  );
  const { page, chat, close } = await openPanel(browser, server, folder);
  const shooter = new Shooter(page);
  try {
    await chat.frame.locator('[role="status"]', { hasText: 'Tandem Demo ready' }).waitFor({ timeout: uiTimeout });
    await chat.send('Show me what you can do');

    // The permission prompt, before it is answered.
    const pending = chat.frame.locator('[role="group"][data-permission-state="pending"]').first();
    await pending.waitFor({ timeout: 90_000 });
    await pending.scrollIntoViewIfNeeded();
    const promptCard = chat.frame.locator('.tool-card', { has: chat.frame.locator('[role="group"][data-permission-state="pending"]') }).first();
    await shooter.save(readmeShots, 'permission.png', await shooter.sideBarDownTo());
    await shooter.save(walkthroughShots, 'permission.png', around([await box(promptCard)], await box(shooter.sideBar()), 10));
    await allowUntilTurnEnds(chat, 1);

    // The editor followed the agent to the file it edited: the whole workbench, panel beside it.
    const editor = page.locator('.part.editor');
    await waitUntil(async () => (await page.locator('.tabs-container .tab', { hasText: 'hello.md' }).count()) > 0, 'the followed file in the editor');
    const workbenchBox = around([await box(shooter.sideBar()), await box(editor)], { x: 0, y: 0, ...viewport }, 0);
    await shooter.save(readmeShots, 'overview.png', { x: 0, y: 0, ...viewport });
    await shooter.save(walkthroughShots, 'follow.png', workbenchBox);

    // The thread: tool cards and the diff of the edit.
    const diff = chat.frame.locator('.tool-card .diff').first();
    await diff.scrollIntoViewIfNeeded();
    await shooter.save(readmeShots, 'chat.png', await shooter.sideBarDownTo());
    const diffCard = chat.frame.locator('.tool-card', { has: chat.frame.locator('.diff') }).first();
    const previous = diffCard.locator('xpath=preceding::*[contains(concat(" ", @class, " "), " tool-card ")][1]');
    const cards = [await box(diffCard)];
    if (await previous.count()) cards.push(await box(previous));
    await shooter.save(walkthroughShots, 'demo.png', around(cards, await box(shooter.sideBar()), 10));

    // The changed-files strip, opened down to the changes of one file.
    const strip = chat.frame.getByRole('region', { name: 'Files changed in this conversation' });
    await strip.waitFor({ timeout: uiTimeout });
    await strip.getByRole('button', { name: 'Show the changed files' }).click();
    const showChanges = strip.getByRole('button', { name: /^Show the changes in / }).first();
    await showChanges.click();
    await strip.locator('.hunk').first().waitFor({ timeout: uiTimeout });
    const bar = await box(shooter.sideBar());
    await shooter.save(readmeShots, 'review.png', bar);
    await shooter.save(walkthroughShots, 'review.png', around([await box(strip), await box(chat.composer)], bar, 4));
    await strip.getByRole('button', { name: 'Hide the changed files' }).click();

    // The @ picker over the composer.
    await chat.composer.click();
    await chat.composer.pressSequentially('Explain @');
    const picker = chat.frame.locator('[role="listbox"][aria-label^="Mention"]');
    await picker.waitFor({ timeout: uiTimeout });
    await chat.waitForCount(picker.locator('[role="option"]'), 4, 'mention suggestions');
    await shooter.save(readmeShots, 'mentions.png', bar);
    await shooter.save(walkthroughShots, 'mentions.png', around([await box(picker), await box(chat.composer)], bar, 10));
    await chat.composer.press('Escape');
    await chat.composer.fill('');

    // Two more conversations, so the history has something to list.
    for (const [n, prompt] of ['Make a plan for the 1.1 release', 'Run the tests in a terminal'].entries()) {
      await runCommand(page, 'Tandem: New Conversation');
      await waitUntil(async () => (await chat.entries().count()) === 0, 'an empty conversation');
      await chat.send(prompt);
      await allowUntilTurnEnds(chat, 1);
      if (n === 0) await chat.frame.locator('[role="status"]', { hasText: 'Tandem Demo ready' }).waitFor({ timeout: uiTimeout });
    }
    await chat.frame.getByRole('button', { name: 'History' }).click();
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.waitFor({ state: 'visible', timeout: uiTimeout });
    await chat.waitForCount(quickInput.locator('.quick-input-list .monaco-list-row'), 3, 'conversations in the history');
    await page.mouse.move(viewport.width - 5, viewport.height - 5);
    const history = await box(quickInput);
    await shooter.save(readmeShots, 'history.png', { x: 0, y: 0, ...viewport });
    await shooter.save(walkthroughShots, 'history.png', around([history], { x: 0, y: 0, ...viewport }, 6));
    await page.keyboard.press('Escape');
  } finally {
    await close();
  }
  return shooter.written;
}

async function main(): Promise<void> {
  let server = attachedCodeServer();
  const own = !server;
  server ??= await startCodeServer({ vsix: [vsixPath], userSettings: shotSettings });
  if (!own) writeUserSettings(server.userDataDir, { ...shotSettings });
  const browser = await launchChromium();
  try {
    const written = [...(await agentsShot(browser, server)), ...(await signInShot(browser, server)), ...(await demoShots(browser, server))];
    console.log(`[screenshots] ${written.length} files written`);
  } finally {
    await browser.close();
    if (own) await server.stop();
    else writeUserSettings(server.userDataDir, { ...baseUserSettings });
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
