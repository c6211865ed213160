// A conversation with a NON-demo agent configured through `tandem.agents`, in real VS Code
// (code-server) with the packaged .vsix installed: streaming, Stop, and recovery from a crash. The
// agent is test/fixtures/scriptedAgent.ts running as a real process over stdio.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scenario, useE2e } from './harness/e2e';
import type { Scenario } from './harness/e2e';
import { agentSettings, say } from './harness/workspace';
import { openTandemView } from './harness/workbench';
import type { AgentScript } from './harness/workspace';

const e2e = useE2e();

/** Methods the agent received, in order (SCRIPTED_AGENT_LOG holds one JSON-RPC message per line). */
function received(logFile: string): Array<{ method?: string; params?: unknown }> {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { method?: string; params?: unknown });
}

/** A workspace whose .vscode/settings.json selects a scripted agent named "Scripted". */
function setup(s: Scenario, script: AgentScript) {
  const agent = s.agent(script);
  const workspace = s.workspace({
    files: { 'README.md': '# Scratch project\n', 'src/index.ts': 'export const answer = 42;\n' },
    settings: agentSettings('Scripted', agent.config),
  });
  return { agent, workspace };
}

scenario(e2e, 'streams a markdown answer from a scripted agent configured in tandem.agents', async (s) => {
  const { agent, workspace } = setup(s, {
    turns: [
      {
        steps: [
          say('Hello **world**'),
          { sleep: 150 },
          say(', you asked: ${prompt}\n\n- first item\n- second item\n\n'),
          { sleep: 150 },
          say('```ts\nconst streamed = true;\n```\n'),
        ],
        stopReason: 'end_turn',
      },
      { steps: [say('second answer to ${prompt}')], stopReason: 'end_turn' },
    ],
  });
  const { chat } = await s.open(workspace);

  await chat.send('What is in this project?');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  assert.equal(await chat.stopReasons('end_turn').count(), 1);

  const user = chat.entries('user');
  assert.equal(await user.count(), 1);
  assert.match((await user.first().textContent()) ?? '', /What is in this project\?/);

  // The three chunks arrive as one rendered markdown answer, not as raw markdown text.
  const answer = chat.entries('agent').last();
  const text = (await answer.textContent()) ?? '';
  assert.match(text, /Hello world, you asked: What is in this project\?/);
  assert.doesNotMatch(text, /\*\*world\*\*/);
  assert.equal(await answer.locator('strong', { hasText: 'world' }).count(), 1);
  assert.deepEqual(await answer.locator('li').allTextContents(), ['first item', 'second item']);
  assert.match((await answer.locator('pre code').textContent()) ?? '', /const streamed = true;/);

  // The prompt really went to the agent process over stdio.
  const prompts = received(agent.logFile).filter((m) => m.method === 'session/prompt');
  assert.equal(prompts.length, 1);
  assert.match(JSON.stringify(prompts[0]?.params), /What is in this project\?/);

  // The conversation goes on in the same session.
  await chat.send('And then?');
  assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
  assert.match(await chat.threadText(), /second answer to And then\?/);
  assert.equal(await chat.entries('user').count(), 2);
  assert.equal(await chat.entries('error').count(), 0);
  assert.equal(received(agent.logFile).filter((m) => m.method === 'session/new').length, 1);
});

scenario(e2e, 'Stop cancels the running turn: stop reason cancelled, no error', async (s) => {
  const { agent, workspace } = setup(s, {
    turns: [{ steps: [say('Working on it…'), { waitForCancel: true }] }, { steps: [say('fresh turn: ${prompt}')], stopReason: 'end_turn' }],
  });
  const { chat } = await s.open(workspace);

  await chat.send('Do something slow');
  const stop = chat.button('Stop');
  await stop.waitFor({ state: 'visible', timeout: 30_000 });
  await chat.waitForCount(chat.entries('agent').filter({ hasText: 'Working on it…' }), 1, 'the streamed text before Stop');
  assert.equal(await chat.stopReasons().count(), 0, 'the turn is still running');

  await stop.click();
  assert.equal(await chat.waitForTurnEnd(1), 'cancelled');
  await stop.waitFor({ state: 'hidden', timeout: 30_000 });
  assert.equal(await chat.entries('error').count(), 0, 'a cancelled turn is not an error');
  assert.ok(
    received(agent.logFile).some((m) => m.method === 'session/cancel'),
    'session/cancel reached the agent',
  );
  assert.match(await chat.threadText(), /Working on it…/);

  // The session is still usable after a cancellation.
  await chat.send('next');
  assert.equal(await chat.waitForTurnEnd(2), 'end_turn');
  assert.match(await chat.threadText(), /fresh turn: next/);
});

scenario(e2e, 'an agent crash mid-turn shows an error with Restart, keeps the thread, and Restart works', async (s) => {
  const { agent, workspace } = setup(s, {
    turns: [
      // A restarted process starts again at turn 0, so turn 0 must answer any prompt.
      { steps: [say('answer to: ${prompt}')], stopReason: 'end_turn' },
      { steps: [say('partial answer before the crash'), { sleep: 300 }, { exit: 1 }] },
    ],
  });
  const { chat } = await s.open(workspace);

  await chat.send('first question');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  await chat.send('second question');

  const error = chat.entries('error');
  await error.first().waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await error.count(), 1);
  const thread = await chat.threadText();
  for (const earlier of ['first question', 'answer to: first question', 'second question', 'partial answer before the crash']) {
    assert.ok(thread.includes(earlier), `the thread still shows "${earlier}" after the crash`);
  }

  const restart = chat.button(/^Restart/i, error.first());
  await restart.click();
  await chat.send('after restart');
  await chat.waitForCount(chat.entries('agent').filter({ hasText: 'answer to: after restart' }), 1, 'the restarted agent answer');
  assert.equal(await chat.stopReasons().last().getAttribute('data-stop-reason'), 'end_turn');
  assert.ok((await chat.threadText()).includes('answer to: first question'), 'the old thread survives the restart');
  assert.equal(received(agent.logFile).filter((m) => m.method === 'initialize').length, 2, 'a second agent process was started');
});

scenario(e2e, 'hiding the view and showing it again loses nothing, even mid-turn', async (s) => {
  const { workspace } = setup(s, {
    turns: [
      {
        steps: [
          say('First answer.'),
          { update: { sessionUpdate: 'plan', entries: [{ content: 'Keep the thread', priority: 'high', status: 'in_progress' }] } },
        ],
        stopReason: 'end_turn',
      },
      { steps: [say('Part one, '), { sleep: 2500 }, say('part two.')], stopReason: 'end_turn' },
    ],
  });
  const { chat, workbench } = await s.open(workspace);
  await chat.send('first');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  await chat.send('second');
  await chat.entries('agent').filter({ hasText: 'Part one' }).waitFor();
  await chat.composer.fill('a draft I have not sent');
  // Switching to the Explorer hides the Tandem view; its webview is torn down (no retained context).
  await workbench.page.locator('.activitybar [role="tab"]:has(a[aria-label^="Explorer"])').first().click();
  await workbench.page.waitForTimeout(3000);
  const again = await openTandemView(workbench.page);
  assert.equal(await again.waitForTurnEnd(2), 'end_turn');
  const text = await again.threadText();
  assert.match(text, /First answer\./);
  assert.match(text, /Part one, part two\./);
  assert.equal(await again.entries('user').count(), 2);
  assert.equal(await again.entries('plan').count(), 1);
  assert.equal(await again.composer.inputValue(), 'a draft I have not sent', 'the draft survives too');
});

scenario(e2e, 'a long thread comes back whole when the view is shown again: its last screens first, then every older entry in order', async (s) => {
  const calls = 150;
  const steps: Array<Record<string, unknown>> = [];
  for (let i = 0; i < calls; i++) {
    steps.push({ update: { sessionUpdate: 'tool_call', toolCallId: `read-${i}`, title: `Read part ${i}`, kind: 'read', status: 'completed' } });
  }
  steps.push(say('All parts read.'));
  const { workspace } = setup(s, { turns: [{ steps, stopReason: 'end_turn' }] });
  const { chat, workbench } = await s.open(workspace);
  await chat.send('read everything');
  assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  const root = chat.frame.locator('.tandem');
  const count = await root.getAttribute('data-entries');
  assert.ok(Number(count) > calls, `${count} entries`);
  const order = (c = chat): Promise<Array<string | null>> =>
    c.frame.locator('[role="log"] [data-entry-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-id')));
  const before = await order();
  assert.equal(before.length, Number(count));

  await workbench.page.locator('.activitybar [role="tab"]:has(a[aria-label^="Explorer"])').first().click();
  await workbench.page.waitForTimeout(1500);
  const again = await openTandemView(workbench.page);
  const log = again.frame.locator('[role="log"]');
  // More than the first message holds (src/session/snapshotSplit.ts): the older entries follow the
  // first screens when the panel asks for them. Wait until all are placed and the log is not busy.
  await again.frame.locator(`.tandem[data-entries="${count}"]`).waitFor();
  await again.frame.locator('[role="log"]:not([aria-busy="true"])').waitFor();
  assert.deepEqual(await order(again), before, 'every entry once, in the same order');
  assert.ok(await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 40), 'still at the bottom');
  assert.match(await again.threadText(), /All parts read\./);
  // The oldest card is built when scrolled to.
  await again.frame.locator('[data-entry-id]').first().scrollIntoViewIfNeeded();
  await again.frame.locator('[data-entry-kind="tool_call"]', { hasText: 'Read part 0' }).first().waitFor();

  // A tab switch back to it from another conversation goes the same way (conversationShown is split too).
  const tabs = again.frame.locator('[role="tablist"][aria-label="Conversations"] [role="tab"]');
  await again.frame.getByRole('button', { name: 'New conversation' }).click();
  await again.frame.locator('.tandem[data-entries="0"]').waitFor();
  await tabs.first().click();
  await again.frame.locator(`.tandem[data-entries="${count}"]`).waitFor();
  await again.frame.locator('[role="log"]:not([aria-busy="true"])').waitFor();
  assert.deepEqual(await order(again), before, 'every entry once, in order, after the tab switch');
});

scenario(
  e2e,
  'a flood of 6,000 chunks: the end shows at once, the text far above it is rendered once the flood stops, and every paragraph is there',
  async (s) => {
    const paragraphs = 300;
    const steps: Array<Record<string, unknown>> = [];
    for (let p = 0; p < paragraphs; p++) {
      steps.push({ chunks: { count: 19, text: 'lorem ipsum dolor sit amet ${i} ' } });
      steps.push(say(`end of paragraph ${p}.\n\n`));
    }
    const { workspace } = setup(s, { turns: [{ steps, stopReason: 'end_turn' }] });
    const { chat } = await s.open(workspace);
    // Whether any text went cold on the way (webview/entries/coldSections.ts), seen from inside the panel.
    await chat.frame.locator('body').evaluate(() => {
      const w = window as unknown as { __sawCold: boolean };
      w.__sawCold = false;
      new MutationObserver(() => {
        if (document.querySelector('.markdown-frozen > .cold')) w.__sawCold = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    await chat.send('flood me');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const answer = chat.entries('agent').last();
    await answer.filter({ hasText: `end of paragraph ${paragraphs - 1}.` }).waitFor();
    assert.equal(
      await chat.frame.locator('body').evaluate(() => (window as unknown as { __sawCold: boolean }).__sawCold),
      true,
      'the flood went through the cold path',
    );
    // Rendered soon after the flood stops, every paragraph once and in order, as markdown paragraphs.
    await chat.frame.locator('[data-entry-kind="agent"] .markdown-frozen > .cold').first().waitFor({ state: 'detached' });
    const ends = await answer.locator('p').evaluateAll((ps) =>
      ps
        .map((p) => /end of paragraph (\d+)\./.exec(p.textContent ?? '')?.[1])
        .filter((n) => n !== undefined)
        .map(Number),
    );
    assert.deepEqual(
      ends,
      Array.from({ length: paragraphs }, (_, i) => i),
    );
    // The first paragraph is there when scrolled to.
    await answer.locator('p').first().scrollIntoViewIfNeeded();
    assert.match((await answer.locator('p').first().textContent()) ?? '', /^lorem ipsum dolor sit amet 0 /);
  },
);
