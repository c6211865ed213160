/**
 * Cards the host built from real agents' traffic (the recorded payloads of test/fixtures/agentPayloads
 * played through the real reducer), in real Chromium: subagents nested and collapsed with a live
 * count and current step, their prompts never hidden, output preformatted and collapsible, the
 * waiting indicator and the notification's "Show" landing on the prompt's first one-time option.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { loadRecording, payloadReducer, playRecording } from '../support/agentPayloads';
import { running, snapshot, toolCall } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();
const CWD = '/home/me/proj';

function recorded(agent: 'claude-agent-acp' | 'cline'): Entry[] {
  const { reducer } = payloadReducer(CWD);
  return playRecording(reducer, loadRecording(agent, CWD));
}

const cardOf = (entries: Entry[], title: string): ToolCallEntry => entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.title === title)!;

test("claude-agent-acp's subagent: its calls sit inside the Agent card, collapsed with a count and the current step; opened, they are cards", async () => {
  const entries = recorded('claude-agent-acp');
  const parent = cardOf(entries, 'Subagent: Check the notes');
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries }) });
  await panel.settle();
  const card = page.locator(`[data-entry-id="${parent.id}"]`);
  const toggle = card.locator('.subagent-toggle');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await toggle.textContent(), '3 steps · echo hello-from-native-bash');
  // Only top-level cards in the log's pages; the children are not rendered while collapsed.
  const topTitles = await page.locator('.thread-page > [data-entry-kind="tool_call"] > .tool-header .tool-title').allTextContents();
  assert.deepEqual(topTitles, ['Subagent: Check the notes', 'Read notes.txt', 'Edit notes.txt']);
  assert.equal(await card.locator('.subagent-children [data-entry-kind="tool_call"]').count(), 0);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(await card.locator('.subagent-children .tool-title').allTextContents(), [
    'Read notes.txt',
    'grep "status" proj',
    'echo hello-from-native-bash',
  ]);
  // The child's Read output is preformatted, without the reminder meant for the model.
  const output = card.locator('.subagent-children .tool-output-text').first();
  assert.match(String(await output.textContent()), /^ +1→Tandem notes\n +2→status: draft/);
  assert.equal(await output.evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
  assert.doesNotMatch(String(await card.textContent()), /system-reminder|agentId:/);
  // The state is kept: a re-render leaves it open.
  await panel.post({ type: 'entryUpserted', entry: { ...parent, status: 'completed' } });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test("cline: output per file, labelled and preformatted; long output starts closed; the agent's title is in the tooltip", async () => {
  const entries = recorded('cline');
  const read = cardOf(entries, 'Read hello.txt and README.md');
  const long: ToolCallEntry = toolCall('long', {
    title: 'Run `seq 40`',
    toolKind: 'execute',
    status: 'completed',
    content: [{ type: 'output', text: Array.from({ length: 40 }, (_, i) => String(i)).join('\n'), exitCode: 0 }],
  });
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [...entries, long] }) });
  await panel.settle();
  const card = page.locator(`[data-entry-id="${read.id}"]`);
  assert.match(String(await card.locator('.tool-title').getAttribute('title')), /The agent's title: read_files: \{"files"/);
  const outputs = card.locator('details.tool-output');
  assert.equal(await outputs.count(), 2);
  assert.deepEqual(
    (await outputs.locator('summary').allTextContents()).map((t) => t.trim()),
    ['Output · hello.txt · 3 lines', 'Output · README.md · 1 line'],
  );
  assert.equal(await outputs.first().evaluate((d) => (d as HTMLDetailsElement).open), true);
  assert.equal(await outputs.first().locator('pre').textContent(), '1 | Hello\n2 | status: draft\n3 | end');
  const longOutput = page.locator('[data-entry-id="long"] details.tool-output');
  assert.equal(await longOutput.evaluate((d) => (d as HTMLDetailsElement).open), false, '40 lines start closed');
  assert.equal((await longOutput.locator('summary').textContent())?.trim(), 'Output · 40 lines · exit code 0');
  await longOutput.locator('summary').click();
  assert.equal(await longOutput.evaluate((d) => (d as HTMLDetailsElement).open), true);
  // An edit Cline sent no diff for shows the one from its input, and says so.
  const edit = page.locator(`[data-entry-id="${cardOf(entries, 'Edit hello.txt').id}"]`);
  assert.equal(await edit.locator('.diff-observed').textContent(), 'from the input');
  assert.equal(await edit.locator('.tool-locations .location').getAttribute('title'), 'hello.txt');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test("a subagent's prompt shows above its collapsed group; the waiting indicator and the notification's Show land on its first one-time option", async () => {
  const parent = toolCall('p', { title: 'Subagent: review', toolKind: 'think', status: 'in_progress', subagent: true });
  const done = toolCall('c1', { title: 'Read a.ts', status: 'completed', parentId: 'p' });
  const panel = await harness().open();
  const { page } = panel;
  // A long thread before it: the card is far out of view.
  const filler = Array.from({ length: 80 }, (_, i) => ({ kind: 'agent' as const, id: `a${i}`, text: `Line ${i}\n\n${'word '.repeat(60)}` }));
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [parent, done, ...filler] }) });
  await panel.settle();
  await page.locator('#tandem-thread').evaluate((el) => (el.scrollTop = el.scrollHeight));
  const asking = toolCall('c2', {
    title: 'Edit b.ts',
    toolKind: 'edit',
    parentId: 'p',
    permission: {
      requestId: 'req-1',
      state: { kind: 'pending' },
      options: [
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
  await panel.post({ type: 'entryUpserted', entry: asking });
  await panel.settle();
  const card = page.locator('[data-entry-id="p"]');
  assert.equal(await card.locator('.subagent-toggle').getAttribute('aria-expanded'), 'false');
  assert.equal(await card.locator('.subagent-toggle').textContent(), '2 steps · Edit b.ts');
  assert.equal(await card.locator('.subagent-asks [data-permission-state="pending"]').count(), 1, 'the prompt is out of the collapsed group');
  const indicator = page.locator('.waiting-indicator');
  assert.equal(await indicator.isHidden(), false);
  assert.match(String(await indicator.getAttribute('aria-label')), /^1 waiting for you/);
  await indicator.click();
  const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('data-option-id'));
  assert.equal(await focused(), 'once', 'focus on the first one-time option, not the standing one');
  assert.equal(await card.locator('.subagent-asks').isVisible(), true);
  // The notification's Show: the host asks the panel to land on that request.
  await page.locator('textarea').first().focus();
  await panel.post({ type: 'revealPrompt', conversationId: 'c1', requestId: 'req-1' });
  await panel.settle();
  assert.equal(await focused(), 'once');
  // Answered: the card goes back into the (collapsed) group.
  await panel.post({ type: 'entryUpserted', entry: { ...asking, permission: { ...asking.permission!, state: { kind: 'selected', optionId: 'once' } } } });
  await panel.settle();
  assert.equal(await card.locator('.subagent-asks [data-entry-kind="tool_call"]').count(), 0);
  assert.equal(await indicator.isHidden(), true);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('a child whose parent is not in the thread (never came, or after it) is shown at the top level; a nested subagent nests', async () => {
  const orphan = toolCall('o', { title: 'Read lost.ts', parentId: 'ghost' });
  const root = toolCall('r', { title: 'Subagent: outer', subagent: true, status: 'in_progress' });
  const inner = toolCall('i', { title: 'Subagent: inner', subagent: true, status: 'in_progress', parentId: 'r' });
  const leaf = toolCall('l', {
    title: 'Read deep.ts',
    parentId: 'i',
    permission: { requestId: 'deep', state: { kind: 'pending' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
  });
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: running, entries: [orphan, root, inner, leaf] }) });
  await panel.settle();
  assert.equal(await page.locator('.thread-page > [data-entry-id="o"]').count(), 1);
  // Two levels down, the prompt still shows: each collapsed group puts the asking child above itself.
  const prompt = page.locator('[data-entry-id="r"] .subagent-asks [data-entry-id="i"] .subagent-asks [data-entry-id="l"] [data-permission-state="pending"]');
  assert.equal(await prompt.isVisible(), true);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
