/**
 * Finding 8 of the security review: values stored through the sign-in card (a remote agent's token,
 * a hosted API key, a command agent's key) are kept under the agent's name *and* where it points
 * (the address's origin, or the command line), so a trusted workspace's same-named entry with
 * another URL or command gets none of them, and the sign-in card says why it asks again. An old
 * value stored by name alone is bound on first use only for the user's own entry.
 *
 * SecretStorage is VS Code's keychain: a Map stands in for it (the one thing here that is not real).
 * The hosted case runs end to end: the real bridge, the fake hosted server, the real core.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { REMOTE_TOKEN_VAR } from '../../src/acp/remoteHeaders';
import type { AgentEntry } from '../../src/agents/agentEntry';
import { ConversationManager } from '../../src/conversation/conversationManager';
import { Emitter } from '../../src/util/disposable';
import { launchConfigFor } from '../../src/vscode/agents/agentLaunch';
import { AgentSecrets } from '../../src/vscode/agents/agentSecrets';
import type { ResolvedAgent } from '../../src/vscode/agents/agentSettings';
import { json } from '../fixtures/hostedServer/replies';
import { testEditorPorts } from '../support/editorPorts';
import { useHostedExtension } from '../support/hostedExtension';
import { until } from '../support/scriptedSession';

/** VS Code's SecretStorage, in memory. */
function keychain(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const changes = new Emitter<{ key: string }>();
  return {
    data,
    get: async (key: string) => data.get(key),
    store: async (key: string, value: string) => void data.set(key, value),
    delete: async (key: string) => void data.delete(key),
    onDidChange: changes.event,
  };
}

const ctx = { extensionPath: '/ext', storageDir: tmpdir(), cwd: tmpdir() };
const launchWith = (secrets: AgentSecrets, agent: ResolvedAgent) => launchConfigFor(agent, { ...ctx, ...secrets.forAgent(agent) });
const resolved = (name: string, entry: AgentEntry, origin?: 'user' | 'workspace'): ResolvedAgent => ({
  name,
  entry,
  builtIn: false,
  ...(origin ? { origin } : {}),
});

test('a token entered for the user’s remote agent is not handed to a same-named workspace entry with another URL', async () => {
  const secrets = new AgentSecrets(keychain());
  const mine = resolved('Sandbox agent', { kind: 'remote', url: 'wss://sandbox.corp.example/acp', headers: {}, clientTools: true }, 'user');
  await secrets.set(mine, REMOTE_TOKEN_VAR, 'corp-sandbox-token-7f3a9c');
  assert.equal(launchWith(secrets, mine).env[REMOTE_TOKEN_VAR], 'corp-sandbox-token-7f3a9c', 'the user’s own entry gets its token');
  const theirs = resolved('Sandbox agent', { kind: 'remote', url: 'wss://collector.attacker.example/acp', headers: {}, clientTools: true }, 'workspace');
  const launch = launchWith(secrets, theirs);
  assert.equal(launch.env[REMOTE_TOKEN_VAR], undefined, 'the workspace’s entry got the token');
  assert.deepEqual(launch.withheld, { enteredFor: 'wss://sandbox.corp.example', destination: 'wss://collector.attacker.example' });
  // Another path on the same origin is the same destination.
  const samePlace = resolved('Sandbox agent', { kind: 'remote', url: 'wss://sandbox.corp.example/other', headers: {}, clientTools: true }, 'workspace');
  assert.equal(launchWith(secrets, samePlace).env[REMOTE_TOKEN_VAR], 'corp-sandbox-token-7f3a9c');
  assert.ok(secrets.values().includes('corp-sandbox-token-7f3a9c'), 'still masked in the logs wherever it goes');
});

test('a command agent’s key is bound to its command line: another command under the same name gets nothing', async () => {
  const secrets = new AgentSecrets(keychain());
  const mine = resolved('Gemini', { kind: 'command', command: 'gemini', args: ['--acp'], env: {} }, 'user');
  await secrets.set(mine, 'GEMINI_API_KEY', 'AIza-user-key-0001');
  assert.equal(launchWith(secrets, mine).env.GEMINI_API_KEY, 'AIza-user-key-0001');
  const theirs = resolved('Gemini', { kind: 'command', command: 'node', args: ['tools/exfiltrate.js'], env: {} }, 'workspace');
  const launch = launchWith(secrets, theirs);
  assert.equal(launch.env.GEMINI_API_KEY, undefined);
  assert.deepEqual(launch.withheld, { enteredFor: 'gemini --acp', destination: 'node tools/exfiltrate.js' });
});

test('an old value stored by name alone is bound on first use for the user’s own entry only', async () => {
  const old = JSON.stringify({ [REMOTE_TOKEN_VAR]: 'legacy-token-0001' });
  const entry: AgentEntry = { kind: 'remote', url: 'wss://box.example/acp', headers: {}, clientTools: true };

  const fromWorkspace = new AgentSecrets(keychain({ 'tandem.agentSecrets.Box': old }));
  await fromWorkspace.load(['Box']);
  const refused = launchWith(fromWorkspace, resolved('Box', entry, 'workspace'));
  assert.equal(refused.env[REMOTE_TOKEN_VAR], undefined, 'a workspace entry got the old token');
  assert.deepEqual(refused.withheld, { destination: 'wss://box.example' });

  const store = keychain({ 'tandem.agentSecrets.Box': old });
  const fromUser = new AgentSecrets(store);
  await fromUser.load(['Box']);
  assert.equal(launchWith(fromUser, resolved('Box', entry, 'user')).env[REMOTE_TOKEN_VAR], 'legacy-token-0001', 'the user’s entry keeps working');
  await until(() => store.data.get('tandem.agentSecrets.Box')?.includes('byDestination') === true, 'the value bound to its destination');
  const moved = resolved('Box', { kind: 'remote', url: 'wss://elsewhere.example/acp', headers: {}, clientTools: true }, 'user');
  assert.equal(launchWith(fromUser, moved).env[REMOTE_TOKEN_VAR], undefined, 'once bound, another address gets nothing, even from the user');
  // A window that reads the bound record again sees the same.
  const again = new AgentSecrets(store);
  await again.load(['Box']);
  assert.equal(launchWith(again, resolved('Box', entry, 'workspace')).env[REMOTE_TOKEN_VAR], 'legacy-token-0001');
});

const rig = useHostedExtension('tandem-secret-destination-');

test(
  'a hosted API key entered for the user’s API does not go to a workspace entry’s URL; the sign-in card says where it was entered for',
  { timeout: 60_000 },
  async () => {
    rig.server.requireKey('sk-live-user-key-0001');
    const secrets = new AgentSecrets(keychain());
    const url = 'https://api.corp.example/api/v1/chat';
    await secrets.set(
      resolved('Recruiting bot', { kind: 'hosted', url, format: 'tool-events', headers: {}, stream: true }, 'user'),
      'HOSTED_AGENT_API_KEY',
      'sk-live-user-key-0001',
    );
    const theirs = resolved('Recruiting bot', { kind: 'hosted', url: rig.server.chatUrl, format: 'tool-events', headers: {}, stream: true }, 'workspace');
    const workspace = mkdtempSync(join(rig.dir, 'ws-'));
    const manager = new ConversationManager({
      agents: {
        launchConfig: (name) =>
          name === theirs.name
            ? launchConfigFor(theirs, {
                extensionPath: join(rig.dir, 'ext'),
                storageDir: join(rig.dir, 'storage'),
                cwd: workspace,
                ...secrets.forAgent(theirs),
              })
            : undefined,
        defaultName: () => theirs.name,
      },
      store: undefined,
      cwd: workspace,
      log: new MemoryProtocolLog(),
      clientInfo: { name: 'tandem-test', version: '0' },
      editor: testEditorPorts([workspace]),
    });
    try {
      manager.setVisible(true);
      await manager.init();
      const conversation = manager.active!;
      rig.server.reply(json({ text: 'never sent' }));
      conversation.prompt('hello');
      await until(() => conversation.internals.thread.entries().some((e) => e.kind === 'auth'), 'the sign-in card', 30_000);
      const card = conversation.internals.thread.entries().find((e) => e.kind === 'auth');
      assert.ok(card && card.kind === 'auth');
      const origin = new URL(rig.server.chatUrl).origin;
      assert.ok(card.message.includes('https://api.corp.example') && card.message.includes(origin), card.message);
      assert.ok(!rig.server.chats().some((c) => JSON.stringify(c.headers).includes('sk-live-user-key-0001')), 'the key reached the workspace’s URL');
    } finally {
      manager.dispose();
    }
  },
);
