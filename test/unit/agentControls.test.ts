/**
 * What an agent offers or asks besides a turn, over a real scripted agent: session settings
 * (config options flat, grouped and boolean, the older models), sign-in (agent, API-key and
 * terminal methods), usage, questions (form and url), notices and compaction — and that Tandem
 * advertises each capability it implements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, QuestionEntry } from '../../src/protocol/messages';
import { mcpSecrets, parseMcpServers } from '../../src/conversation/mcpServers';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { until, type ScriptedSession } from '../support/scriptedSession';
import { conversationRig } from '../support/conversationRig';

const rigs = conversationRig('tandem-controls-');

const said = (r: ScriptedSession): string =>
  r.session
    .snapshotParts()
    .entries.filter((e) => e.kind === 'agent')
    .map((e) => (e as { text: string }).text)
    .join('\n');
const of = <K extends Entry['kind']>(r: ScriptedSession, kind: K) =>
  r.session.snapshotParts().entries.filter((e): e is Extract<Entry, { kind: K }> => e.kind === kind);

const OPTIONS: NonNullable<NonNullable<AgentScript['newSession']>['configOptions']> = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'sonnet',
    options: [
      { group: 'fast', name: 'Fast', options: [{ value: 'haiku', name: 'Haiku' }] },
      {
        group: 'smart',
        name: 'Smart',
        options: [
          { value: 'sonnet', name: 'Sonnet' },
          { value: 'opus', name: 'Opus' },
        ],
      },
    ],
  },
  {
    id: 'effort',
    name: 'Reasoning',
    category: 'thought_level',
    type: 'select',
    currentValue: 'medium',
    options: [
      { value: 'low', name: 'Low' },
      { value: 'medium', name: 'Medium' },
      { value: 'high', name: 'High' },
    ],
  },
  { id: 'web', name: 'Web search', type: 'boolean', currentValue: false },
];

test('config options: grouped and boolean pickers from session/new, set_config_option rendered from its answer, refusals revert; modes hide', async () => {
  const remembered: Array<[string, string, string | boolean]> = [];
  const r = rigs.session(
    {
      newSession: { configOptions: OPTIONS, modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] } },
      setConfigOption: { sideEffects: { model: { opus: { effort: 'high' } } } },
      turns: [{ steps: [{ configOptions: [{ ...OPTIONS[2], currentValue: true }] }] }],
    },
    { extra: { rememberOption: (agent, id, value) => remembered.push([agent, id, value]) } },
  );
  await r.session.start();
  const snapshot = r.session.snapshotParts();
  assert.deepEqual(
    snapshot.configOptions?.map((o) => [o.id, o.currentValue]),
    [
      ['model', 'sonnet'],
      ['effort', 'medium'],
      ['web', false],
    ],
  );
  assert.deepEqual(
    snapshot.configOptions?.[0].choices?.map((c) => `${c.group}/${c.value}`),
    ['Fast/haiku', 'Smart/sonnet', 'Smart/opus'],
  );
  assert.equal(snapshot.modes, undefined, 'the legacy Mode picker hides when config options exist');
  const settings = r.session.conversation.internals.settings;
  assert.equal(await settings.setConfigOption('model', 'opus'), true);
  // Rendered from the answer: the agent raised the reasoning level with the model.
  assert.deepEqual(
    r.session.snapshotParts().configOptions?.map((o) => o.currentValue),
    ['opus', 'high', false],
  );
  assert.equal(await settings.setConfigOption('web', true), true);
  assert.deepEqual(remembered, [
    ['Scripted', 'model', 'opus'],
    ['Scripted', 'web', true],
  ]);
  assert.equal(await settings.setConfigOption('model', 'gpt-9'), false, 'a value that is not a choice is not sent');
  assert.equal(r.received().filter((m) => m.method === 'session/set_config_option').length, 2);
  await r.session.prompt('go');
  assert.equal(r.session.snapshotParts().configOptions?.length, 1, 'config_option_update replaces the list');
});

test('config options: an agent refusal says why and the picker reverts; remembered choices are applied to new sessions', async () => {
  const r = rigs.session(
    { newSession: { configOptions: OPTIONS }, setConfigOption: { error: { code: -32603, message: 'quota exceeded' } } },
    { extra: { rememberedOptions: () => ({ effort: 'low', model: 'nope' }) } },
  );
  await r.session.start();
  await until(() => r.received().some((m) => m.method === 'session/set_config_option'), 'the remembered setting applied');
  const sent = r
    .received()
    .filter((m) => m.method === 'session/set_config_option')
    .map((m) => (m.params as { configId: string }).configId);
  assert.deepEqual(sent, ['effort'], 'only valid remembered values are applied');
  assert.equal(await r.session.conversation.setConfigOption('web', true), false);
  const error = of(r, 'error').pop();
  assert.match(error?.message ?? '', /could not change Web search to on: quota exceeded/);
  assert.equal(r.session.snapshotParts().configOptions?.find((o) => o.id === 'web')?.currentValue, false);
});

test('the older models shape gets a Model picker set with session/set_model', async () => {
  const r = rigs.session({
    newSession: {
      models: {
        currentModelId: 'a',
        availableModels: [
          { modelId: 'a', name: 'Model A' },
          { modelId: 'b', name: 'Model B' },
        ],
      },
    },
  });
  await r.session.start();
  assert.deepEqual(
    r.session.snapshotParts().configOptions?.map((o) => [o.id, o.currentValue, o.category]),
    [['model', 'a', 'model']],
  );
  assert.equal(await r.session.conversation.setConfigOption('model', 'b'), true);
  assert.ok(r.received().some((m) => m.method === 'session/set_model' && (m.params as { modelId: string }).modelId === 'b'));
  assert.equal(r.session.snapshotParts().configOptions?.[0].currentValue, 'b');
});

test('usage: the meter follows usage_update; per-turn usage from the answer shows on the turn end', async () => {
  const r = rigs.session({
    turns: [
      { steps: [{ usage: { used: 84_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } } }], usage: { inputTokens: 12_000, outputTokens: 340 } },
    ],
  });
  await r.session.start();
  assert.equal(r.session.snapshotParts().usage, undefined, 'nothing shown for an agent that sent none');
  await r.session.prompt('go');
  assert.deepEqual(r.session.snapshotParts().usage, { used: 84_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } });
  assert.equal(of(r, 'turn_end')[0].usage, '12k in · 340 out');
});

test('sign-in: an API-key method asks for the key its variable names; a terminal method runs the agent’s login and then the session opens', async () => {
  const marker = join(rigs.dir, 'login-marker.json');
  const ran: string[][] = [];
  const asked: string[] = [];
  const confirmed: string[] = [];
  const r = rigs.session(
    {
      initialize: {
        authMethods: [
          { id: 'key', name: 'Use an API key', description: 'Requires setting the SCRIPTED_API_KEY environment variable' },
          { id: 'cli', name: 'Log in', description: 'Runs the login', type: 'terminal', args: ['--scripted-login'] },
        ],
      },
      newSession: { requireAuth: true },
      authenticate: { requireEnv: 'SCRIPTED_API_KEY' },
    },
    {
      env: { SCRIPTED_AGENT_LOGIN_FILE: marker },
      extra: {
        // The user closes the key box without entering anything.
        askSecret: async (_agent, variable) => {
          asked.push(variable.name);
          return false;
        },
        // The user agrees to run the command line the card shows.
        confirmSignInCommand: async (_agent, commandLine) => {
          confirmed.push(commandLine);
          return true;
        },
        // The terminal: the agent's own command with the method's args, run for real.
        runSignInTerminal: (spec) =>
          new Promise((resolve) => {
            ran.push([spec.command, ...spec.args]);
            const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: 'ignore' });
            child.on('exit', (code) => resolve(code ?? undefined));
          }),
      },
    },
  );
  await r.session.start();
  const card = of(r, 'auth')[0];
  assert.deepEqual(
    card.methods.map((m) => [m.id, m.kind, m.envVar]),
    [
      ['key', 'envVar', 'SCRIPTED_API_KEY'],
      ['cli', 'terminal', undefined],
    ],
  );
  await r.session.conversation.authenticate('key');
  // The key is not in the agent's environment (authenticate refused it): the box asks for it.
  assert.deepEqual(asked, ['SCRIPTED_API_KEY']);
  assert.equal(of(r, 'auth')[0].state.kind, 'waiting', 'closed without a key: the card waits for another try');
  await r.session.conversation.authenticate('cli');
  await r.session.settled();
  assert.equal(of(r, 'auth')[0].state.kind, 'done');
  assert.ok(existsSync(marker), 'the login command ran');
  assert.ok(ran[0].includes('--scripted-login') && ran[0].some((a) => a.endsWith('scriptedAgent.js')), 'the agent’s own invocation with the method’s args');
  assert.equal(confirmed.length, 1, 'asked once before running');
  assert.ok(confirmed[0].endsWith('--scripted-login') && confirmed[0].includes('scriptedAgent.js'), confirmed[0]);
  assert.equal(card.methods[1].commandLine, confirmed[0], 'the card showed the line that was asked about');
  assert.equal(r.session.status.kind, 'ready');
});

test('questions: a form is checked before Accept and answered with its content; a link opens only on consent; Stop cancels', async () => {
  const opened: string[] = [];
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Project name', minLength: 2 },
      count: { type: 'integer', title: 'How many' },
      lang: { type: 'string', enum: ['ts', 'py'] },
    },
    required: ['name'],
  };
  const r = rigs.session(
    {
      turns: [
        { steps: [{ elicit: { mode: 'form', message: 'Tell me about it', requestedSchema: schema } }] },
        {
          steps: [
            { elicit: { mode: 'url', message: 'Authorize the app', url: 'https://xn--80ak6aa92e.com/auth', elicitationId: 'e1' } },
            { elicitComplete: { elicitationId: 'e1' } },
          ],
        },
        { steps: [{ elicit: { mode: 'form', message: 'Still there?', requestedSchema: schema } }, { sleep: 5000 }] },
      ],
    },
    { extra: { openExternal: (url) => opened.push(url) } },
  );
  await r.session.start();
  const turn = r.session.prompt('one');
  await until(() => of(r, 'question').length === 1, 'the form');
  const q = r.session.conversation.internals.questions;
  const form = of(r, 'question')[0] as QuestionEntry;
  assert.deepEqual(
    form.fields?.map((f) => [f.name, f.type, f.required]),
    [
      ['name', 'string', true],
      ['count', 'integer', false],
      ['lang', 'choice', false],
    ],
  );
  q.answer(form.id, 'accept', { name: 'x', count: 2.5 });
  const invalid = of(r, 'question')[0];
  assert.deepEqual(invalid.errors, { name: 'Project name needs at least 2 characters.', count: 'How many must be a whole number.' });
  q.answer(form.id, 'accept', { name: 'Tandem', count: 3, lang: 'ts' });
  await turn;
  assert.match(said(r), /ELICIT: {"action":"accept","content":{"name":"Tandem","count":3,"lang":"ts"}}/);

  const second = r.session.prompt('two');
  await until(() => of(r, 'question').length === 2, 'the link question');
  const link = of(r, 'question')[1];
  assert.equal(link.host, 'xn--80ak6aa92e.com');
  assert.match(link.hostWarning ?? '', /punycode/);
  assert.deepEqual(opened, [], 'nothing opened before consent');
  q.openUrl(link.id);
  await second;
  assert.deepEqual(opened, ['https://xn--80ak6aa92e.com/auth']);
  assert.match(said(r), /ELICIT: {"action":"accept"}/);
  assert.equal(of(r, 'question')[1].state.kind, 'completed');

  const third = r.session.prompt('three');
  await until(() => of(r, 'question').length === 3, 'the third question');
  r.session.cancel();
  await third;
  assert.deepEqual(of(r, 'question')[2].state, { kind: 'answered', action: 'cancel' });
});

test('notices and compaction show in the thread; the capabilities Tandem advertises are the ones it implements', async () => {
  const r = rigs.session({
    turns: [
      {
        steps: [
          { notice: { severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' } },
          { compaction: { compactionId: 'c1', status: 'in_progress' } },
          { compactionChunk: { compactionId: 'c1', text: 'We fixed the **login** bug.' } },
          { compaction: { compactionId: 'c1', status: 'completed' } },
          { capabilities: true },
        ],
      },
    ],
  });
  await r.session.start();
  await r.session.prompt('go');
  assert.deepEqual(
    of(r, 'notice').map((n) => [n.level, n.message, n.fromAgent]),
    [['warning', 'Rate limited — Retrying in 5 s', true]],
  );
  const compaction = of(r, 'compaction');
  assert.equal(compaction.length, 1);
  assert.equal(compaction[0].status, 'completed');
  assert.equal(compaction[0].summary, 'We fixed the **login** bug.');
  const caps = JSON.parse(/CAPS: (.*)/.exec(said(r))?.[1] ?? 'null') as Record<string, unknown>;
  assert.deepEqual(caps.session, { configOptions: { boolean: {} }, notices: {}, compaction: {}, quota: {} });
  // The subagents RFD: child sessions are shown as nested child threads (subagentSessions.test.ts).
  assert.deepEqual(caps.subagents, {});
  assert.deepEqual(caps.elicitation, { form: {}, url: {} });
  assert.deepEqual(caps.auth, { terminal: false }, 'terminal sign-in only where a terminal can run it');
});

test('MCP servers: parsed from the settings shape, filtered by the agent\u2019s mcpCapabilities, dropped ones noted once; secrets listed for the logs', async () => {
  const vars = { workspaceFolder: '/ws', env: { TOKEN: 'secret-token-123' } };
  const parsed = parseMcpServers(
    {
      files: { command: 'npx', args: ['-y', 'mcp-files', '${workspaceFolder}'], env: { API: '${env:TOKEN}' } },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abcdef' } },
      stream: { type: 'sse', url: 'https://sse.example.com' },
      asks: { command: 'x', env: { KEY: '${input:key}' } },
      broken: { type: 'ws', url: 'wss://x' },
    },
    'tandem.mcpServers',
    vars,
  );
  assert.deepEqual(
    parsed.servers.map((s) => s.name),
    ['files', 'remote', 'stream'],
  );
  assert.deepEqual(parsed.servers[0].server, {
    name: 'files',
    command: 'npx',
    args: ['-y', 'mcp-files', '/ws'],
    env: [{ name: 'API', value: 'secret-token-123' }],
  });
  assert.deepEqual(
    parsed.dropped.map((d) => d.name),
    ['asks', 'broken'],
  );
  assert.deepEqual(mcpSecrets(parsed.servers).sort(), ['Bearer abcdef', 'secret-token-123']);

  const r = rigs.session(
    { initialize: { agentCapabilities: { mcpCapabilities: { http: true } } }, turns: [{ steps: [{ mcpServers: true }] }] },
    { extra: { mcpServers: () => parsed.servers, mcpProblems: () => parsed.dropped } },
  );
  await r.session.start();
  await r.session.prompt('which servers?');
  const sent = JSON.parse(/MCP: (.*)/.exec(said(r))?.[1] ?? 'null') as Array<{ name: string }>;
  assert.deepEqual(
    sent.map((s) => s.name),
    ['files', 'remote'],
    'sse left out: the agent does not support it',
  );
  const notes = of(r, 'notice').map((n) => n.message);
  assert.equal(notes.length, 3);
  assert.ok(notes.some((n) => /"stream" is not given to Scripted: the agent does not support sse MCP servers/.test(n)));
  assert.ok(notes.some((n) => /"asks".*\$\{input:/.test(n)));
});
