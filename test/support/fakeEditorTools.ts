/**
 * A small editor behind the real `tandem` MCP server, for running real agents against it without
 * VS Code: the session's real `PathPolicy` on a scratch folder, one known Problem (the file the fake
 * model's scripts ask about), file reads and writes on the real disk with node's fs. Everything else
 * the editor would answer is empty. `calls` records what the tools asked of it, in order, so a test
 * can tell the agent's MCP client really called through.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PathPolicy } from '../../src/client/pathPolicy';
import { SILENT_EDITOR } from '../../src/mcp/checkToolsPort';
import type { CommandResult, EditorToolsPort } from '../../src/mcp/editorToolsPort';
import type { BrokenFile } from '../fixtures/tandemMcp/index';
import { LoopbackMcpServer } from '../../src/mcp/loopbackHttp';
import { EditorToolRegistry, type RegistryObserver } from '../../src/mcp/toolRegistry';

export interface FakeEditorTools {
  port: EditorToolsPort;
  /** `diagnostics <path|*>`, `readText <path>`, `writeText <path>`, in order. */
  calls: string[];
}

/** The port over `workspace` (`file` must be seeded): the one diagnostic of `file` while it is unfixed, the real disk. */
export function fakeEditorTools(workspace: string, file: BrokenFile): FakeEditorTools {
  const calls: string[] = [];
  const paths = new PathPolicy({ roots: () => [workspace], allowOutside: () => false, askOutside: async () => false });
  const unfixed = (): boolean => readFileSync(file.path, 'utf8').includes(file.oldText);
  // The tools hand over the policy's answer: the real path (a symlinked temp folder resolved).
  const broken = realpathSync(file.path);
  const port: EditorToolsPort = {
    paths,
    diagnostics: async (path) => {
      calls.push(`diagnostics ${path ?? '*'}`);
      return (path === undefined || path === broken) && unfixed() ? [file.diagnostic] : [];
    },
    ...SILENT_EDITOR,
    readText: async (path) => {
      calls.push(`readText ${path}`);
      return readFileSync(path, 'utf8');
    },
    writeText: async (path, text) => {
      calls.push(`writeText ${path}`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    runCommand: async (): Promise<CommandResult> => {
      throw new Error('This test editor runs no commands.');
    },
  };
  return { port, calls };
}

/** The real loopback server over a registry of `port`; `listed` counts the agent's tools/list calls. */
export async function startTandemServer(port: EditorToolsPort, observer: RegistryObserver = {}): Promise<{ server: LoopbackMcpServer; listed: () => number }> {
  let listed = 0;
  const registry = new EditorToolRegistry(port, {
    ...observer,
    listed: () => {
      listed++;
      observer.listed?.();
    },
  });
  const server = await LoopbackMcpServer.start({ registry, version: '0.0.0-test' });
  return { server, listed: () => listed };
}
