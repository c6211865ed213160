// The adapters that moved (issue 31): which tandem.agents entries run an old @zed-industries/*
// package, and the rewrite Check Agent's and the notice's Update writes back (other fields kept).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADAPTER_MOVES, movedAdapterIn, movedEntries, rewriteMovedEntry } from '../../src/agents/movedAdapters';
import { AGENT_PRESETS } from '../../src/agents/agentPresets';
import type { DoctorReport } from '../../src/agents/agentDiagnosis';
import { nextSteps, renderDoctorReport } from '../../src/agents/doctorReport';

test('npx entries of the three old packages are found, with their successor and how they name it', () => {
  const codex = movedAdapterIn({ command: 'npx', args: ['-y', '@zed-industries/codex-acp'] });
  assert.equal(codex?.to, '@agentclientprotocol/codex-acp');
  assert.equal(codex?.lastVersion, '0.16.0');
  assert.equal(codex?.how, 'package');
  assert.equal(codex?.rewritable, true);
  assert.equal(movedAdapterIn({ command: 'npx', args: ['-y', '@zed-industries/claude-agent-acp@0.23.1'] })?.to, '@agentclientprotocol/claude-agent-acp');
  assert.equal(movedAdapterIn({ command: 'npx', args: ['@zed-industries/claude-code-acp@latest'] })?.from, '@zed-industries/claude-code-acp');
  assert.equal(movedAdapterIn({ command: 'pnpm', args: ['dlx', '@zed-industries/codex-acp'] })?.how, 'package');
  assert.equal(movedAdapterIn({ command: 'npx', args: ['--package=@zed-industries/claude-code-acp', 'claude-code-acp'] })?.how, 'package');
});

test('a local install’s file, as the command or as an argument, is found too', () => {
  const asCommand = movedAdapterIn({ command: '/usr/lib/node_modules/@zed-industries/codex-acp/bin/codex-acp.js', args: [] });
  assert.equal(asCommand?.how, 'path');
  assert.equal(asCommand?.to, '@agentclientprotocol/codex-acp');
  const asArg = movedAdapterIn({ command: 'node', args: ['C:\\tools\\node_modules\\@zed-industries\\claude-agent-acp\\dist\\index.js'] });
  assert.equal(asArg?.from, '@zed-industries/claude-agent-acp');
  assert.equal(asArg?.rewritable, true);
  // Over ssh the path is on the other machine: said, but not rewritten to a local npx.
  const remote = movedAdapterIn({ command: 'ssh', args: ['box', '/opt/node_modules/@zed-industries/codex-acp/dist/index.js'] });
  assert.equal(remote?.rewritable, false);
  assert.equal(rewriteMovedEntry({ command: 'ssh', args: ['box', '/opt/node_modules/@zed-industries/codex-acp/dist/index.js'] }), undefined);
  // An npx over ssh names a package: that rewrites the same way on any machine.
  assert.deepEqual(rewriteMovedEntry({ command: 'ssh', args: ['box', 'npx', '-y', '@zed-industries/codex-acp'] }), {
    command: 'ssh',
    args: ['box', 'npx', '-y', '@agentclientprotocol/codex-acp'],
  });
});

test('what is not a moved adapter: the new packages, look-alikes, other agents and junk', () => {
  for (const value of [
    { command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'] },
    { command: 'npx', args: ['-y', '@zed-industries/codex-acp-fork'] },
    { command: 'npx', args: ['-y', '@zed-industries/codex'] },
    { command: 'codex-acp', args: [] },
    { command: 'gemini', args: ['--acp'] },
    { command: '/home/me/@zed-industries/codex-acp' },
    { url: 'wss://box/acp' },
    { command: 'npx', args: '@zed-industries/codex-acp' },
    { command: 'npx', args: ['-y', 7] },
    null,
    'npx -y @zed-industries/codex-acp',
    [],
  ]) {
    assert.equal(movedAdapterIn(value), undefined, JSON.stringify(value));
    assert.equal(rewriteMovedEntry(value), undefined, JSON.stringify(value));
  }
});

test('the rewrite replaces the package, drops a pinned version, renames the old bin and keeps every other field', () => {
  const entry = { command: 'npx', args: ['-y', '@zed-industries/codex-acp@0.16.0', '--verbose'], env: { OPENAI_API_KEY: 'sk-x' }, note: 'mine' };
  assert.deepEqual(rewriteMovedEntry(entry), {
    command: 'npx',
    args: ['-y', '@agentclientprotocol/codex-acp', '--verbose'],
    env: { OPENAI_API_KEY: 'sk-x' },
    note: 'mine',
  });
  assert.deepEqual(entry.args, ['-y', '@zed-industries/codex-acp@0.16.0', '--verbose'], 'the given value is not changed');
  assert.deepEqual(rewriteMovedEntry({ command: 'npx', args: ['--package=@zed-industries/claude-code-acp', 'claude-code-acp'] }), {
    command: 'npx',
    args: ['--package=@agentclientprotocol/claude-agent-acp', 'claude-agent-acp'],
  });
  assert.deepEqual(rewriteMovedEntry({ command: 'npx', args: ['-y', '@zed-industries/claude-agent-acp'] }), {
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
  });
  // A workspace's part of an entry (args only): rewritten as it is, nothing added.
  assert.deepEqual(rewriteMovedEntry({ args: ['-y', '@zed-industries/codex-acp'] }), { args: ['-y', '@agentclientprotocol/codex-acp'] });
});

test('a local install becomes npx of the new package with the arguments after the file', () => {
  assert.deepEqual(
    rewriteMovedEntry({
      command: 'node',
      args: ['--enable-source-maps', '/x/node_modules/@zed-industries/claude-agent-acp/dist/index.js', '--flag'],
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
    }),
    { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp', '--flag'], env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' } },
  );
  assert.deepEqual(rewriteMovedEntry({ command: '/usr/lib/node_modules/@zed-industries/codex-acp/bin/codex-acp.js', args: ['a'] }), {
    command: 'npx',
    args: ['-y', '@agentclientprotocol/codex-acp', 'a'],
  });
});

test('a rewritten entry runs no moved adapter any more, for every move', () => {
  for (const move of ADAPTER_MOVES) {
    const rewritten = rewriteMovedEntry({ command: 'npx', args: ['-y', move.from] });
    assert.ok(rewritten);
    assert.equal(movedAdapterIn(rewritten), undefined, move.from);
  }
});

test('movedEntries lists the agents to tell, in order; the presets run none', () => {
  const entries = {
    Codex: { command: 'npx', args: ['-y', '@zed-industries/codex-acp'] },
    Gemini: { command: 'gemini', args: ['--acp'] },
    Claude: { command: 'npx', args: ['-y', '@zed-industries/claude-code-acp'] },
  };
  assert.deepEqual(
    movedEntries(entries).map((e) => [e.name, e.moved.to]),
    [
      ['Codex', '@agentclientprotocol/codex-acp'],
      ['Claude', '@agentclientprotocol/claude-agent-acp'],
    ],
  );
  assert.deepEqual(movedEntries(undefined), []);
  assert.deepEqual(movedEntries([1, 2]), []);
  for (const preset of AGENT_PRESETS) assert.equal(movedAdapterIn(preset.config), undefined, preset.name);
});

test('the presets run the adapters’ current packages', () => {
  const args = (id: string) => AGENT_PRESETS.find((p) => p.id === id)?.config.args;
  assert.deepEqual(args('claude'), ['-y', '@agentclientprotocol/claude-agent-acp']);
  assert.deepEqual(args('codex'), ['-y', '@agentclientprotocol/codex-acp']);
  assert.equal(AGENT_PRESETS.find((p) => p.id === 'codex')?.commandLine, 'npx @agentclientprotocol/codex-acp');
});

test('Check Agent: an entry running a moved adapter gets the move as its first next step, and a warning under the result', () => {
  const moved = movedAdapterIn({ command: 'npx', args: ['-y', '@zed-industries/codex-acp'] });
  assert.ok(moved);
  const report: DoctorReport = {
    agentName: 'Codex',
    commandLine: 'npx -y @zed-industries/codex-acp',
    envNames: [],
    cwd: '/w',
    runtimes: [],
    start: { ok: true, protocolVersion: 1, capabilities: [], authMethods: [{ id: 'api-key', name: 'API key' }], elapsedMs: 900 },
    expectedProtocolVersion: 1,
    stderr: '',
    checkedAt: '2026-12-02T00:00:00.000Z',
    moved,
  };
  const steps = nextSteps(report);
  assert.match(steps[0], /`@zed-industries\/codex-acp`, which stopped at 0\.16\.0: the adapter moved to `@agentclientprotocol\/codex-acp`/);
  assert.match(steps[0], /\*\*Update\*\*/);
  assert.equal(steps.length, 2, 'the sign-in step follows');
  const md = renderDoctorReport(report);
  assert.match(md, /⚠️ An old adapter: `@zed-industries\/codex-acp` moved to `@agentclientprotocol\/codex-acp`/);
  // Without the move nothing of it is said.
  const { moved: _, ...plain } = report;
  assert.doesNotMatch(renderDoctorReport(plain), /moved/);
  // Over ssh: what to do on that machine instead of an Update.
  const remote = movedAdapterIn({ command: 'ssh', args: ['box', '/o/node_modules/@zed-industries/claude-code-acp/dist/index.js'] });
  assert.ok(remote);
  assert.match(nextSteps({ ...report, moved: remote })[0], /no longer updated.*Install `@agentclientprotocol\/claude-agent-acp` on that machine/);
});
