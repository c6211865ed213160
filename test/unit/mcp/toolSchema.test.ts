// The tandem tools' input schemas: each validates what a model should send and names what is wrong
// with what it should not, so the model can fix its call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHANGE_TOOLS } from '../../../src/mcp/changeTools';
import { NAVIGATION_TOOLS } from '../../../src/mcp/navigationTools';
import { READ_TOOLS } from '../../../src/mcp/readTools';
import { ToolArgumentError, validate, type JsonSchema } from '../../../src/mcp/toolSchema';

const TOOLS = new Map([...READ_TOOLS, ...NAVIGATION_TOOLS, ...CHANGE_TOOLS].map((t) => [t.name, t]));

/** The message `validate` throws, or undefined when the arguments pass. */
function problem(schema: JsonSchema, value: unknown): string | undefined {
  try {
    validate(schema, value);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof ToolArgumentError, `expected a ToolArgumentError, got ${String(err)}`);
    return err.message;
  }
}

function schemaOf(name: string): JsonSchema {
  const tool = TOOLS.get(name);
  assert.ok(tool, `no tool ${name}`);
  return tool.inputSchema;
}

const GOOD: Record<string, unknown[]> = {
  diagnostics: [{}, { path: 'src/a.ts' }, { path: null }],
  selection: [{}],
  open_editors: [{}],
  read_file: [{ path: 'a.ts' }, { path: '/abs/a.ts', startLine: 1, endLine: 20 }, { path: 'a.ts', startLine: 5 }],
  symbols: [{ query: 'Foo' }],
  document_symbols: [{ path: 'a.ts' }],
  definition: [{ path: 'a.ts', line: 1, character: 1 }],
  references: [{ path: 'a.ts', line: 10, character: 4 }],
  hover: [{ path: 'a.ts', line: 3, character: 7 }],
  edit_file: [
    { path: 'a.ts', edits: [{ oldText: 'x', newText: '' }] },
    {
      path: 'a.ts',
      edits: [
        { oldText: 'x', newText: 'y' },
        { oldText: 'z', newText: 'w' },
      ],
    },
  ],
  write_file: [
    { path: 'a.ts', content: '' },
    { path: 'a.ts', content: 'text' },
  ],
  open_file: [{ path: 'a.ts' }, { path: 'a.ts', line: 12 }],
  run_in_terminal: [{ command: 'npm test' }],
};

/** Bad arguments and a piece of the message each must give (the argument's name, what was expected). */
const BAD: Record<string, Array<[unknown, RegExp]>> = {
  diagnostics: [
    [{ path: 3 }, /`path` must be a string, got the number 3/],
    [{ path: '' }, /`path` must not be empty/],
    [{ file: 'a.ts' }, /`file` is not an argument of this tool \(expected: path\)/],
  ],
  selection: [[{ path: 'a.ts' }, /`path` is not an argument of this tool \(it takes none\)/]],
  open_editors: [[{ all: true }, /`all` is not an argument/]],
  read_file: [
    [{}, /`path` is required/],
    [{ path: 'a.ts', startLine: 0 }, /`startLine` must be ≥ 1, got 0/],
    [{ path: 'a.ts', endLine: -2 }, /`endLine` must be ≥ 1, got -2/],
    [{ path: 'a.ts', startLine: 1.5 }, /`startLine` must be an integer, got the number 1.5/],
    [{ path: 'a.ts', startLine: '3' }, /`startLine` must be an integer, got the string "3"/],
    [{ path: 'a.ts', limit: 10 }, /`limit` is not an argument of this tool \(expected: path, startLine, endLine\)/],
    [{ path: null }, /`path` must be a string, got null/],
  ],
  symbols: [
    [{}, /`query` is required/],
    [{ query: '' }, /`query` must not be empty/],
    [{ query: ['a'] }, /`query` must be a string, got an array/],
  ],
  document_symbols: [[{ path: { p: 1 } }, /`path` must be a string, got an object/]],
  definition: [
    [{ path: 'a.ts', line: 1 }, /`character` is required/],
    [{ path: 'a.ts', line: 0, character: 1 }, /`line` must be ≥ 1, got 0/],
    [{ path: 'a.ts', line: 1, character: 0 }, /`character` must be ≥ 1, got 0/],
  ],
  references: [[{ path: 'a.ts', line: 'one', character: 1 }, /`line` must be an integer, got the string "one"/]],
  hover: [[{ path: 'a.ts', line: 1, character: 1, word: 'x' }, /`word` is not an argument/]],
  edit_file: [
    [{ path: 'a.ts' }, /`edits` is required/],
    [{ path: 'a.ts', edits: [] }, /`edits` must have at least 1 item$/],
    [{ path: 'a.ts', edits: { oldText: 'a', newText: 'b' } }, /`edits` must be an array, got an object/],
    [{ path: 'a.ts', edits: [{ oldText: 'a' }] }, /`edits`\[0\]\.newText is required/],
    [{ path: 'a.ts', edits: [{ oldText: '', newText: 'b' }] }, /`edits`\[0\]\.oldText must not be empty/],
    [
      {
        path: 'a.ts',
        edits: [
          { oldText: 'a', newText: 'b' },
          { oldText: 'a', newText: 2 },
        ],
      },
      /`edits`\[1\]\.newText must be a string, got the number 2/,
    ],
    [{ path: 'a.ts', edits: [{ oldText: 'a', newText: 'b', replaceAll: true }] }, /`edits`\[0\]\.replaceAll is not an argument/],
    [{ path: 'a.ts', edits: Array.from({ length: 101 }, () => ({ oldText: 'a', newText: 'b' })) }, /`edits` must have at most 100 items, got 101/],
  ],
  write_file: [
    [{ path: 'a.ts' }, /`content` is required/],
    [{ path: 'a.ts', content: null }, /`content` must be a string, got null/],
  ],
  open_file: [[{ path: 'a.ts', line: 0 }, /`line` must be ≥ 1, got 0/]],
  run_in_terminal: [
    [{}, /`command` is required/],
    [{ command: '' }, /`command` must not be empty/],
    [{ command: 'ls', cwd: '/' }, /`cwd` is not an argument/],
  ],
};

test('every tool has good and bad examples here', () => {
  assert.deepEqual(Object.keys(GOOD).sort(), [...TOOLS.keys()].sort());
  assert.deepEqual(Object.keys(BAD).sort(), [...TOOLS.keys()].sort());
});

for (const [name, examples] of Object.entries(GOOD)) {
  test(`${name}: the arguments a model should send pass`, () => {
    for (const args of examples) assert.equal(problem(schemaOf(name), args), undefined, JSON.stringify(args));
  });
}

for (const [name, examples] of Object.entries(BAD)) {
  test(`${name}: wrong arguments are refused, naming what is wrong`, () => {
    for (const [args, message] of examples) {
      const got = problem(schemaOf(name), args);
      assert.ok(got !== undefined, `${JSON.stringify(args)} passed`);
      assert.match(got, message, JSON.stringify(args));
    }
  });
}

test('arguments that are not an object are refused for every tool', () => {
  for (const tool of TOOLS.values()) {
    for (const [value, said] of [
      ['path', 'the string "path"'],
      [[], 'an array'],
      [null, 'null'],
      [7, 'the number 7'],
    ] as const) {
      assert.equal(problem(tool.inputSchema, value), `arguments must be an object, got ${said}`, tool.name);
    }
  }
});

test("names of Object.prototype's members are unknown arguments, not a way past the schema", () => {
  // JSON.parse makes `__proto__` an own key, as an agent's JSON-RPC request would.
  for (const args of [{ path: 'a.ts', toString: 1 }, { path: 'a.ts', constructor: 'x' }, JSON.parse('{"path":"a.ts","__proto__":{"x":1}}') as unknown]) {
    assert.match(problem(schemaOf('read_file'), args) ?? 'passed', /is not an argument of this tool/, JSON.stringify(args));
  }
  assert.match(problem(schemaOf('selection'), { hasOwnProperty: true }) ?? 'passed', /`hasOwnProperty` is not an argument/);
});

test('a long string argument is shown shortened in the message', () => {
  const got = problem(schemaOf('read_file'), { path: 'a.ts', startLine: 'x'.repeat(100) });
  assert.equal(got, `\`startLine\` must be an integer, got the string "${'x'.repeat(40)}…"`);
});

test('non-finite numbers are not integers', () => {
  for (const n of [NaN, Infinity, -Infinity]) assert.match(problem(schemaOf('read_file'), { path: 'a', startLine: n }) ?? 'passed', /must be an integer/);
});

test('a minLength above one says how many characters', () => {
  assert.equal(problem({ type: 'string', minLength: 3 }, 'ab'), 'arguments must have at least 3 characters');
});

test('every property of every schema has a description for the model, and every object forbids extra properties', () => {
  const walk = (schema: JsonSchema, at: string): void => {
    if (schema.type === 'object') {
      assert.equal(schema.additionalProperties, false, at);
      for (const name of schema.required ?? []) assert.ok(name in schema.properties, `${at}: required ${name} is not a property`);
      for (const [name, property] of Object.entries(schema.properties)) {
        assert.ok((property.description ?? '').length > 10, `${at}.${name} has no description`);
        walk(property, `${at}.${name}`);
      }
    } else if (schema.type === 'array') walk(schema.items, `${at}[]`);
  };
  for (const tool of TOOLS.values()) walk(tool.inputSchema, tool.name);
});
