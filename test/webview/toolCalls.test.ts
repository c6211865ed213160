/** Tool call cards, terminals and permission prompts, in real Chromium (diffs: diffs.test.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PermissionView } from '../../src/protocol/messages';
import { running, snapshot, terminal, toolCall } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

test('a card updates in place: same DOM node, new title, status, icon, locations', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({ status: running, entries: [toolCall('c1', { title: 'Read', toolKind: 'other', status: 'pending' })] }),
  });
  const card = page.locator('[data-tool-call-id="call-c1"]');
  const handle = await card.elementHandle();
  await handle!.evaluate((el) => ((el as HTMLElement & { __marker?: boolean }).__marker = true));
  assert.equal(await card.locator('.codicon.codicon-tools').count(), 1);
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('c1', {
      title: 'Read src/main.ts',
      toolKind: 'read',
      status: 'in_progress',
      locations: [{ path: '/w/src/main.ts', line: 12, inWorkspace: true }],
    }),
  });
  assert.equal(await handle!.evaluate((el) => (el as HTMLElement & { __marker?: boolean }).__marker), true, 'same node');
  assert.equal(await card.getAttribute('data-status'), 'in_progress');
  assert.equal(await card.getAttribute('data-kind'), 'read');
  assert.match(String(await card.getAttribute('aria-label')), /Read src\/main\.ts/);
  assert.equal(await card.locator('.codicon-loading.codicon-modifier-spin').count(), 1);
  await panel.clearPosted();
  await card.getByRole('button', { name: /Open \/w\/src\/main\.ts at line 12/ }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'openLocation', path: '/w/src/main.ts', line: 12 }]);
  for (const [status, iconClass] of [
    ['completed', 'codicon-check'],
    ['failed', 'codicon-error'],
    ['cancelled', 'codicon-circle-slash'],
  ] as const) {
    await panel.post({ type: 'entryUpserted', entry: toolCall('c1', { title: 'Read src/main.ts', toolKind: 'read', status }) });
    assert.equal(await card.getAttribute('data-status'), status);
    assert.equal(await card.locator(`.tool-status .${iconClass}`).count(), 1);
    assert.equal(await card.locator('.codicon-modifier-spin').count(), 0, 'no spinner once finished');
  }
  assert.equal(await page.locator('[data-entry-kind="tool_call"]').count(), 1);
  await page.close();
});

test('content: markdown, image, resource links', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      entries: [
        toolCall('c1', {
          content: [
            { type: 'markdown', text: 'Found **3** matches' },
            { type: 'image', mimeType: 'image/png', data: png },
            { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'a.ts' },
            { type: 'resource_link', uri: 'https://example.com/x', name: 'x docs' },
          ],
        }),
      ],
    }),
  });
  const card = page.locator('[data-tool-call-id="call-c1"]');
  assert.equal(await card.locator('strong').textContent(), '3');
  assert.equal(await card.locator('img.tool-image').evaluate((img) => (img as HTMLImageElement).naturalWidth), 1);
  await panel.clearPosted();
  await card.getByRole('button', { name: 'a.ts' }).click();
  await card.getByRole('button', { name: 'x docs' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'openLocation', path: '/w/src/a.ts' },
    { type: 'openLink', href: 'https://example.com/x' },
  ]);
  assert.deepEqual(await panel.violations(), []);
  await page.close();
});

test('terminal: ANSI output streams into the region text, progress bars resolve, exit status shows', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: running,
      entries: [toolCall('c1', { toolKind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 't1' }] })],
      terminals: { t1: terminal('t1', { output: '\x1b[32mgreen start\x1b[0m\n' }) },
    }),
  });
  const region = page.getByRole('region', { name: /^Terminal/ });
  assert.equal(await region.getAttribute('data-terminal-id'), 't1');
  await page.waitForFunction(() => document.querySelector('[data-terminal-id="t1"]')?.textContent?.includes('green start'));
  for (const p of [10, 50, 100]) await panel.post({ type: 'terminalAppended', terminalId: 't1', text: `\rprogress ${p}%`, truncated: false });
  await panel.post({ type: 'terminalAppended', terminalId: 't1', text: '\n\x1b[31mred error\x1b[0m\n', truncated: false });
  await page.waitForFunction(() => document.querySelector('[data-terminal-id="t1"] .terminal-text')?.textContent?.includes('red error'));
  const text = String(await region.locator('.terminal-text').textContent());
  assert.match(text, /green start\nprogress 100%\nred error/);
  assert.doesNotMatch(text, /progress 10%|\x1b/);
  // xterm painted coloured cells.
  assert.ok((await region.locator('.xterm-rows span[class*="xterm-fg-"]').count()) > 0, 'ANSI colours rendered by xterm');
  assert.equal(await region.locator('.terminal-status').textContent(), 'Running…');
  await panel.post({ type: 'terminalChanged', terminal: terminal('t1', { output: 'fresh output\n', exit: { exitCode: 2, signal: null } }) });
  await page.waitForFunction(() => document.querySelector('[data-terminal-id="t1"] .terminal-text')?.textContent === 'fresh output');
  assert.equal(await region.locator('.terminal-status').textContent(), 'Exited with code 2');
  // Restored after the editor that ran it went away: ended with it, not "Running…".
  await panel.post({ type: 'terminalChanged', terminal: terminal('t1', { output: 'fresh output\n', exit: { exitCode: null, signal: null, lost: true } }) });
  await page.waitForFunction(() => document.querySelector('[data-terminal-id="t1"] .terminal-status')?.textContent === 'Stopped when VS Code closed');
  assert.equal(await region.getAttribute('data-exited'), 'true');
  await panel.clearPosted();
  await region.getByRole('button', { name: 'Open in terminal' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'openTerminal', terminalId: 't1' }]);
  assert.deepEqual(await panel.violations(), [], 'xterm runs under the strict CSP');
  await page.close();
});

function permission(requestId: string, state: PermissionView['state'] = { kind: 'pending' }): PermissionView {
  return {
    requestId,
    state,
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };
}

test('permission prompts: buttons, names, kinds, click, keyboard, waiting count, answered state', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: running,
      entries: [
        toolCall('c1', { title: 'Edit a.ts', toolKind: 'edit', permission: permission('r1') }),
        toolCall('c2', { title: 'Run rm', toolKind: 'execute', permission: permission('r2') }),
      ],
    }),
  });
  const groups = page.getByRole('group', { name: /^Permission/ });
  assert.equal(await groups.count(), 2);
  const first = groups.first();
  const buttons = await first.getByRole('button').evaluateAll((bs) => bs.map((b) => [b.getAttribute('aria-label'), b.getAttribute('data-option-kind')]));
  // One-time answers first, then the standing one (which says so).
  assert.deepEqual(buttons, [
    ['Allow once', 'allow_once'],
    ['Reject', 'reject_once'],
    ['Always allow (a standing answer)', 'allow_always'],
  ]);
  assert.equal(await page.getByRole('button', { name: '2 waiting for you' }).count(), 1);
  await panel.clearPosted();
  await first.getByRole('button', { name: 'Allow once' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'respondPermission', requestId: 'r1', optionId: 'allow', conversationId: 'c1' }]);
  await first.getByRole('button', { name: 'Reject' }).click({ force: true });
  assert.equal((await panel.posted()).length, 1, 'answered once only');
  // Keyboard: focus the first option of the second prompt, arrow to Reject, Enter.
  await panel.clearPosted();
  const second = page.locator('[data-tool-call-id="call-c2"] [role="group"]');
  assert.deepEqual(await second.getByRole('button').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).tabIndex)), [0, -1, -1]);
  await second.getByRole('button', { name: 'Allow once' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Reject');
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'respondPermission', requestId: 'r2', optionId: 'reject', conversationId: 'c1' }]);
  // The host confirms: the cards show what was chosen.
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('c1', { title: 'Edit a.ts', toolKind: 'edit', permission: permission('r1', { kind: 'selected', optionId: 'allow' }) }),
  });
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('c2', { title: 'Run rm', toolKind: 'execute', permission: permission('r2', { kind: 'selected', optionId: 'reject' }) }),
  });
  assert.equal(await groups.count(), 0);
  assert.match(String(await page.locator('[data-tool-call-id="call-c1"] .permission-result').textContent()), /Allowed: Allow once/);
  assert.match(String(await page.locator('[data-tool-call-id="call-c2"] .permission-result').textContent()), /Rejected: Reject/);
  assert.equal(await page.locator('.waiting-indicator').isHidden(), true);
  // Digit shortcut inside the group, Alt+digit from anywhere, and a cancelled prompt.
  await panel.post({ type: 'entryUpserted', entry: toolCall('c3', { title: 'Write b.ts', permission: permission('r3') }) });
  await panel.post({ type: 'entryUpserted', entry: toolCall('c4', { title: 'Write c.ts', permission: permission('r4') }) });
  await panel.clearPosted();
  await page.locator('[data-tool-call-id="call-c3"] [role="group"] button').first().focus();
  await page.keyboard.press('3');
  await page.keyboard.press('2');
  await page.locator('textarea[aria-label="Message"]').focus();
  await page.keyboard.press('Alt+3');
  await page.keyboard.press('Alt+2');
  assert.deepEqual(
    await panel.posted(),
    [
      { type: 'respondPermission', requestId: 'r3', optionId: 'reject', conversationId: 'c1' },
      { type: 'respondPermission', requestId: 'r4', optionId: 'reject', conversationId: 'c1' },
    ],
    'no digit grants a standing answer; 2 is the one-time reject',
  );
  await panel.post({ type: 'entryUpserted', entry: toolCall('c4', { title: 'Write c.ts', permission: permission('r4', { kind: 'cancelled' }) }) });
  assert.equal(await page.locator('[data-tool-call-id="call-c4"] .permission-result').textContent(), ' Cancelled');
  await page.close();
});

test('an agent that lists "Always Allow" first: the tab stop, 1 and Alt+1 are "allow once"; a standing grant needs a click or arrows', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const alwaysFirst: PermissionView = {
    requestId: 'r1',
    state: { kind: 'pending' },
    // Claude Code's order.
    options: [
      { optionId: 'always', name: 'Always Allow', kind: 'allow_always' },
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({ status: running, entries: [toolCall('c1', { title: 'Run ls', toolKind: 'execute', permission: alwaysFirst })] }),
  });
  const group = page.getByRole('group', { name: /^Permission/ });
  assert.equal(await group.locator('button[tabindex="0"]').getAttribute('data-option-kind'), 'allow_once', 'the tab stop is allow once');
  assert.equal(await group.locator('button[data-shortcut="1"]').getAttribute('data-option-kind'), 'allow_once');
  assert.equal(await group.locator('button[data-option-kind="allow_always"]').getAttribute('data-shortcut'), null);
  assert.equal(await page.evaluate(() => document.activeElement?.closest('[role="group"]') === null), true, 'the prompt did not take focus');
  // Tab into the prompt lands on its tab stop; Enter answers allow once, never always.
  await group.locator('button[tabindex="0"]').focus();
  await panel.clearPosted();
  await page.keyboard.press('Enter');
  assert.deepEqual(await panel.posted(), [{ type: 'respondPermission', requestId: 'r1', optionId: 'allow', conversationId: 'c1' }]);
  // Alt+1 on a fresh prompt: allow once too.
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('c2', { title: 'Run pwd', toolKind: 'execute', permission: { ...alwaysFirst, requestId: 'r2' } }),
  });
  await panel.post({
    type: 'entryUpserted',
    entry: toolCall('c1', { title: 'Run ls', toolKind: 'execute', permission: { ...alwaysFirst, state: { kind: 'selected', optionId: 'allow' } } }),
  });
  await panel.clearPosted();
  await page.locator('textarea[aria-label="Message"]').focus();
  await page.keyboard.press('Alt+1');
  assert.deepEqual(await panel.posted(), [{ type: 'respondPermission', requestId: 'r2', optionId: 'allow', conversationId: 'c1' }]);
  await page.close();
});

test('a card answered by a rule says so and links to the rules; an "always" answer offers an editable rule', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const base = permission('r1', { kind: 'selected', optionId: 'allow' });
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      entries: [
        toolCall('c1', {
          title: 'Run npm test',
          toolKind: 'execute',
          permission: { ...base, rule: { id: 'rule-1', label: 'Allow `npm test` for Claude in this workspace', decision: 'allow' } },
        }),
        toolCall('c2', {
          title: 'Run npm test -- --watch',
          toolKind: 'execute',
          permission: {
            ...permission('r2', { kind: 'selected', optionId: 'always' }),
            proposal: {
              decision: 'allow',
              matcherType: 'commandPrefix',
              value: 'npm test',
              scope: 'workspace',
              agent: 'Claude',
              label: 'Allow `npm test` for Claude in this workspace',
              state: 'offered',
            },
          },
        }),
      ],
    }),
  });
  const ruled = page.locator('[data-tool-call-id="call-c1"] .permission-result');
  assert.match(String(await ruled.textContent()), /Allowed by rule: Allow npm test for Claude in this workspace/);
  assert.equal(await ruled.locator('code').textContent(), 'npm test');
  await panel.clearPosted();
  await ruled.getByRole('button', { name: 'Rules…' }).click();
  const form = page.getByRole('group', { name: 'Save a permission rule' });
  const value = form.getByRole('textbox', { name: 'Rule: commands starting with' });
  assert.equal(await value.inputValue(), 'npm test');
  await value.fill('npm test --');
  await form.getByRole('combobox', { name: 'Rule applies in' }).selectOption('conversation');
  await form.getByRole('button', { name: 'Save allow rule' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'manageRules', ruleId: 'rule-1' },
    { type: 'saveRule', requestId: 'r2', value: 'npm test --', scope: 'conversation', conversationId: 'c1' },
  ]);
  await page.close();
});
