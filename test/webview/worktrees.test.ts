/**
 * Worktrees and review notes in the panel, in real Chromium: the worktree bar (branch, what is not
 * applied, its actions, busy and missing states), the branch on the tab and in the header, the
 * "new conversation in a worktree" button with the reason it is off, and review notes written on a
 * strip hunk and on a card's diff (lines picked by click, sent to the host with the hunk), listed
 * under the hunk, gathered in the composer's chip and shown resolved once sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReviewNoteView, WebviewMessage, WorktreeView } from '../../src/protocol/messages';
import { DiffRecord } from '../../src/thread/diffContent';
import { snapshot, toolCall } from './harness/fixtures';
import { useHarness, type Panel } from './harness/harness';

const harness = useHarness();

const WORKTREE: WorktreeView = { branch: 'tandem/fix-login', path: '/wt/fix-login', base: 'abc1234', state: 'ready', unapplied: 2, commits: 1 };

async function posted<T extends WebviewMessage['type']>(panel: Panel, type: T): Promise<Array<Extract<WebviewMessage, { type: T }>>> {
  return (await panel.posted()).filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type);
}

const note = (overrides: Partial<ReviewNoteView> = {}): ReviewNoteView => ({
  id: 'n1',
  path: '/wt/fix-login/f.txt',
  relPath: 'f.txt',
  startLine: 3,
  endLine: 3,
  text: 'call it total',
  state: 'pending',
  ...overrides,
});

test('worktree bar: branch, counts and actions; busy and missing states; the branch on the tab and in the header', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      worktree: WORKTREE,
      tabs: [{ id: 'c1', title: 'Fix login', agentName: 'Test Agent', status: 'ready', branch: 'tandem/fix-login' }],
      worktrees: { available: true, byDefault: false },
    }),
  });
  const bar = page.getByRole('region', { name: 'Worktree of this conversation' });
  await bar.waitFor();
  assert.match(String(await bar.textContent()), /tandem\/fix-login.*from abc1234 · 2 files to apply · 1 commit/);
  assert.equal(await bar.getAttribute('data-path'), '/wt/fix-login');
  assert.equal(await page.getByRole('tab').getAttribute('aria-label'), 'Fix login, in worktree tandem/fix-login — Test Agent');
  assert.equal(await page.locator('.header-branch').getAttribute('aria-label'), 'Worktree branch tandem/fix-login');

  await panel.clearPosted();
  await bar.getByRole('button', { name: 'Apply to workspace' }).click();
  await bar.getByRole('button', { name: 'Commit on the branch' }).click();
  await bar.getByRole('button', { name: 'Discard' }).click();
  await bar.getByRole('button', { name: 'Open the worktree in a new window' }).click();
  assert.deepEqual(
    (await panel.posted()).map((m) => m.type),
    ['worktreeApply', 'worktreeCommit', 'worktreeDiscard', 'worktreeOpen'],
  );

  await panel.post({ type: 'worktreeChanged', conversationId: 'c1', worktree: { ...WORKTREE, busy: 'Applying…' } });
  await page.waitForFunction(() => document.querySelector('.worktree-bar')?.hasAttribute('aria-busy'));
  assert.equal(await bar.getByRole('button', { name: 'Apply to workspace' }).isDisabled(), true);
  await panel.post({ type: 'worktreeChanged', conversationId: 'c1', worktree: { ...WORKTREE, unapplied: 0, notice: 'Applied 2 files to the workspace.' } });
  await page.getByRole('status').filter({ hasText: 'Applied 2 files' }).waitFor();

  await panel.clearPosted();
  await panel.post({ type: 'worktreeChanged', conversationId: 'c1', worktree: { ...WORKTREE, state: 'missing' } });
  await bar.getByRole('alert').filter({ hasText: 'was deleted outside Tandem' }).waitFor();
  assert.equal(await bar.getByRole('button', { name: 'Apply to workspace' }).count(), 0);
  await bar.getByRole('button', { name: 'Recreate' }).click();
  assert.equal((await posted(panel, 'worktreeRecreate')).length, 1);

  // A conversation without a worktree has no bar and no branch.
  await panel.post({ type: 'worktreeChanged', conversationId: 'c1' });
  await bar.waitFor({ state: 'hidden' });
  assert.equal(await page.locator('.header-branch').isHidden(), true);
});

test('new conversation in a worktree: offered, or off with the reason (and then it posts nothing)', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ worktrees: { available: true, byDefault: false } }) });
  const button = page.getByRole('button', { name: 'Conversation in a new worktree' });
  await panel.clearPosted();
  await button.click();
  assert.equal((await posted(panel, 'newConversationInWorktree')).length, 1);
  await panel.post({ type: 'worktreeOfferChanged', worktrees: { available: false, reason: 'The folder is not in a git repository.', byDefault: false } });
  await page.waitForFunction(() => document.querySelector('.tab-strip [aria-disabled="true"]') !== null);
  assert.match(String(await button.getAttribute('title')), /not in a git repository/);
  await panel.clearPosted();
  // aria-disabled (focusable, so the reason can be read): Playwright would wait for it to be enabled.
  await button.click({ force: true });
  assert.equal((await posted(panel, 'newConversationInWorktree')).length, 0);
});

test('review notes: on a strip hunk (lines by click), listed under it, gathered in the composer, sent alone, then resolved', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const file = {
    path: '/wt/fix-login/f.txt',
    relPath: 'f.txt',
    status: 'modified' as const,
    added: 3,
    removed: 1,
    binary: false,
    restorable: true,
    hunks: [{ index: 0, oldStart: 2, oldLines: 1, newStart: 2, newLines: 3, lines: ['-old', '+one', '+two', '+three'] }],
  };
  await panel.post({ type: 'snapshot', snapshot: snapshot({ review: { files: [file] }, worktree: WORKTREE }) });
  const strip = page.getByRole('region', { name: 'Files changed in this conversation' });
  await strip.getByRole('button', { name: 'Show the changed files' }).click();
  const hunk = strip.locator('.hunk');
  await hunk.getByRole('button', { name: 'Add a review note on lines 2–4' }).click();
  const form = hunk.getByRole('group', { name: 'New review note' });
  assert.equal(
    await form.getByRole('textbox', { name: 'Note for the agent' }).evaluate((el) => el === document.activeElement),
    true,
    'the form takes the focus it was opened for',
  );
  // A click on "+two" picks line 3; Shift+click on "+three" makes it 3–4.
  await hunk.locator('[data-new-line="3"]').click();
  await hunk.locator('[data-new-line="4"]').click({ modifiers: ['Shift'] });
  assert.deepEqual([await form.getByLabel('First line').inputValue(), await form.getByLabel('Last line').inputValue()], ['3', '4']);
  await form.getByRole('textbox', { name: 'Note for the agent' }).fill('name these');
  // The strip refreshes under the open form (the agent wrote, a watcher fired): the draft, its lines and focus stay.
  await panel.post({ type: 'reviewChanged', conversationId: 'c1', review: { files: [{ ...file }] } });
  await page.waitForFunction(
    () => document.querySelector('.hunk .note-form') !== null && !document.querySelector('.hunk .note-form textarea')?.matches(':placeholder-shown'),
  );
  assert.equal(await form.getByRole('textbox', { name: 'Note for the agent' }).inputValue(), 'name these');
  assert.deepEqual([await form.getByLabel('First line').inputValue(), await form.getByLabel('Last line').inputValue()], ['3', '4']);
  assert.equal(await form.getByRole('textbox', { name: 'Note for the agent' }).evaluate((el) => el === document.activeElement), true);
  await page.keyboard.type(' consistently');
  await panel.clearPosted();
  await page.keyboard.press('Control+Enter');
  const [added] = await posted(panel, 'reviewNoteAdd');
  assert.deepEqual(added, {
    type: 'reviewNoteAdd',
    path: '/wt/fix-login/f.txt',
    startLine: 3,
    endLine: 4,
    text: 'name these consistently',
    hunk: '@@ -2,1 +2,3 @@\n-old\n+one\n+two\n+three',
    conversationId: 'c1',
  });
  await form.waitFor({ state: 'detached' });

  // The host lists it: under the hunk, and as the composer's chip; Send works with no text.
  await panel.post({ type: 'notesChanged', conversationId: 'c1', notes: [note({ startLine: 3, endLine: 4, text: 'name these consistently' })] });
  const list = hunk.getByRole('list', { name: 'Review notes on lines 2–4' });
  await list.getByText('name these consistently').waitFor();
  assert.equal(await list.locator('[data-note-state]').getAttribute('data-note-state'), 'pending');
  const chip = page.getByRole('button', { name: '1 review note' });
  await chip.waitFor();
  const send = page.getByRole('button', { name: 'Send' });
  assert.equal(await send.isDisabled(), false, 'notes alone can be sent');
  await chip.click();
  assert.equal(await chip.getAttribute('aria-expanded'), 'true');
  await page.getByRole('list', { name: '1 review note' }).getByText('f.txt:3–4').waitFor();
  await panel.clearPosted();
  await send.click();
  assert.deepEqual(await posted(panel, 'prompt'), [{ type: 'prompt', text: '', conversationId: 'c1' }]);

  // Sent: resolved under the hunk, gone from the composer.
  await panel.post({ type: 'notesChanged', conversationId: 'c1', notes: [note({ startLine: 3, endLine: 4, text: 'name these consistently', state: 'sent' })] });
  await list.locator('[data-note-state="sent"]').waitFor();
  assert.match(String(await list.textContent()), /sent, resolved/);
  await chip.waitFor({ state: 'detached' });
  await list.getByRole('button', { name: 'Delete the note on lines 3–4' }).click();
  assert.deepEqual(await posted(panel, 'reviewNoteRemove'), [{ type: 'reviewNoteRemove', noteId: 'n1', conversationId: 'c1' }]);
});

test("review notes on a card's diff: the added lines by default, Escape closes the form and gives focus back", async () => {
  const panel = await harness().open();
  const { page } = panel;
  const source = new DiffRecord({ type: 'diff', path: '/w/src/a.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nBB\nc\n' });
  await panel.post({ type: 'snapshot', snapshot: snapshot({ entries: [toolCall('t1', { toolKind: 'edit', content: [source.view] })] }) });
  const region = page.getByRole('region', { name: /^Diff/ });
  const add = region.getByRole('button', { name: 'Add a review note on lines 2–3' });
  await add.click();
  await page.keyboard.press('Escape');
  await region.getByRole('group', { name: 'New review note' }).waitFor({ state: 'detached' });
  assert.equal(await add.evaluate((el) => el === document.activeElement), true);
  await add.click();
  await region.getByRole('textbox', { name: 'Note for the agent' }).fill('why two lines?');
  await panel.clearPosted();
  await region.getByRole('button', { name: 'Add Note' }).click();
  const [added] = await posted(panel, 'reviewNoteAdd');
  assert.equal(added.path, '/w/src/a.ts');
  assert.deepEqual([added.startLine, added.endLine], [2, 3]);
  assert.match(String(added.hunk), /^@@ -1,3 \+1,4 @@\n a\n-b\n\+B\n\+BB\n c$/);
  // Notes arriving later show under the card's hunk too.
  await panel.post({
    type: 'notesChanged',
    conversationId: 'c1',
    notes: [note({ path: '/w/src/a.ts', relPath: 'src/a.ts', startLine: 2, endLine: 2, text: 'why two lines?' })],
  });
  await region.getByRole('list', { name: 'Review notes on lines 2–3' }).getByText('why two lines?').waitFor();
});
