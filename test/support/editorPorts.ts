/**
 * EditorPorts for tests: plain Node file access, a workspace policy rooted at the given folders, and
 * null objects for everything else (no rules, no review, nothing remembered, no MCP servers).
 * Tests override what they exercise.
 */
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import type { EditorPorts } from '../../src/conversation/ports';
import { NO_CONTEXT_SOURCES } from '../../src/conversation/promptPreparer';

export function testEditorPorts(roots: readonly string[], overrides: Partial<EditorPorts> = {}): EditorPorts {
  return {
    files: new NodeFileAccess(),
    policy: new PathPolicy({ roots: () => [...roots], allowOutside: () => false, askOutside: async () => false }),
    blocked: () => undefined,
    follow: () => undefined,
    permissionRequested: () => undefined,
    rules: undefined,
    review: undefined,
    reviewEdits: () => 'after',
    runSignInTerminal: undefined,
    // Nothing is agreed to unless a test says so.
    confirmSignInCommand: async () => false,
    askSecret: async () => false,
    openExternal: () => undefined,
    rememberedOptions: () => ({}),
    rememberOption: () => undefined,
    mcpServers: () => [],
    mcpProblems: () => [],
    contextSources: NO_CONTEXT_SOURCES,
    worktrees: undefined,
    editorTools: undefined,
    ...overrides,
  };
}
