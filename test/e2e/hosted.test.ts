// A hosted chat API as an agent in real VS Code (code-server): an entry with a url and a format in
// the workspace's settings; the server answers 401, the sign-in card asks for the key in VS Code's
// password box; the turn then runs two tools on the server, shown as cards that say so; Stop ends a
// long answer mid-stream with the partial reply kept; a 400 for missing context offers the agent's
// settings; and after VS Code restarts the conversation comes back and the next turn sends the
// history. The bridge is the bundled dist/hostedAgent.js of the installed .vsix; the server is the
// fake hosted server (test/fixtures/hostedServer) on 127.0.0.1. This file runs its own code-server.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { json, toolEvents } from '../fixtures/hostedServer/replies';
import { SEED_MISSING_CONTEXT } from '../fixtures/hostedServer/seedPayloads';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { scenario } from './harness/e2e';
import { useRestartableE2e } from './harness/restartable';
import { storedConversations } from './harness/storage';
import { waitUntil, type Chat } from './harness/workbench';

let hosted: HostedServer;
const e2e = useRestartableE2e('tandem-hosted-e2e-');

before(async () => {
  hosted = await startHostedServer();
});
after(async () => {
  await hosted.close();
});

const READY = { allowedTools: ['bash', 'zhipin_reply_generator'], context: { sandboxId: 'sb-1', configData: {}, replyPrompts: {} } };

function twoTools(): ReturnType<typeof toolEvents> {
  return toolEvents([
    ['text', { type: 'text.delta', delta: 'Looking at the data, then writing the reply. ' }],
    ['tool', { type: 'tool.start', name: 'bash', input: { command: 'ls /data' } }],
    ['tool', { type: 'tool.complete', name: 'bash', state: 'output-available', output: 'jobs.csv' }],
    ['tool', { type: 'tool.start', name: 'zhipin_reply_generator', input: { candidate_message: '薪资?', brand: '蜀地源冒菜' } }],
    ['tool', { type: 'tool.complete', name: 'zhipin_reply_generator', state: 'output-available', output: { reply: '您好！' } }],
    ['text', { type: 'text.delta', delta: 'The reply is ready.' }],
    ['done', { type: 'done' }],
  ]);
}

async function turnEnded(chat: Chat, n: number, reason: string): Promise<void> {
  await waitUntil(async () => (await chat.stopReasons(reason).count()) >= n, `${n}× a turn ending ${reason}`, 60_000);
}

scenario(
  e2e,
  'a hosted chat API: the key asked once through the sign-in card, two server tools as cards, Stop mid-stream, missing context, and after a restart the history goes again',
  async (s) => {
    hosted.requireKey('sk-e2e');
    const workspace = s.workspace({
      files: { 'README.md': '# Hosted\n' },
      settings: { 'tandem.agents': { 'Recruiting bot': { url: hosted.chatUrl, format: 'tool-events', body: READY } }, 'tandem.defaultAgent': 'Recruiting bot' },
    });
    let { chat } = await s.open(workspace);
    const page = chat.page;

    // 401 → the sign-in card; its API-key method asks in VS Code's password box.
    hosted.reply(twoTools());
    await chat.send('Reply to the candidate');
    const card = chat.frame.locator('[data-entry-kind="auth"]');
    await card.waitFor({ timeout: 60_000 });
    await card.locator('button[data-auth-method]').first().click();
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ timeout: 30_000 });
    await box.fill('sk-e2e');
    await box.press('Enter');
    await turnEnded(chat, 1, 'end_turn');
    assert.equal(hosted.chats().at(-1)?.headers.authorization, 'Bearer sk-e2e', 'the key reached the server');
    const cards = chat.frame.locator('[data-entry-kind="tool_call"][data-ran-on-server]');
    assert.equal(await cards.count(), 2, 'two cards of tools that ran on the server');
    assert.equal(await cards.first().getAttribute('data-kind'), 'execute');
    assert.match((await cards.first().textContent()) ?? '', /server/);
    assert.match(await chat.threadText(), /The reply is ready\./);

    // Stop mid-stream: what arrived stays, the turn ends cancelled, the request is aborted.
    const closedBefore = hosted.closedByClient();
    hosted.reply(
      toolEvents([
        ['text', { type: 'text.delta', delta: 'First part of a long answer. ' }],
        ...Array.from({ length: 60 }, (_, i) => [{ wait: 500 }, ['text', { type: 'text.delta', delta: `more ${i}. ` }]] as const).flat(),
        ['done', { type: 'done' }],
      ] as Parameters<typeof toolEvents>[0]),
    );
    await chat.send('Write a long answer');
    await waitUntil(async () => (await chat.threadText()).includes('First part of a long answer.'), 'the first part streamed');
    await chat.button('Stop').click();
    await turnEnded(chat, 1, 'cancelled');
    assert.match(await chat.threadText(), /First part of a long answer\./, 'the partial reply stays');
    await waitUntil(async () => hosted.closedByClient() > closedBefore, 'the HTTP request aborted');

    // Missing context: the error names the keys and offers the agent's settings.
    hosted.reply(json(SEED_MISSING_CONTEXT, 400));
    await chat.frame
      .getByRole('button', { name: /Resume|Send/ })
      .first()
      .waitFor();
    await chat.send('Once more');
    const error = chat.frame.locator('[data-entry-kind="error"]').last();
    await error.waitFor({ timeout: 60_000 });
    assert.match((await error.textContent()) ?? '', /configData/);
    await error.getByRole('button', { name: 'Open the agent’s settings' }).click();
    await page.locator('.settings-editor').waitFor({ timeout: 30_000 });

    // VS Code restarts: the conversation is back, and the next turn sends the history to the server.
    // (A killed VS Code skips the last save: wait for what is on disk.)
    await waitUntil(async () => storedConversations(e2e.userDataDir).includes('First part of a long answer.'), 'the conversation stored');
    await e2e.restart();
    ({ chat } = await s.open(workspace));
    await waitUntil(async () => (await chat.threadText()).includes('Reply to the candidate'), 'the restored thread');
    hosted.reply(
      toolEvents([
        ['text', { type: 'text.delta', delta: 'Welcome back.' }],
        ['done', { type: 'done' }],
      ]),
    );
    await chat.send('Are you still there?');
    const signIn = chat.frame.locator('[data-entry-kind="auth"] button[data-auth-method]:not([disabled])');
    const again = chat.page.locator('.quick-input-widget input[type="password"]');
    await waitUntil(
      async () => {
        // The key is kept in VS Code's secret storage — in code-server that is the browser's, and
        // every scenario opens a fresh browser profile: then the card asks for it again.
        if (await again.isVisible()) {
          await again.fill('sk-e2e');
          await again.press('Enter');
        } else if ((await signIn.count()) > 0) await signIn.first().click();
        return (await chat.threadText()).includes('Welcome back.');
      },
      'the answer after the restart',
      60_000,
    );
    const last = hosted.chats().at(-1)?.body as { messages?: Array<{ content?: unknown }> } | undefined;
    const sent = JSON.stringify(last?.messages ?? []);
    assert.ok(sent.includes('Reply to the candidate') && sent.includes('Are you still there?'), 'the history went with the new prompt');
  },
  300_000,
);
