// A hosted chat API as an agent, end to end through Tandem's core: an entry with a url and a format
// launches the bundled bridge (the real process, as the .vsix ships it) against the fake hosted
// server; a 401 brings the sign-in card, the key entered there reaches the server after a restart
// of the bridge, the server's tools become cards marked as run on the server, and a 400 for
// missing context offers the agent's settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { ConversationManager } from '../../src/conversation/conversationManager';
import type { HostedEntry } from '../../src/agents/agentEntry';
import type { ToolCallEntry } from '../../src/protocol/messages';
import { launchConfigFor } from '../../src/vscode/agents/agentLaunch';
import { json, toolEvents } from '../fixtures/hostedServer/replies';
import { SEED_MISSING_CONTEXT } from '../fixtures/hostedServer/seedPayloads';
import { testEditorPorts } from '../support/editorPorts';
import { useHostedExtension } from '../support/hostedExtension';
import { until } from '../support/scriptedSession';

const hosted = useHostedExtension('tandem-hosted-conv-');

function rig(entry: HostedEntry) {
  const secrets: Record<string, string> = {};
  const asked: string[] = [];
  const workspace = mkdtempSync(join(hosted.dir, 'ws-'));
  const launch = () =>
    launchConfigFor(
      { name: 'Recruiting bot', entry, builtIn: false },
      { extensionPath: join(hosted.dir, 'ext'), storageDir: join(hosted.dir, 'storage'), cwd: workspace, secrets: { ...secrets } },
    );
  const manager = new ConversationManager({
    agents: { launchConfig: (name) => (name === 'Recruiting bot' ? launch() : undefined), defaultName: () => 'Recruiting bot' },
    store: undefined,
    cwd: workspace,
    log: new MemoryProtocolLog(),
    clientInfo: { name: 'tandem-test', version: '0' },
    editor: testEditorPorts([workspace], {
      askSecret: async (_agent, variable) => {
        asked.push(variable.name);
        secrets[variable.name] = 'sk-test';
        return true;
      },
    }),
  });
  manager.setVisible(true);
  return { manager, asked, secrets };
}

const entry = (body: Record<string, unknown>): HostedEntry => ({
  kind: 'hosted',
  url: hosted.server.chatUrl,
  format: 'tool-events',
  headers: {},
  stream: true,
  body,
});
const READY = { allowedTools: ['bash', 'zhipin_reply_generator'], context: { sandboxId: 'sb-1', configData: {}, replyPrompts: {} } };

test(
  'a 401 brings the sign-in card; the key entered there reaches the server; two server tools become cards that say where they ran',
  { timeout: 60_000 },
  async () => {
    hosted.server.requireKey('sk-test');
    const { manager, asked } = rig(entry(READY));
    await manager.init();
    const conversation = manager.active!;
    hosted.server.reply(
      toolEvents([
        ['text', { type: 'text.delta', delta: 'Checking the sandbox, then writing the reply.' }],
        ['tool', { type: 'tool.start', name: 'bash', input: { command: 'ls /data' } }],
        ['tool', { type: 'tool.complete', name: 'bash', state: 'output-available', output: 'jobs.csv' }],
        ['tool', { type: 'tool.start', name: 'zhipin_reply_generator', input: { candidate_message: '薪资?', brand: '蜀地源冒菜' } }],
        ['tool', { type: 'tool.complete', name: 'zhipin_reply_generator', state: 'output-available', output: { reply: '您好！' } }],
        ['done', { type: 'done' }],
      ]),
    );
    conversation.prompt('Reply to the candidate');
    await until(() => conversation.internals.thread.entries().some((e) => e.kind === 'auth'), 'the sign-in card', 30_000);
    const card = conversation.internals.thread.entries().find((e) => e.kind === 'auth');
    assert.ok(card && card.kind === 'auth');
    const method = card.methods.find((m) => m.kind === 'envVar');
    assert.equal(method?.envVar, 'HOSTED_AGENT_API_KEY', 'the bridge names its key variable');
    await conversation.authenticate(method.id);
    await until(
      () => conversation.internals.thread.entries().some((e) => e.kind === 'turn_end' && e.stopReason === 'end_turn'),
      'the turn after signing in',
      30_000,
    );
    assert.deepEqual(asked, ['HOSTED_AGENT_API_KEY'], 'asked once');
    const chats = hosted.server.chats();
    assert.equal(chats.at(-1)?.headers.authorization, 'Bearer sk-test', 'the key reached the server');
    const cards = conversation.internals.thread.entries().filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    assert.deepEqual(
      cards.map((c) => [c.toolKind, c.status, c.ranOn]),
      [
        ['execute', 'completed', 'server'],
        ['other', 'completed', 'server'],
      ],
    );
    assert.match(cards[0].title, /ls \/data/);
    assert.ok(!conversation.internals.thread.entries().some((e) => e.kind === 'error'));
    manager.dispose();
  },
);

test('a 400 for missing context: the error names the keys and the tools, and offers the agent’s settings', { timeout: 60_000 }, async () => {
  hosted.server.requireKey(undefined);
  const { manager } = rig(entry({ allowedTools: ['zhipin_reply_generator'] }));
  await manager.init();
  const conversation = manager.active!;
  hosted.server.reply(json(SEED_MISSING_CONTEXT, 400));
  conversation.prompt('Reply to the candidate');
  await until(() => conversation.internals.thread.entries().some((e) => e.kind === 'error'), 'the error', 30_000);
  const error = conversation.internals.thread.entries().find((e) => e.kind === 'error');
  assert.ok(error && error.kind === 'error');
  assert.match(error.message, /configData/);
  assert.match(error.message, /zhipin_reply_generator/);
  assert.equal(error.action, 'openAgentSettings');
  manager.dispose();
});
