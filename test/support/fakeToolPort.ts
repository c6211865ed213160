import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PathPolicy, type AccessOp } from '../../src/client/pathPolicy';
import type { CommandResult, EditorQueries, EditorToolsPort } from '../../src/mcp/editorToolsPort';

/**
 * An `EditorToolsPort` for the `tandem` MCP core's unit tests: the editor's answers are scripted
 * (the only fake), the path policy is the real `PathPolicy` over a real temp workspace, and every
 * call the tools make reaches `calls` with the arguments the editor would get.
 */

export interface PortCall {
  method: string;
  args: unknown[];
}

export interface FakeWorkspace {
  /** The temp folder holding `ws` and `outside` (real path). */
  base: string;
  /** The workspace root (real path). */
  ws: string;
  /** A folder beside the workspace, outside it. */
  outside: string;
  /** What `askOutside` was asked. */
  asked: Array<{ path: string; op: AccessOp }>;
  /** Writes a file below the workspace (relative path) and returns its absolute path. */
  file(relative: string, text: string): string;
}

export interface FakePortOptions {
  /** The answer to give for an outside path (default: refuse). */
  consent?: boolean;
  /** Scripted answers; a missing query answers "nothing" (empty list, undefined). */
  answers?: Partial<EditorQueries>;
  /** The editor's buffers by absolute path; `readText` falls back to the disk. */
  buffers?: Map<string, string>;
  writeText?: (path: string, text: string) => Promise<void>;
  runCommand?: (command: string) => Promise<CommandResult>;
}

export interface FakePort extends EditorToolsPort {
  readonly calls: PortCall[];
  readonly writes: Array<{ path: string; text: string }>;
}

export function fakeWorkspace(t: { after: (fn: () => void) => void }): FakeWorkspace {
  // realpath: the temp dir itself may sit behind a symlink (macOS /var → /private/var).
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  return {
    base,
    ws,
    outside,
    asked: [],
    file(relative, text) {
      const at = path.join(ws, relative);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, text);
      return at;
    },
  };
}

export function fakePort(w: FakeWorkspace, opts: FakePortOptions = {}): FakePort {
  const calls: PortCall[] = [];
  const writes: FakePort['writes'] = [];
  const paths = new PathPolicy({
    roots: () => [w.ws],
    allowOutside: () => false,
    askOutside: async (p, op) => {
      w.asked.push({ path: p, op });
      return opts.consent === true;
    },
  });
  const a = opts.answers ?? {};
  const record = (method: string, ...args: unknown[]): void => void calls.push({ method, args });
  return {
    calls,
    writes,
    paths,
    async diagnostics(p) {
      record('diagnostics', p);
      return a.diagnostics ? a.diagnostics(p) : [];
    },
    async selection() {
      record('selection');
      return a.selection ? a.selection() : undefined;
    },
    async openEditors() {
      record('openEditors');
      return a.openEditors ? a.openEditors() : [];
    },
    async readText(p) {
      record('readText', p);
      if (a.readText) return a.readText(p);
      return opts.buffers?.get(p) ?? (await fs.promises.readFile(p, 'utf8'));
    },
    async workspaceSymbols(q) {
      record('workspaceSymbols', q);
      return a.workspaceSymbols ? a.workspaceSymbols(q) : [];
    },
    async documentSymbols(p) {
      record('documentSymbols', p);
      return a.documentSymbols ? a.documentSymbols(p) : [];
    },
    async definition(p, at) {
      record('definition', p, at);
      return a.definition ? a.definition(p, at) : [];
    },
    async references(p, at) {
      record('references', p, at);
      return a.references ? a.references(p, at) : [];
    },
    async hover(p, at) {
      record('hover', p, at);
      return a.hover ? a.hover(p, at) : [];
    },
    async openFile(p, line) {
      record('openFile', p, line);
      if (a.openFile) await a.openFile(p, line);
    },
    async writeText(p, text) {
      record('writeText', p, text);
      if (opts.writeText) await opts.writeText(p, text);
      writes.push({ path: p, text });
    },
    async runCommand(command) {
      record('runCommand', command);
      if (!opts.runCommand) throw new Error('no terminal in this test');
      return opts.runCommand(command);
    },
  };
}

/** The methods called on the port, in order. */
export function methods(port: FakePort): string[] {
  return port.calls.map((c) => c.method);
}
