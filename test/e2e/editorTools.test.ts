// Tandem's `tandem` MCP server (issue 32) in code-server, with the real claude-agent-acp 0.101 (from
// .e2e/adapters) against the fake Anthropic server, over the loopback HTTP transport. The workspace
// holds src/app.ts with a real type error; the editor's own TypeScript (code-server's built-in
// extension) reports it. The test plays the user: it opens the file, waits for the Problems, asks the
// agent to fix it and answers Claude's permission prompts in the panel. The fake model's script loads
// the tandem tools (ToolSearch), calls mcp__tandem__diagnostics and mcp__tandem__edit_file, then ends.
// What the user sees: the diagnostic reached the model (the next model request carries the editor's
// own message), both calls are tool cards on the agent's own cards with the tool's kind, the edit is
// in the editor and in the changed-files strip, and Undo in the editor brings the old text back.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, startFakeAnthropic } from '../fixtures/fakeAnthropic/index';
import type { RecordedRequest } from '../fixtures/fakeAnthropic/index';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { BROKEN_MESSAGE, brokenFile, seedBrokenFile, TANDEM_MCP_DONE, TANDEM_MCP_PROMPT, tandemMcpScenario } from '../fixtures/tandemMcp/index';
import { scenario, useE2e } from './harness/e2e';
import { openFile, waitUntil } from './harness/workbench';
import { changedEnv, selectAgent } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

const e2e = useE2e();

/** The text of every tool_result block of a model request (what the agent told the model its tools returned). */
function toolResultTexts(request: RecordedRequest): string[] {
  const messages = (request.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  const texts: string[] = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as Array<{ type?: string; content?: unknown }>) if (block.type === 'tool_result') texts.push(JSON.stringify(block.content));
  }
  return texts;
}

scenario(
  e2e,
  "the real claude-agent-acp 0.101 on Tandem's MCP server: the editor's diagnostic reaches the model, the edit is a card, in the changed files and undoable in the editor",
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-editor-tools-e2e-'));
    const workspace = s.workspace({});
    const file = brokenFile(workspace.dir);
    seedBrokenFile(file);
    const fake = await startFakeAnthropic(tandemMcpScenario());
    try {
      const env = agentEnv(fake.url, scratch);
      // Mode `default`: Claude Code asks the user before each MCP call (auto mode would ask the model).
      writeDefaultMode(env);
      const config: AgentConfig = { command: process.execPath, args: [CLAUDE_AGENT_ACP_0101], env: changedEnv(env) };
      selectAgent(workspace.dir, 'Claude Agent 0.101 (fake model)', config);
      const { workbench, chat } = await s.open(workspace);
      const page = workbench.page;

      // The user opens the file; the editor's TypeScript reports the error (its squiggle and the Problems).
      const editor = await openFile(page, 'app.ts');
      const shown = async (): Promise<string> => ((await editor.locator('.view-lines').textContent()) ?? '').replace(/\u00a0/g, ' ');
      await waitUntil(async () => (await editor.locator('.squiggly-error').count()) > 0, "TypeScript's error in src/app.ts", 90_000);
      assert.match(await shown(), /const count: number = 'two';/);

      await chat.send(TANDEM_MCP_PROMPT);
      // Claude asks before each MCP call; the user allows each once, in the panel, on the call's card.
      const prompts: Array<{ card: string; answer: string }> = [];
      const pending = chat.frame.locator('.tool-card:has([role="group"][data-permission-state="pending"])');
      await waitUntil(
        async () => {
          if ((await pending.count()) > 0) {
            const card = pending.first();
            const id = (await card.getAttribute('data-tool-call-id')) ?? '';
            const allow = card.locator('[role="group"][data-permission-state="pending"] button[data-option-kind="allow_once"]').first();
            const answer = ((await allow.textContent()) ?? '').trim();
            await allow.click({ timeout: 2000 });
            prompts.push({ card: id, answer });
          }
          return (await chat.stopReasons().count()) >= 1;
        },
        'the turn to end, every prompt allowed once',
        180_000,
      );
      assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
      assert.ok((await chat.entries('agent').allTextContents()).some((t) => t.includes(TANDEM_MCP_DONE)));
      assert.equal(await chat.entries('error').count(), 0);

      // 1. The diagnostic reached the model: the editor's own message is in a tool result it was sent.
      const carried = fake.mainLoopRequests().filter((r) => toolResultTexts(r).some((t) => t.includes(BROKEN_MESSAGE)));
      assert.ok(carried.length > 0, "a model request carries the editor's diagnostic in a tool result");
      const first = toolResultTexts(carried[0]).find((t) => t.includes(BROKEN_MESSAGE)) ?? '';
      assert.match(first, /\\"source\\":\\"ts\\"/, 'the diagnostic came from the TypeScript extension');
      assert.match(first, /\\"line\\":3/, 'on line 3');

      // 2. Both calls are on the agent's own cards (ids minted by the model), with the tool's kind;
      // the diagnostics card shows what the editor answered.
      const tools = chat.entries('tool_call');
      const agentTitled = (name: string) => tools.filter({ has: chat.frame.locator(`.tool-title[title$="The agent's title: ${name}"]`) });
      const diagnostics = agentTitled('mcp__tandem__diagnostics');
      const edit = agentTitled('mcp__tandem__edit_file');
      assert.equal(await diagnostics.count(), 1, 'one diagnostics card');
      assert.equal(await edit.count(), 1, 'one edit_file card');
      assert.equal(await diagnostics.getAttribute('data-kind'), 'read');
      assert.equal(await edit.getAttribute('data-kind'), 'edit');
      const diagnosticsId = (await diagnostics.getAttribute('data-tool-call-id')) ?? '';
      const editId = (await edit.getAttribute('data-tool-call-id')) ?? '';
      assert.match(diagnosticsId, /^toolu_/, "the agent's card, not a second one");
      assert.match(editId, /^toolu_/, "the agent's card, not a second one");
      assert.equal(await diagnostics.getAttribute('data-status'), 'completed', (await diagnostics.textContent()) ?? '');
      assert.equal(await edit.getAttribute('data-status'), 'completed', (await edit.textContent()) ?? '');
      assert.match((await diagnostics.textContent()) ?? '', /Type 'string' is not assignable to type 'number'\./);
      assert.equal(await tools.count(), 3, 'ToolSearch, diagnostics, edit_file: no card of its own for an MCP call');

      // 3. One prompt per call, the agent's own ("Yes"), on its card; no second prompt from Tandem for the edit.
      assert.deepEqual(
        prompts,
        [
          { card: diagnosticsId, answer: 'Yes' },
          { card: editId, answer: 'Yes' },
        ],
        JSON.stringify(prompts),
      );

      // 4. The edit landed: in the editor's buffer and on disk, and it is listed in the changed files.
      await waitUntil(async () => /const count: number = 2;/.test(await shown()), 'the fixed line in the editor', 30_000);
      assert.equal(readFileSync(file.path, 'utf8'), file.fixedText);
      const strip = chat.frame.getByRole('region', { name: 'Files changed in this conversation' });
      await waitUntil(async () => /1 file changed/.test((await strip.textContent()) ?? ''), 'the changed-files strip', 30_000);
      await strip.getByRole('button', { name: 'Show the changed files' }).click();
      const row = strip.locator('li.changed-file');
      assert.equal(await row.count(), 1);
      assert.equal(await row.getAttribute('data-path'), file.path);
      assert.match((await row.textContent()) ?? '', /app\.ts/);

      // Undo in the editor (its own undo stack, as after any edit of the user's) brings the old text back.
      await editor.locator('.view-lines').click();
      await page.keyboard.press('Control+Z');
      await waitUntil(async () => /const count: number = 'two';/.test(await shown()), 'the old line back after Undo', 15_000);
      assert.doesNotMatch(await shown(), /const count: number = 2;/);
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  300_000,
);
