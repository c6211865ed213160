// The size caps of tool results: 48,000 characters and 200 items, each cut said in a
// "[truncated: …]" note and flagged, so a model asks for less instead of acting on a partial answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { NAVIGATION_TOOLS } from '../../../src/mcp/navigationTools';
import { READ_TOOLS } from '../../../src/mcp/readTools';
import { ToolContext, type EditorTool } from '../../../src/mcp/editorTool';
import { capList, capText, jsonOutput, MAX_LIST_ITEMS, MAX_RESULT_CHARS, tailText } from '../../../src/mcp/toolResults';
import type { DocumentSymbol, EditorRange } from '../../../src/mcp/editorToolsPort';
import { fakePort, fakeWorkspace, type FakePortOptions } from '../../support/fakeToolPort';

const signal = new AbortController().signal;
const at: EditorRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const tool = (name: string): EditorTool => [...READ_TOOLS, ...NAVIGATION_TOOLS].find((t) => t.name === name)!;

test('the caps are the documented numbers', () => {
  assert.equal(MAX_RESULT_CHARS, 48_000);
  assert.equal(MAX_LIST_ITEMS, 200);
});

test('capText: text that fits is returned as it is', () => {
  assert.deepEqual(capText('short'), { text: 'short', truncated: false });
  const exact = 'x'.repeat(MAX_RESULT_CHARS);
  assert.deepEqual(capText(exact), { text: exact, truncated: false });
});

test('capText: longer text is cut so that it and its note fit the cap', () => {
  for (const length of [MAX_RESULT_CHARS + 1, 100_000, 5_000_000]) {
    const { text, truncated } = capText('y'.repeat(length));
    assert.equal(truncated, true);
    assert.ok(text.length <= MAX_RESULT_CHARS, `${length}: ${text.length} characters`);
    const m =
      /\n\[truncated: showing the first (\d+) of (\d+) characters; ask for a smaller range \(read_file's startLine\/endLine, a path for diagnostics\)\]$/.exec(
        text,
      );
    assert.ok(m, text.slice(-200));
    assert.equal(Number(m[2]), length);
    assert.equal(text.indexOf('\n'), Number(m[1]), 'the note counts what it shows');
    assert.ok(Number(m[1]) > MAX_RESULT_CHARS - 200, 'the note takes little of the room');
  }
  const small = capText('z'.repeat(500), 300);
  assert.ok(small.text.length <= 300 && small.text.startsWith('z'), small.text);
});

test('capText: never cuts inside a surrogate pair', () => {
  for (const pad of ['', 'a']) {
    const { text } = capText(pad + '😀'.repeat(40_000));
    const body = text.slice(0, text.indexOf('\n['));
    const last = body.charCodeAt(body.length - 1);
    assert.ok(!(last >= 0xd800 && last <= 0xdbff), `pad ${JSON.stringify(pad)}: ends with a lone high surrogate`);
  }
});

test('tailText: keeps the end, never starting inside a surrogate pair', () => {
  assert.deepEqual(tailText('abc', 5), { text: 'abc', cut: false });
  assert.deepEqual(tailText('abcdef', 2), { text: 'ef', cut: true });
  assert.deepEqual(tailText('a😀b', 2), { text: 'b', cut: true });
});

test('capList: at most 200 items, and a note saying how many were left out', () => {
  assert.deepEqual(capList([1, 2], 'things'), { items: [1, 2] });
  const items = Array.from({ length: 201 }, (_, i) => i);
  const { items: kept, note } = capList(items, 'things');
  assert.equal(kept.length, 200);
  assert.equal(kept[199], 199);
  assert.equal(note, '[truncated: showing the first 200 of 201 things; narrow the request to see the rest]');
  assert.equal(capList(Array.from({ length: 200 }), 'things').note, undefined);
});

test('jsonOutput: compact JSON; a note is its own line and marks the output truncated', () => {
  assert.deepEqual(jsonOutput({ a: 1 }), { text: '{"a":1}' });
  assert.deepEqual(jsonOutput({ a: 1 }, '[truncated: x]'), { text: '{"a":1}\n[truncated: x]', truncated: true });
});

async function run(t: { after: (fn: () => void) => void }, name: string, args: Record<string, unknown>, answers: FakePortOptions['answers']) {
  const w = fakeWorkspace(t);
  const port = fakePort(w, { answers });
  return { w, output: await tool(name).run(args, new ToolContext(port, signal)) };
}

test('each list tool cuts at 200 items with the note and truncated: true', async (t) => {
  const many = <T>(make: (i: number) => T): T[] => Array.from({ length: 250 }, (_, i) => make(i));
  const cases: Array<[string, Record<string, unknown>, FakePortOptions['answers'], string, string]> = [
    [
      'diagnostics',
      {},
      { diagnostics: async () => many((i) => ({ path: `/w/f${i}.ts`, severity: 'error', range: at, message: `e${i}` })) },
      'problems',
      'problems',
    ],
    ['open_editors', {}, { openEditors: async () => many((i) => ({ path: `/w/f${i}.ts`, active: false, dirty: false })) }, 'editors', 'editors'],
    [
      'symbols',
      { query: 'f' },
      { workspaceSymbols: async () => many((i) => ({ name: `f${i}`, kind: 'Function', location: { path: '/w/a.ts', range: at } })) },
      'symbols',
      'symbols',
    ],
    ['definition', { path: 'a.ts', line: 1, character: 1 }, { definition: async () => many(() => ({ path: '/w/a.ts', range: at })) }, 'locations', 'locations'],
    ['references', { path: 'a.ts', line: 1, character: 1 }, { references: async () => many(() => ({ path: '/w/a.ts', range: at })) }, 'locations', 'locations'],
  ];
  for (const [name, args, answers, key, what] of cases) {
    const { output } = await run(t, name, args, answers);
    const [json, note] = output.text.split('\n');
    assert.equal((JSON.parse(json) as Record<string, unknown[]>)[key].length, 200, name);
    assert.equal(note, `[truncated: showing the first 200 of 250 ${what}; narrow the request to see the rest]`, name);
    assert.equal(output.truncated, true, name);
  }
});

test('document_symbols: an outline over 400 symbols (children counted) is cut, said and flagged', async (t) => {
  const outline: DocumentSymbol[] = Array.from({ length: 50 }, (_, i) => ({
    name: `C${i}`,
    kind: 'Class',
    range: at,
    children: Array.from({ length: 9 }, (_, j) => ({ name: `m${j}`, kind: 'Method', range: at })),
  }));
  const { output } = await run(t, 'document_symbols', { path: 'a.ts' }, { documentSymbols: async () => outline });
  const [json, note] = output.text.split('\n');
  const shown = (JSON.parse(json) as { symbols: Array<{ children?: unknown[] }> }).symbols;
  assert.equal(
    shown.reduce((n, s) => n + 1 + (s.children?.length ?? 0), 0),
    400,
  );
  assert.equal(note, '[truncated: showing 400 of 500 symbols; read the file in ranges for the rest]');
  assert.equal(output.truncated, true);
});

test('selection: a huge selection is cut inside its JSON, which stays valid, and flagged', async (t) => {
  const w = fakeWorkspace(t);
  const port = fakePort(w, { answers: { selection: async () => ({ path: path.join(w.ws, 'a.ts'), range: at, text: 'q'.repeat(200_000) }) } });
  const output = await tool('selection').run({}, new ToolContext(port, signal));
  const parsed = JSON.parse(output.text) as { text: string; truncated?: boolean };
  assert.ok(output.text.length <= MAX_RESULT_CHARS);
  assert.equal(parsed.truncated, true);
  assert.match(parsed.text, /\[truncated: showing the first \d+ of 200000 characters/);
  assert.equal(output.truncated, true);
});
