// The layer lint: which room (a folder) may import which. eslint.config.mjs holds the tables; this
// builds their rules. A relative import is resolved against the importing file and judged by the
// room it lands in, so every depth (src/thread/presentation/x.ts) and every relative form
// (`../../conversation/x`, `../conversation`) is held — a pattern on the import's text could not
// tell `../inspector` from a sibling sub-room of the same name.
//
// A later table of sub-rooms (e.g. src/vscode/ or webview/ split into capability folders) reuses the
// same builder with its own prefix: `...roomRules('src/vscode', { chat: ['shared'], shared: [] })`.
// Each prefix gets its own rule id, so a file under src/vscode/chat/ is held by both tables.
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The one plugin every table's rule lives in (ESLint wants one object per plugin name). */
const plugin = { meta: { name: 'tandem-rooms' }, rules: {} };

/** @type {import('eslint').Rule.RuleModule} */
const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'A room imports only the rooms its table lists; private modules stay their room’s.' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      room: '{{from}} may not import {{to}} (layers: eslint.config.mjs, docs/ARCHITECTURE.md).',
      vscode: '{{from}} is vscode-free: the editor is reached through ports (src/vscode adapts it).',
      private: '{{message}}',
    },
  },
  create(context) {
    const { prefix, table, editorRooms, privates } = context.options[0];
    const base = path.join(ROOT, prefix);
    const roomOf = (file) => {
      const rel = path.relative(base, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
      // The first folder: a file at the prefix's top (src/extension.ts) is `extension.ts`, no room.
      return rel.split(path.sep)[0];
    };
    const from = roomOf(context.filename);
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (spec === 'vscode') {
        if (editorRooms && from !== undefined && from in table && !editorRooms.includes(from)) {
          context.report({ node, messageId: 'vscode', data: { from: `${prefix}/${from}` } });
        }
        return;
      }
      if (!spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), spec).replace(EXTENSIONS, '');
      const to = roomOf(target);
      for (const [owner, { modules, message }] of Object.entries(privates ?? {})) {
        if (from === owner) continue;
        if (modules.some((m) => path.join(base, owner, m) === target)) context.report({ node, messageId: 'private', data: { message } });
      }
      if (from === undefined || !(from in table) || to === undefined || to === from || !(to in table)) return;
      if (!table[from].includes(to)) context.report({ node, messageId: 'room', data: { from: `${prefix}/${from}`, to: `${prefix}/${to}` } });
    };
    const source = (node) => {
      if (node.source) check(node.source, node.source.value);
    };
    return {
      ImportDeclaration: source,
      ExportNamedDeclaration: source,
      ExportAllDeclaration: source,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      // `typeof import('…')` and `import x = require('…')` name a module too.
      TSImportType: (node) => {
        const literal = node.argument?.literal ?? node.argument;
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
      TSExternalModuleReference: (node) => node.expression.type === 'Literal' && check(node.expression, node.expression.value),
    };
  },
};

/**
 * The config objects that hold one table of rooms under `prefix` (a folder of the repository).
 * `table`: room → the rooms it may import (a room may always import itself; folders not in the table
 * are not judged). `editorRooms`: when given, only these rooms may import `vscode`. `privates`: room →
 * modules (paths inside it, no extension) that no other room under the prefix may import.
 *
 * @param {string} prefix
 * @param {Record<string, readonly string[]>} table
 * @param {{ editorRooms?: readonly string[], privates?: Record<string, { modules: readonly string[], message: string }> }} [options]
 */
export function roomRules(prefix, table, options = {}) {
  for (const [room, allowed] of Object.entries(table)) {
    for (const other of allowed) if (!(other in table)) throw new Error(`roomRules(${prefix}): ${room} lists ${other}, which is not a room of the table`);
  }
  const name = prefix.replace(/[^A-Za-z0-9]+/g, '-');
  plugin.rules[name] = importsRule;
  return [
    {
      files: [`${prefix}/**/*.ts`],
      plugins: { rooms: plugin },
      rules: { [`rooms/${name}`]: ['error', { prefix, table, editorRooms: options.editorRooms, privates: options.privates }] },
    },
  ];
}
