import { PathPolicy } from '../client/pathPolicy';
import type { EditorQueries, EditorToolsPort } from './editorToolsPort';

/** An editor with nothing to say: no selection, tabs, symbols, locations or hovers (Check Agent's, and tests'). */
export const SILENT_EDITOR: Omit<EditorQueries, 'diagnostics' | 'readText'> = {
  selection: async () => undefined,
  openEditors: async () => [],
  workspaceSymbols: async () => [],
  documentSymbols: async () => [],
  definition: async () => [],
  references: async () => [],
  hover: async () => [],
  openFile: async () => undefined,
};

const NOT_AVAILABLE = 'not available during Check Agent';

/**
 * The port of the `tandem` server Check Agent starts (src/agents/editorToolsCheck.ts) to see
 * whether the agent lists the tools: it answers nothing of the user's — every query is empty,
 * reads, writes and commands are refused with a message for the model, and paths stay inside
 * `cwd` with no consent prompt — so an agent that does call a tool during the check learns and
 * changes nothing.
 */
export function checkToolsPort(cwd: string): EditorToolsPort {
  return {
    paths: new PathPolicy({ roots: () => [cwd], allowOutside: () => false, askOutside: async () => false }),
    ...SILENT_EDITOR,
    diagnostics: async () => [],
    readText: () => Promise.reject(new Error(`Reading files is ${NOT_AVAILABLE}.`)),
    writeText: () => Promise.reject(new Error(`Writing files is ${NOT_AVAILABLE}.`)),
    runCommand: () => Promise.reject(new Error(`Running commands is ${NOT_AVAILABLE}.`)),
  };
}
