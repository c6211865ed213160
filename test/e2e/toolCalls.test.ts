// Tool call cards and follow-along in real VS Code (code-server, installed .vsix), driven by a
// scripted ACP agent running as a real process over stdio (issue 3): kind icons and live statuses,
// no spinner after the turn, follow-along that reveals the line without taking focus from the
// composer, "Open diff" in the native diff editor, and no automatic opening outside the workspace.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { codiconFor } from '../../src/protocol/toolKinds';
import type { ToolKind } from '../../src/protocol/messages';
import { scenario, useE2e } from './harness/e2e';
import type { Scenario } from './harness/e2e';
import type { Chat } from './harness/workbench';
import { waitUntil, watchTabs } from './harness/workbench';
import { agentSettings, say } from './harness/workspace';
import type { AgentScript } from './harness/workspace';

const e2e = useE2e();

/** Every ACP kind, plus one the protocol does not know (must look like `other`). */
const KINDS: ReadonlyArray<{ id: string; kind: string; shown: ToolKind }> = [
  ...(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const).map((k) => ({
    id: `tc-${k}`,
    kind: k,
    shown: k,
  })),
  { id: 'tc-unknown', kind: 'teleport', shown: 'other' },
];
/** Left running by the agent when the turn ends: Tandem must settle it. */
const LEFT_RUNNING = 'tc-unknown';
/** Reported as failed; the rest complete. */
const FAILS = 'tc-fetch';
/** The card the agent asks permission on, to hold the script until the test has looked. */
const GATE = 'tc-execute';

const update = (u: Record<string, unknown>): Record<string, unknown> => ({ update: u });
const gate = (name: string): Record<string, unknown> => ({
  permission: { toolCall: { toolCallId: GATE }, options: [{ optionId: `go-${name}`, name: `Continue ${name}`, kind: 'allow_once' }] },
});

/** A workspace with a 100-line src/app.ts, selecting a scripted agent named "Scripted". */
function setup(s: Scenario, script: AgentScript) {
  const agent = s.agent(script);
  const app = Array.from({ length: 100 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n';
  const workspace = s.workspace({
    files: { 'README.md': '# Tool calls\n', 'src/app.ts': app, 'src/other.ts': 'export const other = 1;\n' },
    settings: { ...agentSettings('Scripted', agent.config), 'tandem.followAgent': true },
  });
  return { agent, workspace };
}

function card(chat: Chat, id: string): Locator {
  return chat.frame.locator(`[role="article"][data-entry-kind="tool_call"][data-tool-call-id="${id}"]`);
}

async function statuses(chat: Chat): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of await chat.entries('tool_call').all()) out[(await c.getAttribute('data-tool-call-id')) ?? '?'] = (await c.getAttribute('data-status')) ?? '?';
  return out;
}

async function waitStatuses(chat: Chat, expected: Record<string, string>, what: string): Promise<void> {
  let last: Record<string, string> = {};
  try {
    await waitUntil(async () => {
      last = await statuses(chat);
      return Object.entries(expected).every(([id, st]) => last[id] === st);
    }, what);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nexpected ${JSON.stringify(expected)}\nsaw ${JSON.stringify(last)}`);
  }
}

async function answerGate(chat: Chat, name: string): Promise<void> {
  const button = chat.button(`Continue ${name}`, card(chat, GATE));
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await button.click();
}

/** The workbench's editor tabs (labels), active one first. */
async function activeTab(page: Page): Promise<string> {
  return (
    (await page
      .locator('.editor-group-container.active .tabs-container .tab.active')
      .first()
      .getAttribute('aria-label')
      .catch(() => null)) ?? ''
  );
}

scenario(
  e2e,
  'cards of every kind show their codicon and live statuses; no spinner outlives the turn',
  async (s) => {
    const all = (status: string, ids = KINDS.map((k) => k.id)) => ids.map((id) => update({ sessionUpdate: 'tool_call_update', toolCallId: id, status }));
    const { workspace } = setup(s, {
      turns: [
        {
          steps: [
            ...KINDS.map((k) =>
              update({ sessionUpdate: 'tool_call', toolCallId: k.id, title: `Card ${k.kind.replace('_', ' ')}`, kind: k.kind, status: 'pending' }),
            ),
            gate('one'),
            ...all('in_progress'),
            gate('two'),
            ...all(
              'completed',
              KINDS.map((k) => k.id).filter((id) => id !== LEFT_RUNNING && id !== FAILS),
            ),
            ...all('failed', [FAILS]),
            say('done with the cards'),
          ],
          stopReason: 'end_turn',
        },
      ],
    });
    const { chat } = await s.open(workspace);
    await chat.send('show me every kind');

    await waitStatuses(chat, Object.fromEntries(KINDS.map((k) => [k.id, 'pending'])), 'every card pending');
    assert.equal(await chat.entries('tool_call').count(), KINDS.length, 'one card per toolCallId (the permission reused its card)');
    for (const k of KINDS) {
      const c = card(chat, k.id);
      assert.equal(await c.getAttribute('data-kind'), k.shown, `data-kind of ${k.id}`);
      assert.match((await c.getAttribute('aria-label')) ?? '', new RegExp(`Card ${k.kind.replace('_', ' ')}`), `aria-label of ${k.id}`);
      assert.equal((await c.locator(`.codicon.codicon-${codiconFor(k.shown)}`).count()) >= 1, true, `${k.id} shows codicon-${codiconFor(k.shown)}`);
    }
    assert.equal(await chat.stopReasons().count(), 0, 'the turn is held by the permission prompt');

    await answerGate(chat, 'one');
    await waitStatuses(chat, Object.fromEntries(KINDS.map((k) => [k.id, 'in_progress'])), 'every card running');
    // A running card spins; the kind icon stays.
    for (const k of KINDS) {
      const c = card(chat, k.id);
      assert.equal(await c.locator('.codicon-modifier-spin').count(), 1, `${k.id} spins while in_progress`);
      assert.equal((await c.locator(`.codicon-${codiconFor(k.shown)}`).count()) >= 1, true, `${k.id} keeps its kind icon`);
    }
    assert.equal(await chat.stopReasons().count(), 0);

    await answerGate(chat, 'two');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const final = await statuses(chat);
    for (const k of KINDS) {
      const expected = k.id === FAILS ? 'failed' : k.id === LEFT_RUNNING ? 'cancelled' : 'completed';
      assert.equal(final[k.id], expected, `final status of ${k.id} (all: ${JSON.stringify(final)})`);
    }
    assert.equal(
      await chat
        .entries('tool_call')
        .filter({ has: chat.frame.locator('.codicon-modifier-spin') })
        .count(),
      0,
      'no spinner after the turn',
    );
    assert.equal(
      await chat.frame.locator('[data-entry-kind="tool_call"][data-status="pending"], [data-entry-kind="tool_call"][data-status="in_progress"]').count(),
      0,
    );
    // The chosen option stays visible on the gate card.
    assert.match((await card(chat, GATE).textContent()) ?? '', /Continue two/);
  },
  90_000,
);

scenario(
  e2e,
  'follow-along reveals line 40 of app.ts in the editor while typing stays in the composer',
  async (s) => {
    const { workspace } = setup(s, {
      turns: [
        {
          steps: [
            say('Looking at app.ts'),
            // Time for the test to start typing in the composer.
            { sleep: 2500 },
            update({
              sessionUpdate: 'tool_call',
              toolCallId: 'read-app',
              title: 'Read app.ts',
              kind: 'read',
              status: 'in_progress',
              locations: [{ path: '${cwd}/src/app.ts', line: 40 }],
            }),
            { sleep: 4000 },
            update({ sessionUpdate: 'tool_call_update', toolCallId: 'read-app', status: 'completed' }),
          ],
          stopReason: 'end_turn',
        },
      ],
    });
    const { chat, workbench } = await s.open(workspace);
    const page = workbench.page;
    // The highlight lasts 1.5 s; a slow machine can take longer to show the editor and be polled:
    // every decorated row is recorded as it is drawn, with the row line 40 is drawn at then.
    await page.evaluate(() => {
      const seen: Array<{ line40: string; decorated: string[] }> = [];
      (window as unknown as { followRows: typeof seen }).followRows = seen;
      // An anonymous callback: a named function in a page script gets tsx's __name helper, which the page lacks.
      new MutationObserver(() => {
        for (const root of document.querySelectorAll('.editor-group-container .monaco-editor')) {
          const decorated = [...root.querySelectorAll('.view-overlays [class*="ced-"]')].map((d) => (d.parentElement as HTMLElement).style.top);
          if (decorated.length === 0) continue;
          const number = [...root.querySelectorAll('.margin-view-overlays .line-numbers')].find((n) => n.textContent?.trim() === '40');
          seen.push({ line40: (number?.parentElement as HTMLElement | undefined)?.style.top ?? '', decorated });
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style'] });
    });
    await chat.send('read app.ts');
    // The user keeps typing the next message while the agent works.
    await chat.composer.click();
    await page.keyboard.type('next ');

    await waitUntil(async () => /^app\.ts\b/.test(await activeTab(page)), 'the editor tab of app.ts to become active');
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    // Line 40 is rendered in the viewport (line numbers are in the margin).
    const line40 = editor.locator('.margin-view-overlays .line-numbers', { hasText: /^40$/ });
    await waitUntil(async () => (await line40.count()) === 1 && (await line40.isVisible()), 'line 40 of app.ts to be visible');
    // The theme-aware highlight: an extension decoration (class ced-…) on the row of line 40.
    let rows: Array<{ line40: string; decorated: string[] }> = [];
    await waitUntil(
      async () => {
        rows = await page.evaluate(() => (window as unknown as { followRows: Array<{ line40: string; decorated: string[] }> }).followRows);
        return rows.some((r) => r.line40 !== '' && r.decorated.includes(r.line40));
      },
      'the follow-along highlight on line 40',
      10_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(rows.slice(-5))}`);
    });

    // Focus never left the composer: the workbench's focus is the webview, the webview's the textarea.
    const workbenchFocus = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : 'none';
    });
    assert.match(workbenchFocus, /^iframe\..*webview/, `workbench focus is on the webview (got ${workbenchFocus})`);
    assert.equal(await chat.composer.evaluate((el) => el === document.activeElement), true, 'the composer textarea has focus');
    await page.keyboard.type('message');
    assert.equal(await chat.composer.inputValue(), 'next message', 'keys typed after the reveal land in the composer');
    // Nothing was typed into the file.
    assert.doesNotMatch((await editor.locator('.view-lines').textContent()) ?? '', /message/);
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
  },
  90_000,
);

scenario(
  e2e,
  '"Open diff" opens the native diff editor titled with the file name and the tool call title; inline diffs fetch collapsed lines and refuse huge files',
  async (s) => {
    const app = Array.from({ length: 100 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
    const huge = 'x'.repeat(5 * 1024 * 1024 + 1000);
    const { workspace } = setup(s, {
      turns: [
        {
          steps: [
            update({
              sessionUpdate: 'tool_call',
              toolCallId: 'edit-other',
              title: 'Bump the other constant',
              kind: 'edit',
              status: 'completed',
              content: [{ type: 'diff', path: '${cwd}/src/other.ts', oldText: 'export const other = 1;\n', newText: 'export const other = 2;\n' }],
            }),
            update({
              sessionUpdate: 'tool_call',
              toolCallId: 'edit-app',
              title: 'Edit line 50',
              kind: 'edit',
              status: 'completed',
              content: [
                {
                  type: 'diff',
                  path: '${cwd}/src/app.ts',
                  oldText: `${app.join('\n')}\n`,
                  newText: `${app.map((l, i) => (i === 49 ? 'export const line50 = 5000;' : l)).join('\n')}\n`,
                },
              ],
            }),
            update({
              sessionUpdate: 'tool_call',
              toolCallId: 'edit-huge',
              title: 'Write a huge file',
              kind: 'edit',
              status: 'completed',
              content: [{ type: 'diff', path: '${cwd}/huge.txt', oldText: null, newText: huge }],
            }),
          ],
          stopReason: 'end_turn',
        },
      ],
    });
    const { chat, workbench } = await s.open(workspace);
    const page = workbench.page;
    await chat.send('edit other.ts');
    assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
    const c = card(chat, 'edit-other');
    const region = c.locator('[role="region"][data-path$="/src/other.ts"]');
    await region.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await region.getAttribute('aria-label')) ?? '', /^Diff/);
    assert.equal(await page.locator('.monaco-diff-editor').count(), 0, 'no diff editor before the click');

    await chat.button('Open diff', c).click();
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    await waitUntil(async () => /other\.ts.*Bump the other constant/.test(await activeTab(page)), 'the diff tab titled "other.ts — Bump the other constant"');
    // Old text on the left (read-only), new text on the right (the editor renders spaces as U+00A0, which \s matches).
    await waitUntil(
      async () => /other\s=\s1/.test((await diff.locator('.editor.original .view-lines').textContent()) ?? ''),
      'the old text in the left editor',
    );
    await waitUntil(
      async () => /other\s=\s2/.test((await diff.locator('.editor.modified .view-lines').textContent()) ?? ''),
      'the new text in the right editor',
    );

    // Only the hunk came with the update; the lines above it come from the extension on request.
    const appDiff = card(chat, 'edit-app').locator('[role="region"][data-path$="/src/app.ts"]');
    assert.equal(await appDiff.locator('[data-line-type]').count(), 8);
    await appDiff.getByRole('button', { name: 'Show 46 unchanged lines' }).click();
    await appDiff.locator('[data-line-type]', { hasText: 'export const line1 = 1;' }).waitFor({ timeout: 15_000 });
    assert.equal(await appDiff.locator('[data-line-type]').count(), 8 + 46);
    // Over 5 MB: no inline diff, a note saying why, and the diff editor one click away.
    const hugeCard = card(chat, 'edit-huge');
    assert.match((await hugeCard.locator('.diff-too-large').textContent()) ?? '', /over the 5 MB limit.*Open diff shows it in the editor/);
    assert.equal(await hugeCard.locator('[data-line-type]').count(), 0);
    assert.equal(await chat.button('Open diff', hugeCard).count(), 1);
  },
  120_000,
);

scenario(
  e2e,
  'a location outside the workspace is shown on the card but not opened automatically',
  async (s) => {
    const outsideDir = mkdtempSync(join(tmpdir(), 'tandem-outside-'));
    const outside = join(outsideDir, 'secret.ts');
    writeFileSync(outside, Array.from({ length: 20 }, (_, i) => `// secret ${i + 1}`).join('\n') + '\n');
    try {
      const { workspace } = setup(s, {
        turns: [
          {
            steps: [
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'read-outside',
                title: 'Read secret',
                kind: 'read',
                status: 'completed',
                locations: [{ path: outside, line: 3 }],
              }),
              { sleep: 1500 },
              // A location inside the workspace afterwards: proves follow-along is on and has run past the outside one.
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'read-inside',
                title: 'Read other',
                kind: 'read',
                status: 'completed',
                locations: [{ path: '${cwd}/src/other.ts', line: 1 }],
              }),
            ],
            stopReason: 'end_turn',
          },
        ],
      });
      const { chat, workbench } = await s.open(workspace);
      const page = workbench.page;
      const tabsSeen = await watchTabs(page);
      await chat.send('look around');
      assert.equal(await chat.waitForTurnEnd(1), 'end_turn');
      await waitUntil(async () => /^other\.ts\b/.test(await activeTab(page)), 'follow-along to open other.ts (inside the workspace)');

      const seen = await tabsSeen();
      assert.ok(
        seen.some((t) => t.startsWith('other.ts')),
        `the observer saw tabs: ${JSON.stringify(seen)}`,
      );
      assert.ok(!seen.some((t) => t.includes('secret.ts')), `secret.ts (outside) was never opened; tabs seen: ${JSON.stringify(seen)}`);
      // The card still shows the outside location, marked as such.
      const location = card(chat, 'read-outside').locator('.location.outside');
      await location.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match((await location.getAttribute('aria-label')) ?? '', /outside the workspace/);
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  },
  90_000,
);
