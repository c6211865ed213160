/**
 * Scoped permission rules (src/permissions): command-line tokenising and prefix matching (compound
 * commands never match), URL hosts, path globs, tool names, subjects built from tool call fields,
 * evaluation (agents, kinds, scopes, trust, reject precedence), the option that carries a verdict,
 * and proposals with their labels. Plus property tests of the conservative guarantees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fc from 'fast-check';
import type { ToolKind } from '../../src/protocol/messages';
import {
  commandFromArgv,
  commandPrefixProblem,
  isCompoundCommand,
  matchesCommandPrefix,
  quoteShellWord,
  tokenizeCommand,
} from '../../src/permissions/commandLine';
import { escapeGlob, globProblem, pathsMatchGlob } from '../../src/permissions/pathGlob';
import type { PathGlobOptions } from '../../src/permissions/pathGlob';
import { draftProblem, matcherTypeFor, parseRule } from '../../src/permissions/permissionRule';
import type { PermissionRule, RuleDraft, RuleMatcher, RuleScope } from '../../src/permissions/permissionRule';
import { mergeToolCallFacts, subjectFromToolCall } from '../../src/permissions/permissionSubject';
import type { PermissionSubject } from '../../src/permissions/permissionSubject';
import { evaluateRules, optionForVerdict, ruleMatches } from '../../src/permissions/ruleMatching';
import type { MatchContext } from '../../src/permissions/ruleMatching';
import { codeSpan, proposeCommandPrefix, proposeRule, ruleLabel } from '../../src/permissions/ruleProposal';
import { hostOfUrl, hostPatternProblem, urlMatchesHost } from '../../src/permissions/urlHost';

// A workspace root that need not exist: matching is lexical unless a realPath resolver is given.
const WS = path.resolve('/tmp/tandem-rules-ws');
const ws = (...parts: string[]): string => path.join(WS, ...parts);

const CTX: MatchContext = { agent: 'Claude Code', workspaceRoot: WS, workspaceTrusted: true, caseInsensitivePaths: false };

let nextId = 1;
function rule(toolKind: ToolKind, matcher: RuleMatcher, extra: Partial<PermissionRule> = {}): PermissionRule {
  return { id: `r${nextId++}`, agent: '*', toolKind, matcher, decision: 'allow', scope: 'workspace', ...extra };
}
const prefixRule = (prefix: string, extra: Partial<PermissionRule> = {}): PermissionRule => rule('execute', { type: 'commandPrefix', prefix }, extra);
const globRule = (toolKind: ToolKind, glob: string, extra: Partial<PermissionRule> = {}): PermissionRule => rule(toolKind, { type: 'pathGlob', glob }, extra);

function execSubject(command: string): PermissionSubject {
  return subjectFromToolCall({ title: `\`${command}\``, kind: 'execute', rawInput: { command } }, WS);
}
function pathSubject(toolKind: ToolKind, ...paths: string[]): PermissionSubject {
  return { toolKind, title: 'x', paths };
}
function globOpts(decision: 'allow' | 'reject', extra: Partial<PathGlobOptions> = {}): PathGlobOptions {
  return { decision, workspaceRoot: WS, caseInsensitive: false, ...extra };
}

// ---- command lines -------------------------------------------------------------------------------

test('tokenising honours single and double quotes and backslash escapes', () => {
  assert.deepEqual(tokenizeCommand(`npm test`), ['npm', 'test']);
  assert.deepEqual(tokenizeCommand(`  npm\t test  `), ['npm', 'test']);
  assert.deepEqual(tokenizeCommand(`echo 'a b' "c d" e\\ f`), ['echo', 'a b', 'c d', 'e f']);
  assert.deepEqual(tokenizeCommand(`echo 'it''s' "say \\"hi\\"" 'back\\slash'`), ['echo', 'its', 'say "hi"', 'back\\slash']);
  assert.deepEqual(tokenizeCommand(`echo "a\\nb" "\\$HOME" \\$x`), ['echo', 'a\\nb', '$HOME', '$x']);
  assert.deepEqual(tokenizeCommand(`echo '' ""`), ['echo', '', '']);
  assert.deepEqual(tokenizeCommand(`n"p"'m' te\\st`), ['npm', 'test']);
  assert.deepEqual(tokenizeCommand(''), []);
});

test('tokenising fails on unbalanced quotes, a trailing backslash and ANSI-C quoting', () => {
  for (const bad of [`echo "abc`, `echo 'abc`, `echo abc\\`, `echo "abc\\"`, `echo $'\\x41'`, `echo $"x"`, `'`]) {
    assert.equal(tokenizeCommand(bad), undefined, bad);
  }
});

test('compound commands never match a prefix rule, even when their first command would', () => {
  const cases: Array<[string, string]> = [
    ['ls', 'ls; rm -rf /'],
    ['ls', 'ls;rm -rf /'],
    ['ls', 'ls && rm x'],
    ['ls', 'ls || x'],
    ['ls', 'ls | sh'],
    ['ls', 'ls |& sh'],
    ['ls', 'ls & rm'],
    ['ls', 'ls &'],
    ['ls', 'ls > out'],
    ['ls', 'ls >> out'],
    ['ls', 'ls 2>&1'],
    ['cat', 'cat < in'],
    ['cat', 'cat <<EOF'],
    ['diff', 'diff <(ls) x'],
    ['echo', 'echo $(rm x)'],
    ['echo', 'echo "$(rm x)"'],
    ['echo', 'echo `rm x`'],
    ['echo', "echo '`rm x`'"],
    ['ls', 'ls\nrm x'],
    ['ls', 'ls\r\nrm x'],
    ['ls', 'ls \\\nrm x'],
    ['rm', '(rm x)'],
    ['ls', 'ls (x)'],
    ['git commit', 'git commit -m "fix; cleanup"'],
    ['ls', 'ls\u0000rm'],
    ['ls', 'ls\u001b[2J'],
  ];
  for (const [prefix, command] of cases) {
    assert.equal(isCompoundCommand(command), true, JSON.stringify(command));
    assert.equal(matchesCommandPrefix(prefix, command), false, `${prefix} vs ${JSON.stringify(command)}`);
    assert.deepEqual(evaluateRules([prefixRule(prefix)], execSubject(command), CTX), { decision: 'ask' }, JSON.stringify(command));
  }
});

test('a prefix matches whole words after quote removal, never part of a word', () => {
  const yes: Array<[string, string]> = [
    ['npm test', 'npm test'],
    ['npm test', 'npm test -- --watch'],
    ['npm test', '  npm   test  '],
    ['npm test', 'npm "test"'],
    ['npm test', `'npm' te''st x`],
    ['npm test', 'npm test FOO=1'],
    ['ls', 'ls -la'],
    ['git status', 'git status -s'],
    ['git commit -m "a b"', `git commit -m 'a b' --amend`],
    ['./build.sh', './build.sh --fast'],
  ];
  for (const [prefix, command] of yes) assert.equal(matchesCommandPrefix(prefix, command), true, `${prefix} vs ${command}`);
  const no: Array<[string, string]> = [
    ['npm test', 'npm testing'],
    ['npm test', 'npm  run test'],
    ['npm test', 'npm'],
    ['npm test', 'npmtest'],
    ['npm test', '"npm test"'],
    ['npm test', 'NPM test'],
    ['npm test', 'npm test "unbalanced'],
    ['npm test', `$'npm' test`],
    ['ls', 'lsblk'],
    ['ls', '/bin/ls'],
    ['git commit -m "a b"', 'git commit -m a b'],
    ['npm test', ''],
  ];
  for (const [prefix, command] of no) assert.equal(matchesCommandPrefix(prefix, command), false, `${prefix} vs ${command}`);
});

test('leading environment assignments never match (they change what the program does)', () => {
  for (const command of ['FOO=1 npm test', 'PATH=/tmp/evil npm test', 'A[0]=x npm test', 'X+=1 npm test', 'LD_PRELOAD=x.so npm test']) {
    assert.equal(matchesCommandPrefix('npm test', command), false, command);
  }
  assert.match(commandPrefixProblem('FOO=1 npm test') ?? '', /environment/);
});

test('invalid prefixes are reported and never match anything', () => {
  for (const prefix of ['', '   ', 'ls; rm', 'ls | sh', 'FOO=1 ls', '"unbalanced', "''"]) {
    assert.notEqual(commandPrefixProblem(prefix), undefined, JSON.stringify(prefix));
    assert.equal(matchesCommandPrefix(prefix, 'ls -la'), false, JSON.stringify(prefix));
    assert.equal(matchesCommandPrefix(prefix, prefix), false, JSON.stringify(prefix));
  }
  assert.equal(commandPrefixProblem('npm test'), undefined);
});

test('argv commands: shell wrappers become their script, other lists are quoted word by word', () => {
  assert.equal(commandFromArgv(['bash', '-lc', 'npm test']), 'npm test');
  assert.equal(commandFromArgv(['/bin/sh', '-c', 'ls; rm -rf /']), 'ls; rm -rf /');
  assert.equal(commandFromArgv(['npm', 'test', '--', '--watch']), 'npm test -- --watch');
  assert.equal(commandFromArgv(['echo', "it's", 'a b']), `echo 'it'\\''s' 'a b'`);
  assert.equal(commandFromArgv([]), undefined);
  assert.equal(matchesCommandPrefix('echo', commandFromArgv(['echo', 'a;b']) ?? ''), false);
  // bash with extra arguments is not the simple wrapper shape: judged as the words it is.
  assert.equal(matchesCommandPrefix('npm test', commandFromArgv(['bash', '-c', 'npm test', 'x']) ?? ''), false);
});

const OPERATORS = [';', '&&', '||', '|', '&', '>', '<', '>>', '2>', '$(', '`', '\n', '\r', '(', ')', '<(', '|&'];
const safeWord = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,7}$/);

test('property: inserting any compound operator anywhere makes every prefix rule miss', () => {
  fc.assert(
    fc.property(
      fc.array(safeWord, { minLength: 1, maxLength: 6 }),
      fc.constantFrom(...OPERATORS),
      fc.nat(),
      fc.constantFrom('', "'", '"'),
      (words, operator, at, quote) => {
        const clean = words.join(' ');
        const pos = at % (clean.length + 1);
        // The operator may land inside a word or inside quotes: still never a match.
        const command = `${clean.slice(0, pos)}${quote}${operator}${quote}${clean.slice(pos)}`;
        for (let n = 1; n <= words.length; n++) {
          if (matchesCommandPrefix(words.slice(0, n).join(' '), command)) return false;
        }
        return proposeCommandPrefix(command) === undefined;
      },
    ),
    { numRuns: 3000 },
  );
});

test('property: quoted words read back as the same words, and a command matches all its own word prefixes', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'binary-ascii', maxLength: 8 }), { minLength: 1, maxLength: 5 }), (words) => {
      const line = words.map(quoteShellWord).join(' ');
      assert.deepEqual(tokenizeCommand(line), words);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9 ._'"=/-]{1,8}$/), { minLength: 1, maxLength: 5 }), (words) => {
      fc.pre(!/=/.test(words[0]));
      const command = words.map(quoteShellWord).join(' ');
      for (let n = 1; n <= words.length; n++) {
        const prefix = words.slice(0, n).map(quoteShellWord).join(' ');
        assert.equal(matchesCommandPrefix(prefix, command), true, `${prefix} vs ${command}`);
      }
      const proposed = proposeCommandPrefix(command);
      assert.ok(proposed !== undefined && matchesCommandPrefix(proposed, command), `${proposed} vs ${command}`);
    }),
    { numRuns: 2000 },
  );
});

// ---- URL hosts -----------------------------------------------------------------------------------

test('URL hosts: exact host, or *.host for subdomains only; http(s) only', () => {
  assert.equal(urlMatchesHost('example.com', 'https://example.com/a?b'), true);
  assert.equal(urlMatchesHost('example.com', 'http://EXAMPLE.com:8080/'), true);
  assert.equal(urlMatchesHost('Example.COM', 'https://example.com./'), true);
  assert.equal(urlMatchesHost('example.com', 'https://www.example.com/'), false);
  assert.equal(urlMatchesHost('example.com', 'https://example.com.evil.test/'), false);
  assert.equal(urlMatchesHost('example.com', 'https://example.com@evil.test/'), false);
  assert.equal(urlMatchesHost('example.com', 'https://evil.test/?u=https://example.com'), false);
  assert.equal(urlMatchesHost('*.example.com', 'https://docs.example.com/x'), true);
  assert.equal(urlMatchesHost('*.example.com', 'https://a.b.example.com/x'), true);
  assert.equal(urlMatchesHost('*.example.com', 'https://example.com/'), false);
  assert.equal(urlMatchesHost('*.example.com', 'https://evilexample.com/'), false);
  assert.equal(urlMatchesHost('*.bücher.de', 'https://shop.xn--bcher-kva.de/'), true);
  assert.equal(urlMatchesHost('127.0.0.1', 'http://127.0.0.1:3000/'), true);
  assert.equal(urlMatchesHost('[::1]', 'http://[::1]:3000/'), true);
  for (const url of [
    'ftp://example.com/x',
    'file://example.com/etc/passwd',
    'javascript:alert(1)',
    'data:text/html,x',
    'example.com',
    '/relative',
    'https://',
    'not a url',
  ]) {
    assert.equal(urlMatchesHost('example.com', url), false, url);
  }
  assert.equal(hostOfUrl('ws://example.com/'), undefined);
});

test('host patterns are validated', () => {
  for (const good of ['example.com', '*.example.com', 'localhost', '127.0.0.1', '[::1]', 'EXAMPLE.com']) {
    assert.equal(hostPatternProblem(good), undefined, good);
  }
  for (const bad of [
    '',
    'https://example.com',
    'example.com/x',
    'example.com:80',
    'a b',
    '*',
    '*.com',
    '**.example.com',
    'ex*ample.com',
    'user@example.com',
    '*.127.0.0.1',
    'a%2fb',
  ]) {
    assert.notEqual(hostPatternProblem(bad), undefined, bad);
    assert.equal(urlMatchesHost(bad, 'https://example.com/'), false, bad);
  }
});

// ---- path globs ----------------------------------------------------------------------------------

test('path globs: src/**/*.ts, exact files, and paths outside the workspace', () => {
  const allow = globOpts('allow');
  assert.equal(pathsMatchGlob('src/**/*.ts', [ws('src/a.ts')], allow), true);
  assert.equal(pathsMatchGlob('src/**/*.ts', [ws('src/x/y/a.ts')], allow), true);
  assert.equal(pathsMatchGlob('src/**/*.ts', [ws('src/a.js')], allow), false);
  assert.equal(pathsMatchGlob('src/**/*.ts', [ws('lib/a.ts')], allow), false);
  assert.equal(pathsMatchGlob('src/a.ts', [ws('src/a.ts')], allow), true);
  assert.equal(pathsMatchGlob('src/a.ts', [ws('src/a.tsx')], allow), false);
  assert.equal(pathsMatchGlob('*.ts', [ws('src/a.ts')], allow), false, 'no basename matching');
  // Outside the workspace a relative glob never matches, however the path is spelled.
  for (const outside of ['/etc/passwd', `${WS}-other/src/a.ts`, `${WS}/../src/a.ts`, `${WS}/src/../../etc/a.ts`]) {
    assert.equal(pathsMatchGlob('**', [outside], allow), false, outside);
    assert.equal(pathsMatchGlob('**', [outside], globOpts('reject')), false, outside);
  }
  assert.equal(pathsMatchGlob('src/**', [`${WS}/lib/../src/./a.ts`], allow), true, 'normalised first');
  // Without a workspace only absolute globs can match.
  assert.equal(pathsMatchGlob('src/a.ts', [ws('src/a.ts')], globOpts('allow', { workspaceRoot: undefined })), false);
  assert.equal(pathsMatchGlob('/etc/**', ['/etc/hosts'], globOpts('allow', { workspaceRoot: undefined })), true);
  assert.equal(pathsMatchGlob('/etc/*', ['/etc/ssh/sshd_config'], allow), false);
});

test('allow needs every path to match; reject fires when any path matches; no path never matches', () => {
  const paths = [ws('src/a.ts'), ws('README.md')];
  assert.equal(pathsMatchGlob('src/**', paths, globOpts('allow')), false);
  assert.equal(pathsMatchGlob('src/**', paths, globOpts('reject')), true);
  assert.equal(pathsMatchGlob('{src/**,README.md}', paths, globOpts('allow')), true);
  assert.equal(pathsMatchGlob('**', [], globOpts('allow')), false);
  assert.equal(pathsMatchGlob('**', [], globOpts('reject')), false);
  // A path that could not be placed (not absolute) satisfies no allow rule.
  assert.equal(pathsMatchGlob('**', [ws('a.ts'), '~/x.ts'], globOpts('allow')), false);
  assert.equal(pathsMatchGlob('a.ts', [ws('a.ts'), '~/x.ts'], globOpts('reject')), true);
});

test('allow wildcards skip dot files and folders; reject wildcards include them', () => {
  for (const dotted of ['.env', '.git/hooks/pre-commit', 'src/.secret/a.ts', '.github/workflows/ci.yml']) {
    assert.equal(pathsMatchGlob('**', [ws(dotted)], globOpts('allow')), false, dotted);
    assert.equal(pathsMatchGlob('**', [ws(dotted)], globOpts('reject')), true, dotted);
  }
  assert.equal(pathsMatchGlob('.env', [ws('.env')], globOpts('allow')), true, 'named explicitly');
  assert.equal(pathsMatchGlob('.github/**', [ws('.github/workflows/ci.yml')], globOpts('allow')), true);
});

test('glob syntax cannot widen a rule: no negation, no comments, escapes are literal', () => {
  assert.equal(pathsMatchGlob('!secret.txt', [ws('other.txt')], globOpts('allow')), false);
  assert.equal(pathsMatchGlob('!secret.txt', [ws('!secret.txt')], globOpts('allow')), true);
  assert.equal(pathsMatchGlob('#x', [ws('#x')], globOpts('allow')), true);
  const literal = escapeGlob('app/[id]/{a,b}*.tsx');
  assert.equal(pathsMatchGlob(literal, [ws('app/[id]/{a,b}*.tsx')], globOpts('allow')), true);
  for (const other of ['app/i/a.tsx', 'app/[id]/a.tsx', 'app/[id]/{a,b}x.tsx']) {
    assert.equal(pathsMatchGlob(literal, [ws(other)], globOpts('allow')), false, other);
  }
});

test('invalid globs are reported and never match', () => {
  for (const bad of ['', '  ', '../x', 'src/../x', './src/a.ts', 'a\u0000b', 'x'.repeat(1001)]) {
    assert.notEqual(globProblem(bad), undefined, JSON.stringify(bad).slice(0, 40));
    assert.equal(pathsMatchGlob(bad, [ws('x')], globOpts('reject')), false);
  }
  assert.equal(globProblem('src/**/*.ts'), undefined);
});

test('case-insensitive file systems compare paths without case', () => {
  assert.equal(pathsMatchGlob('src/a.ts', [ws('SRC/A.TS')], globOpts('allow')), false);
  assert.equal(pathsMatchGlob('src/a.ts', [ws('SRC/A.TS')], globOpts('allow', { caseInsensitive: true })), true);
  const upperRoot = { workspaceRoot: WS.toUpperCase(), caseInsensitive: true };
  assert.equal(pathsMatchGlob('src/**', [ws('src/a.ts')], globOpts('reject', upperRoot)), true);
});

test('with a realPath resolver, a link pointing elsewhere is judged by both locations', () => {
  const links: Record<string, string> = { [ws('src/link.ts')]: '/home/me/.bashrc', [ws('alias/key')]: ws('secrets/key') };
  const realPath = (p: string): string => links[p] ?? p;
  assert.equal(pathsMatchGlob('src/**', [ws('src/link.ts')], globOpts('allow', { realPath })), false);
  assert.equal(pathsMatchGlob('src/**', [ws('src/plain.ts')], globOpts('allow', { realPath })), true);
  assert.equal(pathsMatchGlob('secrets/**', [ws('alias/key')], globOpts('reject', { realPath })), true);
  const failing = (): string => {
    throw new Error('EACCES');
  };
  assert.equal(pathsMatchGlob('src/**', [ws('src/a.ts')], globOpts('allow', { realPath: failing })), false);
  assert.equal(pathsMatchGlob('src/**', [ws('src/a.ts')], globOpts('reject', { realPath: failing })), true);
});

// ---- subjects from tool call fields ----------------------------------------------------------------

test('subject: commands from rawInput (string, argv, args), else from the title', () => {
  assert.equal(subjectFromToolCall({ kind: 'execute', rawInput: { command: 'npm test' } }, WS).command, 'npm test');
  assert.equal(subjectFromToolCall({ kind: 'execute', rawInput: { command: ['bash', '-lc', 'ls -la'] } }, WS).command, 'ls -la');
  assert.equal(subjectFromToolCall({ kind: 'execute', rawInput: { cmd: 'git status' } }, WS).command, 'git status');
  assert.equal(subjectFromToolCall({ kind: 'execute', rawInput: { command: 'npm', args: ['run', 'a b'] } }, WS).command, "npm run 'a b'");
  assert.equal(subjectFromToolCall({ kind: 'execute', rawInput: { command: 'npm', args: [1] } }, WS).command, undefined);
  // Claude Code: "`npm test`"; others may put the bare command in the title.
  assert.equal(subjectFromToolCall({ kind: 'execute', title: '`npm test`' }, WS).command, 'npm test');
  assert.equal(subjectFromToolCall({ kind: 'execute', title: 'ls -la' }, WS).command, 'ls -la');
  assert.equal(subjectFromToolCall({ kind: 'execute', title: '`echo \\`rm x\\``' }, WS).command, 'echo \\`rm x\\`');
  // A command field of a shape we cannot read means "unknown", not "use the title".
  assert.equal(subjectFromToolCall({ kind: 'execute', title: '`ls`', rawInput: { command: { x: 1 } } }, WS).command, undefined);
  assert.equal(subjectFromToolCall({ kind: 'read', title: 'ls -la' }, WS).command, undefined);
  // Kind inferred when the agent sent none.
  assert.equal(subjectFromToolCall({ rawInput: { command: 'ls' } }, WS).toolKind, 'execute');
});

test('subject: paths from locations, diffs and rawInput keys; relative to cwd; deduplicated', () => {
  const s = subjectFromToolCall(
    {
      kind: 'edit',
      locations: [{ path: ws('a.ts'), line: 3 }, { nope: 1 }, 'x'],
      content: [
        { type: 'diff', path: ws('b.ts'), newText: '' },
        { type: 'content', content: { type: 'text', text: 'x' } },
      ],
      rawInput: {
        file_path: ws('a.ts'),
        path: 'rel/c.ts',
        paths: [ws('d.ts'), 5],
        notebook_path: `file://${ws('e.ipynb')}`,
        source: ws('f.ts'),
        destination: '~/g.ts',
      },
    },
    WS,
  );
  assert.deepEqual(s.paths, [ws('a.ts'), ws('b.ts'), ws('rel/c.ts'), ws('e.ipynb'), ws('f.ts'), '~/g.ts', ws('d.ts')]);
  assert.deepEqual(subjectFromToolCall({ kind: 'read', rawInput: { path: 'x' } }, undefined).paths, ['x']);
  assert.deepEqual(subjectFromToolCall({ kind: 'read', rawInput: { file_path: ws('x/../y') } }, WS).paths, [ws('y')]);
});

test('subject: URL from rawInput, else a single URL in a fetch title; tool name from _meta, else the title', () => {
  assert.equal(subjectFromToolCall({ kind: 'fetch', rawInput: { url: 'https://a.test/x' } }, WS).url, 'https://a.test/x');
  assert.equal(subjectFromToolCall({ kind: 'fetch', title: 'Fetch https://a.test/x' }, WS).url, 'https://a.test/x');
  assert.equal(subjectFromToolCall({ kind: 'fetch', title: 'Fetch https://a.test then https://b.test' }, WS).url, undefined);
  assert.equal(subjectFromToolCall({ kind: 'fetch', title: 'Fetch https://a.test', rawInput: { url: 7 } }, WS).url, undefined);

  const meta = { claudeCode: { toolName: 'Grep' } };
  assert.equal(subjectFromToolCall({ kind: 'search', title: 'grep "x"', _meta: meta }, WS).toolName, 'Grep');
  assert.equal(subjectFromToolCall({ kind: 'search', title: 'Read /abs/file' }, WS).toolName, 'Read');
  assert.equal(subjectFromToolCall({ kind: 'other', title: 'mcp__srv__lookup: thing' }, WS).toolName, 'mcp__srv__lookup');
  assert.equal(subjectFromToolCall({ kind: 'execute', title: '`npm test`' }, WS).toolName, undefined);
  assert.equal(subjectFromToolCall({ kind: 'other' }, WS).toolName, undefined);
});

test('mergeToolCallFacts: what the request carries replaces what earlier updates said; null is absent', () => {
  const known = { title: '`npm test`', kind: 'execute', rawInput: { command: 'npm test' }, locations: [{ path: '/a' }] };
  assert.deepEqual(mergeToolCallFacts(known, { title: null, rawInput: { command: 'npm run x' } }), {
    title: '`npm test`',
    kind: 'execute',
    rawInput: { command: 'npm run x' },
    locations: [{ path: '/a' }],
  });
  assert.deepEqual(mergeToolCallFacts(undefined, { kind: 'read' }), { kind: 'read' });
});

// ---- rule validation -------------------------------------------------------------------------------

test('every kind has one matcher type, and rules are validated field by field', () => {
  const expected: Record<ToolKind, RuleMatcher['type']> = {
    read: 'pathGlob',
    edit: 'pathGlob',
    delete: 'pathGlob',
    move: 'pathGlob',
    execute: 'commandPrefix',
    fetch: 'urlHost',
    search: 'toolName',
    think: 'toolName',
    switch_mode: 'toolName',
    other: 'toolName',
  };
  for (const [kind, type] of Object.entries(expected)) assert.equal(matcherTypeFor(kind as ToolKind), type);

  const good = {
    id: 'x',
    agent: '*',
    toolKind: 'execute',
    matcher: { type: 'commandPrefix', prefix: 'ls', extra: 1 },
    decision: 'allow',
    scope: 'global',
    createdAt: '2025-01-01T00:00:00.000Z',
    junk: true,
  };
  assert.deepEqual(parseRule(good), {
    rule: {
      id: 'x',
      agent: '*',
      toolKind: 'execute',
      matcher: { type: 'commandPrefix', prefix: 'ls' },
      decision: 'allow',
      scope: 'global',
      createdAt: '2025-01-01T00:00:00.000Z',
    },
  });
  const bad: unknown[] = [
    null,
    [],
    { ...good, id: '' },
    { ...good, agent: '' },
    { ...good, agent: ' Claude' },
    { ...good, toolKind: 'teleport' },
    { ...good, decision: 'maybe' },
    { ...good, scope: 'folder' },
    { ...good, matcher: { type: 'pathGlob', glob: '**' } },
    { ...good, matcher: { type: 'commandPrefix', prefix: 'ls; rm' } },
    { ...good, matcher: 'ls' },
    { ...good, toolKind: 'fetch', matcher: { type: 'urlHost', host: 'http://x' } },
    { ...good, toolKind: 'search', matcher: { type: 'toolName', name: '' } },
  ];
  for (const value of bad) assert.ok('error' in parseRule(value), JSON.stringify(value));
});

// ---- evaluation ----------------------------------------------------------------------------------

test('the old defect: "always allow ls" does not allow rm -rf build', () => {
  const rules = [prefixRule('ls')];
  assert.equal(evaluateRules(rules, execSubject('ls -la'), CTX).decision, 'allow');
  assert.deepEqual(evaluateRules(rules, execSubject('rm -rf build'), CTX), { decision: 'ask' });
  assert.deepEqual(evaluateRules(rules, execSubject('ls; rm -rf build'), CTX), { decision: 'ask' });
});

test('rules match only their tool kind, and only with the fact their matcher needs', () => {
  const editRule = globRule('edit', 'src/**');
  assert.equal(ruleMatches(editRule, pathSubject('edit', ws('src/a.ts')), CTX), true);
  assert.equal(ruleMatches(editRule, pathSubject('read', ws('src/a.ts')), CTX), false);
  assert.equal(ruleMatches(editRule, pathSubject('delete', ws('src/a.ts')), CTX), false);
  assert.equal(ruleMatches(prefixRule('ls'), { toolKind: 'execute', title: '', paths: [] }, CTX), false);
  const fetchRule = rule('fetch', { type: 'urlHost', host: 'docs.rs' });
  assert.equal(ruleMatches(fetchRule, { toolKind: 'fetch', title: '', paths: [], url: 'https://docs.rs/x' }, CTX), true);
  assert.equal(ruleMatches(fetchRule, { toolKind: 'fetch', title: '', paths: [] }, CTX), false);
  const toolRule = rule('search', { type: 'toolName', name: 'Grep' });
  assert.equal(ruleMatches(toolRule, { toolKind: 'search', title: '', paths: [], toolName: 'Grep' }, CTX), true);
  assert.equal(ruleMatches(toolRule, { toolKind: 'search', title: '', paths: [], toolName: 'grep' }, CTX), false);
  assert.equal(ruleMatches(toolRule, { toolKind: 'search', title: '', paths: [], toolName: 'GrepAll' }, CTX), false);
  assert.equal(ruleMatches(toolRule, { toolKind: 'search', title: '', paths: [] }, CTX), false);
  // A rule object that fails validation (e.g. edited by hand) never matches.
  const broken = { ...prefixRule('ls'), matcher: { type: 'pathGlob', glob: '**' } } as PermissionRule;
  assert.equal(ruleMatches(broken, execSubject('ls'), CTX), false);
});

test('the agent filter: * for any agent, else the exact configured name', () => {
  const subject = execSubject('npm test');
  assert.equal(ruleMatches(prefixRule('npm test', { agent: '*' }), subject, CTX), true);
  assert.equal(ruleMatches(prefixRule('npm test', { agent: 'Claude Code' }), subject, CTX), true);
  assert.equal(ruleMatches(prefixRule('npm test', { agent: 'Gemini CLI' }), subject, CTX), false);
  assert.equal(ruleMatches(prefixRule('npm test', { agent: 'claude code' }), subject, CTX), false);
});

test('conversation, workspace and global rules all apply; the narrowest matching scope is reported', () => {
  const subject = execSubject('npm test');
  for (const scope of ['conversation', 'workspace', 'global'] as RuleScope[]) {
    const only = prefixRule('npm test', { scope });
    assert.deepEqual(evaluateRules([only], subject, CTX), { decision: 'allow', rule: only }, scope);
  }
  const global = prefixRule('npm', { scope: 'global' });
  const workspace = prefixRule('npm test', { scope: 'workspace' });
  const conversation = prefixRule('npm test', { scope: 'conversation' });
  const verdict = evaluateRules([global, workspace, conversation], subject, CTX);
  assert.equal(verdict.decision === 'allow' && verdict.rule.id, conversation.id);
});

test('reject rules win over allow rules, whatever their scopes', () => {
  const subject = execSubject('git push --force');
  const allowConversation = prefixRule('git push', { scope: 'conversation' });
  const rejectGlobal = prefixRule('git push --force', { scope: 'global', decision: 'reject' });
  assert.deepEqual(evaluateRules([allowConversation, rejectGlobal], subject, CTX), { decision: 'reject', rule: rejectGlobal });
  assert.equal(evaluateRules([allowConversation, rejectGlobal], execSubject('git push'), CTX).decision, 'allow');
  // Paths: a move out of a rejected folder is rejected even though another path is allowed.
  const move = pathSubject('move', ws('secrets/key'), ws('public/key'));
  const rules = [globRule('move', '**'), globRule('move', 'secrets/**', { decision: 'reject' })];
  assert.equal(evaluateRules(rules, move, CTX).decision, 'reject');
});

test('in an untrusted workspace no rule allows anything; reject rules still reject', () => {
  const untrusted: MatchContext = { ...CTX, workspaceTrusted: false };
  const allow = prefixRule('npm test', { scope: 'global' });
  const reject = prefixRule('rm', { scope: 'global', decision: 'reject' });
  assert.deepEqual(evaluateRules([allow, reject], execSubject('npm test'), untrusted), { decision: 'ask' });
  assert.deepEqual(evaluateRules([allow, reject], execSubject('rm -rf x'), untrusted), { decision: 'reject', rule: reject });
  assert.deepEqual(evaluateRules([], execSubject('npm test'), CTX), { decision: 'ask' });
});

test('evaluation never throws: a resolver that throws only stops allow rules from matching', () => {
  const ctx: MatchContext = {
    ...CTX,
    realPath: () => {
      throw new Error('boom');
    },
  };
  const rules = [globRule('edit', 'src/**')];
  assert.deepEqual(evaluateRules(rules, pathSubject('edit', ws('src/a.ts')), ctx), { decision: 'ask' });
});

test('the option carrying a verdict: allow_once only; reject_once, else reject_always', () => {
  const all = [
    { optionId: 'aa', kind: 'allow_always' },
    { optionId: 'a', kind: 'allow_once' },
    { optionId: 'r', kind: 'reject_once' },
    { optionId: 'rr', kind: 'reject_always' },
  ];
  const someRule = prefixRule('ls');
  assert.equal(optionForVerdict(all, { decision: 'allow', rule: someRule }), 'a');
  assert.equal(optionForVerdict(all, { decision: 'reject', rule: someRule }), 'r');
  assert.equal(optionForVerdict(all, { decision: 'ask' }), undefined);
  assert.equal(optionForVerdict([all[0], all[3]], { decision: 'allow', rule: someRule }), undefined);
  assert.equal(optionForVerdict([all[0], all[3]], { decision: 'reject', rule: someRule }), 'rr');
  assert.equal(optionForVerdict([], { decision: 'reject', rule: someRule }), undefined);
});

// ---- proposals -----------------------------------------------------------------------------------

const PROPOSE = { agent: 'Claude Code', decision: 'allow' as const, scope: 'workspace' as const, workspaceRoot: WS };

test('command proposals: program plus a subcommand-looking word; whole line for code runners', () => {
  const cases: Array<[string, string]> = [
    ['npm test -- --watch', 'npm test'],
    ['npm test', 'npm test'],
    ['git status -s', 'git status'],
    ['git log --oneline -5', 'git log'],
    ['ls -la', 'ls'],
    ['ls', 'ls'],
    ['ls src', 'ls src'],
    ['cat README.md', 'cat'],
    ['cat ./x', 'cat'],
    ['npm run build -- --prod', 'npm run build'],
    ['npm run test:unit', 'npm run test:unit'],
    ['pnpm exec tsc --noEmit', 'pnpm exec tsc'],
    ['npm run', 'npm run'],
    ['cargo build --release', 'cargo build'],
    ['./gradlew assemble', './gradlew assemble'],
    ['python build.py --fast', 'python build.py --fast'],
    ['/usr/bin/python3 -c "print(1)"', ''],
    ['sudo rm -rf /tmp/x', 'sudo rm -rf /tmp/x'],
    ['npx -y some-package', 'npx -y some-package'],
    ['bash script.sh', 'bash script.sh'],
    ['git commit -m "a b"', 'git commit'],
    ['"my tool" run it', "'my tool' run it"],
  ];
  for (const [command, expected] of cases) {
    assert.equal(proposeCommandPrefix(command) ?? '', expected, command);
    if (expected !== '') assert.equal(matchesCommandPrefix(expected, command), true, `proposal matches ${command}`);
  }
});

test('no command proposal for compound, unparseable or env-prefixed commands', () => {
  for (const command of [
    'ls; rm -rf /',
    'ls && rm x',
    'ls || x',
    'ls | sh',
    'ls & rm',
    'ls > out',
    'cat < in',
    'echo $(rm x)',
    'echo `rm x`',
    'ls\nrm',
    '(rm x)',
    'FOO=1 npm test',
    'echo "x',
    '',
    '   ',
  ]) {
    assert.equal(proposeCommandPrefix(command), undefined, JSON.stringify(command));
    assert.equal(proposeRule(execSubject(command), PROPOSE), undefined, JSON.stringify(command));
  }
});

test('proposals for every kind, each matching the request it came from', () => {
  const cases: Array<[PermissionSubject, RuleMatcher, string]> = [
    [execSubject('npm test -- --watch'), { type: 'commandPrefix', prefix: 'npm test' }, 'Allow `npm test` for Claude Code in this workspace'],
    [pathSubject('edit', ws('src/a.ts')), { type: 'pathGlob', glob: 'src/a.ts' }, 'Allow edits to `src/a.ts` for Claude Code in this workspace'],
    [pathSubject('read', ws('docs/x.md')), { type: 'pathGlob', glob: 'docs/x.md' }, 'Allow reading `docs/x.md` for Claude Code in this workspace'],
    [pathSubject('delete', ws('tmp/x')), { type: 'pathGlob', glob: 'tmp/x' }, 'Allow deleting `tmp/x` for Claude Code in this workspace'],
    [
      pathSubject('move', ws('a.ts'), ws('b/a.ts')),
      { type: 'pathGlob', glob: '{a.ts,b/a.ts}' },
      'Allow moving `{a.ts,b/a.ts}` for Claude Code in this workspace',
    ],
    [pathSubject('edit', ws('.env')), { type: 'pathGlob', glob: '.env' }, 'Allow edits to `.env` for Claude Code in this workspace'],
    [
      pathSubject('edit', ws('app/[id]/page.tsx')),
      { type: 'pathGlob', glob: 'app/\\[id\\]/page.tsx' },
      'Allow edits to `app/\\[id\\]/page.tsx` for Claude Code in this workspace',
    ],
    [pathSubject('read', '/etc/hosts'), { type: 'pathGlob', glob: '/etc/hosts' }, 'Allow reading `/etc/hosts` for Claude Code in this workspace'],
    [
      { toolKind: 'fetch', title: '', paths: [], url: 'https://Docs.RS/serde?x=1' },
      { type: 'urlHost', host: 'docs.rs' },
      'Allow fetching from `docs.rs` for Claude Code in this workspace',
    ],
    [
      { toolKind: 'search', title: 'grep', paths: [ws('a')], toolName: 'Grep' },
      { type: 'toolName', name: 'Grep' },
      'Allow the `Grep` tool for Claude Code in this workspace',
    ],
    [
      { toolKind: 'think', title: '', paths: [], toolName: 'TodoWrite' },
      { type: 'toolName', name: 'TodoWrite' },
      'Allow the `TodoWrite` tool for Claude Code in this workspace',
    ],
    [
      { toolKind: 'switch_mode', title: '', paths: [], toolName: 'ExitPlanMode' },
      { type: 'toolName', name: 'ExitPlanMode' },
      'Allow the `ExitPlanMode` tool for Claude Code in this workspace',
    ],
    [
      { toolKind: 'other', title: '', paths: [], toolName: 'mcp__x__y' },
      { type: 'toolName', name: 'mcp__x__y' },
      'Allow the `mcp__x__y` tool for Claude Code in this workspace',
    ],
  ];
  for (const [subject, matcher, label] of cases) {
    const proposal = proposeRule(subject, PROPOSE);
    assert.ok(proposal, label);
    assert.deepEqual(proposal.draft, { agent: 'Claude Code', toolKind: subject.toolKind, matcher, decision: 'allow', scope: 'workspace' });
    assert.equal(proposal.label, label);
    assert.equal(draftProblem(proposal.draft), undefined);
    const saved: PermissionRule = { id: 'p', ...proposal.draft };
    assert.equal(ruleMatches(saved, subject, CTX), true, `proposal matches its request: ${label}`);
    assert.equal(ruleMatches({ ...saved, decision: 'reject' }, subject, CTX), true, `as a reject rule too: ${label}`);
  }
  // Narrow: the exact-path proposal does not cover a neighbour.
  const edit = proposeRule(pathSubject('edit', ws('src/a.ts')), PROPOSE);
  assert.equal(ruleMatches({ id: 'p', ...edit!.draft }, pathSubject('edit', ws('src/b.ts')), CTX), false);
  const brackets = proposeRule(pathSubject('edit', ws('app/[id]/page.tsx')), PROPOSE);
  assert.equal(ruleMatches({ id: 'p', ...brackets!.draft }, pathSubject('edit', ws('app/i/page.tsx')), CTX), false);
});

test('no proposal when the request gives nothing narrow to match', () => {
  const none: PermissionSubject[] = [
    pathSubject('edit'),
    pathSubject('edit', ws('a.ts'), '~/b.ts'),
    { toolKind: 'execute', title: '', paths: [] },
    { toolKind: 'fetch', title: '', paths: [], url: 'file:///etc/passwd' },
    { toolKind: 'fetch', title: '', paths: [] },
    { toolKind: 'search', title: '', paths: [] },
    { toolKind: 'other', title: '', paths: [], toolName: 'bad\u0007name' },
  ];
  for (const subject of none) assert.equal(proposeRule(subject, PROPOSE), undefined, JSON.stringify(subject));
});

test('labels: decision, coverage, agent unless any, scope; code spans survive backticks', () => {
  const draft = (extra: Partial<RuleDraft>): RuleDraft => ({
    agent: '*',
    toolKind: 'execute',
    matcher: { type: 'commandPrefix', prefix: 'npm test' },
    decision: 'allow',
    scope: 'workspace',
    ...extra,
  });
  assert.equal(ruleLabel(draft({})), 'Allow `npm test` in this workspace');
  assert.equal(ruleLabel(draft({ agent: 'Gemini CLI', scope: 'conversation' })), 'Allow `npm test` for Gemini CLI in this conversation');
  assert.equal(
    ruleLabel(draft({ toolKind: 'edit', matcher: { type: 'pathGlob', glob: 'src/**/*.ts' }, decision: 'reject', scope: 'global' })),
    'Reject edits to `src/**/*.ts` everywhere',
  );
  assert.equal(codeSpan('a`b'), '``a`b``');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.equal(codeSpan('plain'), '`plain`');
});

test('a proposal carries the decision and scope it was asked for', () => {
  const proposal = proposeRule(execSubject('rm -rf build'), { ...PROPOSE, decision: 'reject', scope: 'global', agent: 'Gemini CLI' });
  assert.deepEqual(proposal?.draft, {
    agent: 'Gemini CLI',
    toolKind: 'execute',
    matcher: { type: 'commandPrefix', prefix: 'rm' },
    decision: 'reject',
    scope: 'global',
  });
  assert.equal(proposal?.label, 'Reject `rm` for Gemini CLI everywhere');
});
