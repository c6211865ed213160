/**
 * The panel in VS Code's Simplified Chinese, in real Chromium: the page gets the zh-cn bundle the
 * host writes into it, every label and accessible name of the panel's own chrome is the bundle's
 * Chinese (looked up here by its English key), numbers are written by Intl in zh-CN, and a scan of
 * what the panel shows and names finds no English of its own. What the agent or the user wrote
 * (messages, tool titles, paths, command lines, option names) stays as it came: the fixtures register
 * it with `given`, and the scan leaves it out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as l10n from '@vscode/l10n';
import type { Page } from 'playwright-core';
import type { WebviewMessage } from '../../src/protocol/messages';
import { setDisplayLanguage } from '../../src/protocol/displayLanguage';
import { chineseSession, composerChips, given, otherStates, said } from './harness/chineseFixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';
import { untranslatedText } from './harness/uiText';

const harness = useHarness();
const BUNDLE = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

// The fixtures call the host's own functions for the texts the host writes (rule labels, start
// failures, turn usage): in this process they speak Chinese, as the host does under zh-cn.
before(() => {
  l10n.config({ contents: BUNDLE });
  setDisplayLanguage('zh-cn');
});
after(() => {
  l10n.config({ contents: {} });
  setDisplayLanguage('en');
});

/** The bundle's Chinese for an English panel string, placeholders filled; fails when it has none. */
function zh(key: string, ...args: Array<string | number>): string {
  const message = BUNDLE[key];
  assert.ok(typeof message === 'string', `l10n/bundle.l10n.zh-cn.json translates "${key}"`);
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

/** The panel as VS Code in Simplified Chinese serves it: the zh-cn bundle in the page. */
function openChinese(): Promise<Panel> {
  return harness().open({ language: 'zh-cn', height: 1200 });
}

/** Waits until every entry of the posted thread is built, then opens what is collapsed so the scan sees it. */
async function builtAndOpened(panel: Panel): Promise<void> {
  const { page } = panel;
  await page.waitForFunction(() => !document.querySelector('[role="log"]')?.hasAttribute('aria-busy') && document.querySelector('.entry-placeholder') === null);
  for (const details of await page.locator('details').all()) await details.evaluate((d) => ((d as HTMLDetailsElement).open = true));
  const files = page.locator('.changed-summary button[aria-expanded="false"]');
  if ((await files.count()) > 0 && (await files.isVisible())) await files.click();
  await panel.settle();
}

/** The id of the panel's latest `@` query for `query`. */
async function mentionQuery(page: Page, query: string): Promise<number> {
  const handle = await page.waitForFunction(
    (q) => (window as unknown as { __posted: WebviewMessage[] }).__posted.filter((m) => m.type === 'mentionQuery' && m.query === q).at(-1),
    query,
  );
  return ((await handle.jsonValue()) as { requestId: number }).requestId;
}

/** The cost the usage meter shows, as Intl writes it in zh-CN ("US$1.50"): a format, not English. */
const COST = new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 }).format(1.5);

/**
 * Translations that keep ASCII punctuation on purpose (VS Code's own Chinese command names such as
 * "开发人员: 重新加载窗口", key hints such as "(Enter)"): their literal parts are the translator's.
 */
const TRANSLATOR_PUNCTUATION = Object.values(BUNDLE)
  .filter((t) => /[\u3400-\u9fff] ?[,:;!?()]|[,:;!?()] ?[\u3400-\u9fff]/.test(t))
  .flatMap((t) => t.split(/\{\d+\}/))
  .filter((part) => part.trim() !== '');

/** What the scan found, one line each, for a readable failure. */
async function leftovers(page: Page): Promise<string[]> {
  const found = await untranslatedText(page, [...given(), COST, ...TRANSLATOR_PUNCTUATION], ALLOWED);
  return found.map((l) => `${l.where}: ${JSON.stringify(l.text)} (${[...l.words, ...l.marks.map((m) => JSON.stringify(m))].join(', ')})`);
}

/**
 * Latin words the Chinese bundle keeps on purpose (the product name, key names, VS Code, technical
 * terms, file formats); each must occur in some translation of the bundle, so nothing can be waved
 * through here.
 */
const KEPT = [
  'Tandem',
  'VS',
  'Code',
  'Enter',
  'Shift',
  'Esc',
  'API',
  'token',
  'URL',
  'id',
  'Git',
  'PNG',
  'JPEG',
  'GIF',
  'WebP',
  'WAV',
  'MP',
  'OGG',
  'WebM',
  'FLAC',
  'Markdown',
];
/** Units the panel writes the same in every language (see formatBytes in src/protocol/displayLanguage.ts). */
const UNITS = ['MB', 'KB'];
const ALLOWED = [...KEPT, ...UNITS];

test('every Latin word the scan allows is one the Chinese bundle itself uses', () => {
  // Words as the scan sees them: runs of two or more Latin letters ("MP3" gives "MP").
  const used = new Set(Object.values(BUNDLE).flatMap((t) => t.match(/[A-Za-z]{2,}/g) ?? []));
  for (const word of KEPT) assert.ok(used.has(word), word);
});

test('the scan is not blind: on the same panel in English it finds the chrome and only the chrome', async () => {
  const panel = await harness().open({ height: 1200 });
  const { page } = panel;
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await panel.post({ type: 'snapshot', snapshot: chineseSession() });
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: composerChips() });
  await builtAndOpened(panel);
  const found = await untranslatedText(page, [...given(), COST, ...TRANSLATOR_PUNCTUATION], ALLOWED);
  const texts = new Set(found.map((l) => l.text));
  const chrome = [
    'Conversations',
    'Agent',
    'Context used',
    'Session options',
    'History',
    'Plan',
    'Thought',
    'Details',
    'Open diff',
    'The agent asks for permission',
    'Open in terminal',
    'Save allow rule',
    'Retry',
    'Check agent',
    'Choose…',
    'Accept',
    'Queued prompts',
    'Keep all',
    'Message',
    'Send',
    'Stop',
  ];
  for (const label of chrome) assert.ok(texts.has(label), `the scan reports "${label}"`);
  // Nothing the agent or the user wrote is reported: every report has a word of the panel's own.
  const agentOnly = found.filter((l) => given().includes(l.text));
  assert.deepEqual(agentOnly, []);
  await page.close();
});

test('zh-cn: <html lang>, Chinese labels and accessible names across the panel, and no English of its own', async () => {
  const panel = await openChinese();
  const { page } = panel;
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-cn');
  // Before the host's snapshot: "Connecting…" and the empty thread.
  assert.equal(await page.getByRole('status').first().textContent(), zh('Connecting…'));
  assert.equal(await page.locator('.thread-empty').textContent(), zh('Ask the agent something to start.'));
  assert.deepEqual(await leftovers(page), [], 'no English before the snapshot');
  await panel.post({ type: 'snapshot', snapshot: chineseSession() });
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: composerChips() });
  await builtAndOpened(panel);

  // Header: agent picker, status, pickers, options menu, usage meter, history; the tabs above it.
  assert.equal(await page.locator('select.agent-picker').getAttribute('aria-label'), zh('Agent'));
  assert.deepEqual(await page.locator('select.agent-picker option').allTextContents(), ['Claude Code', zh('{0} (built in)', 'Tandem Demo')]);
  // A narrow header shows only the state (the agent picker names the agent); the whole sentence is
  // its tooltip and what a screen reader reads.
  const status = page.getByRole('status').first();
  const onScreen =
    (await status.locator('[aria-hidden="true"]').count()) > 0 ? await status.locator('[aria-hidden="true"]').textContent() : await status.textContent();
  assert.ok([zh('{0} working…', 'Claude Code'), zh('working…')].includes(onScreen ?? ''));
  assert.ok((await status.textContent())?.includes(zh('{0} working…', 'Claude Code')));
  assert.equal(await page.getByRole('status').first().getAttribute('title'), zh('{0} working…', 'Claude Code'));
  assert.equal(await page.getByRole('button', { name: zh('History') }).getAttribute('title'), zh('Conversation history'));
  const menuButton = page.getByRole('button', { name: zh('Session options') });
  assert.equal(await menuButton.getAttribute('title'), zh('More session options'));
  await menuButton.click();
  assert.equal(await page.getByRole('group', { name: zh('Session options') }).isVisible(), true);
  assert.equal(await page.getByRole('tablist').getAttribute('aria-label'), zh('Conversations'));
  assert.equal(await page.getByRole('tab').nth(0).getAttribute('aria-label'), zh('{0}, {1}', zh('{0} — {1}', '修复登录测试', 'Claude Code'), zh('working')));
  assert.equal(
    await page.getByRole('tab').nth(1).getAttribute('aria-label'),
    zh('{0}, {1}', zh('{0} — {1}', 'Refactor the parser', 'Tandem Demo'), zh('waits for your permission')),
  );
  assert.equal(await page.getByRole('button', { name: zh('New conversation') }).count(), 1);
  assert.equal(await page.getByRole('button', { name: zh('{0} waiting for you', 1) }).count(), 1);

  // Composer: box, placeholder, buttons, the held-back image chip.
  const box = page.getByRole('combobox', { name: zh('Message'), exact: true });
  assert.equal(await box.getAttribute('placeholder'), zh('Ask the agent… (@ to add context, Enter to send, Shift+Enter for a new line)'));
  assert.equal(
    await page.getByRole('button', { name: zh('Send'), exact: true }).getAttribute('title'),
    zh('Send (Enter); while the agent works, the prompt is queued'),
  );
  assert.equal(await page.getByRole('button', { name: zh('Stop'), exact: true }).getAttribute('title'), zh('Stop the agent (Esc)'));
  assert.equal(await page.getByRole('list', { name: zh('Context for the next message') }).isVisible(), true);
  assert.equal((await page.locator('.composer-warning').textContent())?.trim(), zh('The agent does not accept images: image chips will not be sent.'));
  assert.equal(await page.getByRole('button', { name: zh('Remove {0}', 'screenshot.png') }).count(), 1);

  // Queue and changed files.
  const queue = page.getByRole('region', { name: zh('Queued prompts') });
  assert.equal(await queue.locator('.queue-reason').textContent(), zh('{0} waiting: {1}', 2, zh('sent when the current turn ends')));
  assert.equal(await queue.getByRole('article', { name: zh('Queued prompt {0} of {1}', 1, 2) }).count(), 1);
  for (const name of ['Send now', 'Edit', 'Move up', 'Move down', 'Remove']) assert.equal(await queue.getByRole('button', { name: zh(name) }).count(), 2, name);
  const changed = page.getByRole('region', { name: zh('Files changed in this conversation') });
  assert.match(String(await changed.locator('.changed-counts').first().textContent()), new RegExp(`^${zh('{0} files changed', 2)} `));
  assert.equal(await changed.getByRole('button', { name: zh('Hide the changed files') }).getAttribute('aria-expanded'), 'true', 'opened by builtAndOpened');
  assert.equal(await changed.getByRole('button', { name: zh('Keep {0}', 'src/login.ts') }).count(), 1);
  assert.equal(await changed.getByRole('button', { name: zh('Keep the change at {0}', zh('lines {0}–{1}', 40, 44)) }).count(), 1);

  // The thread: messages, tool cards (permission, diff, terminal, rule form), error, sign-in, question.
  assert.equal(await page.getByRole('log').getAttribute('aria-label'), zh('Conversation: {0}', '修复登录测试'));
  assert.equal(await page.getByRole('article', { name: zh('You') }).count(), 1);
  assert.equal(await page.getByRole('button', { name: zh('Restore files to before this turn') }).count(), 1);
  const edit = page.locator('[data-tool-call-id="call-edit"]');
  assert.equal(await edit.getAttribute('aria-label'), zh('{0} ({1})', 'Edit src/login.ts', zh('Pending')));
  const prompt = page.getByRole('group', { name: zh('Permission: {0}', 'Edit src/login.ts') });
  assert.equal((await prompt.locator('.permission-question').textContent())?.trim(), zh('The agent asks for permission'));
  assert.equal(await prompt.locator('[data-option-kind="allow_always"]').getAttribute('aria-label'), zh('{0} (a standing answer)', 'Always Allow'));
  const diff = edit.getByRole('region', { name: zh('Diff of {0}', '/w/src/login.ts') });
  assert.equal(await diff.getByRole('button', { name: zh('Open diff') }).count(), 1);
  assert.equal(await diff.getByRole('button', { name: zh('Show {0} unchanged lines', 37) }).count(), 1);
  assert.equal(await diff.getByRole('button', { name: zh('Show {0} more of {1} unchanged lines', 50, 70) }).count(), 1);
  assert.deepEqual(await diff.locator('.diff-note').evaluateAll((ns) => ns.map((n) => n.getAttribute('title'))), [
    zh('This line is longer than shown: Open diff shows it whole'),
    zh('No newline at end of file'),
  ]);
  assert.match(
    String(
      await edit
        .getByRole('region', { name: zh('Diff of {0}', '/w/src/new.ts') })
        .locator('.diff-new-file')
        .textContent(),
    ),
    new RegExp(zh('New file')),
  );
  const term = page.getByRole('region', { name: zh('Terminal') });
  assert.equal(await term.locator('.terminal-status').textContent(), zh('Exited with code {0}', 1));
  assert.equal(await term.getByRole('button', { name: zh('Open in terminal') }).count(), 1);
  assert.equal(
    await page
      .getByRole('group', { name: zh('Save a permission rule') })
      .getByRole('combobox', { name: zh('Rule applies in') })
      .inputValue(),
    'workspace',
  );
  assert.equal(await page.getByRole('button', { name: zh('Retry') }).count(), 1);
  assert.equal(await page.getByRole('button', { name: zh('Check agent') }).count(), 1);
  assert.match(String(await page.locator('[data-entry-kind="auth"] .auth-title').textContent()), new RegExp(zh('{0} needs you to sign in', 'Claude Code')));
  const form = page.locator('[data-entry-kind="question"] .question-form');
  for (const name of ['Accept', 'Decline', 'Cancel']) assert.equal(await form.getByRole('button', { name: zh(name) }).count(), 1, name);
  assert.deepEqual(await form.locator('select').evaluateAll((ss) => ss.map((s) => (s as HTMLSelectElement).options[0].text)), [zh('Choose…'), zh('(none)')]);

  assert.equal(await page.locator('[data-entry-kind="tool_call"]').first().getAttribute('aria-label'), zh('{0} ({1})', 'Read src/login.ts', zh('Completed')));
  assert.equal(await page.locator('.composer [data-mention-kind="file"]').getAttribute('aria-label'), zh('{0}, {1}', 'login.ts', zh('file')));
  assert.deepEqual(await leftovers(page), [], "no English of the panel's own");

  // What the user opens: a collapsed diff region whose lines do not come back, a queued prompt in
  // edit, a file the composer refuses, the `/` list, and the `@` list with and without results.
  await diff.getByRole('button', { name: zh('Show {0} unchanged lines', 37) }).click();
  const fetch = await page.waitForFunction(() => (window as unknown as { __posted: WebviewMessage[] }).__posted.find((m) => m.type === 'fetchDiffLines'));
  await panel.post({ type: 'diffLines', requestId: ((await fetch.jsonValue()) as { requestId: number }).requestId, lines: [], oldLine: 0, newLine: 0 });
  assert.equal((await diff.locator('.diff-gap-error').textContent())?.trim(), zh('These lines cannot be shown: {0}', zh('none came back.')));
  await queue
    .getByRole('button', { name: zh('Edit') })
    .first()
    .click();
  assert.equal(await queue.getByRole('textbox', { name: zh('Edit the queued prompt') }).count(), 1);
  await box.evaluate((el, name) => {
    const data = new DataTransfer();
    data.items.add(new File(['x'], name, { type: 'text/plain' }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, said('notes.txt'));
  assert.match(
    String(await page.locator('.composer-message').textContent()),
    new RegExp(
      zh('{0} was not added: only PNG, JPEG, GIF and WebP images (or WAV, MP3, OGG, WebM, FLAC audio) can be attached.', 'notes.txt').replace(
        /[.*+?^${}()|[\]\\]/g,
        '\\$&',
      ),
    ),
  );
  await box.fill('/');
  assert.equal(await page.getByRole('listbox', { name: zh('Slash commands') }).isVisible(), true);
  assert.deepEqual(await leftovers(page), [], 'no English with the queue in edit, a refused paste and the slash commands');
  await box.fill('');
  await box.focus();
  await box.pressSequentially('@lo');
  await panel.post({
    type: 'mentionResults',
    requestId: await mentionQuery(page, 'lo'),
    items: [
      { ...composerChips()[0], group: l10n.t('Files') },
      { spec: { kind: 'gitDiff' }, view: { kind: 'gitDiff', label: l10n.t('Git diff'), icon: 'git-compare' }, group: '' },
    ],
  });
  const suggestions = page.getByRole('listbox', { name: zh('Mention suggestions') });
  assert.deepEqual(await suggestions.getByRole('group').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label'))), [zh('Files'), zh('Other')]);
  assert.deepEqual(await leftovers(page), [], 'no English with the @ list open');
  await box.pressSequentially('zzz');
  await panel.post({ type: 'mentionResults', requestId: await mentionQuery(page, 'lozzz'), items: [] });
  assert.equal(await suggestions.textContent(), zh('No matches'));
  assert.deepEqual(await leftovers(page), [], 'no English with an empty @ list');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('zh-cn: numbers are Intl zh-CN (the usage meter, a diff too large to show)', async () => {
  const panel = await openChinese();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: chineseSession() });
  await builtAndOpened(panel);
  const money = COST;
  assert.notEqual(
    money,
    new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 }).format(1.5),
    'the check tells the languages apart',
  );
  const percent = new Intl.NumberFormat('zh-CN', { style: 'percent' }).format(0.85);
  const meter = page.getByRole('meter', { name: zh('Context used') });
  assert.equal(await meter.textContent(), `${zh('Context {0} · {1} / {2}', percent, '170k', '200k')} · ${money}`);
  const thousands = (n: number) => new Intl.NumberFormat('zh-CN').format(n);
  assert.equal(
    await meter.getAttribute('title'),
    [
      zh("The agent's context holds {0} of {1} tokens ({2}).", thousands(170_000), thousands(200_000), percent),
      zh('Cost so far: {0}.', money),
      zh('When it is full the agent forgets or compacts earlier parts of the conversation.'),
    ].join(' '),
  );
  const mb = (bytes: number) => `${new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 1 }).format(bytes / (1024 * 1024))} MB`;
  assert.equal(
    (await page.locator('.diff-too-large').textContent())?.trim(),
    zh('This file is {0}, over the {1} limit for diffs shown here. Open diff shows it in the editor.', mb(7_654_321), mb(5 * 1024 * 1024)),
  );
  await page.close();
});

test('zh-cn: the other states say it in Chinese too (no agent, untrusted, paused queue, starting, rules, answers, progress, stopped, version notice)', async () => {
  const panel = await openChinese();
  const { page } = panel;
  for (const state of otherStates()) {
    await panel.post({ type: 'snapshot', snapshot: state.snapshot });
    await builtAndOpened(panel);
    const shown = await page.evaluate(() => {
      const root = document.getElementById('root')!;
      const attributes = [...root.querySelectorAll('*')].flatMap((el) => ['aria-label', 'title'].map((a) => el.getAttribute(a) ?? ''));
      return [root.innerText, ...attributes].join('\n');
    });
    for (const text of state.says(zh)) assert.ok(shown.includes(text), `${state.name}: the panel says ${JSON.stringify(text)}`);
    assert.deepEqual(await leftovers(page), [], `no English of the panel's own: ${state.name}`);
  }
  await panel.post({ type: 'versionMismatch', hostVersion: 99, panelVersion: 1 });
  assert.equal(await page.getByRole('button', { name: zh('Reload') }).count(), 1);
  assert.deepEqual(await leftovers(page), [], 'no English in the version notice');
  assert.deepEqual(panel.errors, []);
  await page.close();
});
