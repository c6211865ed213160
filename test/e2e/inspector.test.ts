// The protocol inspector and transcripts in real VS Code (code-server, the packaged .vsix): a real
// conversation with the scripted agent process is listed live in `Tandem: Open Protocol Inspector`,
// exported with `Tandem: Export Transcript…` (secrets masked), replayed with `Tandem: Replay
// Transcript…` by the bundled replay agent, and the replayed conversation shows the same cards.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { answerFileDialog, pickQuickItem } from './harness/dialogs';
import { scenario, useE2e } from './harness/e2e';
import { agentSettings, say } from './harness/workspace';
import { runCommand, uiTimeout, waitUntil, type Chat } from './harness/workbench';

const e2e = useE2e();
const SECRET = 'sk-ant-e2e-secret-value-0123456789';

/** The inspector's document: the webview frame whose page holds the message grid. */
async function inspectorFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(async () => {
    for (const frame of page.frames()) {
      if (
        (await frame
          .locator('[role="grid"][aria-label="Protocol messages"]')
          .count()
          .catch(() => 0)) > 0
      )
        found = frame;
    }
    return found !== undefined;
  }, 'the protocol inspector webview');
  return found!;
}

/** What the agent's side of a thread shows: the agent's text and each tool card's title and status. */
async function agentCards(chat: Chat): Promise<string[]> {
  const cards = chat.frame.locator(
    '[role="article"][data-entry-kind="agent"], [role="article"][data-entry-kind="tool_call"], [role="article"][data-entry-kind="plan"]',
  );
  const out: string[] = [];
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    out.push(`${await card.getAttribute('data-entry-kind')}: ${((await card.textContent()) ?? '').replace(/\s+/g, ' ').trim()}`);
  }
  return out;
}

scenario(e2e, 'inspector lists a real conversation; export it, replay it, and the same cards appear', async (s) => {
  const agent = s.agent({
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'plan', entries: [{ content: 'Look at the notes', priority: 'high', status: 'in_progress' }] } },
          say(`Reading the notes (key ${SECRET}).`),
          { update: { sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read notes.txt', kind: 'read', status: 'pending' } },
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'read-1',
              status: 'completed',
              content: [{ type: 'content', content: { type: 'text', text: 'status: draft' } }],
            },
          },
          // A wire-rule slip for the inspector to flag: an update for a call nobody announced.
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost-9', status: 'completed' } },
          say('The notes say **draft**.'),
        ],
        stopReason: 'end_turn',
      },
    ],
  });
  agent.config.env = { ...agent.config.env, SCRIPTED_KEY: SECRET };
  const workspace = s.workspace({ files: { 'notes.txt': 'status: draft\n' }, settings: agentSettings('Scripted', agent.config) });
  const { workbench, chat } = await s.open(workspace);
  const page = workbench.page;

  await chat.send('What do the notes say?');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const recorded = await agentCards(chat);
  assert.ok(
    recorded.some((c) => /tool_call: .*Read notes\.txt/.test(c)),
    recorded.join('\n'),
  );

  // The inspector opens on the conversation's session, and lists its messages; and flags the slip.
  await runCommand(page, 'Tandem: Open Protocol Inspector');
  const inspector = await inspectorFrame(page);
  const gridText = async (): Promise<string> => (await inspector.locator('.grid-viewport [role="row"]:visible').allTextContents()).join('\n');
  await waitUntil(async () => /session\/prompt result/.test(await gridText()), 'the conversation listed in the inspector');
  const grid = await gridText();
  assert.match(grid, /session\/new result/);
  assert.match(grid, /session\/prompt/);
  assert.match(grid, /session\/update · tool_call_update/);
  assert.doesNotMatch(grid, /initialize/, 'the handshake names no session');
  await inspector.locator('select[aria-label="Filter by session"]').selectOption('');
  await waitUntil(async () => /initialize/.test(await gridText()), 'every message of the window');
  await inspector.locator('#problems-only').check();
  await waitUntil(async () => /^1 of \d+ messages/.test((await inspector.locator('.status').textContent()) ?? ''), 'one message with a problem');
  await inspector.locator('[role="grid"]').focus();
  await inspector.locator('[role="grid"]').press('Home');
  assert.match((await inspector.locator('.detail-warnings').textContent()) ?? '', /unknown-tool-call.*ghost-9/);

  // Closed again: the chat panel is then the only Tandem webview (its locator must be unique).
  await page.locator('.tabs-container .tab', { hasText: 'Protocol Inspector' }).locator('.codicon-close').click();
  await waitUntil(async () => (await page.locator('.tabs-container .tab', { hasText: 'Protocol Inspector' }).count()) === 0, 'the inspector closed');

  // Export: this conversation, into a folder outside the workspace (the save dialog starts in the workspace's).
  const file = join(s.workspace().dir, 'conversation.jsonl');
  await runCommand(page, 'Tandem: Export Transcript…');
  await pickQuickItem(page, 'This conversation');
  const proposed = page.locator('.quick-input-widget input');
  await waitUntil(async () => /\/tandem-scripted-[\d-]+\.jsonl$/.test(await proposed.inputValue()), 'the save dialog to propose a file name');
  assert.equal(dirname(await proposed.inputValue()), workspace.dir, 'the save dialog starts in the workspace folder');
  await answerFileDialog(page, file);
  await waitUntil(async () => existsSync(file) && readFileSync(file, 'utf8').includes('"stopReason"'), 'the exported transcript');
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes(SECRET), "the agent's env value is masked");
  assert.match(text.split('\n')[0], /"type":"tandem-transcript".*"agent":\{"name":"Scripted"/);

  // Report a problem: report.md opens, its transcript.jsonl beside it; the notification says where.
  await runCommand(page, 'Tandem: Report a problem');
  const reportTab = page.locator('.tabs-container .tab', { hasText: 'report.md' });
  await reportTab.waitFor({ timeout: uiTimeout });
  // The editor renders spaces as no-break spaces.
  await waitUntil(
    async () => /Tandem\s+problem\s+report/.test(((await page.locator('.editor-instance .view-lines').first().textContent()) ?? '').replace(/\u00a0/g, ' ')),
    'the report in an editor',
  );
  // In the extension's global storage (the notification that says so may be folded away by then).
  const reports = join(e2e.server.userDataDir, 'User', 'globalStorage', 'tandem.tandem-acp', 'problem-reports');
  const folder = join(reports, readdirSync(reports).sort().at(-1) ?? '');
  const report = readFileSync(join(folder, 'report.md'), 'utf8');
  assert.match(report, /unknown-tool-call/);
  assert.match(report, /\| Tandem \| `0\.\d+\.\d+` \|/);
  assert.ok(!readFileSync(join(folder, 'transcript.jsonl'), 'utf8').includes(SECRET));
  await reportTab.locator('.codicon-close').click();

  // Replay it, as fast as possible: a new conversation with "Replay: conversation.jsonl".
  await runCommand(page, 'Tandem: Replay Transcript…');
  await answerFileDialog(page, file);
  await pickQuickItem(page, 'As fast as possible');
  await waitUntil(
    async () => (await chat.frame.locator('select.agent-picker').inputValue()) === 'Replay: conversation.jsonl',
    'the replay agent selected in the panel',
  );
  await chat.send('anything at all');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const replayed = await agentCards(chat);
  assert.deepEqual(
    replayed,
    recorded.map((c) => c.split(SECRET).join('***')),
  );
  assert.equal(await chat.entries('error').count(), 0);
});
