/**
 * The changed-files strip in real Chromium when a file changed outside the agent: the summary counts
 * only the agent's files and says how many changed outside it; the row of such a file is marked
 * (`data-outside`, a label in words); Keep all and Undo all name only the agent's files, while the
 * file's own Undo still acts on it; with only outside files, Keep all and Undo all are off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangedFileView, WebviewMessage } from '../../src/protocol/messages';
import { snapshot } from './harness/fixtures';
import { useHarness, type Panel } from './harness/harness';

const harness = useHarness();

const file = (relPath: string, overrides: Partial<ChangedFileView> = {}): ChangedFileView => ({
  path: `/w/${relPath}`,
  relPath,
  status: 'modified',
  added: 3,
  removed: 1,
  binary: false,
  restorable: true,
  ...overrides,
});

async function posted<T extends WebviewMessage['type']>(panel: Panel, type: T): Promise<Array<Extract<WebviewMessage, { type: T }>>> {
  return (await panel.posted()).filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type);
}

test('a file changed outside the agent is marked, not counted, and left out of Keep all / Undo all; its own Undo acts on it', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const files = [file('src/app.ts'), file('tandem-export.jsonl', { status: 'added', added: 18, removed: 0, outside: true })];
  await panel.post({ type: 'snapshot', snapshot: snapshot({ review: { files } }) });
  const strip = page.getByRole('region', { name: 'Files changed in this conversation' });
  const summary = strip.locator('.changed-summary');
  await summary.waitFor();
  const text = (await summary.textContent()) ?? '';
  assert.match(text, /1 file changed \+3 −1/, 'the outside file is not counted');
  assert.match(text, /1 file changed outside the agent/);

  await strip.getByRole('button', { name: 'Show the changed files' }).click();
  const outside = strip.locator('li[data-path="/w/tandem-export.jsonl"]');
  assert.equal(await outside.getAttribute('data-outside'), 'true');
  assert.match((await outside.textContent()) ?? '', /changed outside the agent/);
  assert.equal(await strip.locator('li[data-path="/w/src/app.ts"]').getAttribute('data-outside'), null, "the agent's file is not marked");
  assert.equal(await strip.locator('[data-outside="true"]').count(), 1);

  await panel.clearPosted();
  await strip.getByRole('button', { name: 'Undo all' }).click();
  await strip.getByRole('button', { name: 'Keep all' }).click();
  assert.deepEqual(
    (await posted(panel, 'reviewUndo')).map((m) => m.paths),
    [['/w/src/app.ts']],
    'Undo all names only the agent’s file',
  );
  assert.deepEqual(
    (await posted(panel, 'reviewKeep')).map((m) => m.paths),
    [['/w/src/app.ts']],
    'Keep all names only the agent’s file',
  );
  assert.match((await strip.getByRole('button', { name: 'Undo all' }).getAttribute('title')) ?? '', /Files changed outside the agent stay as they are/);

  await panel.clearPosted();
  await outside.getByRole('button', { name: 'Undo tandem-export.jsonl' }).click();
  assert.deepEqual(
    (await posted(panel, 'reviewUndo')).map((m) => m.paths),
    [['/w/tandem-export.jsonl']],
    'chosen by itself, it can be undone',
  );

  // Only outside files left: nothing for "all" to act on.
  await panel.post({ type: 'reviewChanged', conversationId: 'c1', review: { files: [files[1]] } });
  await page.waitForFunction(() => document.querySelectorAll('.changed-file').length === 1);
  assert.equal(await strip.getByRole('button', { name: 'Undo all' }).isDisabled(), true);
  assert.equal(await strip.getByRole('button', { name: 'Keep all' }).isDisabled(), true);
  assert.equal((await summary.textContent())?.includes('files changed +'), false);
  assert.match((await summary.textContent()) ?? '', /1 file changed outside the agent/);
});
