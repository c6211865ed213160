/** Session settings, usage meter, sign-in card, questions and compaction in real Chromium: DOM contract and what is posted. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthEntry, ConfigOptionView, QuestionEntry } from '../../src/protocol/messages';
import { ready, snapshot } from './harness/fixtures';
import { useHarness } from './harness/harness';

const harness = useHarness();

const OPTIONS: ConfigOptionView[] = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'sonnet',
    choices: [
      { value: 'haiku', name: 'Haiku', group: 'Fast' },
      { value: 'sonnet', name: 'Sonnet', group: 'Smart' },
    ],
  },
  {
    id: 'effort',
    name: 'Reasoning',
    category: 'thought_level',
    type: 'select',
    currentValue: 'low',
    choices: [
      { value: 'low', name: 'Low' },
      { value: 'high', name: 'High' },
    ],
  },
  { id: 'web', name: 'Web search', type: 'boolean', currentValue: false },
  {
    id: 'style',
    name: 'Answer style',
    type: 'select',
    currentValue: 'brief',
    choices: [
      { value: 'brief', name: 'Brief' },
      { value: 'long', name: 'Detailed' },
    ],
  },
];

test('config options: header pickers for mode/model/reasoning, the rest in an options menu; data-config-id, names, current values; changes are posted', async () => {
  // Wide enough for every header picker to stay inline (narrower, they move into the menu: readableHeader.test.ts).
  const panel = await harness().open({ width: 800 });
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot({ configOptions: OPTIONS }) });
  const model = page.locator('[data-config-id="model"]');
  assert.equal(await model.getAttribute('aria-label'), 'Model');
  assert.equal(await model.inputValue(), 'sonnet');
  assert.deepEqual(await model.locator('optgroup').evaluateAll((g) => g.map((x) => x.getAttribute('label'))), ['Fast', 'Smart']);
  assert.equal(await page.locator('header [data-config-id="effort"]').count(), 1, 'reasoning level in the header');
  assert.equal(await page.locator('header [data-config-id="style"]').count(), 0, 'other options are in the menu');
  const menuButton = page.getByRole('button', { name: 'Session options' });
  assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
  await menuButton.click();
  const menu = page.getByRole('group', { name: 'Session options' });
  assert.equal(await menu.locator('[data-config-id="style"]').inputValue(), 'brief');
  const web = menu.getByRole('checkbox', { name: 'Web search' });
  assert.equal(await web.getAttribute('data-config-id'), 'web');
  assert.equal(await web.isChecked(), false);
  await panel.clearPosted();
  await model.selectOption('haiku');
  await web.check();
  assert.deepEqual(await panel.posted(), [
    { type: 'setConfigOption', configId: 'model', value: 'haiku', conversationId: 'c1' },
    { type: 'setConfigOption', configId: 'web', value: true, conversationId: 'c1' },
  ]);
  // The host refuses the model change: the options it restates put the picker back.
  await panel.post({ type: 'configOptionsChanged', options: OPTIONS });
  await panel.settle();
  assert.equal(await page.locator('[data-config-id="model"]').inputValue(), 'sonnet');
  assert.equal(
    (await page.getByRole('combobox', { name: 'Mode', exact: true }).count()) === 0 ||
      (await page.getByRole('combobox', { name: 'Mode', exact: true }).isHidden()),
    true,
    'no legacy Mode picker next to config options',
  );
  await page.close();
});

test('usage meter: hidden without usage, text and warning level from used/size, cost when given', async () => {
  const panel = await harness().open();
  const { page } = panel;
  await panel.post({ type: 'snapshot', snapshot: snapshot() });
  const meter = page.getByRole('meter', { name: 'Context used' });
  assert.equal(await meter.isHidden(), true);
  await panel.post({ type: 'usageChanged', usage: { used: 84_000, size: 200_000 } });
  await panel.settle();
  assert.equal(await meter.textContent(), 'Context 42% · 84k / 200k');
  assert.equal(await meter.getAttribute('data-level'), 'ok');
  await panel.post({ type: 'usageChanged', usage: { used: 170_000, size: 200_000, cost: { amount: 1.5, currency: 'USD' } } });
  await panel.settle();
  assert.match(String(await meter.textContent()), /^Context 85% · 170k \/ 200k · \$1\.50$/);
  assert.equal(await meter.getAttribute('data-level'), 'warning');
  await panel.post({ type: 'usageChanged', usage: { used: 195_000, size: 200_000 } });
  await panel.settle();
  assert.equal(await meter.getAttribute('data-level'), 'critical');
  assert.match(String(await meter.getAttribute('title')), /forgets or compacts/);
  await page.close();
});

test('sign-in card: one button per method with what it does; the state follows the host', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const card: AuthEntry = {
    kind: 'auth',
    id: 'a1',
    agentName: 'Gemini',
    message: 'Authentication required',
    methods: [
      { id: 'oauth', name: 'Log in with Google', kind: 'agent' },
      { id: 'key', name: 'Use an API key', kind: 'envVar', envVar: 'GEMINI_API_KEY' },
      { id: 'cli', name: 'Log in in a terminal', kind: 'terminal' },
    ],
    state: { kind: 'waiting' },
  };
  await panel.post({ type: 'snapshot', snapshot: snapshot({ status: { kind: 'stopped', agentName: 'Gemini', reason: 'Sign-in required' }, entries: [card] }) });
  const article = page.locator('[data-entry-kind="auth"]');
  assert.match(String(await article.textContent()), /Gemini needs you to sign in/);
  assert.match(String(await article.textContent()), /Asks for the key \(GEMINI_API_KEY\) and keeps it in VS Code’s secret storage/);
  await panel.clearPosted();
  await article.getByRole('button', { name: 'Log in in a terminal' }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'authenticate', methodId: 'cli', conversationId: 'c1' }]);
  await panel.post({ type: 'entryUpserted', entry: { ...card, state: { kind: 'failed', methodId: 'cli', error: 'The sign-in command exited with code 1' } } });
  await panel.settle();
  assert.match(String(await article.getByRole('alert').textContent()), /exited with code 1/);
  await panel.post({ type: 'entryUpserted', entry: { ...card, state: { kind: 'done', methodId: 'oauth' } } });
  await panel.settle();
  assert.equal(await article.getByRole('button', { name: 'Log in with Google' }).isDisabled(), true);
  await page.close();
});

test('questions: a form posts its content, keeps what was typed when the host finds a problem; a link needs consent; compaction divider', async () => {
  const panel = await harness().open();
  const { page } = panel;
  const form: QuestionEntry = {
    kind: 'question',
    id: 'q1',
    message: 'Tell me about the project',
    mode: 'form',
    fields: [
      { name: 'name', title: 'Project name', type: 'string', required: true },
      { name: 'count', title: 'How many', type: 'integer', required: false },
      {
        name: 'lang',
        title: 'Language',
        type: 'choice',
        required: false,
        choices: [
          { value: 'ts', title: 'TypeScript' },
          { value: 'py', title: 'Python' },
        ],
      },
      { name: 'tests', title: 'Write tests', type: 'boolean', required: false, default: true },
    ],
    state: { kind: 'pending' },
  };
  const link: QuestionEntry = {
    kind: 'question',
    id: 'q2',
    message: 'Authorize',
    mode: 'url',
    url: 'https://xn--80ak6aa92e.com/auth',
    host: 'xn--80ak6aa92e.com',
    hostWarning: 'The host is an internationalised name (punycode)',
    state: { kind: 'pending' },
  };
  await panel.post({
    type: 'snapshot',
    snapshot: snapshot({
      status: ready,
      entries: [form, link, { kind: 'compaction', id: 'k1', compactionId: 'c', status: 'completed', summary: 'We fixed **login**.' }],
    }),
  });
  const card = page.locator('[data-entry-kind="question"]').first();
  await card.getByLabel('Project name').fill('x');
  await card.getByLabel('How many').fill('3');
  await card.getByLabel('Language').selectOption('ts');
  await panel.clearPosted();
  await card.getByRole('button', { name: 'Accept' }).click();
  assert.deepEqual(await panel.posted(), [
    { type: 'answerQuestion', entryId: 'q1', action: 'accept', content: { name: 'x', count: 3, lang: 'ts', tests: true }, conversationId: 'c1' },
  ]);
  await panel.post({ type: 'entryUpserted', entry: { ...form, errors: { name: 'Project name needs at least 2 characters.' } } });
  await panel.settle();
  assert.equal(await card.getByLabel('Project name').inputValue(), 'x', 'what the user typed stays');
  assert.match(String(await card.getByRole('alert').textContent()), /at least 2 characters/);

  const url = page.locator('[data-entry-kind="question"]').nth(1);
  assert.match(String(await url.textContent()), /https:\/\/xn--80ak6aa92e\.com\/auth/);
  assert.match(String(await url.getByRole('alert').textContent()), /punycode/);
  await panel.clearPosted();
  await url.getByRole('button', { name: /^Open xn--80ak6aa92e\.com/ }).click();
  assert.deepEqual(await panel.posted(), [{ type: 'openQuestionUrl', entryId: 'q2', conversationId: 'c1' }]);
  const divider = page.getByRole('group', { name: 'Conversation compacted' });
  assert.match(String(await divider.textContent()), /Conversation compacted/);
  assert.deepEqual(panel.errors, []);
  await page.close();
});
