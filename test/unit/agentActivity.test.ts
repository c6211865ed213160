/**
 * What the agent says it does: codex-acp 2.6's `session_info_update._meta.codex.threadStatus` (its
 * app-server's ThreadStatus, as createCodexSessionInfoUpdate sends it) drives the tab's badge and the
 * status bar's count, through Tandem's core with the scripted agent process sending it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityOf } from '../../src/thread/agentActivity';
import { activityText } from '../../src/conversation/activitySummary';
import { scriptedSession, until } from '../support/scriptedSession';

const repo = join(__dirname, '..', '..');
let dir: string;
before(() => {
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'tandem-activity-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const status = (threadStatus: unknown) => ({ sessionUpdate: 'session_info_update', _meta: { codex: { threadStatus } } });

test('threadStatus: active with a waiting flag is waiting, active is working, idle and errors are idle; anything else says nothing', () => {
  assert.equal(activityOf(status({ type: 'active', activeFlags: ['waitingOnApproval'] })), 'waiting');
  assert.equal(activityOf(status({ type: 'active', activeFlags: ['waitingOnUserInput'] })), 'waiting');
  assert.equal(activityOf(status({ type: 'active', activeFlags: [] })), 'working');
  assert.equal(activityOf(status({ type: 'idle' })), 'idle');
  assert.equal(activityOf(status({ type: 'systemError' })), 'idle');
  assert.equal(activityOf(status({ type: 'mystery' })), undefined);
  assert.equal(activityOf(status('junk')), undefined);
  assert.equal(activityOf({ sessionUpdate: 'session_info_update', title: 'x' }), undefined);
});

test('through the core: waitingOnApproval badges the tab and counts as waiting until the agent is idle again', async () => {
  const { session } = scriptedSession(dir, {
    turns: [
      {
        steps: [
          { update: status({ type: 'active', activeFlags: [] }) },
          { update: status({ type: 'active', activeFlags: ['waitingOnApproval'] }) },
          { sleep: 300 },
          { update: status({ type: 'idle' }) },
        ],
      },
    ],
  });
  try {
    await session.start();
    const seen: string[] = [];
    const sub = session.manager.onMessage((m) => {
      if (m.type !== 'tabsChanged') return;
      const tab = m.tabs[0];
      seen.push(`${tab.activity ?? '-'}:${tab.attention ?? '-'}:${activityText(m.tabs)?.text ?? ''}`);
    });
    await session.prompt('go');
    await until(() => session.conversation.activity === 'idle', 'idle again');
    sub.dispose();
    assert.ok(seen.includes('working:-:$(loading~spin) 1 working'), seen.join('\n'));
    assert.ok(seen.includes('waiting:permission:$(bell-dot) 1 waiting for you'), seen.join('\n'));
    const last = session.manager.tabs()[0];
    assert.equal(last.activity, 'idle');
    assert.notEqual(last.attention, 'permission');
  } finally {
    session.dispose();
  }
});

test('the status bar text: nothing when nothing works or waits; waiting ones first in the tooltip', () => {
  assert.equal(activityText([{ id: 'a', title: 'A', agentName: 'Codex', status: 'ready' }]), undefined);
  const shown = activityText([
    { id: 'a', title: 'Fix', agentName: 'Codex', status: 'running' },
    { id: 'b', title: 'Docs', agentName: 'Claude', status: 'running', attention: 'permission' },
  ]);
  assert.deepEqual(shown, {
    text: '$(loading~spin) 1 working  $(bell-dot) 1 waiting for you',
    tooltip: 'Claude waits for you in "Docs"\nCodex is working in "Fix"',
    waiting: true,
  });
});
