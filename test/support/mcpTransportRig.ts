/**
 * For the transport tests of the `tandem` MCP server (MCP over ACP, the stdio bridge): a workspace
 * folder on disk, an EditorToolsPort whose file side is real (a real PathPolicy on that folder,
 * reads and writes on the disk) and whose editor side answers fixed Problems, and the registry over
 * it. The tools themselves are tested elsewhere; here they only have to answer something checkable.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { PathPolicy } from '../../src/client/pathPolicy';
import type { EditorDiagnostic, EditorToolsPort } from '../../src/mcp/editorToolsPort';
import { EditorToolRegistry, type RegistryObserver } from '../../src/mcp/toolRegistry';

export const BROKEN_FILE = 'broken.ts';
export const BROKEN_TEXT = 'const x: number = "one";\n';
export const BROKEN_MESSAGE = "Type 'string' is not assignable to type 'number'.";

export interface McpRig {
  dir: string;
  registry: EditorToolRegistry;
  /** Every path the port was asked to write, with the text. */
  writes: Array<{ path: string; text: string }>;
  /** Observer calls, in order (`listed`, `started:<tool>`, `ended:<tool>`). */
  events: string[];
  dispose(): void;
}

export function mcpRig(): McpRig {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'tandem-mcp-')));
  writeFileSync(path.join(dir, BROKEN_FILE), BROKEN_TEXT);
  const writes: McpRig['writes'] = [];
  const events: string[] = [];
  const problem: EditorDiagnostic = {
    path: path.join(dir, BROKEN_FILE),
    severity: 'error',
    range: { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } },
    message: BROKEN_MESSAGE,
    source: 'ts',
    code: '2322',
  };
  const unanswered = (what: string) => (): Promise<never> => Promise.reject(new Error(`${what} is not part of this rig`));
  const port: EditorToolsPort = {
    // Outside the folder is refused without a prompt: the policy's own refusal reaches the model.
    paths: new PathPolicy({ roots: () => [dir], allowOutside: () => false, askOutside: () => Promise.resolve(false) }),
    diagnostics: (p) => Promise.resolve(p === undefined || p === problem.path ? [problem] : []),
    selection: () => Promise.resolve(undefined),
    openEditors: () => Promise.resolve([]),
    readText: (p) => Promise.resolve(readFileSync(p, 'utf8')),
    workspaceSymbols: () => Promise.resolve([]),
    documentSymbols: () => Promise.resolve([]),
    definition: () => Promise.resolve([]),
    references: () => Promise.resolve([]),
    hover: () => Promise.resolve([]),
    openFile: () => Promise.resolve(),
    writeText: (p, text) => {
      writes.push({ path: p, text });
      writeFileSync(p, text);
      return Promise.resolve();
    },
    runCommand: unanswered('runCommand'),
  };
  const observer: RegistryObserver = {
    listed: () => events.push('listed'),
    started: (c) => events.push(`started:${c.name}`),
    ended: (c) => events.push(`ended:${c.name}`),
  };
  return { dir, registry: new EditorToolRegistry(port, observer), writes, events, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const root = path.resolve(__dirname, '../..');
/** The bridge as the package ships it (scripts/build.mjs writes the same file). */
export const STDIO_BRIDGE_JS = path.join(root, 'dist/mcpStdioBridge.js');

/** Builds the bridge when the bundle is missing or older than its sources (the build's settings, this entry only). */
export async function ensureStdioBridgeBuilt(): Promise<string> {
  const sources = ['src/mcp/stdioBridge.ts', 'src/mcp/stdioBridgeEnv.ts'].map((f) => path.join(root, f));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (existsSync(STDIO_BRIDGE_JS) && statSync(STDIO_BRIDGE_JS).mtimeMs >= newest) return STDIO_BRIDGE_JS;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/mcp/stdioBridge.ts'],
    outfile: 'dist/mcpStdioBridge.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return STDIO_BRIDGE_JS;
}

/** The text of a tools/call result's first content block. */
export function toolText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  return content?.[0]?.text ?? '';
}
