/**
 * The hosted bridge (a real process): AI SDK tool approvals as ACP permission prompts whose answer
 * goes back as the approval response on the next request, answers cut at the server's step or
 * time limit (`max_turn_requests` with a visible notice), and Check Agent (`_tandem/hosted/check`,
 * and `checkHosted` called directly) with the seed's validation-only request and tool list.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { checkHosted, CHECK_METHOD, type HostedCheck } from '../../src/hostedAgent/check';
import { parseConfig } from '../../src/hostedAgent/config';
import { bridgeRedactor } from '../../src/hostedAgent/secrets';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { json, toolEvents, uiApprovalContinuation, uiApprovalRequest, uiText, type Recorded } from '../fixtures/hostedServer/replies';
import { SEED_JSON_ANSWER, SEED_REQUEST, SEED_TOOLS } from '../fixtures/hostedServer/seedPayloads';
import { buildHostedAgent, startBridge, toolCards } from '../support/hostedBridge';

let server: HostedServer;
before(async () => {
  server = await startHostedServer();
  await buildHostedAgent();
});
after(() => server.close());

const T = { timeout: 30_000 };
const uiArgs = () => ['--url', server.uiUrl, '--format', 'ui-message-stream'];
const seedArgs = (...more: string[]) => ['--url', server.chatUrl, '--format', 'tool-events', ...more];

type WireMessage = { id: string; role: string; parts: Array<Record<string, unknown>> };
const lastPart = (req: Recorded, toolCallId: string) => (req.body!.messages as WireMessage[]).at(-1)!.parts.find((p) => p.toolCallId === toolCallId);

test('approval: a permission prompt; "Allow" goes back as approval-responded on the next request, in the same turn', T, async (t) => {
  const b = await startBridge(t, { args: uiArgs() });
  const sid = await b.newSession();
  let continued: Recorded | undefined;
  server.reply(uiApprovalRequest(), (req) => {
    continued = req;
    return uiApprovalContinuation(
      lastPart(req, 'call_rm')?.state === 'approval-responded' && (lastPart(req, 'call_rm')?.approval as { approved?: boolean }).approved === true,
    );
  });
  assert.equal((await b.prompt(sid, 'clean up')).stopReason, 'end_turn');
  assert.equal(b.permissions.length, 1);
  const ask = b.permissions[0];
  assert.deepEqual([ask.toolCall.toolCallId, ask.toolCall.kind, ask.toolCall.title], ['m1:call_rm', 'delete', 'delete_file: /tmp/old.log']);
  assert.deepEqual(
    ask.options.map((o) => o.kind),
    ['allow_once', 'allow_always', 'reject_once'],
  );
  assert.deepEqual(ask.toolCall._meta, { tandem: { ranOn: 'server', toolName: 'delete_file' } });
  // The continuation: the same assistant message, ending the history, with the AI SDK's approval response.
  const messages = continued!.body!.messages as WireMessage[];
  assert.deepEqual(
    messages.map((m) => [m.role, m.id]),
    [
      ['user', messages[0].id],
      ['assistant', 'srv-msg-approval'],
    ],
  );
  assert.deepEqual(lastPart(continued!, 'call_rm'), {
    type: 'tool-delete_file',
    toolCallId: 'call_rm',
    state: 'approval-responded',
    input: { path: '/tmp/old.log' },
    approval: { id: 'appr_1', approved: true },
  });
  assert.equal(continued!.body!.messageId, 'srv-msg-approval');
  assert.equal(toolCards(b.of(sid)).get('m1:call_rm')!.status, 'completed');
  assert.equal(b.text(sid), 'I need to delete the temp file.Deleted.');
});

test('approval: "Reject" sends approved: false with a reason and the card fails as denied; "Always allow" skips the next prompt', T, async (t) => {
  const b = await startBridge(t, { args: uiArgs() });
  const sid = await b.newSession();
  b.answer = (req) => ({ outcome: { outcome: 'selected', optionId: req.options.find((o) => o.kind === 'reject_once')!.optionId } });
  let denied: Recorded | undefined;
  server.reply(uiApprovalRequest(), (req) => ((denied = req), uiApprovalContinuation(false)));
  assert.equal((await b.prompt(sid, 'clean up')).stopReason, 'end_turn');
  assert.deepEqual(lastPart(denied!, 'call_rm')!.approval, { id: 'appr_1', approved: false, reason: 'The user denied this tool call.' });
  const card = toolCards(b.of(sid)).get('m1:call_rm')!;
  assert.equal(card.status, 'failed');
  assert.match(JSON.stringify(card.content), /Not run/);

  b.answer = (req) => ({ outcome: { outcome: 'selected', optionId: req.options.find((o) => o.kind === 'allow_always')!.optionId } });
  server.reply(uiApprovalRequest(), uiApprovalContinuation(true));
  await b.prompt(sid, 'again');
  assert.equal(b.permissions.length, 2);
  let third: Recorded | undefined;
  server.reply(uiApprovalRequest(), (req) => ((third = req), uiApprovalContinuation(true)));
  await b.prompt(sid, 'and again');
  assert.equal(b.permissions.length, 2, 'allowed for the rest of the conversation: not asked again');
  assert.equal((lastPart(third!, 'call_rm')!.approval as { approved: boolean }).approved, true);
});

test('approval left unanswered (Stop during the prompt): cancelled; the next request denies it instead of leaving it open', T, async (t) => {
  const b = await startBridge(t, { args: uiArgs() });
  const sid = await b.newSession();
  b.answer = () => ({ outcome: { outcome: 'cancelled' } });
  server.reply(uiApprovalRequest());
  assert.equal((await b.prompt(sid, 'clean up')).stopReason, 'cancelled');
  let next: Recorded | undefined;
  server.reply((req) => ((next = req), uiText(['ok'])));
  await b.prompt(sid, 'never mind');
  const assistant = (next!.body!.messages as WireMessage[])[1];
  const part = assistant.parts.find((p) => p.toolCallId === 'call_rm')!;
  assert.deepEqual([part.state, (part.approval as { approved: boolean }).approved], ['approval-responded', false]);
});

test('the server stops at its step or time limit: max_turn_requests with a visible "incomplete" notice, not an error (SSE and JSON)', T, async (t) => {
  const b = await startBridge(t, { args: seedArgs() });
  const sid = await b.newSession();
  server.reply(
    toolEvents([
      ['text', { type: 'text.delta', delta: 'Step 30 of many' }],
      ['done', { type: 'done', incomplete: true, reason: 'max_steps' }],
    ]),
  );
  assert.equal((await b.prompt(sid, 'big task')).stopReason, 'max_turn_requests');
  const notice = b.of(sid, 'agent_message_chunk').find((u) => u._meta)!;
  assert.ok(
    notice.sessionUpdate === 'agent_message_chunk' &&
      notice.content.type === 'text' &&
      /Incomplete: .*step or time limit \(max_steps\)/.test(notice.content.text),
  );
  assert.deepEqual(notice._meta, { tandem: { notice: { kind: 'incomplete', reason: 'max_steps' } } });
  // The notice is for the user, not the model: it is not sent back as assistant text.
  server.reply(json({ ...SEED_JSON_ANSWER, data: { ...SEED_JSON_ANSWER.data, incomplete: true, reason: 'timeout' } }));
  const stopped = await b.prompt(sid, 'go on');
  assert.equal(stopped.stopReason, 'max_turn_requests');
  const sent = server.chats().at(-1)!.body!.messages as Array<{ role: string; content: string }>;
  assert.equal(sent[1].content, 'Step 30 of many');
});

test('AI SDK: finish "length" → max_tokens, "tool-calls" without an approval → max_turn_requests', T, async (t) => {
  const b = await startBridge(t, { args: uiArgs() });
  const sid = await b.newSession();
  server.reply(uiText(['cut'], 'length'), uiText(['more tools wanted'], 'tool-calls'));
  assert.equal((await b.prompt(sid, 'a')).stopReason, 'max_tokens');
  assert.equal((await b.prompt(sid, 'b')).stopReason, 'max_turn_requests');
});

test('Check Agent over ACP (_tandem/hosted/check): the validation-only request and the server tools', T, async (t) => {
  const body = { allowedTools: ['bash', 'zhipin_reply_generator'], context: SEED_REQUEST.context };
  const b = await startBridge(t, { args: seedArgs('--body', JSON.stringify(body)) });
  assert.equal((b.init._meta as { tandem: { hosted: { checkMethod: string } } }).tandem.hosted.checkMethod, CHECK_METHOD);
  const before = server.chats().length;
  const check = await b.conn.agent.request<HostedCheck>(CHECK_METHOD, {});
  const sent = server.chats()[before].body!;
  assert.deepEqual([sent.validateOnly, sent.contextStrategy, sent.stream], [true, 'report', false]);
  assert.equal(check.ok, false);
  assert.deepEqual(check.validation?.missingContext, ['sandboxId']);
  assert.deepEqual(check.tools, SEED_TOOLS);
  assert.equal(check.auth, 'ok');
  assert.match(check.problems.join('\n'), /missing context sandboxId/);
  assert.equal(server.chats().length, before + 1, 'no chat turn was run');
});

test('checkHosted: all good; a 401 says the key is missing; an AI SDK route is checked by reaching it', T, async () => {
  const cfgOf = (...args: string[]) => parseConfig(args, {});
  const good = await checkHosted({
    cfg: cfgOf(
      '--url',
      server.chatUrl,
      '--format',
      'tool-events',
      '--body',
      JSON.stringify({ allowedTools: ['zhipin_reply_generator'], context: SEED_REQUEST.context }),
    ),
    env: {},
    warn: assert.fail,
    secrets: bridgeRedactor(),
  });
  assert.deepEqual([good.ok, good.auth, good.problems, good.validation?.ok], [true, 'ok', [], true]);
  server.requireKey('k-123456');
  try {
    const locked = await checkHosted({ cfg: cfgOf('--url', server.chatUrl, '--format', 'tool-events'), env: {}, warn: assert.fail, secrets: bridgeRedactor() });
    assert.deepEqual([locked.ok, locked.auth], [false, 'missing']);
    const wrong = await checkHosted({
      cfg: cfgOf('--url', server.chatUrl, '--format', 'tool-events'),
      env: { HOSTED_AGENT_API_KEY: 'nope-nope' },
      warn: assert.fail,
      secrets: bridgeRedactor(),
    });
    assert.equal(wrong.auth, 'rejected');
  } finally {
    server.requireKey(undefined);
  }
  const ui = await checkHosted({ cfg: cfgOf('--url', server.uiUrl, '--format', 'ui-message-stream'), env: {}, warn: assert.fail, secrets: bridgeRedactor() });
  assert.deepEqual([ui.ok, ui.auth, ui.tools], [true, 'ok', undefined]);
  const nowhere = await checkHosted({
    cfg: cfgOf('--url', server.url('/nope'), '--format', 'ui-message-stream'),
    env: {},
    warn: assert.fail,
    secrets: bridgeRedactor(),
  });
  assert.equal(nowhere.ok, false);
  assert.match(nowhere.problems[0], /404/);
});
