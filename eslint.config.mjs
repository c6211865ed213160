// ESLint with typescript-eslint's type-aware rules, over the four TypeScript projects.
// The three rules the codebase leans on: promises are awaited or explicitly `void`ed, switches over
// unions are exhaustive, and type-only imports say so (they vanish from the bundles).
import tseslint from 'typescript-eslint';
import { adapterRoomRules } from './lint/adapterRooms.mjs';
import { roomRules } from './scripts/lintRooms.mjs';

/**
 * The host's rooms and what each may import (docs/ARCHITECTURE.md draws them). A folder may import
 * only the folders listed for it, so an arrow back up — or `vscode` in the core — fails lint, from a
 * file at any depth of the room (scripts/lintRooms.mjs resolves each relative import).
 * test/unit/lintConfig.test.ts holds the config to that.
 */
export const LAYERS = {
  protocol: [],
  supervisor: [],
  util: ['supervisor'],
  acp: ['protocol', 'util'],
  client: ['protocol', 'util', 'acp'],
  context: ['protocol', 'util', 'acp', 'client'],
  review: ['protocol', 'util', 'client'],
  permissions: ['protocol', 'util', 'acp'],
  thread: ['protocol', 'util', 'acp', 'context'],
  store: ['protocol', 'util'],
  worktree: ['protocol', 'util', 'review', 'store'],
  runtime: ['protocol', 'util', 'acp', 'client', 'thread', 'mcp'],
  conversation: ['protocol', 'util', 'acp', 'client', 'context', 'review', 'permissions', 'thread', 'store', 'runtime', 'worktree', 'mcp'],
  // The `tandem` MCP server's editor-free core (tools, path policy reuse, loopback HTTP).
  mcp: ['protocol', 'util', 'acp', 'client'],
  inspector: ['protocol', 'util', 'acp'],
  agents: ['protocol', 'util', 'acp', 'inspector', 'mcp'],
  // The replay agent plays a transcript back: it shares the transcript format and the replayer with
  // the inspector (src/inspector/transcript.ts, replayScript.ts, replayer.ts), which are vscode-free.
  replayAgent: ['protocol', 'util', 'inspector'],
  demoAgent: ['protocol'],
  hostedAgent: ['protocol', 'util'],
  vscode: [
    'protocol',
    'util',
    'acp',
    'client',
    'context',
    'review',
    'permissions',
    'thread',
    'store',
    'runtime',
    'worktree',
    'mcp',
    'conversation',
    'agents',
    'inspector',
  ],
  views: ['protocol', 'util', 'acp', 'client', 'context', 'thread', 'conversation', 'vscode'],
};

export const layerRules = roomRules('src', LAYERS, {
  // Only the editor adapters, the views and the two entry files (src/extension.ts, src/hostMain.ts) may import `vscode`.
  editorRooms: ['vscode', 'views'],
  // The reducer is the Thread's own: everyone else changes the thread through its intents.
  privates: {
    thread: {
      modules: ['threadReducer', 'threadView', 'threadReplay'],
      message: 'Change the thread through Thread (src/thread/thread.ts), which emits what it changed.',
    },
  },
});

export const frontDoorRule = {
  // A conversation's parts are its own room's (src/conversation): everyone else asks its intents
  // and read queries (src/conversation/conversationIntents.ts), so what a click means is sequenced once.
  files: ['src/**/*.ts'],
  ignores: ['src/conversation/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "MemberExpression[property.name='internals']",
        message: 'Outside src/conversation a conversation is reached through its intents and queries, not its parts.',
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.e2e/**', 'dist-vsix/**', 'bench-results/**', 'test/e2e/server/**', '**/*.d.ts', '**/*.js', '**/*.mjs'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `typeof import('…')` stays allowed: it types a lazy require without loading the module.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-debugger': 'error',
    },
  },
  ...layerRules,
  ...adapterRoomRules,
  frontDoorRule,
);
