/** SessionInfo on untrusted input: malformed commands and modes are dropped or repaired, never thrown. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { CommandView, HostMessage, ModesView } from '../../src/protocol/messages';
import { SessionInfo } from '../../src/thread/sessionInfo';

function make() {
  const warnings: string[] = [];
  return { info: new SessionInfo((w) => warnings.push(w)), warnings };
}

test('only the kinds it owns are claimed; everything else is left to the reducer', () => {
  const { info, warnings } = make();
  assert.equal(info.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }), undefined);
  assert.equal(info.applyUpdate({ sessionUpdate: 'notice', title: 'x' }), undefined);
  assert.deepEqual(info.applyUpdate({ sessionUpdate: 'usage_update' }), [], 'claimed, but unusable: dropped with a warning');
  assert.ok(warnings.some((w) => /usage_update without usable numbers/.test(w)));
  assert.deepEqual(info.applyUpdate({ sessionUpdate: 'usage_update', used: 5, size: 10 }), [{ type: 'usageChanged', usage: { used: 5, size: 10 } }]);
  assert.deepEqual(info.applyUpdate({ sessionUpdate: 'available_commands_update', availableCommands: [] }), [{ type: 'commandsChanged', commands: [] }]);
  assert.deepEqual(info.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'x' }), [], 'no modes known: nothing to switch');
});

test('malformed commands are dropped, names normalised, duplicates and empty hints removed', () => {
  const { info, warnings } = make();
  info.applyUpdate({
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: '/plan', description: 'Plan first', input: { hint: '  ' } },
      { name: 'plan', description: 'again' },
      { name: 'two words', description: 'x' },
      { name: 42 },
      null,
      { name: 'test', input: { hint: 'which tests' } },
    ],
  });
  assert.deepEqual(info.commands(), [
    { name: 'plan', description: 'Plan first' },
    { name: 'test', description: '', hint: 'which tests' },
  ]);
  assert.equal(warnings.length, 3);
  assert.deepEqual(info.applyUpdate({ sessionUpdate: 'available_commands_update', availableCommands: 'nope' }), []);
  assert.equal(info.commands().length, 2, 'a broken update keeps the last good list');
});

test('modes: a current id that is not advertised falls back to the first mode; no modes means no picker', () => {
  const { info, warnings } = make();
  const messages = info.setModes({
    currentModeId: 'gone',
    availableModes: [{ id: 'a', name: '' }, { id: 'a', name: 'dup' }, { id: 'b', name: 'Bee', description: 'b mode' }, 'junk'],
  });
  const expected: ModesView = {
    currentModeId: 'a',
    available: [
      { id: 'a', name: 'a' },
      { id: 'b', name: 'Bee', description: 'b mode' },
    ],
  };
  assert.deepEqual(messages, [{ type: 'modesChanged', modes: expected }]);
  assert.ok(warnings.some((w) => /not one of the agent's modes/.test(w)));
  assert.equal(info.hasMode('b'), true);
  assert.deepEqual(info.setCurrentMode('a'), [], 'no change, no message');
  assert.deepEqual(info.setModes(null), [{ type: 'modesChanged' }]);
  assert.equal(info.modes(), undefined);
  assert.deepEqual(info.setModes({ currentModeId: 'x', availableModes: [] }), [{ type: 'modesChanged' }]);
});

test('a mirror replaying the emitted messages always equals commands() and modes()', () => {
  const modeId = fc.constantFrom('a', 'b', 'c', 'zz', 7);
  const update = fc.oneof(
    fc.record({ sessionUpdate: fc.constant('current_mode_update'), currentModeId: modeId }),
    fc.record({
      sessionUpdate: fc.constant('available_commands_update'),
      availableCommands: fc.array(fc.oneof(fc.record({ name: fc.constantFrom('x', '/y', 'x', ''), description: fc.string() }), fc.anything()), {
        maxLength: 5,
      }),
    }),
  );
  const step = fc.oneof(
    update.map((u) => ({ kind: 'update' as const, u })),
    fc.constant({ kind: 'clear' as const }),
    fc.constant({ kind: 'restate' as const }),
    fc.record({ kind: fc.constant('modes' as const), current: modeId, ids: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 4 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const { info } = make();
      let commands: readonly CommandView[] = [];
      let modes: ModesView | undefined;
      const replay = (messages: HostMessage[] | undefined) => {
        for (const m of messages ?? []) {
          const copy = JSON.parse(JSON.stringify(m)) as HostMessage;
          if (copy.type === 'commandsChanged') commands = copy.commands;
          else if (copy.type === 'modesChanged') modes = copy.modes;
          else if (copy.type !== 'configOptionsChanged') assert.fail(`unexpected ${copy.type}`);
        }
      };
      for (const s of steps) {
        if (s.kind === 'update') replay(info.applyUpdate(s.u));
        else if (s.kind === 'clear') replay(info.clear());
        else if (s.kind === 'restate') replay(info.restate());
        else replay(info.setModes({ currentModeId: s.current, availableModes: s.ids.map((id) => ({ id, name: id.toUpperCase() })) }));
        assert.deepEqual(commands, info.commands());
        assert.deepEqual(modes, info.modes());
        const current = info.modes();
        if (current) assert.ok(current.available.some((m) => m.id === current.currentModeId));
      }
    }),
  );
});
