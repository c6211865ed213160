import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BRIDGE_FAILURE_KINDS,
  bridgeFailureCode,
  bridgeFailureData,
  hostedAgentMeta,
  readBridgeFailure,
  readHostedCheckMethod,
} from '../../src/protocol/bridgeFailure';

test('what the bridge builds, the host reads back whole', () => {
  for (const kind of BRIDGE_FAILURE_KINDS) assert.deepEqual(readBridgeFailure(bridgeFailureData(kind)), { kind });
  const data = bridgeFailureData('missingContext', { status: 400, missingContext: ['tenant'], tools: ['search'], serverMessage: 'no' });
  assert.deepEqual(readBridgeFailure(data), { kind: 'missingContext', status: 400, missingContext: ['tenant'], tools: ['search'], serverMessage: 'no' });
  assert.deepEqual(readBridgeFailure(JSON.parse(JSON.stringify(bridgeFailureData('rateLimited', { status: 429, retryAfterSeconds: 5, retryAt: 'x' })))), {
    kind: 'rateLimited',
    status: 429,
    retryAfterSeconds: 5,
    retryAt: 'x',
  });
});

test('only auth answers -32000', () => {
  assert.equal(bridgeFailureCode('auth'), -32000);
  assert.equal(bridgeFailureCode('config'), -32603);
  assert.equal(bridgeFailureCode('timeout'), -32603);
});

test('malformed data is no failure, and wrong fields are dropped', () => {
  for (const data of [undefined, null, 0, 'auth', [], [{ tandem: { kind: 'auth' } }], {}, { tandem: null }, { tandem: 'auth' }, { tandem: [] }])
    assert.equal(readBridgeFailure(data), undefined, JSON.stringify(data));
  for (const kind of [undefined, null, 3, '', 'AUTH', 'somethingNew', 'toString', ['auth'], { kind: 'auth' }])
    assert.equal(readBridgeFailure({ tandem: { kind } }), undefined, JSON.stringify(kind));
  assert.deepEqual(
    readBridgeFailure({
      tandem: { kind: 'http', status: '404', serverMessage: 7, missingContext: 'tenant', tools: ['a', 1, null, 'b'], retryAfterSeconds: Number.NaN, extra: 1 },
    }),
    { kind: 'http', tools: ['a', 'b'] },
  );
});

test('the check method is read only as an extension method', () => {
  assert.equal(
    readHostedCheckMethod(hostedAgentMeta({ url: 'https://h', format: 'tool-events', stream: true, checkMethod: '_tandem/hosted/check' })),
    '_tandem/hosted/check',
  );
  for (const meta of [undefined, null, 'x', [], {}, { tandem: null }, { tandem: { hosted: 'x' } }, { tandem: { hosted: {} } }])
    assert.equal(readHostedCheckMethod(meta), undefined, JSON.stringify(meta));
  for (const checkMethod of [3, null, '', 'session/prompt', ['_x']]) assert.equal(readHostedCheckMethod({ tandem: { hosted: { checkMethod } } }), undefined);
});
