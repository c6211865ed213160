// Nothing Tandem starts outlives VS Code, and a folder keeps its conversations under any address.
// This file runs its own code-server (it kills and restarts it). Mid-turn, a scripted agent has a
// terminal Tandem created for it running `sleep 300` and a child of its own; both carry a marker
// in their environment. The extension host is SIGKILLed (no code of Tandem runs again), and then
// code-server's whole process group is SIGTERMed: each time, within 5 s no process with the marker
// remains. After the host restart the terminal card says it stopped, not "Running…". Last, the
// same folder opened at another port shows its conversation and the next prompt resumes it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness/codeServer';
import { scenario } from './harness/e2e';
import { useRestartableE2e } from './harness/restartable';
import { killGroup, listProcesses } from './harness/processes';
import { storedAsOpenTab, storedConversations } from './harness/storage';
import { waitUntil } from './harness/workbench';
import type { Chat } from './harness/workbench';
import { agentSettings, loggedMethods, say } from './harness/workspace';
import type { Scenario } from './harness/e2e';
import type { Workspace } from './harness/workspace';

const e2e = useRestartableE2e('tandem-lifetime-');

/** The variable every process of one scenario's turn carries (the agent's env, the terminal's env). */
const MARKER = 'TANDEM_LIFETIME_MARKER';
const marked = (value: string) => listProcesses({ name: MARKER, value });

/**
 * A workspace whose agent, on its first prompt, starts a child of its own and then has Tandem run
 * `sleep 300` in a terminal — the turn stays in the middle of that command.
 */
function midTurnWorkspace(s: Scenario, marker: string): { workspace: Workspace; agentLog: string } {
  const agent = s.agent({
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
    stateFile: join(mkdtempSync(join(tmpdir(), 'tandem-lifetime-agent-')), 'state.json'),
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run sleep 300', kind: 'execute', status: 'in_progress' } },
          { spawn: { command: 'sleep', args: ['301'] } },
          { terminal: { command: 'sleep 300', env: [{ name: MARKER, value: marker }] }, toolCallId: 'run' },
        ],
      },
      { steps: [say('Back again.'), { recall: true }] },
    ],
  });
  const workspace = s.workspace({
    settings: agentSettings('Scripted', { ...agent.config, env: { ...agent.config.env, [MARKER]: marker } }),
    files: { 'README.md': '# lifetime\n' },
  });
  return { workspace, agentLog: agent.logFile };
}

/** Sends the prompt and waits until the terminal card runs and the agent, its child and the command are all alive. */
async function startLongTurn(chat: Chat, marker: string): Promise<void> {
  await chat.send('run the long command');
  await waitUntil(
    async () => (await chat.frame.locator('[data-terminal-id] .terminal-status', { hasText: 'Running…' }).count()) === 1,
    'the terminal card running',
  );
  await waitUntil(async () => {
    const cmds = marked(marker).map((p) => p.cmdline);
    return cmds.some((c) => c.includes('scriptedAgent')) && cmds.some((c) => c === 'sleep 301') && cmds.some((c) => c.includes('sleep 300'));
  }, 'the agent, its own child and the terminal command to run');
}

async function waitAllGone(marker: string, what: string): Promise<void> {
  const t0 = Date.now();
  await waitUntil(async () => marked(marker).length === 0, `${what}: no process carrying the marker (left: ${JSON.stringify(marked(marker))})`, 5000);
  console.log(`[lifetime] ${what}: everything ended ${Date.now() - t0} ms after`);
}

scenario(
  e2e,
  'a SIGKILLed extension host mid-turn: agent, its child and the terminal command end within 5 s; after the restart the card says it stopped',
  async (s) => {
    const marker = randomUUID();
    const { workspace } = midTurnWorkspace(s, marker);
    const { chat } = await s.open(workspace);
    await startLongTurn(chat, marker);
    // The transcript (with the running terminal) must be on disk before the "crash".
    await waitUntil(async () => storedConversations(e2e.userDataDir).includes('sleep 300'), 'the transcript with the terminal stored');
    const hosts = listProcesses().filter((p) => p.pgid === e2e.server.pid && p.cmdline.includes('extensionHost'));
    assert.equal(hosts.length, 1, `one extension host in code-server's group (${JSON.stringify(hosts)})`);
    process.kill(hosts[0]!.pid, 'SIGKILL');
    await waitAllGone(marker, 'extension host SIGKILLed');

    // code-server starts a new extension host; the panel comes back from the stored transcript.
    const { chat: again } = await s.open(workspace);
    await waitUntil(async () => (await again.threadText()).includes('run the long command'), 'the restored thread');
    const status = again.frame.locator('[data-terminal-id] .terminal-status');
    await waitUntil(async () => (await status.textContent()) === 'Stopped when VS Code closed', 'the terminal card to say it stopped');
  },
  180_000,
);

scenario(
  e2e,
  'code-server’s process group SIGTERMed mid-turn (a service stop): everything Tandem started ends within 5 s',
  async (s) => {
    const marker = randomUUID();
    const { workspace } = midTurnWorkspace(s, marker);
    const { chat } = await s.open(workspace);
    await startLongTurn(chat, marker);
    killGroup(e2e.server.pid, 'SIGTERM');
    await waitAllGone(marker, 'code-server SIGTERMed');
    await e2e.restart();
  },
  180_000,
);

scenario(
  e2e,
  'a conversation kept at one port is found at another: History lists it, the thread is back, the next prompt resumes the session',
  async (s) => {
    const marker = randomUUID();
    const agent = s.agent({
      initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
      stateFile: join(mkdtempSync(join(tmpdir(), 'tandem-lifetime-agent-')), 'state.json'),
      turns: [{ steps: [say('Noted.')] }, { steps: [{ recall: true }] }],
    });
    const workspace = s.workspace({ settings: agentSettings('Scripted', { ...agent.config, env: { ...agent.config.env, [MARKER]: marker } }) });
    let { chat } = await s.open(workspace);
    await chat.send('remember the word tandem');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const sessionId = await chat.log.getAttribute('data-session-id');
    assert.ok(sessionId);
    // Stopping VS Code can skip its last debounced save: the tab list and the turn's end must be on disk.
    await waitUntil(async () => storedAsOpenTab(e2e.userDataDir, sessionId, 1), 'the conversation stored as an open tab with its turn');

    // The same profile and folder, reached at another address.
    const before = e2e.server.port;
    await e2e.restart({ port: await freePort() });
    assert.notEqual(e2e.server.port, before);
    ({ chat } = await s.open(workspace));
    await waitUntil(async () => /remember the word tandem/.test(await chat.threadText()), 'the thread at the new address', 60_000);
    await waitUntil(async () => (await chat.log.getAttribute('data-session-id')) === sessionId, 'the same ACP session');
    await chat.send('which word?');
    assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
    assert.match(await chat.threadText(), /RECALL: remember the word tandem/);
    const methods = loggedMethods(agent.logFile);
    assert.ok(methods.includes('session/resume'), 'resumed, not a fresh session');
    // History lists it once.
    await chat.frame.getByRole('button', { name: 'History' }).click();
    const rows = chat.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'remember the word tandem' });
    await rows.first().waitFor({ timeout: 30_000 });
    assert.equal(await rows.count(), 1);
    await chat.page.keyboard.press('Escape');
  },
  180_000,
);
