// The reading tools and the language-server tools over a scripted editor: 1-based positions to the
// model, 0-based to the editor, workspace-relative paths shown, empty answers said plainly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { EditorToolRegistry } from '../../../src/mcp/toolRegistry';
import type { EditorRange } from '../../../src/mcp/editorToolsPort';
import { fakePort, fakeWorkspace, methods, type FakePortOptions, type FakeWorkspace } from '../../support/fakeToolPort';

const signal = new AbortController().signal;

/** 0-based, as the editor gives it. */
const range = (line: number, character: number, endLine = line, endCharacter = character + 1): EditorRange => ({
  start: { line, character },
  end: { line: endLine, character: endCharacter },
});

function rig(t: { after: (fn: () => void) => void }, opts: FakePortOptions = {}, setup?: (w: FakeWorkspace) => void) {
  const w = fakeWorkspace(t);
  setup?.(w);
  const port = fakePort(w, opts);
  const registry = new EditorToolRegistry(port);
  const call = async (name: string, args: Record<string, unknown>) => registry.call(name, args, signal);
  const json = async (name: string, args: Record<string, unknown>) => {
    const outcome = await call(name, args);
    assert.equal(outcome.isError, false, outcome.text);
    return JSON.parse(outcome.text) as Record<string, unknown>;
  };
  return { w, port, call, json };
}

test('diagnostics: errors first, 1-based ranges, relative paths; the port gets the real path of the file asked', async (t) => {
  let asked: string | undefined | null = null;
  const r = rig(t, {
    answers: {
      diagnostics: async (p) => {
        asked = p;
        const ws = r.w.ws;
        return [
          { path: path.join(ws, 'src/b.ts'), severity: 'warning', range: range(4, 2), message: 'unused', source: 'eslint', code: 'no-unused-vars' },
          { path: path.join(ws, 'src/a.ts'), severity: 'error', range: range(0, 0, 0, 3), message: "Cannot find name 'foo'.", source: 'ts', code: '2304' },
          { path: '/elsewhere/lib.d.ts', severity: 'hint', range: range(9, 9), message: 'hint' },
        ];
      },
    },
  });
  const all = await r.json('diagnostics', {});
  assert.equal(asked, undefined, 'the whole workspace');
  assert.deepEqual(all, {
    counts: { error: 1, warning: 1, information: 0, hint: 1 },
    problems: [
      {
        path: 'src/a.ts',
        severity: 'error',
        line: 1,
        character: 1,
        endLine: 1,
        endCharacter: 4,
        source: 'ts',
        code: '2304',
        message: "Cannot find name 'foo'.",
      },
      {
        path: 'src/b.ts',
        severity: 'warning',
        line: 5,
        character: 3,
        endLine: 5,
        endCharacter: 4,
        source: 'eslint',
        code: 'no-unused-vars',
        message: 'unused',
      },
      { path: '/elsewhere/lib.d.ts', severity: 'hint', line: 10, character: 10, endLine: 10, endCharacter: 11, message: 'hint' },
    ],
  });
  await r.json('diagnostics', { path: 'src/a.ts' });
  assert.equal(asked, path.join(r.w.ws, 'src/a.ts'));
});

test('diagnostics: none is said plainly, for a file and for the workspace', async (t) => {
  const r = rig(t);
  assert.equal((await r.call('diagnostics', {})).text, 'No problems in the workspace.');
  assert.equal((await r.call('diagnostics', { path: 'src/clean.ts' })).text, 'No problems in src/clean.ts.');
});

test('selection: the file, the 1-based range and the text; no editor said plainly', async (t) => {
  const r = rig(t);
  assert.deepEqual(await r.call('selection', {}), { text: 'No text editor is active.', isError: false, truncated: false });
  const with_ = rig(t, {
    answers: { selection: async () => ({ path: path.join(with_.w.ws, 'src/a.ts'), range: range(2, 4, 3, 0), text: 'foo()\n' }) },
  });
  assert.deepEqual(await with_.json('selection', {}), { path: 'src/a.ts', line: 3, character: 5, endLine: 4, endCharacter: 1, text: 'foo()\n' });
});

test('selection: a file outside the workspace passes the same consent as read_file', async (t) => {
  const r = rig(t, { answers: { selection: async () => ({ path: path.join(r.w.outside, 'secret.txt'), range: range(0, 0), text: 's' }) } });
  const outcome = await r.call('selection', {});
  assert.equal(outcome.isError, true);
  assert.match(outcome.text, /^selection failed: .*secret\.txt is outside the workspace folders; the user did not allow read access/);
  assert.deepEqual(r.w.asked, [{ path: path.join(r.w.outside, 'secret.txt'), op: 'read' }]);
});

test('open_editors: tabs with active and dirty, relative paths; none said plainly', async (t) => {
  const r = rig(t, {
    answers: {
      openEditors: async () => [
        { path: path.join(r.w.ws, 'a.ts'), active: true, dirty: false, languageId: 'typescript' },
        { path: path.join(r.w.ws, 'docs/b.md'), active: false, dirty: true },
      ],
    },
  });
  assert.deepEqual(await r.json('open_editors', {}), {
    editors: [
      { path: 'a.ts', active: true, dirty: false, languageId: 'typescript' },
      { path: 'docs/b.md', active: false, dirty: true },
    ],
  });
  assert.equal((await rig(t).call('open_editors', {})).text, 'No files are open in editor tabs.');
});

test("read_file: the editor's buffer (unsaved edits), whole or lines startLine..endLine", async (t) => {
  const buffers = new Map<string, string>();
  const r = rig(t, { buffers }, (w) => {
    const file = w.file('src/a.ts', 'disk\n');
    buffers.set(file, 'l1\nl2\nl3\nl4\n');
  });
  assert.equal((await r.call('read_file', { path: 'src/a.ts' })).text, 'l1\nl2\nl3\nl4\n');
  assert.equal((await r.call('read_file', { path: 'src/a.ts', startLine: 2, endLine: 3 })).text, 'l2\nl3\n');
  assert.equal((await r.call('read_file', { path: 'src/a.ts', startLine: 4 })).text, 'l4\n');
  assert.equal((await r.call('read_file', { path: 'src/a.ts', endLine: 1 })).text, 'l1\n');
  assert.equal((await r.call('read_file', { path: 'src/a.ts', startLine: 3, endLine: 99 })).text, 'l3\nl4\n');
  assert.deepEqual(await r.call('read_file', { path: 'src/a.ts', startLine: 3, endLine: 2 }), {
    text: 'endLine (2) is before startLine (3).',
    isError: true,
    truncated: false,
  });
  assert.deepEqual(await r.call('read_file', { path: 'src/a.ts', startLine: 5 }), {
    text: 'startLine 5 is past the end: src/a.ts has 4 lines.',
    isError: true,
    truncated: false,
  });
});

test('read_file: an empty file, a missing file, a directory and a binary file are said plainly', async (t) => {
  const r = rig(t, {}, (w) => {
    w.file('empty.txt', '');
    w.file('dir/x.txt', 'x');
    w.file('blob.bin', 'PK\u0000\u0003');
  });
  assert.deepEqual(await r.call('read_file', { path: 'empty.txt' }), { text: '[empty.txt is empty]', isError: false, truncated: false });
  assert.deepEqual(await r.call('read_file', { path: 'nope.ts' }), { text: 'read_file failed: nope.ts does not exist.', isError: true, truncated: false });
  assert.deepEqual(await r.call('read_file', { path: 'dir' }), { text: 'read_file failed: dir is a directory, not a file.', isError: true, truncated: false });
  assert.deepEqual(await r.call('read_file', { path: 'blob.bin' }), {
    text: 'read_file failed: blob.bin is a binary file; only text files can be read.',
    isError: true,
    truncated: false,
  });
});

test('open_file: the 0-based line to the editor, the 1-based line to the model', async (t) => {
  const r = rig(t, {}, (w) => w.file('a.ts', 'x'));
  assert.equal((await r.call('open_file', { path: 'a.ts', line: 12 })).text, 'Opened a.ts at line 12.');
  assert.equal((await r.call('open_file', { path: 'a.ts' })).text, 'Opened a.ts.');
  const file = path.join(r.w.ws, 'a.ts');
  assert.deepEqual(
    r.port.calls.map((c) => c.args),
    [
      [file, 11],
      [file, undefined],
    ],
  );
});

test('symbols: the query to the editor; name, kind, container, relative path, 1-based range; none said plainly', async (t) => {
  const r = rig(t, {
    answers: {
      workspaceSymbols: async (q) =>
        q === 'Foo'
          ? [
              { name: 'Foo', kind: 'Class', containerName: '', location: { path: path.join(r.w.ws, 'src/foo.ts'), range: range(9, 13, 9, 16) } },
              { name: 'fooBar', kind: 'Function', containerName: 'utils', location: { path: path.join(r.w.ws, 'src/utils.ts'), range: range(0, 0) } },
            ]
          : [],
    },
  });
  assert.deepEqual(await r.json('symbols', { query: 'Foo' }), {
    symbols: [
      { name: 'Foo', kind: 'Class', path: 'src/foo.ts', line: 10, character: 14, endLine: 10, endCharacter: 17 },
      { name: 'fooBar', kind: 'Function', containerName: 'utils', path: 'src/utils.ts', line: 1, character: 1, endLine: 1, endCharacter: 2 },
    ],
  });
  assert.equal((await r.call('symbols', { query: 'Zzz' })).text, 'No symbols match "Zzz" (or no language server has indexed the workspace yet).');
  assert.deepEqual(
    r.port.calls.map((c) => c.args),
    [['Foo'], ['Zzz']],
  );
});

test('document_symbols: the nested outline with 1-based ranges; none said plainly', async (t) => {
  const r = rig(t, {
    answers: {
      documentSymbols: async () => [
        {
          name: 'A',
          kind: 'Class',
          detail: '',
          range: range(0, 0, 10, 1),
          children: [{ name: 'run', kind: 'Method', detail: '(): void', range: range(2, 2, 4, 3) }],
        },
        { name: 'main', kind: 'Function', range: range(12, 0, 14, 1), children: [] },
      ],
    },
  });
  r.w.file('a.ts', 'x');
  assert.deepEqual(await r.json('document_symbols', { path: 'a.ts' }), {
    path: 'a.ts',
    symbols: [
      {
        name: 'A',
        kind: 'Class',
        line: 1,
        character: 1,
        endLine: 11,
        endCharacter: 2,
        children: [{ name: 'run', kind: 'Method', detail: '(): void', line: 3, character: 3, endLine: 5, endCharacter: 4 }],
      },
      { name: 'main', kind: 'Function', line: 13, character: 1, endLine: 15, endCharacter: 2 },
    ],
  });
  assert.deepEqual(r.port.calls[0].args, [path.join(r.w.ws, 'a.ts')]);
  assert.equal((await rig(t).call('document_symbols', { path: 'b.txt' })).text, 'No symbols in b.txt (its language may have no outline provider).');
});

test('definition and references: 0-based position to the editor, 1-based locations back; none said plainly', async (t) => {
  const r = rig(t, {
    answers: {
      definition: async () => [{ path: path.join(r.w.ws, 'src/def.ts'), range: range(19, 16, 19, 19) }],
      references: async () => [
        { path: path.join(r.w.ws, 'src/def.ts'), range: range(19, 16, 19, 19) },
        { path: path.join(r.w.ws, 'src/use.ts'), range: range(2, 0, 2, 3) },
      ],
    },
  });
  const file = path.join(r.w.ws, 'src/use.ts');
  assert.deepEqual(await r.json('definition', { path: 'src/use.ts', line: 3, character: 2 }), {
    locations: [{ path: 'src/def.ts', line: 20, character: 17, endLine: 20, endCharacter: 20 }],
  });
  assert.deepEqual(await r.json('references', { path: 'src/use.ts', line: 3, character: 1 }), {
    locations: [
      { path: 'src/def.ts', line: 20, character: 17, endLine: 20, endCharacter: 20 },
      { path: 'src/use.ts', line: 3, character: 1, endLine: 3, endCharacter: 4 },
    ],
  });
  assert.deepEqual(r.port.calls, [
    { method: 'definition', args: [file, { line: 2, character: 1 }] },
    { method: 'references', args: [file, { line: 2, character: 0 }] },
  ]);
  const empty = rig(t);
  assert.equal((await empty.call('definition', { path: 'a.ts', line: 4, character: 9 })).text, 'No definition found at line 4, character 9 of a.ts.');
  assert.equal((await empty.call('references', { path: 'a.ts', line: 1, character: 1 })).text, 'No references found at line 1, character 1 of a.ts.');
});

test('hover: the texts joined, the 0-based position to the editor; none said plainly', async (t) => {
  const r = rig(t, { answers: { hover: async () => ['```ts\nfunction f(): void\n```', 'Runs f.'] } });
  assert.equal((await r.call('hover', { path: 'a.ts', line: 7, character: 3 })).text, '```ts\nfunction f(): void\n```\n\n---\n\nRuns f.');
  assert.deepEqual(r.port.calls[0].args, [path.join(r.w.ws, 'a.ts'), { line: 6, character: 2 }]);
  assert.equal((await rig(t).call('hover', { path: 'a.ts', line: 1, character: 1 })).text, 'No hover information at that position.');
});

test('the position tools refuse a path outside the workspace before asking the editor', async (t) => {
  const r = rig(t);
  for (const name of ['definition', 'references', 'hover', 'document_symbols']) {
    const where = { path: path.join(r.w.outside, 'x.ts') };
    const outcome = await r.call(name, name === 'document_symbols' ? where : { ...where, line: 1, character: 1 });
    assert.equal(outcome.isError, true, name);
    assert.match(outcome.text, new RegExp(`^${name} failed: .*is outside the workspace folders`), name);
  }
  assert.deepEqual(methods(r.port), []);
});
