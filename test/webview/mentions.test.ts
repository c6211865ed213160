/**
 * Context in, on the composer side, in real Chromium: the `@` picker (query, grouped results,
 * keyboard, stale answers), chips (pick, remove, send, reload, host-added, held back), pasted and
 * dropped images and URIs, and chips in sent messages.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { MentionCandidate, MentionChip, WebviewMessage } from '../../src/protocol/messages';
import { ready, running, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';
import type { Panel } from './harness/harness';

const harness = useHarness();

const APP: MentionCandidate = {
  group: 'Files',
  spec: { kind: 'file', path: '/w/src/app.ts' },
  view: { kind: 'file', label: 'app.ts', detail: 'src/app.ts', uri: 'file:///w/src/app.ts', icon: 'file' },
};
const APPLY: MentionCandidate = {
  group: 'Files',
  spec: { kind: 'file', path: '/w/src/apply.ts' },
  view: { kind: 'file', label: 'apply.ts', detail: 'src/apply.ts', uri: 'file:///w/src/apply.ts', icon: 'file' },
};
const SYMBOL: MentionCandidate = {
  group: 'Symbols',
  spec: { kind: 'symbol', path: '/w/src/app.ts', name: 'App', range: { startLine: 10, endLine: 40 }, symbolKind: 'class' },
  view: {
    kind: 'symbol',
    label: 'App',
    detail: 'class in src/app.ts',
    uri: 'file:///w/src/app.ts',
    range: { startLine: 10, endLine: 40 },
    icon: 'symbol-class',
  },
};
const SELECTION: MentionChip = {
  spec: { kind: 'selection', path: '/w/src/app.ts', range: { startLine: 3, endLine: 7 } },
  view: {
    kind: 'selection',
    label: 'app.ts',
    detail: 'src/app.ts, lines 3-7',
    uri: 'file:///w/src/app.ts',
    range: { startLine: 3, endLine: 7 },
    icon: 'selection',
  },
};
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function open(extra: Parameters<typeof snapshot>[0] = {}): Promise<{ panel: Panel; page: Page; box: Locator; list: Locator; chips: Locator }> {
  const panel = await harness().open();
  await panel.post({ type: 'snapshot', snapshot: snapshot(extra) });
  const { page } = panel;
  return {
    panel,
    page,
    box: page.locator('textarea[aria-label="Message"]'),
    list: page.getByRole('listbox', { name: /^Mention/ }),
    chips: page.locator('.composer [data-mention-kind]'),
  };
}

/** Waits for the picker's query for `query` and returns its request id. */
async function queried(page: Page, query: string): Promise<number> {
  const handle = await page.waitForFunction(
    (q) => (window as unknown as { __posted: WebviewMessage[] }).__posted.filter((m) => m.type === 'mentionQuery' && m.query === q).at(-1),
    query,
  );
  const message = (await handle.jsonValue()) as { requestId: number };
  return message.requestId;
}

const optionLabels = (list: Locator): Promise<string[]> =>
  list.getByRole('option').evaluateAll((els) => els.map((e) => e.querySelector('.mention-option-label')?.textContent ?? ''));

/** Pastes files into the message box the way a clipboard paste arrives. */
async function paste(page: Page, files: Array<{ name: string; type: string; base64?: string; size?: number }>): Promise<void> {
  await page.locator('textarea[aria-label="Message"]').evaluate((box, list) => {
    const data = new DataTransfer();
    for (const f of list) {
      const bytes = f.base64 ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new Uint8Array(f.size ?? 0);
      data.items.add(new File([bytes], f.name, { type: f.type }));
    }
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, files);
}

test('@ asks the host, shows its grouped answer as a listbox; ↓ Enter picks a chip and removes the @query', async () => {
  const { panel, page, box, list, chips } = await open();
  await box.focus();
  await box.pressSequentially('look at @ap');
  const id = await queried(page, 'ap');
  assert.equal(await list.isHidden(), true, 'nothing listed before the host answers');
  await panel.post({ type: 'mentionResults', requestId: id, items: [APP, APPLY, SYMBOL] });
  assert.equal(await list.isVisible(), true);
  assert.match(String(await list.getAttribute('aria-label')), /^Mention/);
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.getAttribute('aria-controls'), await list.getAttribute('id'));
  assert.deepEqual(await list.getByRole('group').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['Files', 'Symbols']);
  assert.deepEqual(await list.getByRole('group', { name: 'Files' }).getByRole('option').count(), 2);
  assert.deepEqual(await optionLabels(list), ['app.ts', 'apply.ts', 'App']);
  assert.match(String(await list.locator('.mention-group-label').first().textContent()), /Files/);
  const selected = list.getByRole('option', { selected: true });
  assert.equal(await selected.count(), 1);
  assert.equal(await box.getAttribute('aria-activedescendant'), await selected.getAttribute('id'));

  await box.press('ArrowDown');
  assert.equal(await list.getByRole('option', { selected: true }).locator('.mention-option-label').textContent(), 'apply.ts');
  assert.equal(await box.getAttribute('aria-activedescendant'), await list.getByRole('option', { selected: true }).getAttribute('id'));
  await panel.clearPosted();
  await box.press('Enter');
  await panel.settle();
  assert.equal(await list.isHidden(), true);
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.equal(await box.inputValue(), 'look at ', 'the @query is gone');
  assert.equal(await chips.count(), 1);
  const chip = page.locator('.composer [data-mention-uri="file:///w/src/apply.ts"]');
  assert.equal(await chip.getAttribute('data-mention-kind'), 'file');
  assert.equal(await chip.locator('.codicon-file').count(), 1);
  assert.equal(await chip.getAttribute('title'), 'src/apply.ts');
  assert.deepEqual(
    (await panel.posted()).filter((m) => m.type === 'prompt'),
    [],
    'Enter picked; it did not send',
  );
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message', 'focus stayed in the message box');

  // End picks the last option, Tab picks too; the text around the @word stays, one space goes.
  await box.pressSequentially('@a and more');
  await panel.clearPosted();
  for (let i = 0; i < ' and more'.length; i++) await box.press('ArrowLeft');
  const again = await queried(page, 'a');
  await panel.post({ type: 'mentionResults', requestId: again, items: [APP, APPLY, SYMBOL] });
  await box.press('End');
  assert.equal(await list.getByRole('option', { selected: true }).locator('.mention-option-label').textContent(), 'App');
  await box.press('Home');
  assert.equal(await list.getByRole('option', { selected: true }).locator('.mention-option-label').textContent(), 'app.ts');
  await box.press('ArrowUp');
  assert.equal(await list.getByRole('option', { selected: true }).locator('.mention-option-label').textContent(), 'App', '↑ wraps');
  await box.press('Tab');
  assert.equal(await box.inputValue(), 'look at and more');
  assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-mention-kind'))), ['file', 'symbol']);

  // The mouse picks too, and picking the same place twice adds nothing.
  await box.press('End');
  await box.pressSequentially(' @app');
  const third = await queried(page, 'app');
  await panel.post({ type: 'mentionResults', requestId: third, items: [APPLY] });
  await list.getByRole('option').first().click();
  assert.equal(await chips.count(), 2, 'apply.ts was there already');
  assert.equal(await box.inputValue(), 'look at and more ');
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('answers to older queries are ignored; Escape closes the list and does nothing else', async () => {
  const { panel, page, box, list } = await open({ status: running });
  await box.focus();
  await box.pressSequentially('@a');
  const first = await queried(page, 'a');
  await box.pressSequentially('p');
  const second = await queried(page, 'ap');
  assert.ok(second > first);
  await panel.post({ type: 'mentionResults', requestId: first, items: [APP] });
  assert.equal(await list.isHidden(), true, 'the answer to "a" came after "ap" was asked');
  await panel.post({ type: 'mentionResults', requestId: second, items: [APPLY] });
  assert.deepEqual(await optionLabels(list), ['apply.ts']);
  await panel.post({ type: 'mentionResults', requestId: first, items: [APP, SYMBOL] });
  assert.deepEqual(await optionLabels(list), ['apply.ts'], 'a late stale answer does not replace the list');

  await panel.clearPosted();
  await box.press('Escape');
  assert.equal(await list.isHidden(), true);
  assert.equal(await box.inputValue(), '@ap');
  assert.deepEqual(await panel.posted(), [], 'no cancel, no query: the agent keeps working');
  await panel.post({ type: 'mentionResults', requestId: second, items: [APPLY] });
  assert.equal(await list.isHidden(), true, 'stays closed');
  // Typing on asks again; an empty answer says so and Enter then sends as usual.
  await box.pressSequentially('x');
  const third = await queried(page, 'apx');
  await panel.post({ type: 'mentionResults', requestId: third, items: [] });
  assert.match(String(await list.textContent()), /No matches/);
  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: '@apx', conversationId: 'c1' }]);
  // An e-mail address is not a mention. A fake clock runs past the picker's query delay: a query
  // that had been scheduled would be posted by then.
  await page.clock.install();
  await box.pressSequentially('me@example');
  await page.clock.runFor(1000);
  assert.equal((await panel.posted()).filter((m) => m.type === 'mentionQuery').length, 0);
  await page.close();
});

test('chips: Backspace at the start removes the last one, × removes one, Send posts their specs and clears them', async () => {
  const { panel, page, box, chips } = await open();
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [APP, SYMBOL, SELECTION].map(({ spec, view }) => ({ spec, view })) });
  assert.equal(await chips.count(), 3);
  assert.match(String(await chips.nth(2).textContent()), /app\.ts:3-7/, 'a selection shows its range');
  await box.fill('explain');
  await box.press('End');
  await box.press('Backspace');
  assert.equal(await box.inputValue(), 'explai', 'with text before the caret Backspace deletes text');
  await box.press('Home');
  await box.press('Backspace');
  assert.equal(await chips.count(), 2, 'at the start it removes the last chip');
  assert.equal(await box.inputValue(), 'explai');
  await page.getByRole('button', { name: 'Remove app.ts', exact: true }).click();
  assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-mention-kind'))), ['symbol']);

  // Keyboard on the chips themselves: one tab stop, Delete removes, focus goes back to the box.
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [{ spec: APP.spec, view: APP.view }] });
  await box.focus();
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-mention-uri')), 'file:///w/src/app.ts', 'Shift+Tab reaches the last chip');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-mention-kind')), 'symbol');
  await page.keyboard.press('Delete');
  assert.equal(await chips.count(), 1);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-mention-uri')), 'file:///w/src/app.ts', 'focus went to the neighbour');
  await page.keyboard.press('Backspace');
  assert.equal(await chips.count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');

  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [{ spec: APP.spec, view: APP.view }, SELECTION] });
  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: 'explai', mentions: [APP.spec, SELECTION.spec], conversationId: 'c1' }]);
  assert.equal(await chips.count(), 0);
  assert.equal(await box.inputValue(), '');
  assert.equal(
    await page.evaluate(() => JSON.stringify(JSON.parse(sessionStorage.getItem('tandem-harness-state') ?? '{}').chips)),
    '{}',
    'the persisted copy went too',
  );

  // Chips alone make a prompt; no chips, no `mentions`.
  const send = page.getByRole('button', { name: 'Send' });
  assert.equal(await send.isDisabled(), true);
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [SELECTION] });
  assert.equal(await send.isDisabled(), false);
  await panel.clearPosted();
  await send.click();
  await box.fill('plain');
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [
    { type: 'prompt', text: '', mentions: [SELECTION.spec], conversationId: 'c1' },
    { type: 'prompt', text: 'plain', conversationId: 'c1' },
  ]);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('chips survive a reload (pasted images within the state budget); another tab has its own chips', async () => {
  const { panel, page, box, chips } = await open();
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [SELECTION] });
  await paste(page, [{ name: 'small.png', type: 'image/png', base64: PNG }]);
  // About 2.7 MB of base64: kept on screen, too big for the saved state.
  await paste(page, [{ name: 'big.png', type: 'image/png', size: 2 * 1024 * 1024 }]);
  await page.waitForFunction(() => document.querySelectorAll('.composer [data-mention-kind="image"]').length === 2);
  await box.fill('draft');

  await panel.post({ type: 'conversationShown', conversation: { conversationId: 'c2', title: 'Other', status: ready, entries: [], terminals: {} } });
  assert.equal(await chips.count(), 0, 'the other conversation has no chips');
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [{ spec: APP.spec, view: APP.view }] });
  assert.equal(await chips.count(), 0, 'chips for c1 are not added to c2');
  await panel.post({
    type: 'conversationShown',
    conversation: { conversationId: 'c1', title: 'Test conversation', status: ready, entries: [], terminals: {} },
  });
  assert.deepEqual(
    await chips.evaluateAll((els) => els.map((e) => e.querySelector('.mention-label')?.textContent)),
    ['app.ts:3-7', 'small.png', 'big.png'],
    'a tab switch keeps even the big image',
  );

  await page.waitForTimeout(200);
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
  await panel.post({ type: 'snapshot', snapshot: snapshot() });
  assert.equal(await box.inputValue(), 'draft');
  assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.querySelector('.mention-label')?.textContent)), ['app.ts:3-7', 'small.png']);
  assert.equal(await page.locator('.composer [data-mention-uri="file:///w/src/app.ts"]').count(), 1);
  await panel.clearPosted();
  await box.press('Enter');
  const [prompt] = await panel.posted();
  assert.equal(prompt.type === 'prompt' && prompt.mentions?.length, 2);
  assert.deepEqual(prompt.type === 'prompt' && prompt.mentions?.[1], { kind: 'image', name: 'small.png', mimeType: 'image/png', data: PNG });
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('pasting images: a chip with a thumbnail; too big or not an image is refused with a message', async () => {
  const { panel, page, box, chips } = await open();
  await box.fill('see');
  await paste(page, [{ name: 'shot.png', type: 'image/png', base64: PNG }]);
  const image = page.locator('.composer [data-mention-kind="image"]');
  await image.waitFor();
  assert.equal(await image.getAttribute('data-mention-uri'), null, 'a pasted image points nowhere');
  assert.equal(await image.locator('.mention-label').textContent(), 'shot.png');
  const thumb = image.locator('img.mention-thumb');
  assert.equal(await thumb.getAttribute('src'), `data:image/png;base64,${PNG}`);
  await page.waitForFunction(() => (document.querySelector('img.mention-thumb') as HTMLImageElement | null)?.naturalWidth === 1);
  assert.equal(await box.inputValue(), 'see', 'nothing pasted as text');

  await paste(page, [{ name: 'huge.png', type: 'image/png', size: 6 * 1024 * 1024 }]);
  const message = page.locator('.composer [role="status"]');
  await page.waitForFunction(() => /huge\.png/.test(document.querySelector('.composer-message')?.textContent ?? ''));
  assert.match(String(await message.textContent()), /huge\.png was not added.*6\.0 MB.*5\.0 MB/);
  await paste(page, [{ name: 'notes.pdf', type: 'application/pdf', size: 10 }]);
  await page.waitForFunction(() => /notes\.pdf/.test(document.querySelector('.composer-message')?.textContent ?? ''));
  assert.match(String(await message.textContent()), /only PNG, JPEG, GIF and WebP/);
  assert.equal(await chips.count(), 1);

  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [
    { type: 'prompt', text: 'see', mentions: [{ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: PNG }], conversationId: 'c1' },
  ]);
  assert.deepEqual(await panel.violations(), []);
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('an agent that takes no images: the composer says so and the image is left out of the prompt', async () => {
  const { panel, page, box } = await open({ promptCapabilities: { image: false, audio: false, embeddedContext: true } });
  const warning = page.locator('.composer-warning');
  assert.equal(await warning.isHidden(), true, 'nothing to say before an image is added');
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [SELECTION] });
  await paste(page, [{ name: 'shot.png', type: 'image/png', base64: PNG }]);
  const image = page.locator('.composer [data-mention-kind="image"]');
  await image.waitFor();
  assert.equal(await image.getAttribute('data-unsupported'), '');
  assert.match(String(await image.getAttribute('title')), /does not accept images/);
  assert.match(String(await warning.textContent()), /does not accept images/);
  await box.fill('look');
  await panel.clearPosted();
  await box.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'prompt', text: 'look', mentions: [SELECTION.spec], conversationId: 'c1' }]);
  assert.equal(await warning.isHidden(), true);

  // Only held-back chips and no text: nothing to send. Capabilities arriving later re-mark the chip.
  await paste(page, [{ name: 'again.png', type: 'image/png', base64: PNG }]);
  await image.waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), true);
  await panel.post({ type: 'promptCapabilitiesChanged', promptCapabilities: { image: true, audio: false, embeddedContext: true } });
  assert.equal(await image.getAttribute('data-unsupported'), null);
  assert.equal(await warning.isHidden(), true);
  assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), false);
  await page.close();
});

test('dropping files or editor tabs posts their URIs; the composer is highlighted while dragging over it', async () => {
  const { panel, page } = await open();
  const composer = page.locator('.composer');
  await panel.clearPosted();
  await composer.evaluate((el) => {
    const data = new DataTransfer();
    data.setData('text/uri-list', '# a comment\r\nfile:///w/src/app.ts\r\nfile:///w/README.md');
    el.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  assert.equal(await composer.evaluate((el) => el.classList.contains('drop-target')), true);
  await composer.evaluate((el) => {
    const data = new DataTransfer();
    data.setData('application/vnd.code.uri-list', 'file:///w/src/app.ts');
    data.setData('text/uri-list', '# a comment\r\nfile:///w/src/app.ts\r\nfile:///w/README.md');
    data.setData('resourceurls', JSON.stringify(['file:///w/docs']));
    el.querySelector('textarea')?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  assert.equal(await composer.evaluate((el) => el.classList.contains('drop-target')), false);
  assert.deepEqual(await panel.posted(), [{ type: 'dropUris', uris: ['file:///w/src/app.ts', 'file:///w/README.md', 'file:///w/docs'], conversationId: 'c1' }]);

  // The host answers with chips for the shown conversation only.
  await panel.post({ type: 'mentionsAdded', conversationId: 'c2', chips: [{ spec: APP.spec, view: APP.view }] });
  assert.equal(await page.locator('.composer [data-mention-uri]').count(), 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await panel.post({
    type: 'mentionsAdded',
    conversationId: 'c1',
    chips: [
      { spec: APP.spec, view: APP.view },
      { spec: APP.spec, view: APP.view },
    ],
  });
  assert.equal(await page.locator('.composer [data-mention-uri="file:///w/src/app.ts"]').count(), 1, 'no duplicates');
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'focus not taken');
  await panel.post({ type: 'mentionsAdded', conversationId: 'c1', chips: [SELECTION] });
  assert.equal(await page.locator('.composer [data-mention-uri="file:///w/src/app.ts"]').count(), 2, 'same file, another range: a chip of its own');
  // A chip opens what it points at, at its first line.
  await panel.clearPosted();
  await page.locator('.composer [data-mention-kind="selection"] .mention-label').click();
  assert.deepEqual(await panel.posted(), [{ type: 'openMention', uri: 'file:///w/src/app.ts', line: 3 }]);

  // A dropped image file (from outside VS Code) becomes an image chip.
  await composer.evaluate((el, png) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], 'drop.png', { type: 'image/png' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, PNG);
  await page.locator('.composer [data-mention-kind="image"] img').waitFor();
  assert.deepEqual(panel.errors, []);
  await page.close();
});

test('a sent message shows its chips and context notes; a click opens the place', async () => {
  const { panel, page } = await open({
    entries: [
      {
        kind: 'user',
        id: 'u1',
        text: 'explain these',
        mentions: [SYMBOL.view, APP.view, { kind: 'image', label: 'shot.png', icon: 'file-media' }],
        contextNotes: ['src/big.ts was cut to its first 200 KB'],
      },
    ],
  });
  const entry = page.locator('[data-entry-kind="user"]');
  assert.equal(await entry.locator('[data-mention-kind]').count(), 3);
  assert.equal(await entry.locator('[data-mention-uri]').count(), 2);
  assert.equal(await entry.locator('[data-mention-kind="image"]').getAttribute('data-mention-uri'), null);
  assert.match(String(await entry.locator('.context-notes').textContent()), /cut to its first 200 KB/);
  await panel.clearPosted();
  await entry.locator('[data-mention-kind="symbol"]').click();
  await entry.locator('[data-mention-kind="file"]').click();
  await entry.locator('[data-mention-kind="image"]').click();
  assert.deepEqual(await panel.posted(), [
    { type: 'openMention', uri: 'file:///w/src/app.ts', line: 10 },
    { type: 'openMention', uri: 'file:///w/src/app.ts' },
  ]);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
