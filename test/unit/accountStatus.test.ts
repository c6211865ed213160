/**
 * Who the agent is signed in as: the `_auth/status_update` payloads claude-agent-acp 0.101 and
 * codex-acp 2.6 really push (recorded: test/fixtures/agentPayloads/novemberStatus.json), ACP's
 * `auth/status_update`, and the whole path through Tandem's core with the scripted agent process
 * sending them (the signed-in row, Sign out through `logout`), plus the account's limits on the same
 * path (quota_update in a turn, a prompt refused by a limit).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationSnapshot, HostMessage } from '../../src/protocol/messages';
import { parseAccountStatus, sameAccount } from '../../src/runtime/accountStatus';
import type { AgentScript } from '../fixtures/scriptedAgent/scriptTypes';
import { scriptedSession, until } from '../support/scriptedSession';
import { conversationSnapshot as buildConversationSnapshot } from '../../src/conversation/conversationViews';

const repo = join(__dirname, '..', '..');
const recorded = JSON.parse(readFileSync(join(__dirname, '../fixtures/agentPayloads/novemberStatus.json'), 'utf8')) as Record<
  string,
  { initialize: { agentCapabilities: Record<string, unknown> }; notifications: Array<{ method: string; params: unknown }> }
>;
const pushes = (agent: string) => recorded[agent].notifications.filter((n) => n.method === '_auth/status_update');

let dir: string;
before(() => {
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'tandem-account-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the adapters advertise the push and logout, and say who is signed in', () => {
  for (const agent of ['claude-agent-acp', 'codex-acp']) {
    const caps = recorded[agent].initialize.agentCapabilities as { _meta?: { authStatus?: unknown }; auth?: { logout?: unknown } };
    assert.deepEqual(caps._meta?.authStatus, {}, `${agent}: the authStatus marker`);
    assert.deepEqual(caps.auth?.logout, {}, `${agent}: logout`);
    assert.equal(pushes(agent).length, 1, `${agent}: one push after initialize`);
  }
  assert.deepEqual(parseAccountStatus(pushes('claude-agent-acp')[0].params), { signedIn: true, label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' });
  assert.deepEqual(parseAccountStatus(pushes('codex-acp')[0].params), { signedIn: true, label: 'Custom model gateway', detail: 'fake' });
  // claude-agent-acp's known signed-out state (auth-status.js NOT_LOGGED_IN).
  assert.deepEqual(parseAccountStatus({ authStatus: { kind: 'none', label: 'Not logged in' } }), { signedIn: false, label: 'Not logged in' });
});

test("ACP's auth/status_update: the active account names the identity; only the state is acted on", () => {
  assert.deepEqual(
    parseAccountStatus({
      state: 'authenticated',
      accounts: [
        { label: 'Work', email: 'old@example.com' },
        { label: 'ChatGPT', email: 'ada@example.com', organization: 'Acme', active: true },
      ],
    }),
    { signedIn: true, label: 'ada@example.com', detail: 'ChatGPT · Acme' },
  );
  assert.deepEqual(parseAccountStatus({ state: 'unauthenticated' }), { signedIn: false, label: 'Not signed in' });
  assert.equal(parseAccountStatus({ state: 'not_required' }), undefined);
  assert.equal(parseAccountStatus({ state: 'something-new', accounts: [] }), undefined, 'unknown state: as unknown');
  assert.equal(parseAccountStatus({ authStatus: { kind: 7 } }), undefined);
  assert.equal(parseAccountStatus('junk'), undefined);
  assert.ok(sameAccount({ label: 'a' }, { label: 'a' }));
  assert.ok(!sameAccount({ label: 'a', signedIn: true }, { label: 'a', signedIn: false }));
});

function accountChanges(messages: HostMessage[]) {
  return messages.flatMap((m) => (m.type === 'accountChanged' ? [{ account: m.account, canSignOut: m.canSignOut }] : []));
}

test('through the core: the pushed account reaches the panel and the snapshot; Sign out goes through logout and shows the signed-out state', async () => {
  const claudePush = pushes('claude-agent-acp')[0];
  const script: AgentScript = {
    initialize: { agentCapabilities: { auth: { logout: {} }, _meta: { authStatus: {} } }, notifications: [claudePush] },
    logout: { notifications: [{ method: '_auth/status_update', params: { authStatus: { kind: 'none', label: 'Not logged in' } } }] },
    turns: [{ steps: [{ raw: JSON.stringify({ jsonrpc: '2.0', method: '_auth/status_update', params: claudePush.params }) }] }],
  };
  const { session, messages, log } = scriptedSession(dir, script);
  try {
    await session.start();
    await until(() => session.conversation.account !== undefined, 'the account');
    assert.deepEqual(session.conversation.account, { signedIn: true, label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' });
    assert.equal(session.conversation.canSignOut, true);
    assert.deepEqual(accountChanges(messages).at(-1), { account: session.conversation.account, canSignOut: true });
    const snapshot: ConversationSnapshot = buildConversationSnapshot(session.conversation);
    assert.deepEqual(snapshot.account, session.conversation.account);
    assert.equal(snapshot.canSignOut, true);
    // The same push again (the adapters repeat at each turn's start) changes nothing.
    const before = accountChanges(messages).length;
    await session.prompt('hi');
    assert.equal(accountChanges(messages).length, before);
    // What `Tandem: Sign Out of the Agent` does when the agent advertised logout.
    await session.conversation.agentRuntime?.connection().logout();
    await until(() => session.conversation.account?.signedIn === false, 'the signed-out state');
    assert.deepEqual(accountChanges(messages).at(-1)?.account, { signedIn: false, label: 'Not logged in' });
    assert.ok(!log.of('warn').some((w) => /Unhandled|unknown method/i.test(w)), log.of('warn').join('\n'));
  } finally {
    session.dispose();
  }
});

test('through the core: quota_update in a turn reaches the panel; a prompt refused by a limit says which limit', async () => {
  const resetsAt = new Date(Date.now() + 2 * 3_600_000 + 60_000).toISOString();
  const snapshot = {
    sessionUpdate: 'quota_update',
    updatedAt: new Date().toISOString(),
    pools: [
      { id: 'codex', state: 'exhausted', meters: [{ id: 'primary', label: '5-hour limit', usedPercent: 100, window: 'PT5H', resetsAt, status: 'exceeded' }] },
    ],
  };
  const script: AgentScript = {
    turns: [
      { steps: [{ update: snapshot }] },
      {
        steps: [],
        error: { code: -32603, message: 'Internal error', data: { message: "You've hit your usage limit.", codexErrorInfo: 'usageLimitExceeded' } },
      },
    ],
  };
  const { session, messages, received } = scriptedSession(dir, script);
  try {
    await session.start();
    const caps = received().find((m) => m.method === 'initialize')?.params as { clientCapabilities?: { session?: Record<string, unknown> } } | undefined;
    assert.deepEqual(caps?.clientCapabilities?.session?.quota, {}, 'the client declares it can show quota updates');
    await session.prompt('first');
    const change = messages.find((m) => m.type === 'quotaChanged');
    assert.ok(change?.type === 'quotaChanged' && change.quota);
    assert.equal(change.quota.pools[0].meters[0].usedPercent, 100);
    await session.prompt('second');
    const errors = session.snapshotParts().entries.filter((e) => e.kind === 'error');
    assert.match(JSON.stringify(errors.at(-1)), /Scripted has reached its 5-hour limit: You've hit your usage limit\. It resets in 2 hours/);
  } finally {
    session.dispose();
  }
});
