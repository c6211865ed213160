import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import {
  baseName,
  displayPath,
  fileUri,
  formatRangeFragment,
  gitDiffUri,
  parseFileUri,
  parseRangeFragment,
  parseTandemUri,
  problemsUri,
  terminalUri,
} from '../../src/context/contextUri';
import { rangeText } from '../../src/context/rangeText';
import { formatBytes } from '../../src/protocol/displayLanguage';
import { cutHead, cutTail, utf8Length } from '../../src/context/textBytes';

const TRICKY = [
  'my dir',
  'naïve',
  '日本語',
  'a#b',
  'q?x',
  '100%',
  'back\\slash',
  'tab\there',
  '[x]',
  '{y}',
  'a`b^c|d',
  "it's (1)",
  'a+b=c;d,e',
  'x@y:z',
  '~home',
  'emoji😀',
  'new\nline',
];

test('fileUri equals Node pathToFileURL for posix paths with spaces, unicode, # ? % and more', () => {
  for (const name of TRICKY) {
    const path = `/ws/${name}/file ${name}.ts`;
    assert.equal(fileUri(path), pathToFileURL(path).href, path);
    assert.equal(fileURLToPath(fileUri(path)), path);
    assert.deepEqual(parseFileUri(fileUri(path)), { path, isFolder: false });
  }
});

test('fileUri equals Node pathToFileURL for Windows drive and UNC paths', () => {
  for (const name of TRICKY.filter((n) => !n.includes('\\'))) {
    for (const path of [`C:\\Users\\me\\${name}\\a ${name}.ts`, `\\\\server\\share\\${name}.ts`]) {
      assert.equal(fileUri(path, 'windows'), pathToFileURL(path, { windows: true }).href, path);
      assert.equal(fileURLToPath(fileUri(path, 'windows'), { windows: true }), path);
      assert.deepEqual(parseFileUri(fileUri(path, 'windows'), 'windows'), { path, isFolder: false });
    }
  }
  assert.equal(fileUri('c:/mixed/sep\\x.ts', 'windows'), 'file:///c:/mixed/sep/x.ts');
  // VS Code's Uri.toString() spelling reads back too.
  assert.deepEqual(parseFileUri('file:///c%3A/Users/me/a%20b.ts', 'windows'), { path: 'c:\\Users\\me\\a b.ts', isFolder: false });
  assert.deepEqual(parseFileUri('file:///C:/', 'windows'), { path: 'C:\\', isFolder: true });
});

test('fileUri round-trips arbitrary posix file names through Node', () => {
  // Control characters are left out: Node's URL parser drops them at the end of a URL (we encode them).
  const segment = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 12 })
    .filter((s) => !s.includes('/') && !/[\u0000-\u0020]/.test(s) && s !== '.' && s !== '..');
  fc.assert(
    fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
      const path = '/' + segments.join('/');
      assert.equal(fileUri(path), pathToFileURL(path).href);
      assert.equal(parseFileUri(fileUri(path))?.path, path);
    }),
    { numRuns: 300 },
  );
});

test('folders end with a slash; fragments carry ranges; other schemes and hosts are not file URIs', () => {
  assert.equal(fileUri('/ws/src', 'posix', { folder: true }), 'file:///ws/src/');
  assert.equal(fileUri('/ws/src/', 'posix', { folder: true }), 'file:///ws/src/');
  assert.deepEqual(parseFileUri('file:///ws/src/'), { path: '/ws/src', isFolder: true });
  assert.deepEqual(parseFileUri('file:///ws/a.ts#L3-L9'), { path: '/ws/a.ts', isFolder: false, range: { startLine: 3, endLine: 9 } });
  assert.deepEqual(parseFileUri('file://localhost/ws/a.ts?x=1#nope'), { path: '/ws/a.ts', isFolder: false });
  assert.equal(parseFileUri('file://server/share/a.ts'), undefined, 'a host has no posix path');
  assert.equal(parseFileUri('https://example.com/a.ts'), undefined);
  assert.equal(parseFileUri('zed:///agent/file?path=/a'), undefined);
});

test('range fragments: written GitHub/VS Code style, read in Zed and GitHub spellings too', () => {
  assert.equal(formatRangeFragment({ startLine: 10, endLine: 20 }), 'L10-L20');
  assert.equal(formatRangeFragment({ startLine: 7, endLine: 7 }), 'L7');
  assert.equal(formatRangeFragment({ startLine: 7, endLine: 7, startColumn: 2, endColumn: 9 }), 'L7,2-L7,9');
  assert.equal(formatRangeFragment({ startLine: 1, endLine: 3, startColumn: 4 }), 'L1,4-L3');
  const cases: Array<[string, object | undefined]> = [
    ['L10-L20', { startLine: 10, endLine: 20 }],
    ['L10', { startLine: 10, endLine: 10 }],
    ['L10:20', { startLine: 10, endLine: 20 }],
    ['L10-20', { startLine: 10, endLine: 20 }],
    ['10-20', { startLine: 10, endLine: 20 }],
    ['L10,5-L20,3', { startLine: 10, endLine: 20, startColumn: 5, endColumn: 3 }],
    ['L10C5-L20C3', { startLine: 10, endLine: 20, startColumn: 5, endColumn: 3 }],
    ['L0', undefined],
    ['L20-L10', undefined],
    ['section-2', undefined],
    ['', undefined],
  ];
  for (const [fragment, range] of cases) assert.deepEqual(parseRangeFragment(fragment), range, fragment);
});

test('tandem:// URIs for problems, terminals and the git diff read back', () => {
  assert.equal(problemsUri(), 'tandem://problems');
  assert.equal(terminalUri('npm: test #2'), 'tandem://terminal/npm:%20test%20%232');
  assert.equal(gitDiffUri(), 'tandem://git/diff');
  assert.deepEqual(parseTandemUri(problemsUri()), { kind: 'problems' });
  assert.deepEqual(parseTandemUri(problemsUri('/ws/a b.ts')), { kind: 'problems', file: '/ws/a b.ts' });
  assert.deepEqual(parseTandemUri(problemsUri('C:\\ws\\a.ts', 'windows'), 'windows'), { kind: 'problems', file: 'C:\\ws\\a.ts' });
  assert.deepEqual(parseTandemUri(terminalUri('npm: test #2')), { kind: 'terminal', name: 'npm: test #2' });
  assert.deepEqual(parseTandemUri(gitDiffUri('/ws/repo')), { kind: 'gitDiff', root: '/ws/repo' });
  assert.equal(parseTandemUri('tandem://elsewhere'), undefined);
  assert.equal(parseTandemUri('file:///x'), undefined);
});

test('baseName and displayPath (relative to a workspace root, Windows case-insensitive)', () => {
  assert.equal(baseName('/ws/src/app.ts'), 'app.ts');
  assert.equal(baseName('/ws/src/'), 'src');
  assert.equal(baseName('C:\\ws\\src\\app.ts', 'windows'), 'app.ts');
  assert.equal(displayPath('/ws/src/app.ts', ['/other', '/ws']), 'src/app.ts');
  assert.equal(displayPath('/wsx/app.ts', ['/ws']), '/wsx/app.ts');
  assert.equal(displayPath('/ws', ['/ws']), '/ws');
  assert.equal(displayPath('C:\\WS\\src\\app.ts', ['c:\\ws\\'], 'windows'), 'src/app.ts');
});

test('rangeText: whole lines with their breaks, columns on the ends, clamped; undefined past the end', () => {
  const text = 'one\r\ntwo\nthree';
  assert.equal(rangeText(text, { startLine: 1, endLine: 1 }), 'one\r\n');
  assert.equal(rangeText(text, { startLine: 2, endLine: 3 }), 'two\nthree');
  assert.equal(rangeText(text, { startLine: 3, endLine: 9 }), 'three');
  assert.equal(rangeText(text, { startLine: 1, endLine: 3, startColumn: 2, endColumn: 3 }), 'ne\r\ntwo\nth');
  assert.equal(rangeText(text, { startLine: 1, endLine: 1, startColumn: 2, endColumn: 99 }), 'ne', 'a column past the end stops before the line break');
  assert.equal(rangeText(text, { startLine: 4, endLine: 4 }), undefined);
  assert.equal(rangeText('a\n', { startLine: 2, endLine: 2 }), undefined);
  assert.equal(rangeText('', { startLine: 1, endLine: 1 }), '');
});

test('utf8Length, cutHead and cutTail count UTF-8 bytes and never split a character', () => {
  assert.equal(utf8Length('aé日😀'), 1 + 2 + 3 + 4);
  assert.equal(utf8Length('\uD800x'), 4, 'a lone surrogate counts as U+FFFD');
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.nat(80), (text, max) => {
      const encoded = new TextEncoder().encode(text).length;
      assert.equal(utf8Length(text), encoded);
      const head = cutHead(text, max);
      const tail = cutTail(text, max);
      assert.ok(text.startsWith(head) && utf8Length(head) <= max);
      assert.ok(text.endsWith(tail) && utf8Length(tail) <= max);
      if (encoded <= max) assert.ok(head === text && tail === text);
      assert.ok(!/[\uD800-\uDBFF]$/.test(head) && !/^[\uDC00-\uDFFF]/.test(tail), 'no half surrogate pair');
    }),
    { numRuns: 500 },
  );
  const lines = 'aaaa\nbbbb\ncccc\n';
  assert.equal(cutHead(lines, 12), 'aaaa\nbbbb\n', 'ends after a line break when one is near');
  assert.equal(cutTail(lines, 12), 'bbbb\ncccc\n', 'starts after a line break when one is near');
});

test('formatBytes', () => {
  assert.deepEqual(
    [812, 2048, 200 * 1024, 1363149, 5 * 1024 * 1024].map((n) => formatBytes(n)),
    ['812 B', '2 KB', '200 KB', '1.3 MB', '5 MB'],
  );
});
