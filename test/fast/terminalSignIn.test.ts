// Terminal sign-in, against the in-memory StubAgent: only ACP's `type: "terminal"` form is
// honoured (the agent's own command + the method's args; `_meta["terminal-auth"]`, a whole command
// of the agent's choosing, is ignored); replays and remote agents are offered none (nor is it
// advertised to them); the card carries the exact command line, the first run of it asks (a "no"
// runs nothing) and is remembered; variables that would make the command load other code are
// dropped with a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import type { TerminalSignIn } from '../../src/conversation/ports';
import type { AuthEntry } from '../../src/protocol/messages';
import { flush, stubSession } from '../support/stubSession';

type Launch = NonNullable<Parameters<typeof stubSession>[0]>['launch'];

const TERMINAL = { id: 'cli', name: 'Log in in a terminal', type: 'terminal', args: ['--login'] };
const LEGACY = { id: 'legacy', name: 'Sign in to continue the replay', _meta: { 'terminal-auth': { command: 'sh', args: ['-c', 'touch /tmp/MARKER'] } } };

function signInRig(methods: unknown[], opts: { launch?: Launch; answers?: boolean[]; exitCodes?: number[] } = {}) {
  const ran: TerminalSignIn[] = [];
  const asked: Array<{ agent: string; commandLine: string }> = [];
  const answers = [...(opts.answers ?? [])];
  const exitCodes = [...(opts.exitCodes ?? [])];
  const rig = stubSession({
    launch: { args: ['--acp'], ...opts.launch },
    editor: {
      runSignInTerminal: async (spec) => {
        ran.push(spec);
        return exitCodes.shift() ?? 0;
      },
      confirmSignInCommand: async (agent, commandLine) => {
        asked.push({ agent, commandLine });
        return answers.shift() ?? false;
      },
    },
  });
  rig.agent.behaviour.initialize.authMethods = methods as acp.AuthMethod[];
  rig.agent.behaviour.newSessionError = acp.RequestError.authRequired();
  const card = (): AuthEntry => {
    const entry = rig.conversation.internals.thread.entries().find((e): e is AuthEntry => e.kind === 'auth');
    assert.ok(entry, 'the sign-in card is shown');
    return entry;
  };
  const start = async (): Promise<void> => {
    await rig.manager.init();
    rig.conversation.prompt('hello');
    await flush();
  };
  return { rig, ran, asked, card, start };
}

test('the legacy _meta["terminal-auth"] command is not honoured: the method is an agent method and nothing runs', async () => {
  const { rig, ran, asked, card, start } = signInRig([LEGACY], { answers: [true] });
  await start();
  assert.deepEqual(
    card().methods.map((m) => [m.id, m.kind, m.commandLine]),
    [['legacy', 'agent', undefined]],
  );
  await rig.conversation.authenticate('legacy');
  await flush();
  assert.deepEqual([ran, asked], [[], []], 'no terminal, no question');
  assert.ok(rig.agent.methods().includes('authenticate'), 'the agent is asked to sign in itself');
  rig.manager.dispose();
});

for (const [what, launch] of [
  ['a replay', { sandbox: 'replay' }],
  ['a remote agent (clientTools: false)', { command: '', args: [], remote: { url: 'wss://agent.example/acp', headers: {}, clientTools: false } }],
  ['a remote agent (clientTools: true)', { command: '', args: [], remote: { url: 'wss://agent.example/acp', headers: {}, clientTools: true } }],
] as Array<[string, Launch]>) {
  test(`${what}: no terminal sign-in is advertised or offered, and pressing it runs nothing`, async () => {
    const { rig, ran, asked, card, start } = signInRig([TERMINAL, LEGACY], { launch, answers: [true] });
    await start();
    assert.deepEqual(rig.agent.options?.extraCapabilities?.auth, { terminal: false }, 'initialize does not advertise terminal sign-in');
    assert.deepEqual(
      card().methods.map((m) => [m.id, m.kind]),
      [['legacy', 'agent']],
      'the terminal method is withheld',
    );
    await rig.conversation.authenticate('cli');
    await rig.conversation.internals.signIn.authenticateFirst();
    await flush();
    assert.deepEqual([ran, asked], [[], []]);
    assert.match(rig.log.toString(), /Auth method 'cli' of Stub runs a command in a terminal; not offered/);
    rig.manager.dispose();
  });
}

test('a local agent: the card shows the command line; the first run asks naming it, a "no" runs nothing', async () => {
  const { rig, ran, asked, card, start } = signInRig([TERMINAL], { answers: [false] });
  await start();
  assert.deepEqual(rig.agent.options?.extraCapabilities?.auth, { terminal: true });
  assert.deepEqual(card().methods, [{ id: 'cli', name: 'Log in in a terminal', kind: 'terminal', commandLine: 'stub --acp --login' }]);
  await rig.conversation.authenticate('cli');
  await flush();
  assert.deepEqual(asked, [{ agent: 'Stub', commandLine: 'stub --acp --login' }]);
  assert.deepEqual(ran, [], 'nothing ran');
  assert.equal(card().state.kind, 'waiting', 'the card waits for another try');
  assert.equal(rig.agent.starts, 1, 'the agent was not restarted');
  rig.manager.dispose();
});

test('"yes" runs exactly the shown command; a second try of the same line is not asked again', async () => {
  const { rig, ran, asked, card, start } = signInRig([TERMINAL], { answers: [true], exitCodes: [1, 0] });
  await start();
  await rig.conversation.authenticate('cli');
  await flush();
  assert.equal(card().state.kind, 'failed', 'exit code 1');
  assert.deepEqual(
    ran.map((s) => [s.command, ...s.args]),
    [['stub', '--acp', '--login']],
  );
  await rig.conversation.authenticate('cli');
  await flush();
  assert.equal(asked.length, 1, 'asked once for this command line');
  assert.equal(ran.length, 2);
  assert.equal(card().state.kind, 'done');
  assert.equal(rig.agent.starts, 2, 'signed in: the agent started again');
  rig.manager.dispose();
});

test('variables that would make the command load other code are dropped with a warning; the rest run and are shown', async () => {
  const env = {
    NODE_OPTIONS: '--require ./payload.js',
    LD_PRELOAD: '/tmp/x.so',
    DYLD_INSERT_LIBRARIES: '/tmp/x.dylib',
    PYTHONSTARTUP: '/tmp/x.py',
    Path: '/tmp/bin',
    LOGIN_MODE: 'device code',
  };
  const { rig, ran, card, start } = signInRig([{ ...TERMINAL, env }], { answers: [true], launch: { env: { STUB_HOME: '/home/stub' } } });
  await start();
  assert.equal(card().methods[0]?.commandLine, "LOGIN_MODE='device code' stub --acp --login");
  await rig.conversation.authenticate('cli');
  await flush();
  assert.deepEqual(ran[0]?.env, { STUB_HOME: '/home/stub', LOGIN_MODE: 'device code' });
  const log = rig.log.toString();
  for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'PYTHONSTARTUP', 'Path'])
    assert.match(log, new RegExp(`sets ${name}, which could make its command load other code`));
  rig.manager.dispose();
});

test('the agent’s configured values are masked in the shown line (an argument may carry a key)', async () => {
  const { card, start, rig } = signInRig([TERMINAL], {
    launch: { args: ['env', 'OPENAI_API_KEY=sk-live-0123456789', 'codex'], env: { OPENAI_API_KEY: 'sk-live-0123456789' } },
  });
  await start();
  assert.equal(card().methods[0]?.commandLine, 'stub env OPENAI_API_KEY=*** codex --login');
  rig.manager.dispose();
});
