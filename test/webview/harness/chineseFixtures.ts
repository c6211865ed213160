/**
 * A busy session as a Chinese-speaking user sees it (chinese.test.ts): every part of the panel in
 * use at once, plus the states the panel passes through. Text the agent or the user wrote is
 * registered with `said` (the scan for leftover English leaves it out); text the host writes comes
 * from the host's own functions, so the caller configures `@vscode/l10n` with the zh-cn bundle first.
 */
import * as l10n from '@vscode/l10n';
import { ruleLabel } from '../../../src/permissions/ruleProposal';
import type { Entry, MentionChip, PermissionView, PanelSnapshot } from '../../../src/protocol/messages';
import { describeTurnUsage } from '../../../src/thread/configOptions';
import { describeStartFailure } from '../../../src/runtime/startFailure';
import { snapshot, terminal, toolCall } from './fixtures';

const saidTexts = new Set<string>();

/** Registers text the agent or the user wrote: shown as it came, not the panel's words. */
export function said<T extends string>(text: T): T {
  saidTexts.add(text);
  return text;
}

/** A path the agent sent: shown whole, and as its last segment on buttons. */
function saidPath<T extends string>(path: T): T {
  said(path.slice(path.lastIndexOf('/') + 1));
  return said(path);
}

/** Everything registered with `said` so far. */
export function given(): string[] {
  return [...saidTexts];
}

const AGENT = said('Claude Code');
const DEMO = said('Tandem Demo');
const TITLE = said('修复登录测试');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAASUVORK5CYII=';

function permission(requestId: string, state: PermissionView['state'] = { kind: 'pending' }): PermissionView {
  return {
    requestId,
    state,
    // Claude Code's wording and order.
    options: [
      { optionId: 'always', name: said('Always Allow'), kind: 'allow_always' },
      { optionId: 'allow', name: said('Allow'), kind: 'allow_once' },
      { optionId: 'reject', name: said('Reject'), kind: 'reject_once' },
    ],
  };
}

function thread(): Entry[] {
  saidPath('/w/src/login.ts');
  said('src/login.ts');
  const rule = {
    decision: 'allow',
    agent: AGENT,
    scope: 'workspace',
    toolKind: 'execute',
    matcher: { type: 'commandPrefix', prefix: said('npm test') },
  } as const;
  const failure = describeStartFailure(new Error(l10n.t('exited with code {0}', 1)), AGENT, said('Error: invalid x-api-key'));
  return [
    {
      kind: 'user',
      id: 'u1',
      text: said('登录测试失败了，帮我看看 @login.ts'),
      mentions: [{ kind: 'file', label: 'login.ts', detail: 'src/login.ts', uri: said('file:///w/src/login.ts'), icon: 'file' }],
      contextNotes: [l10n.t('{0} was cut to its first {1} (of {2})', 'src/login.ts', '200 KB', '1.3 MB')],
      checkpoint: 'cp1',
    },
    { kind: 'thought', id: 'th1', text: said('The failing assertion compares session tokens.') },
    {
      kind: 'plan',
      id: 'p1',
      items: [
        { content: said('Read the failing test'), priority: 'high', status: 'completed' },
        { content: said('Fix the token comparison'), priority: 'high', status: 'in_progress' },
        { content: said('Run the tests again'), priority: 'medium', status: 'pending' },
      ],
    },
    { kind: 'agent', id: 'a1', text: said('The test compares **raw** tokens; `login.ts` trims them first.') },
    toolCall('read', {
      title: said('Read src/login.ts'),
      toolKind: 'read',
      status: 'completed',
      locations: [
        { path: '/w/src/login.ts', line: 12, inWorkspace: true },
        { path: saidPath('/etc/hosts'), inWorkspace: false },
      ],
      rawInput: said('{ "path": "/w/src/login.ts" }'),
      rawOutput: said('{ "lines": 120 }'),
      content: [{ type: 'image', mimeType: said('image/svg+xml'), data: 'PHN2Zy8+' }],
    }),
    toolCall('edit', {
      title: said('Edit src/login.ts'),
      toolKind: 'edit',
      status: 'pending',
      permission: permission('r1'),
      content: [
        {
          type: 'diff',
          path: '/w/src/login.ts',
          diffId: 1,
          isNew: false,
          added: 2,
          removed: 1,
          collapsedAfter: 70,
          hunks: [
            {
              oldStart: 38,
              oldLines: 4,
              newStart: 38,
              newLines: 5,
              row: 37,
              more: 0,
              collapsedBefore: 37,
              lines: [
                { kind: 'context', text: said('export function same(a: string, b: string) {') },
                { kind: 'del', text: said('  return a === b;') },
                { kind: 'add', text: said('  const trimmed = b.trim();') },
                { kind: 'add', text: said('  return a.trim() === trimmed;'), cut: true },
                { kind: 'context', text: said('}'), noEol: true },
              ],
            },
          ],
        },
        {
          type: 'diff',
          path: saidPath('/w/fixtures/big.json'),
          diffId: 2,
          isNew: true,
          added: 0,
          removed: 0,
          collapsedAfter: 0,
          hunks: [],
          tooLarge: { bytes: 7_654_321, limit: 5 * 1024 * 1024 },
        },
        {
          type: 'diff',
          path: saidPath('/w/src/new.ts'),
          diffId: 3,
          isNew: true,
          added: 1,
          removed: 0,
          collapsedAfter: 0,
          hunks: [
            { oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, row: 0, more: 0, collapsedBefore: 0, lines: [{ kind: 'add', text: said('export {};') }] },
          ],
        },
      ],
    }),
    toolCall('test', { title: said('npm test -- login'), toolKind: 'execute', status: 'failed', content: [{ type: 'terminal', terminalId: 't1' }] }),
    toolCall('rule', {
      title: said('npm test -- --watch'),
      toolKind: 'execute',
      status: 'completed',
      permission: {
        ...permission('r2', { kind: 'selected', optionId: 'always' }),
        proposal: {
          decision: 'allow',
          matcherType: 'commandPrefix',
          value: 'npm test',
          scope: 'workspace',
          agent: AGENT,
          label: ruleLabel(rule),
          state: 'offered',
        },
      },
    }),
    toolCall('ruled', {
      title: said('npm test'),
      toolKind: 'execute',
      status: 'completed',
      permission: { ...permission('r3', { kind: 'selected', optionId: 'allow' }), rule: { id: 'rule-1', label: ruleLabel(rule), decision: 'allow' } },
    }),
    toolCall('answered', {
      title: said('Write src/new.ts'),
      toolKind: 'edit',
      status: 'completed',
      permission: permission('r4', { kind: 'selected', optionId: 'allow' }),
    }),
    { kind: 'error', id: 'e1', message: failure.message, detail: failure.detail, action: 'retry', offerCheck: true },
    {
      kind: 'auth',
      id: 'auth1',
      agentName: AGENT,
      message: said('Authentication required'),
      methods: [
        { id: 'oauth', name: said('Log in with Claude'), description: said('Claude Pro or Max subscription'), kind: 'agent' },
        { id: 'cli', name: said('Log in in a terminal'), kind: 'terminal' },
        { id: 'key', name: said('Use an API key'), kind: 'envVar', envVar: said('ANTHROPIC_API_KEY') },
      ],
      state: { kind: 'waiting' },
    },
    { kind: 'compaction', id: 'k1', compactionId: 'k', status: 'completed', summary: '' },
    { kind: 'turn_end', id: 'end1', stopReason: 'end_turn', usage: describeTurnUsage({ inputTokens: 12_000, outputTokens: 340 }) },
    {
      kind: 'question',
      id: 'q1',
      message: said('Which environment should the fix target?'),
      mode: 'form',
      fields: [
        {
          name: 'env',
          title: said('Environment'),
          type: 'choice',
          required: true,
          choices: [
            { value: 'dev', title: said('Development') },
            { value: 'prod', title: said('Production') },
          ],
        },
        { name: 'region', title: said('Region'), type: 'choice', required: false, choices: [{ value: 'eu', title: said('Europe') }] },
        { name: 'note', title: said('Note'), description: said('Anything the reviewer should know'), type: 'string', required: true },
        { name: 'retries', title: said('Retries'), type: 'integer', required: false, minimum: 0 },
        { name: 'notify', title: said('Notify the team'), type: 'boolean', required: false },
        {
          name: 'checks',
          title: said('Checks'),
          type: 'choices',
          required: false,
          choices: [
            { value: 'lint', title: said('Lint') },
            { value: 'unit', title: said('Unit tests') },
          ],
        },
      ],
      errors: { note: l10n.t('is required') },
      state: { kind: 'pending' },
    },
  ];
}

/** The session of chinese.test.ts: a turn running, every part of the panel showing. */
export function chineseSession(): PanelSnapshot {
  return snapshot({
    title: TITLE,
    status: { kind: 'running', agentName: AGENT },
    tabs: [
      { id: 'c1', title: TITLE, agentName: AGENT, status: 'running' },
      { id: 'c2', title: said('Refactor the parser'), agentName: DEMO, status: 'ready', attention: 'permission' },
      { id: 'c3', title: said('Docs'), agentName: AGENT, status: 'ready', attention: 'error' },
      { id: 'c4', title: said('Release notes'), agentName: '', status: 'idle', attention: 'finished' },
    ],
    agents: [
      { name: AGENT, commandLine: said('npx @zed-industries/claude-code-acp'), builtIn: false },
      { name: DEMO, commandLine: said('tandem-demo --acp'), builtIn: true },
    ],
    selectedAgent: AGENT,
    configOptions: [
      {
        id: 'mode',
        name: said('Session mode'),
        category: 'mode',
        type: 'select',
        currentValue: 'default',
        choices: [
          { value: 'default', name: said('Default'), description: said('Asks before edits') },
          { value: 'plan', name: said('Plan mode') },
        ],
      },
      {
        id: 'model',
        name: said('Model'),
        category: 'model',
        type: 'select',
        currentValue: 'sonnet',
        choices: [
          { value: 'sonnet', name: said('Sonnet'), group: said('Smart') },
          { value: 'haiku', name: said('Haiku'), group: said('Fast') },
        ],
      },
      {
        id: 'effort',
        name: said('Reasoning'),
        category: 'thought_level',
        type: 'select',
        currentValue: 'low',
        choices: [
          { value: 'low', name: said('Low') },
          { value: 'high', name: said('High') },
        ],
      },
      { id: 'web', name: said('Web search'), description: said('Let the agent search the web'), type: 'boolean', currentValue: true },
      {
        id: 'style',
        name: said('Answer style'),
        type: 'select',
        currentValue: 'brief',
        choices: [
          { value: 'brief', name: said('Brief') },
          { value: 'long', name: said('Detailed') },
        ],
      },
    ],
    usage: { used: 170_000, size: 200_000, cost: { amount: 1.5, currency: 'USD' } },
    commands: [
      { name: said('review'), description: said('Review the pending changes'), hint: said('files') },
      { name: said('compact'), description: said('Summarise the conversation') },
    ],
    promptCapabilities: { image: false, audio: true, embeddedContext: true },
    queue: {
      items: [
        { id: 'q1', text: said('然后运行 lint') },
        { id: 'q2', text: said('Also update the changelog') },
      ],
    },
    review: {
      files: [
        {
          path: '/w/src/login.ts',
          relPath: 'src/login.ts',
          status: 'modified',
          added: 2,
          removed: 1,
          binary: false,
          restorable: true,
          hunks: [
            { index: 0, oldStart: 40, oldLines: 4, newStart: 40, newLines: 5, lines: [said('-  return a === b;'), said('+  return a.trim() === b.trim();')] },
          ],
        },
        { path: said('/w/assets/logo.png'), relPath: said('assets/logo.png'), status: 'added', added: 0, removed: 0, binary: true, restorable: false },
        // Changed during the turn by no one Tandem could name: the strip marks it in words.
        {
          path: said('/w/build/out.log'),
          relPath: said('build/out.log'),
          status: 'added',
          added: 4,
          removed: 0,
          binary: false,
          restorable: true,
          outside: true,
        },
      ],
    },
    entries: thread(),
    terminals: {
      t1: terminal('t1', {
        command: said('npm test -- login'),
        output: said('FAIL test/login.test.ts\n  ✕ same token (3 ms)\n'),
        exit: { exitCode: 1, signal: null },
      }),
    },
  });
}

/** What the composer holds: a file chip and an image the agent does not take. */
export function composerChips(): MentionChip[] {
  return [
    {
      spec: { kind: 'file', path: '/w/src/login.ts' },
      view: { kind: 'file', label: 'login.ts', detail: 'src/login.ts', uri: 'file:///w/src/login.ts', icon: 'file' },
    },
    {
      spec: { kind: 'image', name: said('screenshot.png'), mimeType: 'image/png', data: PNG },
      view: { kind: 'image', label: 'screenshot.png', icon: 'file-media' },
    },
  ];
}

/** Looks up a panel string in the language under test, placeholders filled. */
export type Translate = (key: string, ...args: Array<string | number>) => string;

/** A state of the panel: its snapshot, and some of what the panel must say in it. */
export interface PanelState {
  name: string;
  snapshot: PanelSnapshot;
  says(t: Translate): string[];
}

/** Other states of the panel, each a whole snapshot; the last one is a stopped agent. */
export function otherStates(): PanelState[] {
  const base = {
    title: TITLE,
    tabs: [{ id: 'c1', title: TITLE, agentName: AGENT, status: 'ready' as const }],
    agents: [{ name: AGENT, commandLine: said('npx @zed-industries/claude-code-acp'), builtIn: false }],
    selectedAgent: AGENT,
  };
  const lint = {
    decision: 'allow',
    agent: AGENT,
    scope: 'global',
    toolKind: 'execute',
    matcher: { type: 'commandPrefix', prefix: said('npm run lint') },
  } as const;
  const curl = { decision: 'reject', agent: AGENT, scope: 'conversation', toolKind: 'fetch', matcher: { type: 'urlHost', host: said('example.com') } } as const;
  const presets = [
    { id: 'claude', name: said('Claude Code (Zed adapter)'), commandLine: said('npx -y @zed-industries/claude-code-acp') },
    { id: 'gemini', name: said('Gemini CLI'), commandLine: said('gemini --experimental-acp') },
  ];
  const answers: Entry[] = [
    { kind: 'question', id: 'qa', message: said('Pick a branch'), mode: 'form', state: { kind: 'answered', action: 'accept' } },
    { kind: 'question', id: 'qd', message: said('Pick a tag'), mode: 'form', state: { kind: 'answered', action: 'decline' } },
    { kind: 'question', id: 'qc', message: said('Pick a base'), mode: 'form', state: { kind: 'answered', action: 'cancel' } },
    {
      kind: 'question',
      id: 'qu',
      message: said('Authorize the GitHub app'),
      mode: 'url',
      url: said('https://github.com/login/device'),
      host: said('github.com'),
      state: { kind: 'pending' },
    },
    { kind: 'question', id: 'qx', message: said('Upload a file'), mode: 'form', unsupported: l10n.t('must be text'), state: { kind: 'pending' } },
    toolCall('cancelled', { title: said('Delete dist'), toolKind: 'delete', status: 'cancelled', permission: permission('r9', { kind: 'cancelled' }) }),
    toolCall('running', { title: said('Search for TODO'), toolKind: 'search', status: 'in_progress', content: [{ type: 'terminal', terminalId: 't2' }] }),
    {
      kind: 'auth',
      id: 'aw',
      agentName: AGENT,
      message: said('Sign in to continue'),
      methods: [{ id: 'oauth', name: said('Log in with Claude'), kind: 'agent' }],
      state: { kind: 'working', methodId: 'oauth' },
    },
    {
      kind: 'auth',
      id: 'ad',
      agentName: AGENT,
      message: said('Sign in to continue'),
      methods: [{ id: 'oauth', name: said('Log in with Claude'), kind: 'agent' }],
      state: { kind: 'done', methodId: 'oauth' },
    },
    {
      kind: 'auth',
      id: 'af',
      agentName: AGENT,
      message: said('Sign in to continue'),
      methods: [{ id: 'cli', name: said('Log in in a terminal'), kind: 'terminal', commandLine: said('npx -y @zed-industries/claude-agent-acp --cli') }],
      state: { kind: 'failed', methodId: 'cli', error: l10n.t('The sign-in command exited with code {0}', 1) },
    },
    { kind: 'compaction', id: 'kp', compactionId: 'k2', status: 'in_progress', summary: '' },
    { kind: 'compaction', id: 'kf', compactionId: 'k3', status: 'failed', summary: '', error: said('context too small') },
    { kind: 'turn_end', id: 'te1', stopReason: 'cancelled' },
    { kind: 'turn_end', id: 'te2', stopReason: 'max_tokens' },
    { kind: 'turn_end', id: 'te3', stopReason: 'max_turn_requests' },
    { kind: 'turn_end', id: 'te4', stopReason: 'refusal' },
  ];
  const opening = snapshot({
    ...base,
    status: { kind: 'starting', agentName: AGENT, detail: l10n.t('Opening a session…') },
    modes: {
      currentModeId: 'ask',
      available: [
        { id: 'ask', name: said('Ask'), description: said('Asks before every edit') },
        { id: 'code', name: said('Code mode') },
      ],
    },
    review: {
      files: [{ path: '/w/src/login.ts', relPath: 'src/login.ts', status: 'deleted', added: 0, removed: 3, binary: false, restorable: true }],
      busy: true,
      error: l10n.t('That did not work: {0}', said('EACCES: permission denied')),
    },
    entries: [
      toolCall('saved', {
        title: said('npm run lint'),
        toolKind: 'execute',
        status: 'completed',
        permission: {
          ...permission('r5', { kind: 'selected', optionId: 'always' }),
          proposal: {
            decision: 'allow',
            matcherType: 'commandPrefix',
            value: 'npm run lint',
            scope: 'global',
            agent: AGENT,
            label: ruleLabel(lint),
            state: 'saved',
            ruleId: 'rule-2',
          },
        },
      }),
      toolCall('refused', {
        title: said('curl example.com'),
        toolKind: 'fetch',
        status: 'failed',
        permission: {
          ...permission('r6', { kind: 'selected', optionId: 'reject' }),
          proposal: {
            decision: 'reject',
            matcherType: 'urlHost',
            value: 'example.com',
            scope: 'conversation',
            agent: AGENT,
            label: ruleLabel(curl),
            state: 'offered',
            error: l10n.t('There is no rule with id {0}.', said('rule-9')),
          },
        },
      }),
      toolCall('denied', {
        title: said('rm -rf build'),
        toolKind: 'delete',
        status: 'failed',
        permission: {
          ...permission('r7', { kind: 'selected', optionId: 'reject' }),
          rule: { id: 'rule-3', label: ruleLabel({ ...curl, scope: 'global' }), decision: 'reject' },
        },
      }),
      {
        kind: 'notice',
        id: 'n1',
        level: 'warning',
        message: l10n.t('{0} cannot restore earlier sessions, so it starts fresh: it does not remember the conversation above.', AGENT),
      },
    ],
  });
  const paused = l10n.t('The last turn was cancelled.');
  const stoppedReason = l10n.t('exited with code {0}', 1);
  return [
    {
      name: 'no agent configured',
      snapshot: snapshot({ ...base, status: { kind: 'no_agent' }, agents: [], selectedAgent: undefined, presets, tabs: [] }),
      says: (t) => [t('No agent configured'), t('Add'), t('Add {0}', 'Gemini CLI')],
    },
    {
      name: 'untrusted workspace',
      snapshot: snapshot({ ...base, status: { kind: 'untrusted' } }),
      says: (t) => [t('Workspace not trusted'), t('To trust it, run "Workspaces: Manage Workspace Trust" from the Command Palette.')],
    },
    {
      name: 'not connected, queue paused',
      snapshot: snapshot({ ...base, status: { kind: 'idle', agentName: AGENT }, queue: { items: [{ id: 'q1', text: said('继续') }], paused } }),
      says: (t) => [t('{0} (not connected)', AGENT), t('{0} not sent: {1}', 1, paused), t('Resume'), t('Send the queued prompts in order'), t('Clear')],
    },
    {
      name: 'starting',
      snapshot: snapshot({ ...base, status: { kind: 'starting', agentName: AGENT }, queue: { items: [{ id: 'q1', text: said('继续') }] } }),
      says: (t) => [t('Starting {0}…', AGENT), t('{0} waiting: {1}', 1, t('sent when {0} is ready', AGENT))],
    },
    {
      name: 'opening a session, modes, saved and failed rules, a review that failed',
      snapshot: opening,
      says: (t) => [
        t('{0}: {1}', AGENT, l10n.t('Opening a session…')),
        t('Mode: {0} — {1}', 'Ask', 'Asks before every edit'),
        t('Rule saved:'),
        t('Rules…'),
        t('Save reject rule'),
        t('Rejected by rule:'),
        t('Undo {0}', 'src/login.ts'),
        t('{0}: ', t('deleted')),
      ],
    },
    {
      name: 'answers and progress',
      snapshot: snapshot({
        ...base,
        status: { kind: 'cancelling', agentName: AGENT },
        entries: answers,
        terminals: { t2: terminal('t2', { command: said('grep -rn TODO src'), output: said('src/a.ts:1: TODO\n') }) },
      }),
      says: (t) => [
        t('Stopping {0}…', AGENT),
        t('Answered.'),
        t('Declined.'),
        t('Cancelled.'),
        t('Open {0} in the browser', 'github.com'),
        t('Signing in…'),
        t('Signed in.'),
        t('Compacting the conversation…'),
        t('Compacting failed: {0}', 'context too small'),
        t('Stopped: the agent reached its token limit'),
        t('Running…'),
      ],
    },
    {
      name: 'stopped',
      snapshot: snapshot({ ...base, status: { kind: 'stopped', agentName: AGENT, reason: stoppedReason } }),
      says: (t) => [t('{0} stopped', AGENT), t('{0} stopped: {1}', AGENT, stoppedReason), t('Restart')],
    },
  ];
}
