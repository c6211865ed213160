// Command output from the real codex-acp 2.6 (issue 35) in code-server: codex runs `ls`, `cat` and a
// command printing a \r progress line and a coloured word against the fake Responses server; the
// user sees each read's output in a terminal of its card (codex names none; the output streamed
// under the call) and the command's output live in the card's terminal
// (the progress line redrawn, the colour kept), with its exit. The adapter is the one
// scripts/setupE2e.sh installs into `.e2e/adapters/node_modules`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAT_TEXT, LISTED_FILE, adapterEntry, codexSteps } from '../fixtures/agentPayloads/recordTerminals';
import { codexAgentEnv, startFakeResponses } from '../fixtures/fakeOpenAi/responses';
import { scenario, useE2e } from './harness/e2e';
import { allowEveryPromptOnce, waitUntil } from './harness/workbench';
import { changedEnv, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

scenario(
  e2e,
  "the real codex-acp 2.6: a read shows its output, a command's output is live in its card's terminal",
  async (s) => {
    // Fails with the install hint when the adapter is missing, before anything starts.
    const entry = adapterEntry('codex-acp');
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-codex-e2e-'));
    const workspace = s.workspace({});
    writeFileSync(join(workspace.dir, LISTED_FILE), CAT_TEXT);
    const fake = await startFakeResponses(codexSteps(workspace.dir));
    try {
      const config: AgentConfig = { command: process.execPath, args: [entry], env: changedEnv(codexAgentEnv(fake.url, scratch)) };
      selectAgent(workspace.dir, 'Codex (fake model)', config);
      const { chat } = await s.open(workspace);
      await chat.send('List the folder and show the file.');
      await allowEveryPromptOnce(chat, 'the turn', 120_000);
      assert.equal(await chat.stopReasons().first().getAttribute('data-stop-reason'), 'end_turn');

      const cards = chat.frame.locator('.thread-page > [role="article"][data-entry-kind="tool_call"]');
      assert.equal(await cards.count(), 3);
      // ls and cat are reads: codex streams their output (a delta, Tandem declares terminal_output_delta)
      // under a card whose content names no terminal; the card shows that terminal, ended with the read.
      for (const [i, expected] of [
        [0, LISTED_FILE],
        [1, CAT_TEXT.trim()],
      ] as const) {
        const read = cards.nth(i).locator('.terminal[data-terminal-id]');
        await waitUntil(async () => (await read.getAttribute('data-exited')) === 'true', `read ${i}'s terminal exited`);
        await waitUntil(async () => ((await read.locator('.terminal-text').textContent()) ?? '').includes(expected), `read ${i}'s output in its terminal`);
      }

      // The command: an agent-owned terminal in the card, emulated like a client terminal.
      const terminal = cards.nth(2).locator('.terminal[data-terminal-id]');
      await waitUntil(async () => (await terminal.getAttribute('data-exited')) === 'true', 'the terminal exited');
      assert.equal((await terminal.locator('.terminal-status').textContent())?.trim(), 'Exited with code 0');
      await waitUntil(async () => (await terminal.getAttribute('data-emulated')) === 'true', 'the terminal emulated');
      // \r redrew the progress line: the screen holds its last state only.
      await waitUntil(async () => /building 100%\nbuilt ok/.test((await terminal.locator('.terminal-text').textContent()) ?? ''), 'the output in the terminal');
      assert.doesNotMatch((await terminal.locator('.terminal-text').textContent()) ?? '', /50%/);
      // The escape sequence coloured the word (green, ANSI colour 2) instead of showing as text.
      assert.ok((await terminal.locator('.xterm-rows span.xterm-fg-2').count()) > 0, 'the word is drawn green');
      // (The header shows the command line, escapes and all; the screen and its text mirror do not.)
      assert.doesNotMatch((await terminal.locator('.xterm-rows').textContent()) ?? '', /\[32m|\\033/);
      assert.doesNotMatch((await terminal.locator('.terminal-text').textContent()) ?? '', /\[32m|\\033/);
      assert.equal(await chat.entries('error').count(), 0);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);
