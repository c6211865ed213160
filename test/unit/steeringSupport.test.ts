// Steering, read and written without an agent: which `initialize` answers advertise it (the
// adapters' `_meta.steering.supported`, the RFD's `session.steering`; what is malformed or `null`
// advertises nothing), and how a steered message reads in Markdown (export, Copy as Markdown, the
// transcript another agent gets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSteeringSupport } from '../../src/runtime/steeringSupport';
import { entryMarkdown } from '../../src/thread/markdown/conversationMarkdown';

test('the adapters’ _meta.steering.supported and the RFD’s session.steering are read; anything else is no steering', () => {
  // claude-agent-acp 0.101 / codex-acp 2.6, as recorded.
  assert.equal(readSteeringSupport({ protocolVersion: 1, agentCapabilities: {}, _meta: { steering: { supported: true } } }), 'extension');
  // The RFD (v2's `session`, and v1's spelling `sessionCapabilities`).
  assert.equal(readSteeringSupport({ agentCapabilities: { session: { steering: {} } } }), 'prompt');
  assert.equal(readSteeringSupport({ agentCapabilities: { sessionCapabilities: { steering: {} } } }), 'prompt');
  // Both: the extension, whose answer says what happened.
  assert.equal(readSteeringSupport({ agentCapabilities: { session: { steering: {} } }, _meta: { steering: { supported: true } } }), 'extension');
  for (const none of [
    undefined,
    null,
    42,
    {},
    { _meta: { steering: { supported: 'yes' } } },
    { _meta: { steering: true } },
    { _meta: { steering: { supported: false } } },
    { agentCapabilities: { session: { steering: null } } },
    { agentCapabilities: { sessionCapabilities: { steering: true } } },
    { agentCapabilities: { session: 'steering' } },
    { agentCapabilities: null },
  ])
    assert.equal(readSteeringSupport(none), undefined, JSON.stringify(none));
});

test('a steered message says so in Markdown; a plain prompt does not', () => {
  const steered = entryMarkdown({ kind: 'user', id: 'e3', text: 'Use the retry helper', steered: true }, { terminals: {} }, { secrets: [] }).text;
  assert.match(steered, /Use the retry helper/);
  assert.match(steered, /\*\(steered into the running turn\)\*/);
  const plain = entryMarkdown({ kind: 'user', id: 'e1', text: 'Fix the test' }, { terminals: {} }, { secrets: [] }).text;
  assert.doesNotMatch(plain, /steered/);
});
