/**
 * The host's guard over webview → host messages: one validator per message type, every required
 * field checked, optional fields checked when present, nothing from Object.prototype accepted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebviewMessage } from '../../src/protocol/messages';
import { PROTOCOL_VERSION, WEBVIEW_MESSAGES } from '../../src/protocol/messages';
import { isVersionMismatch, versionMismatchFor } from '../../src/protocol/versionHandshake';
import { isWebviewMessage } from '../../src/views/messageGuard';

type Type = WebviewMessage['type'];

/** One well-formed message of every type with its required fields only (a missing type fails to compile). */
const MINIMAL: { [T in Type]: Extract<WebviewMessage, { type: T }> } = {
  ready: { type: 'ready', protocolVersion: 1 },
  reloadView: { type: 'reloadView' },
  olderEntriesWanted: { type: 'olderEntriesWanted', conversationId: 'c1' },
  prompt: { type: 'prompt', text: 'hi' },
  mentionQuery: { type: 'mentionQuery', requestId: 1, query: 'app' },
  dropUris: { type: 'dropUris', uris: ['file:///w/a.ts'] },
  openMention: { type: 'openMention', uri: 'file:///w/a.ts' },
  cancel: { type: 'cancel' },
  stopSubagent: { type: 'stopSubagent', sessionId: 's1' },
  openSubagent: { type: 'openSubagent', entryId: 'e1' },
  respondPermission: { type: 'respondPermission', requestId: 'r', optionId: 'o' },
  newConversation: { type: 'newConversation' },
  selectConversation: { type: 'selectConversation', conversationId: 'c' },
  closeConversation: { type: 'closeConversation', conversationId: 'c' },
  showHistory: { type: 'showHistory' },
  newConversationInWorktree: { type: 'newConversationInWorktree' },
  worktreeOpen: { type: 'worktreeOpen' },
  worktreeApply: { type: 'worktreeApply' },
  worktreeCommit: { type: 'worktreeCommit' },
  worktreeDiscard: { type: 'worktreeDiscard' },
  worktreeRecreate: { type: 'worktreeRecreate' },
  reviewNoteAdd: { type: 'reviewNoteAdd', path: '/w/a.ts', startLine: 3, endLine: 4, text: 'rename this' },
  reviewNoteRemove: { type: 'reviewNoteRemove', noteId: 'n1' },
  reviewNotesClear: { type: 'reviewNotesClear' },
  restart: { type: 'restart' },
  retry: { type: 'retry' },
  startFresh: { type: 'startFresh' },
  selectAgent: { type: 'selectAgent', name: 'Claude' },
  addPreset: { type: 'addPreset', presetId: 'p' },
  openLocation: { type: 'openLocation', path: '/w/a.ts' },
  openDiff: { type: 'openDiff', entryId: 'e1', index: 0 },
  fetchDiffLines: { type: 'fetchDiffLines', requestId: 4, entryId: 'e1', index: 0, diffId: 2, row: 10, count: 50 },
  openTerminal: { type: 'openTerminal', terminalId: 't' },
  openLink: { type: 'openLink', href: 'https://example.com' },
  insertCode: { type: 'insertCode', code: 'const a = 1;' },
  newCodeFile: { type: 'newCodeFile', code: 'print(1)' },
  copyCode: { type: 'copyCode', code: 'x' },
  showLog: { type: 'showLog' },
  openAgentSettings: { type: 'openAgentSettings' },
  signIn: { type: 'signIn' },
  signOut: { type: 'signOut' },
  setMode: { type: 'setMode', modeId: 'plan' },
  queueEdit: { type: 'queueEdit', itemId: 'q', text: 'x' },
  queueRemove: { type: 'queueRemove', itemId: 'q' },
  queueMove: { type: 'queueMove', itemId: 'q', offset: -1 },
  queueSendNow: { type: 'queueSendNow', itemId: 'q' },
  queueResume: { type: 'queueResume' },
  queueClear: { type: 'queueClear' },
  saveRule: { type: 'saveRule', requestId: 'r', value: 'npm test', scope: 'workspace' },
  dismissRule: { type: 'dismissRule', requestId: 'r' },
  reviewKeep: { type: 'reviewKeep' },
  reviewUndo: { type: 'reviewUndo' },
  reviewOpenDiff: { type: 'reviewOpenDiff', path: '/w/a.ts' },
  reviewHunks: { type: 'reviewHunks', path: '/w/a.ts', open: true },
  reviewHunk: { type: 'reviewHunk', path: '/w/a.ts', index: 2, action: 'reject' },
  rewind: { type: 'rewind', entryId: 'e1' },
  retryTurn: { type: 'retryTurn', entryId: 'e1' },
  editPrompt: { type: 'editPrompt', entryId: 'e1', text: 'again, differently' },
  switchBranch: { type: 'switchBranch', entryId: 'e1', offset: -1 },
  setConfigOption: { type: 'setConfigOption', configId: 'model', value: false },
  authenticate: { type: 'authenticate', methodId: 'm' },
  answerQuestion: { type: 'answerQuestion', entryId: 'e1', action: 'decline' },
  openQuestionUrl: { type: 'openQuestionUrl', entryId: 'e1' },
  checkAgent: { type: 'checkAgent' },
  manageRules: { type: 'manageRules' },
  copyMessageMarkdown: { type: 'copyMessageMarkdown', entryId: 'a1' },
  focusChanged: { type: 'focusChanged', focused: false },
};

/** Messages with their optional fields set, which must pass too. */
const WITH_OPTIONALS: WebviewMessage[] = [
  { type: 'prompt', text: '', mentions: [{ kind: 'gitDiff' }, { kind: 'file', path: '/w/a.ts' }], conversationId: 'c' },
  { type: 'openMention', uri: 'file:///w/a.ts', line: 3 },
  { type: 'openLocation', path: '/w/a.ts', line: 7 },
  { type: 'reviewKeep', paths: ['/w/a.ts'], conversationId: 'c' },
  { type: 'answerQuestion', entryId: 'e1', action: 'accept', content: { name: 'x', n: 2, ok: true, tags: ['a'] } },
  { type: 'manageRules', ruleId: 'r1' },
  { type: 'setConfigOption', configId: 'model', value: 'opus' },
];

/** The types the declaration (src/protocol/webviewMessages.ts) names, at run time. */
function declaredTypes(): string[] {
  return Object.keys(WEBVIEW_MESSAGES);
}

test('every message type of the protocol has a validator that accepts a well-formed message', () => {
  const declared = declaredTypes();
  assert.ok(declared.length > 10);
  assert.deepEqual([...declared].sort(), Object.keys(MINIMAL).sort());
  for (const message of Object.values(MINIMAL)) assert.equal(isWebviewMessage(message), true, message.type);
  for (const message of WITH_OPTIONALS) assert.equal(isWebviewMessage(message), true, JSON.stringify(message));
});

test('a message missing a required field, or carrying it with the wrong type, is refused', () => {
  const wrong = (value: unknown): unknown => (typeof value === 'string' ? 7 : typeof value === 'number' ? '7' : typeof value === 'boolean' ? 7 : 'nope');
  for (const message of Object.values(MINIMAL)) {
    // `ready` is deliberately lenient: a panel of another version must reach the version check.
    if (message.type === 'ready') continue;
    for (const field of Object.keys(message).filter((f) => f !== 'type')) {
      const record = message as unknown as Record<string, unknown>;
      const { [field]: value, ...without } = record;
      assert.equal(isWebviewMessage(without), false, `${message.type} without ${field}`);
      assert.equal(isWebviewMessage({ ...record, [field]: wrong(value) }), false, `${message.type} with ${field} of the wrong type`);
    }
  }
});

test('optional fields, enumerations, integers and list limits are checked when present', () => {
  const refused: unknown[] = [
    { type: 'cancel', conversationId: 5 },
    { type: 'openMention', uri: 'u', line: 1.5 },
    { type: 'openLocation', path: '/w/a.ts', line: '7' },
    { type: 'reviewUndo', paths: ['/w/a.ts', 3] },
    { type: 'manageRules', ruleId: 4 },
    { type: 'newCodeFile', code: 'x', language: 5 },
    { type: 'newCodeFile', code: 'x', language: 'l'.repeat(101) },
    { type: 'saveRule', requestId: 'r', value: 'v', scope: 'everywhere' },
    { type: 'reviewHunk', path: '/w/a.ts', index: 0, action: 'maybe' },
    { type: 'answerQuestion', entryId: 'e1', action: 'later' },
    { type: 'answerQuestion', entryId: 'e1', action: 'accept', content: null },
    { type: 'answerQuestion', entryId: 'e1', action: 'accept', content: ['a'] },
    { type: 'queueMove', itemId: 'q', offset: 0.5 },
    { type: 'fetchDiffLines', requestId: 4, entryId: 'e1', index: 0, diffId: 2, row: -1, count: 50 },
    { type: 'fetchDiffLines', requestId: 4, entryId: 'e1', index: 0, diffId: 2, row: 0, count: -5 },
    { type: 'prompt', text: 'x', mentions: Array.from({ length: 101 }, () => ({ kind: 'gitDiff' })) },
    { type: 'prompt', text: 'x', mentions: [{ kind: 'file', path: 'relative.ts' }] },
    { type: 'dropUris', uris: ['x'.repeat(8192)] },
    { type: 'dropUris', uris: Array.from({ length: 101 }, () => 'file:///w/a.ts') },
  ];
  for (const message of refused) assert.equal(isWebviewMessage(message), false, JSON.stringify(message).slice(0, 120));
});

test("only the protocol's own types are accepted, never names Object.prototype knows", () => {
  for (const type of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'eval', '', 'READY']) {
    assert.equal(isWebviewMessage({ type }), false, type);
  }
  for (const raw of [null, undefined, 'ready', 42, [], [{ type: 'cancel' }], { type: 5 }]) assert.equal(isWebviewMessage(raw), false, String(raw));
});

test('a ready of another protocol version passes the guard and is answered with versionMismatch, not a snapshot', () => {
  for (const protocolVersion of [PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1, '3', undefined]) {
    assert.equal(isWebviewMessage({ type: 'ready', protocolVersion }), true, String(protocolVersion));
  }
  assert.equal(versionMismatchFor({ protocolVersion: PROTOCOL_VERSION }), undefined);
  assert.deepEqual(versionMismatchFor({ protocolVersion: PROTOCOL_VERSION + 1 }), {
    type: 'versionMismatch',
    hostVersion: PROTOCOL_VERSION,
    panelVersion: PROTOCOL_VERSION + 1,
  });
  assert.deepEqual(versionMismatchFor({ protocolVersion: '3' }), { type: 'versionMismatch', hostVersion: PROTOCOL_VERSION });
  assert.ok(isVersionMismatch(versionMismatchFor({})));
  assert.ok(!isVersionMismatch({ type: 'versionMismatch', hostVersion: '4' }));
  assert.ok(!isVersionMismatch({ type: 'snapshot' }));
});
