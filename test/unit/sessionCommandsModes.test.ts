/**
 * Slash commands and session modes end to end on the host side: a real scripted agent process
 * announces them, the conversation keeps them (snapshotParts) and emits commandsChanged/modesChanged,
 * and setMode reaches the agent as session/set_mode.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { HostMessage, ModesView } from '../../src/protocol/messages';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { scriptedSession, until } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';

let dir: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tandem-modes-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const makeSession = (script: AgentScript) => scriptedSession(dir, script);

const MODES: acp.SessionModeState = {
  currentModeId: 'default',
  availableModes: [
    { id: 'default', name: 'Always Ask', description: 'Prompts for permission on first use of each tool' },
    { id: 'acceptEdits', name: 'Accept Edits', description: 'Automatically accepts file edit permissions' },
    { id: 'plan', name: 'Plan Mode', description: null },
  ],
};

const COMMANDS_UPDATE = {
  sessionUpdate: 'available_commands_update',
  availableCommands: [
    { name: 'review', description: 'Review the current changes', input: null },
    { name: 'init', description: 'Write an AGENTS.md for this repository' },
    { name: 'search', description: 'Search the web', input: { hint: 'query to search for' } },
  ],
};

/** The last modesChanged emitted, as a mirror of the panel would hold it. */
function lastModes(messages: HostMessage[]): ModesView | undefined | 'none' {
  const found = messages.filter((m) => m.type === 'modesChanged').pop();
  return found === undefined ? 'none' : found.modes;
}

test('available_commands_update sent with session/new is kept, emitted, and replaced by a later one', async () => {
  const { session, messages, log } = makeSession({
    newSession: { updates: [COMMANDS_UPDATE] },
    turns: [
      {
        steps: [
          {
            update: {
              sessionUpdate: 'available_commands_update',
              availableCommands: [{ name: '/compact', description: 'Compact the thread' }, { bogus: true }],
            },
          },
        ],
      },
    ],
  });
  try {
    await session.start();
    assert.equal(session.status.kind, 'ready');
    const expected = [
      { name: 'review', description: 'Review the current changes' },
      { name: 'init', description: 'Write an AGENTS.md for this repository' },
      { name: 'search', description: 'Search the web', hint: 'query to search for' },
    ];
    assert.deepEqual(session.snapshotParts().commands, expected);
    assert.deepEqual(messages.filter((m) => m.type === 'commandsChanged').pop(), { type: 'commandsChanged', commands: expected });
    assert.deepEqual(session.snapshotParts().modes, undefined, 'an agent without modes has no picker');
    // Commands are not thread entries.
    assert.deepEqual(session.snapshotParts().entries, []);

    await session.prompt('go');
    assert.deepEqual(
      session.snapshotParts().commands,
      [{ name: 'compact', description: 'Compact the thread' }],
      'replaced whole; the slash is stripped; malformed dropped',
    );
    assert.ok(log.of('warn').some((w) => /malformed slash command/.test(w)));
    assert.ok(!log.of('warn').some((w) => /unknown kind/.test(w)));

    // A new session forgets the old session's commands until the agent announces them again.
    await session.newSession();
    assert.deepEqual(session.snapshotParts().commands, expected);
  } finally {
    session.dispose();
  }
});

test('modes from session/new; setMode reaches the agent and the current mode follows its answer', async () => {
  const { session, messages, received } = makeSession({ newSession: { modes: MODES }, setMode: { silent: true }, turns: [{ steps: [{ echo: true }] }] });
  try {
    await session.start();
    const modes = session.snapshotParts().modes;
    assert.deepEqual(modes, {
      currentModeId: 'default',
      available: [
        { id: 'default', name: 'Always Ask', description: 'Prompts for permission on first use of each tool' },
        { id: 'acceptEdits', name: 'Accept Edits', description: 'Automatically accepts file edit permissions' },
        { id: 'plan', name: 'Plan Mode' },
      ],
    });
    assert.deepEqual(lastModes(messages), modes);

    // The agent sends no current_mode_update here: the successful answer alone moves the picker.
    await session.setMode('plan');
    const sent = received().filter((m) => m.method === 'session/set_mode');
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0].params, { sessionId: 'session-1', modeId: 'plan' });
    assert.equal(session.snapshotParts().modes?.currentModeId, 'plan');
    assert.equal((lastModes(messages) as ModesView).currentModeId, 'plan');

    // A mode the agent never offered is not sent at all.
    await session.setMode('yolo');
    assert.equal(received().filter((m) => m.method === 'session/set_mode').length, 1);
    assert.equal(session.snapshotParts().modes?.currentModeId, 'plan');
  } finally {
    session.dispose();
  }
});

test('a current_mode_update from the agent (after set_mode, or on its own mid-turn) changes the mode', async () => {
  const { session, messages, log } = makeSession({
    newSession: { modes: MODES },
    turns: [
      {
        steps: [
          { update: { sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' } },
          { update: { sessionUpdate: 'current_mode_update', currentModeId: 'nope' } },
          { echo: true },
        ],
      },
    ],
  });
  try {
    await session.start();
    await session.prompt('switch yourself');
    assert.equal(session.snapshotParts().modes?.currentModeId, 'acceptEdits', 'an unadvertised mode id is ignored');
    assert.equal((lastModes(messages) as ModesView).currentModeId, 'acceptEdits');
    assert.ok(!session.snapshotParts().entries.some((e) => e.kind === 'error'));

    messages.length = 0;
    await session.setMode('default');
    // The scripted agent confirms with a current_mode_update after its answer: one change, no duplicate.
    // Read off the wire, it is handled within the microtasks after; a macrotask lets that finish.
    await until(() => log.of('in').some((l) => l.includes('current_mode_update') && l.includes('"currentModeId":"default"')), "the agent's confirmation");
    await new Promise((r) => setImmediate(r));
    assert.equal(session.snapshotParts().modes?.currentModeId, 'default');
    assert.equal(messages.filter((m) => m.type === 'modesChanged').length, 1);
  } finally {
    session.dispose();
  }
});

test('a refused set_mode becomes an error entry and the picker is told the unchanged mode', async () => {
  const { session, messages } = makeSession({
    newSession: { modes: MODES },
    setMode: { error: { code: -32603, message: 'plan mode is disabled by policy' } },
    turns: [],
  });
  try {
    await session.start();
    messages.length = 0;
    await session.setMode('plan');
    assert.equal(session.snapshotParts().modes?.currentModeId, 'default');
    assert.equal((lastModes(messages) as ModesView).currentModeId, 'default', 'the panel reverts its picker');
    const error = session.snapshotParts().entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error');
    assert.match(error.message, /could not switch to the Plan Mode mode: .*plan mode is disabled by policy/);
    assert.equal(session.status.kind, 'ready', 'the session goes on');
  } finally {
    session.dispose();
  }
});

test('commands and modes are gone once the agent has stopped', async () => {
  const { session, messages } = makeSession({ newSession: { modes: MODES, updates: [COMMANDS_UPDATE] }, turns: [{ steps: [{ exit: 3 }] }] });
  try {
    await session.start();
    assert.equal(session.snapshotParts().commands.length, 3);
    await session.prompt('crash');
    await until(() => session.status.kind === 'stopped', 'the crash');
    assert.deepEqual(session.snapshotParts().commands, []);
    assert.equal(session.snapshotParts().modes, undefined);
    assert.deepEqual(messages.filter((m) => m.type === 'commandsChanged').pop(), { type: 'commandsChanged', commands: [] });
    assert.equal(lastModes(messages), undefined);
  } finally {
    session.dispose();
  }
});
