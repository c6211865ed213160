// The REAL Claude Code agent (@zed-industries/claude-code-acp) through Tandem in code-server (issue 4,
// "Proven with a real agent"). Its model is the fake Anthropic server started here on 127.0.0.1
// (test/fixtures/fakeAnthropic); the agent runs as Tandem spawns any agent configured in
// tandem.agents, and the test plays the user: it clicks the permission buttons and Stop.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { agentEnv, fullScenarioFiles, scenario as fakeScenario, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import type { FakeAnthropic, ScenarioName, ScenarioOptions } from '../fixtures/fakeAnthropic/index';
import { scenario, useE2e } from './harness/e2e';
import type { Scenario } from './harness/e2e';
import { repoRoot } from './harness/paths';
import type { Chat } from './harness/workbench';
import { waitUntil, watchTabs } from './harness/workbench';
import { agentSettings } from './harness/workspace';
import type { AgentConfig, Workspace } from './harness/workspace';

const e2e = useE2e();
const AGENT_JS = join(repoRoot, 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js');
const AGENT_NAME = 'Claude Code (fake model)';
/** The real agent starts the Claude CLI and talks to the fake model: give a turn room. */
const TURN_TIMEOUT = 60_000;

/**
 * The tandem.agents entry: only the variables agentEnv changes, because Tandem merges them over the
 * extension host's environment (which already holds PATH etc., and from which Tandem drops IS_SANDBOX).
 */
function claudeConfig(fake: FakeAnthropic, scratch: string): AgentConfig {
  const full = agentEnv(fake.url, scratch);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(full)) if (process.env[k] !== v) env[k] = v;
  return { command: process.execPath, args: [AGENT_JS], env };
}

interface Run {
  fake: FakeAnthropic;
  workspace: Workspace;
  files: ReturnType<typeof fullScenarioFiles>;
  chat: Chat;
  page: Page;
}

/** Seeds notes.txt, starts the fake model for `name`, and opens the workspace with the real agent selected. */
async function start(s: Scenario, name: ScenarioName, options: (ws: string) => ScenarioOptions = () => ({})): Promise<Run> {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-claude-e2e-'));
  const seeded = s.workspace({});
  const files = fullScenarioFiles(seeded.dir);
  const fake = await startFakeAnthropic(fakeScenario(name, seeded.dir, options(seeded.dir)));
  cleanups.push(async () => {
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  // The fake server's URL is known only now: write the files and settings into the same folder.
  writeFileSync(files.readPath, files.originalText);
  mkdirSync(join(seeded.dir, '.vscode'), { recursive: true });
  writeFileSync(join(seeded.dir, '.vscode', 'settings.json'), JSON.stringify(agentSettings(AGENT_NAME, claudeConfig(fake, scratch)), null, 2));
  const { chat, workbench } = await s.open(seeded);
  return { fake, workspace: seeded, files, chat, page: workbench.page };
}

const cleanups: Array<() => Promise<void>> = [];
async function cleanup(): Promise<void> {
  for (const c of cleanups.splice(0)) await c().catch(() => {});
}

function permissionButtons(chat: Chat, scope?: Locator): Locator {
  return (scope ?? chat.frame).locator('[role="group"][aria-label^="Permission"] button[data-option-kind]');
}

/**
 * Plays the user until the turn ends: for every permission prompt that appears, `choose` picks the
 * button to click on that card. Returns the kinds of the cards that asked.
 */
async function answerPrompts(chat: Chat, choose: (card: Locator, kind: string) => Promise<Locator>): Promise<string[]> {
  const asked: string[] = [];
  await waitUntil(
    async () => {
      if ((await chat.stopReasons().count()) > 0) return true;
      const asking = chat
        .entries('tool_call')
        .filter({ has: chat.frame.locator('[role="group"][aria-label^="Permission"]') })
        .first();
      if ((await asking.count()) === 0 || !(await asking.isVisible())) return false;
      // Pinned by id: the filtered locator would move on to the next asking card once this one is answered.
      const id = (await asking.getAttribute('data-tool-call-id')) ?? '';
      const card = chat.frame.locator(`[role="article"][data-tool-call-id="${id}"]`);
      const kind = (await card.getAttribute('data-kind')) ?? '?';
      const button = await choose(card, kind);
      await button.click({ timeout: 5000 });
      asked.push(kind);
      // Wait for the prompt to be answered before looking again (the next one may be on another card).
      await waitUntil(async () => (await permissionButtons(chat, card).count()) === 0, 'the answered prompt to go away', 10_000);
      return false;
    },
    'the real agent turn to end',
    TURN_TIMEOUT,
  );
  return asked;
}

const allowOnce = async (card: Locator): Promise<Locator> => card.locator('button[data-option-kind="allow_once"]').first();

/** Text of the editor showing `name` (its tab clicked first), spaces normalised. */
async function editorText(page: Page, name: string): Promise<string> {
  const tab = page.locator(`.tabs-container .tab[aria-label^="${name}"]`).first();
  await tab.click();
  const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await waitUntil(
    async () => (await page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label'))?.startsWith(name) ?? false,
    `the ${name} tab to be active`,
  );
  return ((await editor.innerText()) ?? '').replace(/\u00a0/g, ' ');
}

scenario(
  e2e,
  'real Claude Code: plan, read, edit, write and two commands, with the user allowing each prompt',
  async (s) => {
    try {
      const { chat, page, files, fake } = await start(s, 'full');
      const tabsSeen = await watchTabs(page);
      await chat.send('Review notes.txt, add a greeting file and run two commands.');
      const asked = await answerPrompts(chat, allowOnce);
      assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn', `turn end (prompts answered on: ${asked.join(', ')})`);
      assert.ok(asked.length >= 1, 'the agent asked permission at least once');
      assert.equal(await chat.entries('error').count(), 0);

      // On disk.
      assert.equal(readFileSync(files.readPath, 'utf8'), files.editedText);
      assert.equal(readFileSync(files.newPath, 'utf8'), files.newText);

      // In the editor: follow-along opened both files, and their editors show the agent's text, saved.
      const tabs = await tabsSeen();
      assert.ok(
        tabs.some((t) => t.startsWith('notes.txt')),
        `notes.txt was shown in the editor (tabs: ${JSON.stringify(tabs)})`,
      );
      assert.ok(
        tabs.some((t) => t.startsWith('greeting.txt')),
        `greeting.txt was shown in the editor (tabs: ${JSON.stringify(tabs)})`,
      );
      const greetingTab = page.locator('.tabs-container .tab[aria-label^="greeting.txt"]');
      await greetingTab.first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await editorText(page, 'greeting.txt'), /Hello from the real agent!/);
      // The edited file stays open (an edited preview is pinned) and shows the agent's edit.
      assert.match(await editorText(page, 'notes.txt'), /status: reviewed/);
      assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no editor is left with unsaved changes');

      // The edit's card shows the diff; the command's card shows its terminal output.
      const editCard = chat
        .entries('tool_call')
        .filter({ has: chat.frame.locator('[role="region"][data-path$="notes.txt"]') })
        .first();
      await editCard.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await editCard.getAttribute('data-kind'), 'edit');
      assert.ok((await editCard.locator('[data-line-type="added"]', { hasText: 'status: reviewed' }).count()) >= 1, 'the diff shows the added line');
      const terminal = chat.frame.locator('[role="region"][data-terminal-id]', { hasText: files.bashOutput });
      await terminal.first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.match((await terminal.first().getAttribute('aria-label')) ?? '', /^Terminal/);
      const terminalCard = chat.entries('tool_call').filter({ has: terminal.first() });
      assert.equal(await terminalCard.getAttribute('data-kind'), 'execute');
      assert.ok((await chat.frame.locator('[role="region"][data-terminal-id]').count()) >= 2, 'both commands got a terminal in their cards');

      // The plan checklist (TodoWrite), replaced by its final state.
      const plan = chat.entries('plan').last();
      await plan.waitFor({ state: 'visible', timeout: 10_000 });
      const planStatuses = await plan.locator('li[data-status]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-status')));
      assert.deepEqual(planStatuses, ['completed', 'completed', 'completed', 'completed']);
      assert.match(await chat.threadText(), /All done: the notes are reviewed/);
      // No card is left spinning.
      assert.equal(
        await chat.frame.locator('[data-entry-kind="tool_call"][data-status="pending"], [data-entry-kind="tool_call"][data-status="in_progress"]').count(),
        0,
      );
      assert.ok(fake.requests.length > 0);
    } finally {
      await cleanup();
    }
  },
  120_000,
);

scenario(
  e2e,
  'real Claude Code: the user rejects the edit, the file stays unchanged and the card stops',
  async (s) => {
    try {
      const { chat, files } = await start(s, 'reject');
      await chat.send('Mark the notes reviewed.');
      const asked = await answerPrompts(chat, async (card, kind) =>
        card.locator(kind === 'edit' ? 'button[data-option-kind^="reject"]' : 'button[data-option-kind="allow_once"]').first(),
      );
      assert.ok(asked.includes('edit'), `the edit asked permission (prompts on: ${asked.join(', ')})`);
      const reason = await chat.stopReasons().first().getAttribute('data-stop-reason');
      assert.ok(reason === 'end_turn' || reason === 'cancelled', `the turn ended normally (${reason})`);
      assert.equal(await chat.entries('error').count(), 0);
      assert.equal(readFileSync(files.readPath, 'utf8'), files.originalText, 'notes.txt unchanged on disk');

      const editCard = chat
        .entries('tool_call')
        .filter({ has: chat.frame.locator('.permission-result.rejected') })
        .first();
      await editCard.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await editCard.getAttribute('data-kind'), 'edit');
      assert.ok(
        !['pending', 'in_progress', 'completed'].includes((await editCard.getAttribute('data-status')) ?? ''),
        `the rejected edit is not spinning nor completed (${await editCard.getAttribute('data-status')})`,
      );
      assert.equal(await chat.frame.locator('.codicon-modifier-spin').count(), 0, 'no spinner after the turn');

      // The session goes on: the agent acknowledges on the next prompt, still without touching the file.
      await chat.send('Why did you stop?');
      assert.equal(await chat.waitForTurnEnd(2, TURN_TIMEOUT), 'end_turn');
      assert.match(await chat.threadText(), /you rejected the edit/);
      assert.equal(readFileSync(files.readPath, 'utf8'), files.originalText);
    } finally {
      await cleanup();
    }
  },
  120_000,
);

scenario(
  e2e,
  'real Claude Code: Stop during a long command cancels the turn and kills the command',
  async (s) => {
    let pidFile = '';
    try {
      const { chat } = await start(s, 'longCommand', (ws) => ({ pidFile: (pidFile = join(ws, 'long-command.pid')) }));
      await chat.send('Wait for a while.');
      // Allow the command if asked; stop once it runs (both pids written).
      await waitUntil(
        async () => {
          const allow = chat.frame.locator('[role="group"][aria-label^="Permission"] button[data-option-kind="allow_once"]');
          if (
            await allow
              .first()
              .isVisible()
              .catch(() => false)
          )
            await allow.first().click();
          return existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim().split('\n').length === 2;
        },
        'the long command to start (pid file with two pids)',
        TURN_TIMEOUT,
      );
      const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      for (const pid of pids) assert.ok(pid > 0 && alive(pid), `process ${pid} runs before Stop`);
      const terminal = chat.frame.locator('[role="region"][data-terminal-id]');
      await terminal.first().waitFor({ state: 'visible', timeout: 10_000 });

      await chat.button('Stop').click();
      assert.equal(await chat.waitForTurnEnd(1, TURN_TIMEOUT), 'cancelled');
      assert.equal(await chat.entries('error').count(), 0, 'a cancelled turn is not an error');
      await waitUntil(async () => pids.every((pid) => !alive(pid)), `the command's processes ${pids.join(', ')} to be gone`, 10_000);
      assert.equal(
        await chat.frame.locator('[data-entry-kind="tool_call"][data-status="pending"], [data-entry-kind="tool_call"][data-status="in_progress"]').count(),
        0,
        'no card left spinning',
      );
      assert.doesNotMatch(await chat.threadText(), /The command finished/);
    } finally {
      await cleanup();
    }
  },
  120_000,
);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
