import { execFile } from 'node:child_process';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../util/disposable';

/** Files listed for the picker; a larger workspace is searched by typing more of the name. */
const MAX_FILES = 20_000;

export interface FileList {
  files: string[];
  folders: string[];
}

/**
 * The workspace's files for the `@` picker, found with VS Code's own file search so that
 * `files.exclude` and `search.exclude` (node_modules, build output) apply as in Quick Open, and
 * without what .gitignore leaves out. Listed
 * once and kept until a file is created or deleted, so each key press only ranks.
 */
export class WorkspaceFiles extends Disposable {
  private listing: Promise<FileList> | undefined;

  constructor() {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*', false, true, false));
    this.register(watcher.onDidCreate(() => (this.listing = undefined)));
    this.register(watcher.onDidDelete(() => (this.listing = undefined)));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => (this.listing = undefined)));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude') || e.affectsConfiguration('search.exclude')) this.listing = undefined;
      }),
    );
  }

  list(): Promise<FileList> {
    this.listing ??= this.find().catch(() => ({ files: [], folders: [] }));
    return this.listing;
  }

  private async find(): Promise<FileList> {
    const uris = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES);
    let files = uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
    const kept = await notIgnored();
    if (kept) files = files.filter((f) => kept.has(f) || !kept.covers(f));
    files.sort((a, b) => a.length - b.length || a.localeCompare(b));
    const roots = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
    const folders = new Set<string>();
    for (const file of files) {
      for (let dir = nodePath.dirname(file); !roots.has(dir) && dir !== nodePath.dirname(dir); dir = nodePath.dirname(dir)) {
        if (folders.has(dir)) break;
        folders.add(dir);
      }
    }
    return { files, folders: [...folders].sort((a, b) => a.length - b.length || a.localeCompare(b)) };
  }
}

/**
 * The files git does not ignore (tracked, or untracked and not in .gitignore), per workspace folder
 * that is a repository; undefined when there is none. Only in a trusted workspace: git reads the
 * repository's own config.
 */
async function notIgnored(): Promise<{ has(path: string): boolean; covers(path: string): boolean } | undefined> {
  if (!vscode.workspace.isTrusted) return undefined;
  const kept = new Set<string>();
  const repos: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.fsPath;
    const out = await run(root, ['-c', 'core.fsmonitor=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    if (out === undefined) continue;
    repos.push(root + nodePath.sep);
    for (const rel of out.split('\0')) if (rel !== '') kept.add(nodePath.join(root, rel));
  }
  if (repos.length === 0) return undefined;
  return { has: (p) => kept.has(p), covers: (p) => repos.some((r) => p.startsWith(r)) };
}

function run(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 10_000, windowsHide: true }, (err, stdout) => resolve(err ? undefined : String(stdout)));
  });
}

/** `files.exclude` and `search.exclude` together (findFiles applies only the first by itself). */
function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files', 'search']) {
    const map = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
    for (const [glob, on] of Object.entries(map)) if (on === true) patterns.add(glob);
  }
  if (patterns.size === 0) return undefined;
  return `{${[...patterns].join(',')}}`;
}
