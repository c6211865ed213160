/**
 * Item 6. Activation: a fresh `node` process requires a production build of dist/extension.js
 * (built here with the same esbuild options as `npm run package`, into a temp dir, so the shared
 * dist/ is left alone) and calls activate() with a minimal `vscode` module injected through
 * Module._resolveFilename. This measures OUR code's activation cost (module evaluation + activate),
 * not VS Code's extension host (its own loading, the `vscode` API object, IPC).
 * Size: dist-vsix/tandem-acp.vsix (built with `npm run package` if missing).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './scriptedSession';

const run = promisify(execFile);

/** Real EventEmitter/Uri/Disposable/configuration; everything else is a Proxy that records what was touched. */
const SHIM = `
const touched = new Set();
const stub = (name) => new Proxy(function () {}, {
  get: (t, p) => (p === 'then' ? undefined : p === Symbol.iterator ? function* () {} : p === Symbol.toPrimitive ? () => name : (touched.add(name + '.' + String(p)), stub(name + '.' + String(p)))),
  apply: () => stub(name + '()'),
  construct: () => stub('new ' + name),
});
class Disposable { constructor(fn) { this.fn = fn; } static from(...d) { return new Disposable(() => d.forEach((x) => x.dispose())); } dispose() { this.fn && this.fn(); } }
class EventEmitter { constructor() { this.l = []; this.event = (f) => { this.l.push(f); return new Disposable(() => (this.l = this.l.filter((x) => x !== f))); }; } fire(e) { this.l.forEach((f) => f(e)); } dispose() { this.l = []; } }
const uri = (p) => ({ scheme: 'file', fsPath: p, path: p, toString: () => 'file://' + p, with: () => uri(p) });
const Uri = { file: uri, parse: (s) => uri(s.replace(/^file:\\/\\//, '')), joinPath: (b, ...s) => uri([b.fsPath, ...s].join('/')), from: (c) => uri(c.path) };
const event = () => new Disposable();
const channel = new Proxy({}, { get: (t, p) => (p === 'then' ? undefined : () => undefined) });
const api = {
  Disposable, EventEmitter, Uri,
  ConfigurationTarget: { Global: 1, Workspace: 2 },
  workspace: new Proxy({
    isTrusted: true, workspaceFolders: [], textDocuments: [],
    getConfiguration: () => ({ get: (k, d) => d, has: () => false, inspect: () => undefined, update: async () => undefined }),
    onDidChangeConfiguration: event, onDidGrantWorkspaceTrust: event,
  }, { get: (t, p) => (p in t ? t[p] : stub('workspace.' + String(p))) }),
  window: new Proxy({
    createOutputChannel: () => channel,
    registerWebviewViewProvider: () => new Disposable(),
  }, { get: (t, p) => (p in t ? t[p] : stub('window.' + String(p))) }),
  commands: { registerCommand: () => new Disposable(), executeCommand: async () => undefined },
  env: stub('env'),
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  OverviewRulerLane: { Left: 1, Center: 2, Right: 4, Full: 7 },
};
// esbuild's __toESM copies only own keys, so every class the bundle may construct is listed.
for (const name of ['ThemeColor', 'ThemeIcon', 'Range', 'Position', 'Selection', 'WorkspaceEdit', 'MarkdownString']) api[name] = class { constructor(...args) { this.args = args; } };
module.exports = new Proxy(api, { get: (t, p) => (p in t ? t[p] : stub(String(p))) });
module.exports.__touched = touched;
`;

const MEASURE = (extensionJs: string, shimJs: string, root: string): string => `
const Module = require('module');
const shim = ${JSON.stringify(shimJs)};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? shim : resolve.call(this, request, ...rest); };
require(shim);
const context = { subscriptions: [], extensionPath: ${JSON.stringify(root)}, extensionUri: { fsPath: ${JSON.stringify(root)}, path: ${JSON.stringify(root)} },
  globalState: { get: () => undefined, update: async () => undefined, keys: () => [] }, workspaceState: { get: () => undefined, update: async () => undefined, keys: () => [] },
  secrets: { get: async () => undefined, store: async () => undefined, onDidChange: () => ({ dispose() {} }) }, extension: { packageJSON: require(${JSON.stringify(join(root, 'package.json'))}) } };
const t0 = performance.now();
const ext = require(${JSON.stringify(extensionJs)});
const t1 = performance.now();
ext.activate(context);
const t2 = performance.now();
// The session machinery loads on the first view: time that module load separately.
require(${JSON.stringify(join(dirname(extensionJs), 'host.js'))});
const t3 = performance.now();
process.stdout.write(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, hostLoadMs: t3 - t2, subscriptions: context.subscriptions.length }) + '\\n');
for (const d of context.subscriptions) try { d.dispose(); } catch {}
`;

export interface ActivationResult {
  totalMs: number[];
  requireMs: number[];
  /** Loading dist/host.js, which happens when the chat view is first shown. */
  hostLoadMs: number[];
  vsixBytes: number;
  vsixNote: string;
}

export async function runActivation(runs: number): Promise<ActivationResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-activation-'));
  try {
    const esbuild = await import('esbuild');
    const extensionJs = join(dir, 'extension.js');
    // Same options as scripts/build.mjs --production for the extension entry.
    const production = {
      absWorkingDir: repoRoot,
      bundle: true,
      minify: true,
      sourcemap: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      logLevel: 'warning',
    } satisfies import('esbuild').BuildOptions;
    await esbuild.build({ ...production, entryPoints: ['src/extension.ts'], outfile: extensionJs });
    await esbuild.build({ ...production, entryPoints: ['src/hostMain.ts'], outfile: join(dir, 'host.js') });
    const shimJs = join(dir, 'vscodeShim.js');
    writeFileSync(shimJs, SHIM);
    const measureJs = join(dir, 'measure.js');
    writeFileSync(measureJs, MEASURE(extensionJs, shimJs, repoRoot));
    const totalMs: number[] = [];
    const requireMs: number[] = [];
    const hostLoadMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { stdout } = await run(process.execPath, [measureJs], { cwd: dir });
      const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { totalMs: number; requireMs: number; hostLoadMs: number; subscriptions: number };
      if (result.subscriptions < 5) throw new Error(`activate() registered only ${result.subscriptions} disposables`);
      totalMs.push(result.totalMs);
      requireMs.push(result.requireMs);
      hostLoadMs.push(result.hostLoadMs);
    }
    const vsix = join(repoRoot, 'dist-vsix', 'tandem-acp.vsix');
    let vsixNote = '';
    if (!existsSync(vsix)) {
      await run('npm', ['run', 'package'], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
      vsixNote = 'built now with npm run package';
    } else {
      vsixNote = `existing file from ${statSync(vsix).mtime.toISOString()}`;
    }
    return { totalMs, requireMs, hostLoadMs, vsixBytes: statSync(vsix).size, vsixNote };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
