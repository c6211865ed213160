/**
 * The account's limits on untrusted input: the RFD's quota_update snapshot, Claude's rate-limit
 * events, the prompt result's `_meta.quota` as claude-agent-acp 0.101 and codex-acp 2.6 really send it
 * (recorded: test/fixtures/agentPayloads/novemberStatus.json), and a prompt refused by a limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationChange, QuotaView } from '../../src/protocol/messages';
import { SessionInfo } from '../../src/thread/sessionInfo';
import { parseQuotaSnapshot, quotaFromClaudeRateLimit, quotaFromPromptMeta, newerQuota } from '../../src/thread/quota';
import { durationMs, quotaFailureMessage } from '../../src/conversation/quotaFailure';

const recorded = JSON.parse(readFileSync(join(__dirname, '../fixtures/agentPayloads/novemberStatus.json'), 'utf8')) as Record<
  string,
  { promptResult?: { _meta?: unknown }; notifications: Array<{ method: string; params: { update?: Record<string, unknown> } }> }
>;

/** The RFD's own example (docs/rfds/quotas-and-limits.mdx): a plan on overage. */
function rfdExample(updatedAt = '2026-10-06T13:10:00Z'): Record<string, unknown> {
  return {
    sessionUpdate: 'quota_update',
    updatedAt,
    pools: [
      {
        id: 'plan',
        label: 'Plan usage',
        state: 'exhausted',
        meters: [
          { id: 'five_hour', label: '5-hour limit', usedPercent: 100, window: 'PT5H', resetsAt: '2026-10-06T18:00:00Z', status: 'exceeded' },
          { id: 'seven_day', label: 'Weekly limit', usedPercent: 64, window: 'P7D', resetsAt: '2026-10-09T09:00:00Z', status: 'ok' },
        ],
      },
      {
        id: 'extra_usage',
        label: 'Extra usage',
        state: 'available',
        meters: [
          {
            id: 'monthly_cap',
            label: 'Monthly spend limit',
            used: { value: '12.40', unit: 'USD' },
            limit: { value: '50.00', unit: 'USD' },
            usedPercent: 24.8,
            resetsAt: '2026-11-01T00:00:00Z',
            status: 'ok',
          },
        ],
      },
    ],
  };
}

function make() {
  const warnings: string[] = [];
  return { info: new SessionInfo((w) => warnings.push(w)), warnings };
}

function quotaOf(changes: ConversationChange[] | undefined): QuotaView | undefined {
  const change = changes?.find((c) => c.type === 'quotaChanged');
  return change?.type === 'quotaChanged' ? change.quota : undefined;
}

test('quota_update: the whole snapshot in the agent order, amounts kept exact', () => {
  const { info } = make();
  const quota = quotaOf(info.applyUpdate(rfdExample()));
  assert.ok(quota);
  assert.deepEqual(
    quota.pools.map((p) => [p.id, p.state, p.meters.map((m) => `${m.id}:${m.usedPercent}:${m.status}`)]),
    [
      ['plan', 'exhausted', ['five_hour:100:exceeded', 'seven_day:64:ok']],
      ['extra_usage', 'available', ['monthly_cap:24.8:ok']],
    ],
  );
  assert.deepEqual(quota.pools[1].meters[0].used, { value: '12.40', unit: 'USD' });
  assert.equal(quota.updatedAt, '2026-10-06T13:10:00Z');
  assert.deepEqual(info.quota(), quota, 'what the snapshot of the conversation carries');
});

test('quota_update: invalid pools and meters are skipped one by one, never the snapshot', () => {
  const warnings: string[] = [];
  const quota = parseQuotaSnapshot(
    {
      updatedAt: 'not a time',
      pools: [
        'junk',
        { id: 'no-meters' },
        { id: 'p', meters: [{ id: 'empty' }, { label: 'no id', usedPercent: 3 }, { id: 'ok', usedPercent: 12, resetsAt: 'soon', used: { value: 'NaN' } }] },
        { id: 'p', meters: [{ id: 'dup', usedPercent: 1 }] },
      ],
    },
    (w) => warnings.push(w),
  );
  assert.deepEqual(quota, { pools: [{ id: 'p', meters: [{ id: 'ok', usedPercent: 12 }] }] });
  assert.ok(warnings.length >= 4, warnings.join('\n'));
  assert.equal(
    parseQuotaSnapshot({ pools: 'x' }, () => undefined),
    undefined,
  );
});

test('freshness: an older snapshot does not replace a newer one; a new session starts over', () => {
  const { info } = make();
  info.applyUpdate(rfdExample('2026-10-06T13:10:00Z'));
  assert.deepEqual(info.applyUpdate(rfdExample('2026-10-06T13:09:00Z')), [], 'older: ignored');
  assert.equal(quotaOf(info.applyUpdate(rfdExample('2026-10-06T13:11:00Z')))?.updatedAt, '2026-10-06T13:11:00Z');
  const newer = { pools: [] };
  assert.equal(newerQuota({ updatedAt: '2026-10-06T13:11:00Z', pools: [] }, newer), newer, 'without a time the new one wins');
  assert.deepEqual(
    info.clear().filter((c) => c.type === 'quotaChanged'),
    [{ type: 'quotaChanged' }],
  );
  assert.equal(info.quota(), undefined);
});

test('the prompt results of claude-agent-acp 0.101 and codex-acp 2.6 carry token counts in _meta.quota: not a quota', () => {
  const claude = recorded['claude-agent-acp'].promptResult;
  assert.ok(claude?._meta, 'the recording has the prompt result');
  const meta = claude._meta as { quota?: { token_count?: unknown } };
  assert.ok(meta.quota?.token_count, 'recorded: token counts');
  assert.equal(
    quotaFromPromptMeta(claude._meta, () => undefined),
    undefined,
  );
  // The RFD's shape in the same place is read.
  const { sessionUpdate: _kind, ...snapshot } = rfdExample();
  assert.equal(quotaFromPromptMeta({ quota: snapshot }, () => undefined)?.pools.length, 2);
});

test("claude-agent-acp 0.101's usage_update without a rate-limit event changes only the context meter", () => {
  const { info } = make();
  const updates = recorded['claude-agent-acp'].notifications.filter((n) => n.params.update?.sessionUpdate === 'usage_update');
  assert.ok(updates.length > 0);
  for (const n of updates) {
    const changes = info.applyUpdate(n.params.update as Record<string, unknown>);
    assert.deepEqual(
      changes?.map((c) => c.type),
      ['usageChanged'],
    );
  }
  assert.equal(info.quota(), undefined);
});

// Shaped as the Claude Agent SDK 0.101 types it (SDKRateLimitInfo); an API-key account gets none
// (the recording's fake server sent the headers, the CLI sends events only to subscriptions).
const RESET = 1_900_000_000;
test("Claude's rate-limit events: windows become meters, merged across events, a rejected one exhausts its pool", () => {
  const { info } = make();
  const first = info.applyUpdate({
    sessionUpdate: 'usage_update',
    used: 70,
    size: 1_000_000,
    _meta: { '_claude/rateLimit': { status: 'allowed_warning', rateLimitType: 'five_hour', utilization: 0.86, resetsAt: RESET } },
  });
  assert.deepEqual(
    first?.map((c) => c.type),
    ['usageChanged', 'quotaChanged'],
  );
  const opus = quotaFromClaudeRateLimit({ status: 'rejected', rateLimitType: 'seven_day_opus', utilization: 1, resetsAt: RESET + 86400 }, info.quota());
  assert.ok(opus);
  assert.deepEqual(
    opus.pools.map((p) => [p.id, p.state, p.meters.map((m) => `${m.id}:${m.usedPercent}:${m.status}:${m.window}`)]),
    [
      ['plan', 'available', ['five_hour:86:warning:PT5H']],
      ['seven_day_opus', 'exhausted', ['seven_day:100:exceeded:P7D']],
    ],
  );
  assert.equal(opus.pools[0].meters[0].resetsAt, new Date(RESET * 1000).toISOString());
  const windows = quotaFromClaudeRateLimit(
    {
      status: 'allowed',
      unifiedWindows: { five_hour: { utilization: 0.2, resetsAt: RESET }, seven_day: { utilization: 0.5, resetsAt: RESET, status: 'allowed' } },
    },
    undefined,
  );
  assert.deepEqual(
    windows?.pools[0].meters.map((m) => `${m.id}:${m.usedPercent}`),
    ['five_hour:20', 'seven_day:50'],
  );
  assert.equal(quotaFromClaudeRateLimit({ status: 'allowed' }, undefined), undefined, 'no window named: nothing to show');
  assert.equal(quotaFromClaudeRateLimit('junk', undefined), undefined);
});

test('a prompt refused by a limit says which and when it resets; other errors are left alone', () => {
  const now = Date.parse('2026-10-06T16:00:00Z');
  const quota = parseQuotaSnapshot(rfdExample(), () => undefined);
  // The RFD's quotaExceeded error.
  const rfd = quotaFailureMessage(
    { code: -32003, message: '5-hour limit reached', data: { poolId: 'plan', meterId: 'five_hour', resetsAt: '2026-10-06T18:00:00Z' } },
    'Claude',
    quota,
    now,
  );
  assert.match(String(rfd), /^Claude has reached its 5-hour limit: 5-hour limit reached It resets in 2 hours/);
  // codex-acp 2.6: an internal error whose data names usageLimitExceeded (createTurnErrorData).
  const codex = quotaFailureMessage(
    { code: -32603, message: 'Internal error', data: { message: "You've hit your usage limit.", codexErrorInfo: 'usageLimitExceeded' } },
    'Codex',
    undefined,
    now,
  );
  assert.equal(codex, "Codex has reached a usage limit of its account: You've hit your usage limit.");
  const retry = quotaFailureMessage({ code: -32003, message: 'Slow down', data: { retryAfter: 'PT30M' } }, 'X', undefined, now);
  assert.match(String(retry), /resets in 30 minutes/);
  assert.equal(quotaFailureMessage(new Error('ENOENT: no such file'), 'Claude', quota, now), undefined, 'not about a limit');
  assert.equal(quotaFailureMessage({ code: -32603, message: 'boom', data: { codexErrorInfo: 'other' } }, 'Codex', undefined, now), undefined);
  assert.match(String(quotaFailureMessage(new Error('Usage limit reached'), 'Claude', quota, now)), /reached its 5-hour limit/, 'the snapshot names it');
  assert.equal(durationMs('PT1H30M'), 5_400_000);
  assert.equal(durationMs('P'), undefined);
});
