/**
 * The Markdown export (src/thread/markdown): golden files for whole conversations, and checks that
 * read the output back with a real Markdown parser (marked, the panel's), so a fence that breaks or
 * a secret that leaks fails even when the golden file was updated carelessly.
 *
 * Update the golden files after an intended change: `TANDEM_UPDATE_GOLDEN=1 node --import tsx --test test/unit/markdownExport.test.ts`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Lexer, type Token, type Tokens } from 'marked';
import { conversationMarkdown, entryMarkdown, exportDate, markdownFileName, type MarkdownSource } from '../../src/thread/markdown/conversationMarkdown';
import { closeOpenFences, fenced, inlineCode } from '../../src/thread/markdown/markdownFence';

const FIXTURES = join(__dirname, '..', 'fixtures', 'markdownExport');
const UPDATE = process.env.TANDEM_UPDATE_GOLDEN === '1';

interface Fixture {
  secrets: string[];
  source: MarkdownSource;
}

function load(name: string): Fixture {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;
}

function exported(name: string): { text: string; redactions: number; fixture: Fixture } {
  const fixture = load(name);
  return { ...conversationMarkdown(fixture.source, { secrets: fixture.secrets }), fixture };
}

/** Top-level tokens, without the blank space between blocks. */
function blocks(text: string): Token[] {
  return new Lexer().lex(text).filter((t) => t.type !== 'space');
}

const codes = (text: string) => blocks(text).filter((t): t is Tokens.Code => t.type === 'code');
const headings = (text: string) =>
  blocks(text)
    .filter((t): t is Tokens.Heading => t.type === 'heading')
    .map((t) => `${'#'.repeat(t.depth)} ${t.text}`);

for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))) {
  const name = file.replace(/\.json$/, '');
  test(`golden: ${name}.md`, () => {
    const { text } = exported(name);
    const golden = join(FIXTURES, `${name}.md`);
    if (UPDATE) writeFileSync(golden, text);
    assert.equal(text, readFileSync(golden, 'utf8'));
  });
}

test('replies: title, agent and date, one heading per turn side, thoughts quoted, a plain end of turn unsaid', () => {
  const { text } = exported('replies');
  assert.deepEqual(headings(text), ['# Explain the parser', '## You', '## Tandem Demo', '## You', '## Tandem Demo']);
  assert.match(text, /\*\*Agent:\*\* Tandem Demo/);
  assert.match(text, /\*\*Started:\*\* 2025-12-02 00:49 UTC/);
  assert.equal(codes(text).length, 1, 'the reply’s own code block stays one block');
  assert.equal(codes(text)[0].lang, 'ts');
  assert.ok(blocks(text).some((t) => t.type === 'blockquote' && t.raw.includes('I should read it.')));
  assert.match(text, /Turn ended: cancelled/);
  assert.doesNotMatch(text, /end_turn/);
});

test('tool calls: one line each (kind, title, status), the diff as a diff block, the command’s output in a fence', () => {
  const { text } = exported('toolCalls');
  const items = blocks(text)
    .filter((t): t is Tokens.List => t.type === 'list')
    .flatMap((l) => l.items.map((i) => i.text.trim()))
    .filter((i) => / · \*\w+\*$/.test(i));
  assert.deepEqual(items, [
    '**Read** · Read src/greet.ts · *completed*',
    '**Edit** · Edit src/greet.ts · *completed*',
    '**Run** · npm test · *failed*',
    '**Run** · git status --short · *completed*',
    '**Edit** · Edit big.txt · *running*',
  ]);
  assert.doesNotMatch(text, /^export const greet = 'hello';$/m, 'a read’s file content is not repeated');
  const [greet, notes, terminal, output, partial] = codes(text);
  assert.equal(greet.lang, 'diff');
  assert.equal(
    greet.text,
    [
      '--- a/src/greet.ts',
      '+++ b/src/greet.ts',
      '@@ -1,3 +1,3 @@',
      ' // greeting',
      "-export const greet = 'hello';",
      "+export const greet = 'Hello, world';",
      " export const bye = 'bye';",
    ].join('\n'),
  );
  assert.equal(notes.text, ['--- /dev/null', '+++ b/NOTES.md', '@@ -0,0 +1,2 @@', '+# Notes', '+fixed', '\\ No newline at end of file'].join('\n'));
  assert.equal(terminal.lang, 'console');
  assert.equal(terminal.text, '$ npm test\n> test\ndone\n1 failing', 'escapes gone, a redrawn line as last drawn');
  assert.match(text, /Exit code 1\./);
  assert.equal(output.text, ' M src/greet.ts\n?? NOTES.md');
  assert.equal(partial.text, ['--- a/big.txt', '+++ b/big.txt', '@@ -4,3 +4,3 @@', ' three'].join('\n'));
  assert.match(text, /big\.txt: 2 more lines of the diff not included/);
  assert.deepEqual(headings(text).slice(-1), ['## Files changed']);
  assert.match(text, /- `src\/greet\.ts` — modified \(\+1 −1\)\n- `NOTES\.md` — added \(\+2 −0\)\n- `big\.txt` — modified \(\+1 −1\)/);
});

test('plan: a task list with the running step said; the files changed come from the strip when it has any', () => {
  const { text } = exported('plan');
  const plan = blocks(text).find((t): t is Tokens.List => t.type === 'list' && t.items.some((i: Tokens.ListItem) => i.task));
  assert.ok(plan);
  assert.deepEqual(
    plan.items.map((i) => [i.checked, i.text]),
    [
      [true, 'Parse the flag'],
      [false, 'Log \\*more\\* when it is set *(in progress)*'],
      [false, 'Document it in README.md'],
    ],
  );
  assert.match(
    text,
    /- `src\/cli\.ts` — modified \(\+12 −3\)\n- `logo\.png` — added\n- `dist\/cli\.js` — deleted \(\+0 −40\) \*\(not by the agent’s edits\)\*/,
  );
  assert.match(text, /> \*\*Error:\*\* The agent stopped\./);
});

test('secrets: configured values and key shapes are masked everywhere, as in transcripts', () => {
  const { text, redactions } = exported('secrets');
  for (const leaked of ['hunter2-very-secret', 'sk-ant-api03-', 'sk-proj-', 'abcdefghijklmnopqrstuvwxyz123456'])
    assert.ok(!text.includes(leaked), `${leaked} leaked`);
  assert.ok(text.includes('[REDACTED]'));
  assert.ok(redactions >= 6, `masked ${redactions}`);
  assert.match(text, /^# Deploy with key \\\[REDACTED\\\]$/m, 'the title too');
  assert.match(text, /\+DB_PASSWORD=\[REDACTED\]/, 'inside a diff');
});

test('fences: nothing the agent wrote breaks the document', () => {
  const { text } = exported('fences');
  const tokens = blocks(text);
  // The last reply is still a paragraph of its own and the files changed still a heading: nothing swallowed them.
  assert.deepEqual(headings(text), ['# Fences \\`inside\\` the \\*title\\*', '## You', '## Tandem Demo', '## Files changed']);
  assert.ok(tokens.some((t) => t.type === 'paragraph' && t.text === 'Done.'));
  const [md, open, output, diff] = codes(text);
  assert.equal(md.lang, 'md');
  assert.match(md.text, /```js\nconsole\.log\(1\);\n```/);
  assert.equal(open.lang, 'python');
  assert.equal(open.text, "print('never closed')");
  assert.equal(output.text, 'Usage:\n```sh\nrun it\n```\n`````\nfive backticks');
  assert.equal(diff.lang, 'diff');
  assert.match(diff.text, /\+```$/);
});

test('Copy as Markdown: one message alone, masked, its open fence closed', () => {
  const { source } = load('fences');
  const reply = source.entries.find((e) => e.id === 'a1');
  assert.ok(reply);
  const { text } = entryMarkdown(reply, source, { secrets: [] });
  assert.ok(text.startsWith('Here:\n\n````md'));
  assert.ok(text.endsWith("print('never closed')\n```\n"));
  const masked = entryMarkdown({ kind: 'agent', id: 'x', text: 'key: sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' }, { terminals: {} }, { secrets: [] });
  assert.equal(masked.text, 'key: [REDACTED]\n');
  assert.equal(masked.redactions, 1);
  assert.equal(entryMarkdown({ kind: 'turn_end', id: 't', stopReason: 'end_turn' }, { terminals: {} }, { secrets: [] }).text, '');
});

test('fence helpers', () => {
  assert.equal(fenced('a\n```\nb', 'text'), '````text\na\n```\nb\n````');
  assert.equal(fenced('plain'), '```\nplain\n```');
  assert.equal(inlineCode('a`b'), '``a`b``');
  assert.equal(inlineCode('`x'), '`` `x ``');
  assert.equal(closeOpenFences('```\ncode\n```'), '```\ncode\n```');
  assert.equal(closeOpenFences('~~~~\n```\n'), '~~~~\n```\n~~~~');
  assert.equal(closeOpenFences('inline ```not a fence``` here'), 'inline ```not a fence``` here');
  assert.equal(closeOpenFences('````\n```\nstill open'), '````\n```\nstill open\n````');
});

test('file name from the title, and the date in one form', () => {
  assert.equal(markdownFileName('Fix the login bug!'), 'fix-the-login-bug.md');
  assert.equal(markdownFileName('修复 登录'), '修复-登录.md');
  assert.equal(markdownFileName('../../etc/passwd'), 'etc-passwd.md');
  assert.equal(markdownFileName('   '), 'conversation.md');
  assert.equal(exportDate(Date.UTC(2026, 0, 2, 3, 4)), '2026-01-02 03:04 UTC');
});
