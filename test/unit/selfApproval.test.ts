// Which modes approve the agent's own actions (issue 31): the header's badge rule, a table keyed by
// mode id / mode option value, with each agent's catalogue recognised by a marker mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigOptionView, ModesView } from '../../src/protocol/messages';
import { SELF_APPROVAL_RULES, selfApproval } from '../../webview/header/selfApproval';
import { selfApprovalText } from '../../webview/header/selfApprovalBadge';

/** Claude Code's modes as claude-agent-acp 0.101 lists them (session-mode.js), current `mode`. */
function claudeModes(current: string): ModesView {
  return {
    currentModeId: current,
    available: [
      { id: 'default', name: 'Manual' },
      { id: 'acceptEdits', name: 'Accept edits' },
      { id: 'plan', name: 'Plan' },
      { id: 'auto', name: 'Auto' },
      { id: 'bypassPermissions', name: 'Bypass permissions' },
    ],
  };
}

/** codex-acp 2.6's mode config option (AgentMode.toConfigOption), current `value`. */
function codexMode(value: string, grouped = false): ConfigOptionView {
  const choices = [
    { value: 'read-only', name: 'Read-only' },
    { value: 'workspace-write', name: 'Workspace access' },
    { value: 'agent', name: 'Auto review' },
    { value: 'agent-full-access', name: 'Full access' },
  ];
  return {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: value,
    choices: grouped ? [...choices.map((c) => ({ ...c, group: 'Sandbox Modes' })), { value: 'profile:x', name: 'x', group: 'Permission Profiles' }] : choices,
  };
}

const model: ConfigOptionView = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', choices: [{ value: 'm', name: 'M' }] };

test('Claude Code through its session modes: auto is reviewed, bypassPermissions approves all, acceptEdits its edits', () => {
  assert.deepEqual(selfApproval(claudeModes('auto'), []), { kind: 'reviewed', modeId: 'auto', modeName: 'Auto' });
  assert.deepEqual(selfApproval(claudeModes('bypassPermissions'), []), { kind: 'all', modeId: 'bypassPermissions', modeName: 'Bypass permissions' });
  assert.equal(selfApproval(claudeModes('acceptEdits'), [])?.kind, 'edits');
  assert.equal(selfApproval(claudeModes('default'), []), undefined);
  assert.equal(selfApproval(claudeModes('plan'), []), undefined);
});

test('Claude Code through its mode config option (0.101 sends config options, no modes)', () => {
  const option: ConfigOptionView = {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: 'auto',
    choices: claudeModes('auto').available.map((m) => ({ value: m.id, name: m.name })),
  };
  assert.deepEqual(selfApproval(undefined, [model, option]), { kind: 'reviewed', modeId: 'auto', modeName: 'Auto' });
  assert.equal(selfApproval(undefined, [model, { ...option, currentValue: 'default' }]), undefined);
  // The option wins over stale session modes (the header shows the option's picker then).
  assert.equal(selfApproval(claudeModes('default'), [option])?.modeId, 'auto');
});

test('Codex through its mode option: agent (Auto review) is reviewed, full access approves all, the sandboxes ask', () => {
  assert.deepEqual(selfApproval(undefined, [codexMode('agent')]), { kind: 'reviewed', modeId: 'agent', modeName: 'Auto review' });
  assert.equal(selfApproval(undefined, [codexMode('agent-full-access', true)])?.kind, 'all');
  assert.equal(selfApproval(undefined, [codexMode('read-only')]), undefined);
  assert.equal(selfApproval(undefined, [codexMode('workspace-write', true)]), undefined);
  assert.equal(selfApproval(undefined, [codexMode('profile:x', true)]), undefined);
});

test('a bare mode id of another agent is not taken for Claude’s or Codex’s: the catalogue must carry the marker', () => {
  // The older codex-acp's `auto` still asked before network access; another agent's `agent` mode asks.
  const other: ModesView = {
    currentModeId: 'auto',
    available: [
      { id: 'read-only', name: 'Read Only' },
      { id: 'auto', name: 'Auto' },
      { id: 'full-access', name: 'Full' },
    ],
  };
  assert.equal(selfApproval(other, []), undefined);
  const cursorLike: ModesView = {
    currentModeId: 'agent',
    available: [
      { id: 'agent', name: 'Agent' },
      { id: 'ask', name: 'Ask' },
    ],
  };
  assert.equal(selfApproval(cursorLike, []), undefined);
  assert.equal(selfApproval(undefined, []), undefined);
  assert.equal(selfApproval(undefined, [model]), undefined);
  // A boolean "mode" option is not a mode catalogue.
  assert.equal(selfApproval(undefined, [{ id: 'mode', name: 'Mode', category: 'mode', type: 'boolean', currentValue: true }]), undefined);
});

test('the table is data: another row is honoured as given, and every row’s marker is a mode of its own catalogue', () => {
  const rules = [{ agent: 'Goose', marker: 'smart_approve', modes: { auto: 'all' as const } }];
  const goose: ModesView = {
    currentModeId: 'auto',
    available: [
      { id: 'auto', name: 'Auto' },
      { id: 'smart_approve', name: 'Smart' },
    ],
  };
  assert.equal(selfApproval(goose, [], rules)?.kind, 'all');
  assert.equal(selfApproval(goose, []), undefined, 'not in the shipped table');
  // Each row's own catalogue (its marker and its modes) resolves every listed mode to that row's kind.
  for (const row of SELF_APPROVAL_RULES) {
    const ids = [...new Set([row.marker, ...Object.keys(row.modes)])];
    for (const [id, kind] of Object.entries(row.modes)) {
      const modes: ModesView = { currentModeId: id, available: ids.map((m) => ({ id: m, name: m })) };
      assert.equal(selfApproval(modes, [])?.kind, kind, `${row.agent}: ${id}`);
    }
  }
});

test('the badge’s words: the short label, and a tooltip that says why no prompt appears and how to change it', () => {
  const all = selfApprovalText({ kind: 'all', modeId: 'agent-full-access', modeName: 'Full access' });
  assert.equal(all.label, 'Approves its own actions');
  assert.match(all.detail, /^Mode "Full access": .*without asking you, so no permission prompt appears\. .*pick another mode in the Mode picker\.$/);
  const reviewed = selfApprovalText({ kind: 'reviewed', modeId: 'auto', modeName: 'Auto' });
  assert.equal(reviewed.label, 'Approves its own actions');
  assert.match(reviewed.detail, /reviewer approves the actions it judges safe/);
  assert.equal(selfApprovalText({ kind: 'edits', modeId: 'acceptEdits', modeName: 'Accept edits' }).label, 'Approves its own edits');
});
