// Sign-in with an API key (an env_var method): when the key is not in the agent's environment, the
// card asks for it once, the agent starts again with it, and what waited is sent; cancelling the
// box leaves the card waiting. Driven against the in-memory StubAgent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { flush, stubSession } from '../support/stubSession';

function keyAgent(answer: boolean) {
  const asked: Array<{ agent: string; name: string }> = [];
  const rig = stubSession({
    editor: {
      askSecret: async (agent, variable) => {
        asked.push({ agent, name: variable.name });
        return answer;
      },
    },
  });
  rig.agent.behaviour.initialize.authMethods = [
    { id: 'api-key', name: 'API key', type: 'env_var', vars: [{ name: 'STUB_API_KEY', secret: true }] } as unknown as acp.AuthMethod,
  ];
  rig.agent.behaviour.newSessionError = acp.RequestError.authRequired();
  rig.agent.behaviour.authenticateError = acp.RequestError.authRequired();
  return { rig, asked };
}

test('an API key that is not in the environment is asked for once; the agent restarts and the prompt goes', async () => {
  const { rig, asked } = keyAgent(true);
  await rig.manager.init();
  rig.conversation.prompt('hello');
  await flush();
  const card = rig.conversation.internals.thread.entries().find((e) => e.kind === 'auth');
  assert.ok(card && card.kind === 'auth' && card.methods[0]?.kind === 'envVar' && card.methods[0].envVar === 'STUB_API_KEY');
  await rig.conversation.authenticate('api-key');
  await flush();
  assert.deepEqual(asked, [{ agent: 'Stub', name: 'STUB_API_KEY' }]);
  assert.equal(rig.agent.starts, 2, 'the agent started again (with the key in its environment)');
  assert.ok(rig.agent.methods().includes('authenticate'), 'a key already in the environment would have been used');
  assert.equal(rig.conversation.status.kind, 'running', 'the prompt that waited went out');
  const after = rig.conversation.internals.thread.entries().find((e) => e.kind === 'auth');
  assert.equal(after?.kind === 'auth' && after.state.kind, 'done');
  rig.manager.dispose();
});

test('cancelling the box leaves the card waiting and nothing restarts', async () => {
  const { rig, asked } = keyAgent(false);
  await rig.manager.init();
  rig.conversation.prompt('hello');
  await flush();
  await rig.conversation.authenticate('api-key');
  await flush();
  assert.equal(asked.length, 1);
  assert.equal(rig.agent.starts, 1);
  const card = rig.conversation.internals.thread.entries().find((e) => e.kind === 'auth');
  assert.equal(card?.kind === 'auth' && card.state.kind, 'waiting');
  rig.manager.dispose();
});
