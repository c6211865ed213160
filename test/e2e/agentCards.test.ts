// Cards built from what real agents did, in code-server (issue 23): the real Cline CLI (npm
// `@cline/cli-linux-x64`, `cline --acp`) against the fake OpenAI-compatible server, and the real claude-agent-acp running a
// subagent (its Agent tool) against the fake Anthropic server. The test plays the user: it allows
// every prompt once, then reads the cards as a user would.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { agentEnv, editOnDiskFiles, scenario as anthropicScenario, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import { clineAgentEnv, clineBinary, clineScenario, clineScenarioFiles, startFakeOpenAi } from '../fixtures/fakeOpenAi/index';
import { scenario, useE2e } from './harness/e2e';
import { repoRoot } from './harness/paths';
import type { Chat } from './harness/workbench';
import { allowEveryPromptOnce, waitUntil, watchTabs } from './harness/workbench';
import { changedEnv, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

/** The log's own cards (not a subagent's), by title. */
const topCard = (chat: Chat, title: string): Locator =>
  chat.frame
    .locator('.thread-page > [role="article"][data-entry-kind="tool_call"]')
    .filter({ has: chat.frame.locator(`.tool-header .tool-title:text-is("${title}")`) });

const titles = async (cards: Locator): Promise<string[]> => cards.locator(':scope > .tool-header .tool-title').allTextContents();

scenario(
  e2e,
  'the real Cline: cards say what it did, its edits show diffs seen on disk, its subagent nests',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-cline-e2e-'));
    const workspace = s.workspace({ files: { 'README.md': '# Readme\n' } });
    const files = clineScenarioFiles(workspace.dir);
    writeFileSync(files.helloPath, files.originalText);
    const fake = await startFakeOpenAi(clineScenario(workspace.dir));
    try {
      const config: AgentConfig = { command: clineBinary(), args: ['--acp'], env: changedEnv(clineAgentEnv(fake.url, scratch)) };
      selectAgent(workspace.dir, 'Cline (fake model)', config);
      const { chat, workbench } = await s.open(workspace);
      const tabsSeen = await watchTabs(workbench.page);
      await chat.send('Please read the files, mark hello.txt reviewed, add a greeting, say hello and let a subagent check.');
      await allowEveryPromptOnce(chat, 'the turn with its permission prompts', 120_000);
      assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');
      assert.equal(readFileSync(files.helloPath, 'utf8'), files.editedText, 'Cline wrote the disk itself');
      assert.equal(readFileSync(files.newPath, 'utf8'), files.newText);

      const cards = chat.frame.locator('.thread-page > [role="article"][data-entry-kind="tool_call"]');
      assert.deepEqual(await titles(cards), [
        'Read hello.txt and README.md',
        'Edit hello.txt',
        'Create src/greeting.txt',
        'Run `echo hello-from-cline`',
        'Subagent: Check that hello.txt says reviewed.',
      ]);
      // The edit: a diff of what changed on disk while the call ran (Cline sends none).
      const edit = topCard(chat, 'Edit hello.txt');
      await waitUntil(async () => (await edit.locator('.diff-observed').textContent()) === 'seen on disk', 'the observed diff');
      assert.match((await edit.locator('.diff').textContent()) ?? '', /status: reviewed/);
      // Locations from the input: the file opens, and follow-along went there.
      assert.equal(await edit.locator('.tool-locations .location').getAttribute('title'), 'hello.txt');
      const tabs = await tabsSeen();
      assert.ok(
        tabs.some((t) => t.startsWith('hello.txt')),
        `follow-along opened hello.txt (tabs: ${JSON.stringify(tabs)})`,
      );
      // Output keeps its shape: the command's output preformatted.
      const run = topCard(chat, 'Run `echo hello-from-cline`');
      assert.equal((await run.locator('pre.tool-output-text').textContent())?.trim(), 'hello-from-cline');
      // The agent's own title stays available.
      assert.match((await topCard(chat, 'Read hello.txt and README.md').locator('.tool-title').getAttribute('title')) ?? '', /read_files: \{"files"/);
      // The subagent: collapsed with its steps counted; opened, its calls are cards.
      const sub = topCard(chat, 'Subagent: Check that hello.txt says reviewed.');
      const toggle = sub.locator('.subagent-toggle');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.match((await toggle.textContent()) ?? '', /^2 steps · /);
      await toggle.click();
      assert.deepEqual(await titles(sub.locator('.subagent-children > [role="article"]')), ['Read hello.txt', 'Search for `status: reviewed`']);
      assert.equal(await chat.entries('error').count(), 0);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);

scenario(
  e2e,
  "the real claude-agent-acp running a subagent: the subagent's calls nest under its Agent card, without text meant for the model",
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-subagent-e2e-'));
    const workspace = s.workspace({});
    const files = editOnDiskFiles(workspace.dir);
    writeFileSync(files.notesPath, files.originalText);
    const fake = await startFakeAnthropic(anthropicScenario('subagent', workspace.dir));
    try {
      const config: AgentConfig = {
        command: process.execPath,
        args: [join(repoRoot, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js')],
        env: changedEnv(agentEnv(fake.url, scratch)),
      };
      selectAgent(workspace.dir, 'Claude Agent (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send('Let a subagent check the notes, then mark them reviewed.');
      await allowEveryPromptOnce(chat, 'the turn with its permission prompts', 120_000);
      assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');
      assert.match(readFileSync(files.notesPath, 'utf8'), /status: reviewed/);
      const cards = chat.frame.locator('.thread-page > [role="article"][data-entry-kind="tool_call"]');
      assert.deepEqual(await titles(cards), ['Subagent: Check the notes', 'Read notes.txt', 'Edit notes.txt']);
      const sub = topCard(chat, 'Subagent: Check the notes');
      const toggle = sub.locator('.subagent-toggle');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.match((await toggle.textContent()) ?? '', /^3 steps · /);
      await toggle.click();
      const children = sub.locator('.subagent-children > [role="article"]');
      assert.deepEqual(
        (await titles(children)).map((t) => t.split(' ')[0]),
        ['Read', 'grep', 'echo'],
      );
      assert.doesNotMatch((await sub.textContent()) ?? '', /system-reminder|agentId:|<usage>/);
      assert.match((await sub.locator(':scope > .tool-content').textContent()) ?? '', /The notes say status: draft\./);
      // The edit the main loop made carries the agent's own diff.
      assert.equal(await topCard(chat, 'Edit notes.txt').locator('.diff').count(), 1);
      assert.equal(await chat.entries('error').count(), 0);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);
