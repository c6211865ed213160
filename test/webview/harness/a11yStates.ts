/**
 * The panel's states an accessibility audit walks through (a11y.test.ts): each brings a freshly
 * opened panel there, through host messages and the keyboard, and waits until it is fully built
 * (every entry, every terminal emulator open).
 */
import type { Entry, MentionCandidate, PermissionView, TabView, WebviewMessage } from '../../../src/protocol/messages';
import { chineseSession, otherStates } from './chineseFixtures';
import { ready, snapshot, terminal, toolCall } from './fixtures';
import type { Panel } from './harness';

export interface AuditState {
  name: string;
  enter(panel: Panel): Promise<void>;
}

export function pendingPermission(requestId: string): PermissionView {
  return {
    requestId,
    state: { kind: 'pending' },
    options: [
      { optionId: 'always', name: 'Always Allow', kind: 'allow_always' },
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };
}

/** Several conversations, two of them needing the user. */
export const TABS: TabView[] = [
  { id: 'c1', title: 'Fix the login test', agentName: 'Test Agent', status: 'ready' },
  { id: 'c2', title: 'Write docs', agentName: 'Test Agent', status: 'running', attention: 'permission' },
  { id: 'c3', title: 'Release notes', agentName: 'Test Agent', status: 'ready', attention: 'finished' },
];

const DIFF_EDIT = {
  type: 'diff' as const,
  path: '/w/src/login.ts',
  diffId: 1,
  isNew: false,
  added: 2,
  removed: 1,
  collapsedAfter: 12,
  hunks: [
    {
      oldStart: 8,
      oldLines: 3,
      newStart: 8,
      newLines: 4,
      row: 7,
      more: 0,
      collapsedBefore: 7,
      lines: [
        { kind: 'context' as const, text: 'export function same(a: string, b: string) {' },
        { kind: 'del' as const, text: '  return a === b;' },
        { kind: 'add' as const, text: '  const trimmed = b.trim();' },
        { kind: 'add' as const, text: '  return a.trim() === trimmed;' },
        { kind: 'context' as const, text: '}' },
      ],
    },
  ],
};

/** A finished turn: a message, a plan, cards with a location, a diff, a terminal and a failure, the end. */
export function finishedTurn(): Entry[] {
  return [
    { kind: 'user', id: 'u1', text: 'Why does the **login** test fail?' },
    { kind: 'thought', id: 't1', text: 'The assertion compares tokens.' },
    {
      kind: 'plan',
      id: 'p1',
      items: [
        { content: 'Read the failing test', priority: 'high', status: 'completed' },
        { content: 'Fix the comparison', priority: 'high', status: 'in_progress' },
        { content: 'Run the tests', priority: 'medium', status: 'pending' },
      ],
    },
    {
      kind: 'agent',
      id: 'a1',
      text: 'The test compares raw tokens; `same()` trims them (see [the docs](https://example.com) for why):\n\n```ts\nsame(" a", "a"); // a long line that does not fit the panel: it wraps rather than scrolls sideways, so no Tab stop is needed\n```\n\n> Note: see [the guide](https://example.com/guide).',
    },
    toolCall('read', {
      title: 'Read src/login.ts',
      toolKind: 'read',
      status: 'completed',
      locations: [{ path: '/w/src/login.ts', line: 8, inWorkspace: true }],
      rawInput: '{ "path": "src/login.ts" }',
    }),
    toolCall('edit', {
      title: 'Edit src/login.ts',
      toolKind: 'edit',
      status: 'completed',
      content: [DIFF_EDIT],
      permission: { ...pendingPermission('r0'), state: { kind: 'selected', optionId: 'allow' } },
    }),
    toolCall('readme', {
      title: 'Edit README.md',
      toolKind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          path: '/w/README.md',
          diffId: 2,
          isNew: false,
          added: 1,
          removed: 1,
          collapsedAfter: 0,
          hunks: [
            {
              oldStart: 1,
              oldLines: 1,
              newStart: 1,
              newLines: 1,
              row: 0,
              more: 0,
              collapsedBefore: 0,
              lines: [
                { kind: 'del', text: '# Login' },
                { kind: 'add', text: `# Login — ${'a heading long enough to scroll the diff sideways, with nothing focusable inside it '.repeat(2)}` },
              ],
            },
          ],
        },
      ],
    }),
    toolCall('test', { title: 'npm test', toolKind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId: 't1' }] }),
    toolCall('lint', {
      title: 'npm run lint',
      toolKind: 'execute',
      status: 'failed',
      permission: { ...pendingPermission('r9'), state: { kind: 'selected', optionId: 'reject' } },
    }),
    toolCall('later', { title: 'Deploy', toolKind: 'other', status: 'pending' }),
    { kind: 'turn_end', id: 'end1', stopReason: 'end_turn', usage: '12k in · 340 out' },
  ];
}

const TERMINALS = {
  t1: terminal('t1', {
    command: 'npm test',
    output: '\u001b[32mPASS\u001b[0m test/login.test.ts\n  \u2713 same token (3 ms)\n\nTests: 1 passed\n',
    exit: { exitCode: 0, signal: null },
  }),
};

/** Every entry built, every emulator open, every disclosure of the thread as the user left it. */
export async function built(panel: Panel): Promise<void> {
  await panel.page.waitForFunction(
    () =>
      !document.querySelector('[role="log"]')?.hasAttribute('aria-busy') &&
      document.querySelector('.entry-placeholder') === null &&
      // xterm's own element is a `.terminal` too: the cards are the ones with an id.
      [...document.querySelectorAll('[data-terminal-id]')].every((t) => t.hasAttribute('data-emulated')),
  );
  await panel.settle();
}

/** The id of the panel's latest `@` query for `query`. */
export async function mentionQuery(panel: Panel, query: string): Promise<number> {
  const handle = await panel.page.waitForFunction(
    (q) => (window as unknown as { __posted: WebviewMessage[] }).__posted.filter((m) => m.type === 'mentionQuery' && m.query === q).at(-1),
    query,
  );
  return ((await handle.jsonValue()) as { requestId: number }).requestId;
}

const MENTIONS: MentionCandidate[] = [
  {
    group: 'Files',
    spec: { kind: 'file', path: '/w/src/login.ts' },
    view: { kind: 'file', label: 'login.ts', detail: 'src/login.ts', uri: 'file:///w/src/login.ts', icon: 'file' },
  },
  {
    group: 'Files',
    spec: { kind: 'file', path: '/w/test/login.test.ts' },
    view: { kind: 'file', label: 'login.test.ts', detail: 'test/login.test.ts', uri: 'file:///w/test/login.test.ts', icon: 'file' },
  },
  {
    group: 'Symbols',
    spec: { kind: 'symbol', path: '/w/src/login.ts', name: 'same', range: { startLine: 8, endLine: 11 }, symbolKind: 'function' },
    view: {
      kind: 'symbol',
      label: 'same',
      detail: 'function in src/login.ts',
      uri: 'file:///w/src/login.ts',
      range: { startLine: 8, endLine: 11 },
      icon: 'symbol-function',
    },
  },
];

export const STATES: AuditState[] = [
  {
    name: 'empty',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready }) });
    },
  },
  {
    name: 'a permission prompt waiting',
    async enter(panel) {
      await panel.post({
        type: 'snapshot',
        snapshot: snapshot({
          status: { kind: 'running', agentName: 'Test Agent' },
          entries: [
            { kind: 'user', id: 'u1', text: 'Fix it' },
            toolCall('edit', { title: 'Edit src/login.ts', toolKind: 'edit', status: 'pending', content: [DIFF_EDIT], permission: pendingPermission('r1') }),
          ],
        }),
      });
    },
  },
  {
    name: 'a finished turn with cards, diff, terminal and plan',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: finishedTurn(), terminals: TERMINALS }) });
    },
  },
  {
    name: 'the @ picker open',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, entries: finishedTurn(), terminals: TERMINALS }) });
      await built(panel);
      const box = panel.page.locator('textarea[aria-label="Message"]');
      await box.focus();
      await box.pressSequentially('look at @log');
      await panel.post({ type: 'mentionResults', requestId: await mentionQuery(panel, 'log'), items: MENTIONS });
      await box.press('ArrowDown');
    },
  },
  {
    name: 'the @ picker with no matches',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready }) });
      const box = panel.page.locator('textarea[aria-label="Message"]');
      await box.focus();
      await box.pressSequentially('@zzz');
      await panel.post({ type: 'mentionResults', requestId: await mentionQuery(panel, 'zzz'), items: [] });
      await panel.page.getByRole('listbox', { name: 'Mention suggestions' }).getByText('No matches').waitFor();
    },
  },
  {
    name: 'the / command list open',
    async enter(panel) {
      await panel.post({
        type: 'snapshot',
        snapshot: snapshot({
          status: ready,
          commands: [
            { name: 'review', description: 'Review the pending changes', hint: 'files' },
            { name: 'compact', description: 'Summarise the conversation' },
          ],
        }),
      });
      const box = panel.page.locator('textarea[aria-label="Message"]');
      await box.focus();
      await box.pressSequentially('/');
      await box.press('ArrowDown');
    },
  },
  {
    // History is VS Code's quick pick, outside the panel: the panel asked for it from its History button.
    name: 'History asked for',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: snapshot({ status: ready, tabs: TABS, entries: finishedTurn(), terminals: TERMINALS }) });
      await built(panel);
      await panel.page.getByRole('button', { name: 'History' }).focus();
      await panel.page.keyboard.press('Enter');
      await panel.page.waitForFunction(() => (window as unknown as { __posted: WebviewMessage[] }).__posted.some((m) => m.type === 'showHistory'));
    },
  },
  {
    name: 'a busy session: every part of the panel at once',
    async enter(panel) {
      await panel.post({ type: 'snapshot', snapshot: chineseSession() });
      await built(panel);
      await panel.page.locator('.changed-summary button[aria-expanded="false"]').click();
      await panel.page.getByRole('button', { name: 'Session options' }).click();
    },
  },
  {
    // The header's "Approves its own actions" badge (Claude Code's auto mode) in its warning colour.
    name: 'a mode that approves its own actions',
    async enter(panel) {
      await panel.post({
        type: 'snapshot',
        snapshot: snapshot({
          status: ready,
          modes: {
            currentModeId: 'auto',
            available: [
              { id: 'default', name: 'Manual' },
              { id: 'acceptEdits', name: 'Accept edits' },
              { id: 'auto', name: 'Auto' },
            ],
          },
        }),
      });
      await panel.page.locator('button.self-approval').waitFor();
    },
  },
  {
    // The header's host note in its warning colour, an interrupted turn and the reconnect notice.
    name: 'a remote agent reconnecting after an interrupted turn',
    async enter(panel) {
      await panel.post({
        type: 'snapshot',
        snapshot: snapshot({
          status: { kind: 'starting', agentName: 'Test Agent', detail: 'Reconnecting… attempt 2 of 8', reconnecting: { attempt: 2, attempts: 8 } },
          agents: [{ name: 'Test Agent', commandLine: 'wss://box.example:8443/acp', builtIn: false, host: 'box.example:8443' }],
          entries: [
            { kind: 'user', id: 'u1', text: 'Refactor it' },
            { kind: 'turn_end', id: 'e1', stopReason: 'interrupted' },
            { kind: 'notice', id: 'n1', level: 'warning', message: 'Test Agent lost its connection to box.example:8443. Reconnecting…' },
          ],
        }),
      });
    },
  },
  ...otherStates().map((state) => ({
    name: state.name,
    async enter(panel: Panel) {
      await panel.post({ type: 'snapshot', snapshot: state.snapshot });
    },
  })),
];
