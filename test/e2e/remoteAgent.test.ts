// An agent on another machine in real VS Code: a `tandem.agents` entry with only a `url`
// (ws://…/acp) reaches the SDK's WebSocket server wrapping the scripted agent. The header says
// where it runs and that it is connected; a turn asks permission and writes a file of this
// workspace; the server is SIGKILLed mid-turn — the turn ends "Interrupted", the conversation says
// "Reconnecting…" — and once it is started again the same session continues.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { scenario, useE2e } from './harness/e2e';
import { waitUntil } from './harness/workbench';
import { ensureRemoteServerBuilt, RemoteServer } from '../support/remoteServer';

const e2e = useE2e();
let server: RemoteServer | undefined;
before(async () => {
  await ensureRemoteServerBuilt();
});
after(async () => {
  await server?.dispose();
});

scenario(
  e2e,
  'a remote agent over WebSocket: where it runs, a turn in this workspace, a drop mid-turn and the same session after it',
  async (s) => {
    server = new RemoteServer({
      script: {
        initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
        turns: [
          {
            steps: [
              {
                permission: {
                  toolCall: { toolCallId: 'w1', title: 'Write notes.md', kind: 'edit' },
                  options: [
                    { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
                    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
                  ],
                },
              },
              { writeFile: { path: '${cwd}/notes.md', content: '# written by the remote agent\n' } },
              { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Wrote the notes from far away.' } } },
            ],
            stopReason: 'end_turn',
          },
          { steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Starting the long job' } } }, { sleep: 120_000 }] },
          { steps: [{ recall: true }], stopReason: 'end_turn' },
        ],
      },
    });
    await server.start();
    s.keep(server.agentLog);
    const workspace = s.workspace({
      files: { 'README.md': '# remote\n' },
      settings: { 'tandem.agents': { 'Far Agent': { url: server.url('ws') } }, 'tandem.defaultAgent': 'Far Agent' },
    });
    const { chat } = await s.open(workspace);
    const location = chat.frame.locator('header .agent-location');
    await waitUntil(async () => (await location.getAttribute('data-connection')) === 'connected', 'the header to say connected', 60_000);
    assert.equal(await location.textContent(), `127.0.0.1:${server.port}`);
    assert.equal(await location.getAttribute('aria-label'), `Runs on 127.0.0.1:${server.port} · connected`);

    await chat.send('Write the notes');
    const allow = chat.frame.locator('[role="group"][aria-label^="Permission"] button[data-option-kind="allow_once"]');
    await allow.first().waitFor({ state: 'visible', timeout: 30_000 });
    await allow.first().click();
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    assert.equal(readFileSync(workspace.path('notes.md'), 'utf8'), '# written by the remote agent\n', 'the remote agent wrote into this workspace');
    assert.match(await chat.threadText(), /Wrote the notes from far away\./);

    await chat.send('Run the long job');
    await waitUntil(async () => /Starting the long job/.test(await chat.threadText()), 'the long job to start');
    const stored = server.statePath;
    await waitUntil(async () => readFileSync(stored, 'utf8').includes('Run the long job'), 'the agent to store the prompt');
    await server.kill();
    assert.equal(await chat.waitForTurnEnd(2), 'interrupted');
    await waitUntil(async () => (await location.getAttribute('data-connection')) === 'reconnecting', 'the header to say reconnecting');
    await waitUntil(async () => /Reconnecting/.test(await chat.threadText()), 'the thread to say it is reconnecting');
    await server.start();
    await waitUntil(async () => (await location.getAttribute('data-connection')) === 'connected', 'connected again', 60_000);
    await waitUntil(async () => /Reconnected to Far Agent/.test(await chat.threadText()), 'the notice to say reconnected');
    assert.ok(
      server.received().some((m) => m.method === 'session/resume'),
      'the same session, resumed',
    );

    await chat.send('What did I ask?');
    assert.equal(await chat.waitForTurnEnd(3), 'end_turn');
    assert.match(await chat.threadText(), /RECALL: Write the notes \| Run the long job/);
    assert.equal(await chat.entries('error').count(), 0);
  },
  240_000,
);
