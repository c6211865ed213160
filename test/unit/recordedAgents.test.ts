/**
 * Recorded transcripts of real agents as regression tests (test/fixtures/transcripts, written by
 * record.ts from claude-agent-acp 0.23.1 and the Gemini CLI against the fake model servers): each
 * is replayed by the bundled replay agent through Tandem's real core in a fresh folder, and must
 * produce the cards Tandem showed when it was recorded, and the same conformance findings. Then
 * each real agent is recorded now and replayed at once: the recording path works end to end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTranscript } from '../../src/inspector/transcript';
import type { Entry } from '../../src/protocol/entryViews';
import { REAL_AGENTS, recordRealAgent, replayRecorded as replay } from '../support/realAgentRuns';
import { repoRoot } from '../support/scriptedSession';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'transcripts');

for (const agent of REAL_AGENTS) {
  test(`${agent}: its recorded transcript replays to the cards it showed, with the same conformance findings`, { timeout: 60_000 }, async () => {
    const file = join(FIXTURES, `${agent}.jsonl`);
    const transcript = parseTranscript(readFileSync(file, 'utf8'));
    assert.deepEqual(transcript.problems, []);
    assert.equal(transcript.header?.agent?.name, agent);
    const expected = JSON.parse(readFileSync(join(FIXTURES, `${agent}.cards.json`), 'utf8')) as unknown[];
    const r = await replay(agent, file);
    assert.deepEqual(r.cards, expected, r.stderr);
    // The replay is a sandbox: each recorded write was proposed to the user (and allowed here).
    const writes = transcript.messages.filter((m) => m.dir === 'in' && m.msg.method === 'fs/write_text_file');
    assert.equal(r.proposedWrites.length, writes.length);
    const recordedFindings = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((l) => (l.includes('"warnings"') ? (JSON.parse(l) as { warnings: string[] }).warnings : []));
    assert.ok(recordedFindings.length > 0, 'the real agents do send things the stable schema does not know');
    assert.deepEqual(r.findings, recordedFindings);
    assert.doesNotMatch(r.stderr, /diverged/);
  });

  test(`${agent}: recorded now through the core, and replayed at once, shows the same cards`, { timeout: 120_000 }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), `tandem-record-${agent}-`));
    const workspace = join(scratch, 'workspace');
    mkdirSync(workspace);
    try {
      const live = await recordRealAgent(agent, workspace, scratch);
      assert.ok(
        live.cards.some((c) => (c as Entry).kind === 'tool_call'),
        `${agent} used a tool:\n${live.stderr}`,
      );
      const file = join(scratch, `${agent}.jsonl`);
      writeFileSync(file, live.transcript);
      const r = await replay(agent, file);
      assert.deepEqual(r.cards, live.cards, r.stderr);
    } finally {
      rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
    }
  });
}
