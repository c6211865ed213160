// Conversations survive a restart of VS Code: code-server is stopped and started again on the same
// profile (user data, port, workspace folder), the panel shows the conversation as it was, and the
// next prompt continues the agent's own session — with a scripted agent (resume, and sessions
// listed from "its own CLI") and with the real Claude Code agent, whose fake model must see the
// earlier turn in its request.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, editOnDiskFiles, REMEMBER_NAME, scenario as fakeScenario, startFakeAnthropic, userTextOf } from '../fixtures/fakeAnthropic/index';
import { scenario } from './harness/e2e';
import { repoRoot } from './harness/paths';
import { useRestartableE2e } from './harness/restartable';
import { storedConversations } from './harness/storage';
import { allowEveryPromptOnce, waitUntil } from './harness/workbench';
import { agentSettings, loggedMethods, say } from './harness/workspace';
import type { AgentConfig } from './harness/workspace';

/** This file restarts its own code-server (the run's shared one cannot be restarted). */
const e2e = useRestartableE2e('tandem-restore-');

/** Stops VS Code (its whole process group, extension host and agents included) and starts it again. */
const restartVsCode = () => e2e.restart();

/**
 * What Tandem stored in this profile: the store saves after a short quiet period, and killing
 * VS Code skips the final save a normal shutdown makes, so the tests wait for what they need to be
 * on disk.
 */
function stored(): string {
  return storedConversations(e2e.userDataDir);
}

async function waitStored(...texts: string[]): Promise<void> {
  await waitUntil(
    async () => {
      const all = stored();
      return texts.every((t) => all.includes(t));
    },
    `the conversation to be stored with ${texts.join(', ')}`,
  );
}

scenario(
  e2e,
  'a scripted agent: after a restart the conversation is back and the next prompt resumes its session; its CLI sessions are in History',
  async (s) => {
    const agentDir = mkdtempSync(join(tmpdir(), 'tandem-restore-agent-'));
    const workspace = s.workspace({ files: { 'README.md': '# Restore\n' } });
    const agent = s.agent({
      initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {}, list: {} } } },
      stateFile: join(agentDir, 'state.json'),
      knownSessions: [
        {
          sessionId: 'cli-session',
          cwd: workspace.dir,
          title: 'Started in the CLI',
          updatedAt: '2026-01-01T10:00:00.000Z',
          history: [
            { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'a question asked in the terminal' } },
            { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'an answer given in the terminal' } },
          ],
        },
      ],
      turns: [{ steps: [say('Noted.')] }, { steps: [{ recall: true }] }],
    });
    mkdirSync(join(workspace.dir, '.vscode'), { recursive: true });
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), JSON.stringify(agentSettings('Scripted', agent.config), null, 2));

    let { chat } = await s.open(workspace);
    await chat.send('remember the word tandem');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const sessionId = await chat.log.getAttribute('data-session-id');
    assert.ok(sessionId);
    // The index (session id, title) and the transcript (the agent's answer, the turn's end).
    await waitStored(sessionId, '"title":"remember the word tandem"', '"text":"Noted."', '"stopReason":"end_turn"');

    await restartVsCode();
    ({ chat } = await s.open(workspace));
    await waitUntil(async () => /remember the word tandem/.test(await chat.threadText()), 'the restored thread');
    assert.equal(await chat.stopReasons('end_turn').count(), 1, 'entries as they were');
    await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === sessionId, 'the same ACP session');
    await chat.send('which word?');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    assert.match(await chat.threadText(), /RECALL: remember the word tandem/, 'the agent remembers the earlier turn');
    const methods = loggedMethods(agent.logFile);
    assert.ok(methods.includes('session/resume'), 'resumed, not replayed');

    // History lists this conversation and the session started in the agent's CLI; opening that one loads it.
    await chat.frame.getByRole('button', { name: 'History' }).click();
    const quickInput = chat.page.locator('.quick-input-widget');
    await quickInput.waitFor({ state: 'visible', timeout: 30_000 });
    const cliItem = quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Started in the CLI' });
    await cliItem.waitFor({ timeout: 30_000 });
    assert.equal(await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'remember the word tandem' }).count(), 1);
    await cliItem.click();
    await waitUntil(async () => /an answer given in the terminal/.test(await chat.threadText()), 'the loaded CLI session');
    assert.equal(await chat.log.getAttribute('data-session-id'), 'cli-session');
    await waitUntil(async () => (await chat.frame.locator('[role="tablist"][aria-label="Conversations"] [role="tab"]').count()) === 2, 'a tab for it');
    rmSync(agentDir, { recursive: true, force: true });
  },
  180_000,
);

scenario(
  e2e,
  'the real Claude Code agent: after a restart the next prompt reaches the model with the earlier turn in its request',
  async (s) => {
    const scratch = mkdtempSync(join(tmpdir(), 'tandem-restore-claude-'));
    const workspace = s.workspace({ files: { 'notes.txt': 'status: draft\n' } });
    const files = editOnDiskFiles(workspace.dir);
    writeFileSync(files.notesPath, 'status: draft\n');
    const fake = await startFakeAnthropic(fakeScenario('rememberName', workspace.dir, { mcpAcpTools: true }));
    try {
      const full = agentEnv(fake.url, scratch);
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(full)) if (process.env[k] !== v) env[k] = v;
      const config: AgentConfig = { command: process.execPath, args: [join(repoRoot, 'node_modules/@zed-industries/claude-code-acp/dist/index.js')], env };
      mkdirSync(join(workspace.dir, '.vscode'), { recursive: true });
      writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), JSON.stringify(agentSettings('Claude Code (fake model)', config), null, 2));

      let { chat } = await s.open(workspace);
      await chat.send(REMEMBER_NAME.firstPrompt);
      // A read of notes.txt may ask permission; allow it.
      await allowEveryPromptOnce(chat, 'the first turn', 90_000);
      assert.match(await chat.threadText(), new RegExp(REMEMBER_NAME.greeting));
      const sessionId = await chat.log.getAttribute('data-session-id');
      assert.ok(sessionId);
      await waitStored(sessionId, REMEMBER_NAME.greeting);
      // Claude Code writes its own transcript just after the turn: give it that moment before the "crash".
      await waitUntil(async () => hasTranscript(join(scratch, 'claude-config'), REMEMBER_NAME.greeting), "Claude Code's own transcript", 30_000);

      await restartVsCode();
      ({ chat } = await s.open(workspace));
      await waitUntil(async () => (await chat.threadText()).includes(REMEMBER_NAME.greeting), 'the restored thread');
      await chat.send(REMEMBER_NAME.secondPrompt);
      await waitUntil(async () => (await chat.threadText()).includes(REMEMBER_NAME.answer), 'the answer from the resumed session', 90_000);
      const last = fake.mainLoopRequests().at(-1);
      const text = userTextOf(last);
      assert.ok(text.includes(REMEMBER_NAME.firstPrompt), `the model request after the restart carries the first turn (got: ${text.slice(0, 300)})`);
      assert.ok(text.includes(REMEMBER_NAME.secondPrompt));
    } finally {
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  240_000,
);

function hasTranscript(configDir: string, text: string): boolean {
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return false;
  for (const folder of readdirSync(projects)) {
    for (const file of readdirSync(join(projects, folder))) {
      if (file.endsWith('.jsonl') && readFileSync(join(projects, folder, file), 'utf8').includes(text)) return true;
    }
  }
  return false;
}
