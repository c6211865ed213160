/**
 * The host owns the thread: a webview reloaded (or torn down and shown again) while a real agent
 * streams gets the whole thread back from the host's snapshot, then the rest of the stream —
 * nothing missing, nothing doubled.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { openPanel } from '../support/panelBridge';
import { scriptedSession } from '../support/scriptedSession';
import { ensureScriptedAgentBuilt } from '../support/scriptedAgentHarness';
import { launchHarness } from './harness/harness';
import type { Harness } from './harness/harness';

let harness: Harness;
let dir: string;
before(async () => {
  await ensureScriptedAgentBuilt();
  harness = await launchHarness();
  dir = mkdtempSync(join(tmpdir(), 'tandem-reload-'));
});
after(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

const WORDS = 3000;

test('reloading the panel twice mid-stream brings back the full thread; the final text is exactly what was streamed', { timeout: 120_000 }, async () => {
  // Bursts of chunks with pauses between them, so the reloads land in the middle of the stream.
  const steps: AgentScript['turns'] = [{ steps: [] }];
  const burst = WORDS / 10;
  for (let b = 0; b < 10; b++) {
    steps[0].steps!.push({ chunks: { count: burst, text: `b${b}w\${i} ` } });
    if (b === 4)
      steps[0].steps!.push({ update: { sessionUpdate: 'tool_call', toolCallId: 'mid', title: 'Mid-stream tool', kind: 'read', status: 'completed' } });
    steps[0].steps!.push({ sleep: 150 });
  }
  const { session } = scriptedSession(dir, { turns: steps }, { name: 'Streamer' });
  const bridge = await openPanel(session, { harness });
  const { page } = bridge;
  try {
    await session.start();
    const turn = session.prompt('stream please');
    const streamedSoFar = (): number =>
      session
        .snapshotParts()
        .entries.filter((e) => e.kind === 'agent')
        .reduce((n, e) => n + (e as { text: string }).text.length, 0);
    let reloads = 0;
    // Reload once early and once after the tool call, both while the turn is still running.
    for (const threshold of [800, 9000]) {
      while (streamedSoFar() < threshold) await new Promise((r) => setTimeout(r, 5));
      assert.equal(session.status.kind, 'running', 'the reload happens mid-stream');
      await bridge.reload();
      reloads++;
    }
    await turn;
    await bridge.drained();
    await bridge.panel.settle();

    const expected = session.snapshotParts().entries;
    const hostText = expected.filter((e) => e.kind === 'agent').map((e) => (e as { text: string }).text);
    // Sanity: the host really got every chunk (so the comparison below is about the panel).
    const allWords = Array.from({ length: 10 }, (_, b) => Array.from({ length: burst }, (_, i) => `b${b}w${i}`)).flat();
    assert.deepEqual(hostText.join('').split(' ').filter(Boolean), allWords);

    const shown = await page.evaluate(() =>
      // Content entries are articles with data-entry-kind; the end of a turn is a quiet .turn-end line.
      Array.from(document.querySelectorAll('[data-entry-kind], .turn-end')).map((el) => ({
        kind: el.getAttribute('data-entry-kind') ?? 'turn_end',
        text: el.getAttribute('data-entry-kind') === 'agent' ? (el.querySelector('.markdown')?.textContent ?? '') : '',
      })),
    );
    assert.deepEqual(
      shown.map((s) => s.kind),
      expected.map((e) => e.kind),
      'the same entries, in the same order, none doubled',
    );
    const shownAgent = shown.filter((s) => s.kind === 'agent').map((s) => s.text.split(/\s+/).filter(Boolean));
    assert.deepEqual(
      shownAgent,
      hostText.map((t) => t.split(/\s+/).filter(Boolean)),
      'every agent message shows exactly the streamed text',
    );
    assert.equal(reloads, 2);
    assert.equal(await page.locator('[data-entry-kind="tool_call"]').count(), 1);
    // A post in flight when the page goes away fails (VS Code drops it the same way); the snapshot
    // after the reload covers it. Any other host-side error counts.
    assert.deepEqual(
      bridge.hostErrors.filter((e) => !/Execution context was destroyed|Target page, context or browser has been closed/.test(String(e))),
      [],
    );
    assert.deepEqual(bridge.panel.errors, []);
  } finally {
    await bridge.close();
    session.dispose();
  }
});
