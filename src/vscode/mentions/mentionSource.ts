import * as l10n from '@vscode/l10n';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { rankByQuery } from '../../context/fuzzy';
import type { ContextSources } from '../../context/mentionSpecs';
import type { MentionCandidate, MentionChip, MentionSpec } from '../../protocol/messages';
import { Disposable } from '../../util/disposable';
import { errorMessage } from '../../util/errors';
import { gitDiff } from './gitDiff';
import { problemsOf, problemFiles } from './problems';
import { TerminalOutputs } from '../terminals/terminalOutputs';
import { WorkspaceFiles } from './workspaceFiles';

/** Most suggestions the picker shows for one query. */
const MAX_RESULTS = 50;
/** Language servers can be slow; the picker does not wait longer than this for symbols. */
const SYMBOL_WAIT_MS = 1500;

/** VS Code's symbol kind as the chip's icon name; read when used (the enum is the editor's, at run time). */
function symbolKindName(kind: vscode.SymbolKind): string | undefined {
  const names: Partial<Record<vscode.SymbolKind, string>> = {
    [vscode.SymbolKind.Class]: 'class',
    [vscode.SymbolKind.Constructor]: 'constructor',
    [vscode.SymbolKind.Enum]: 'enum',
    [vscode.SymbolKind.Field]: 'field',
    [vscode.SymbolKind.Function]: 'function',
    [vscode.SymbolKind.Interface]: 'interface',
    [vscode.SymbolKind.Method]: 'method',
    [vscode.SymbolKind.Module]: 'module',
    [vscode.SymbolKind.Namespace]: 'namespace',
    [vscode.SymbolKind.Property]: 'property',
    [vscode.SymbolKind.Struct]: 'struct',
    [vscode.SymbolKind.Variable]: 'variable',
    [vscode.SymbolKind.Constant]: 'constant',
  };
  return names[kind];
}

type Chips = (specs: readonly MentionSpec[]) => MentionChip[];

/**
 * What the `@` picker offers and where mention content comes from in the editor: workspace files
 * and folders (VS Code's file search, so `files.exclude` and `search.exclude` apply), open editors,
 * the selection, symbols (the language servers'), problems, terminals and the git diff. Also turns
 * dropped URIs and the editor's selection into chips for the Add commands.
 */
export class MentionSource extends Disposable {
  private readonly terminals = this.register(new TerminalOutputs());
  private readonly files = this.register(new WorkspaceFiles());

  constructor(private readonly chips: Chips) {
    super();
  }

  /** Content at send time, for the conversation core. */
  readonly sources: ContextSources = {
    problems: (file) => problemsOf(file),
    terminalOutput: (name) => this.terminals.output(name),
    gitDiff: () => gitDiff(this.root()),
  };

  /** Suggestions for what was typed after `@`, best first, grouped by what they are. */
  async query(query: string): Promise<MentionCandidate[]> {
    const q = query.trim();
    const [files, symbols] = await Promise.all([this.files.list(), this.symbols(q)]);
    const groups: Array<{ group: string; specs: MentionSpec[]; limit: number }> = [];
    const selection = this.selectionSpec();
    if (selection) groups.push({ group: l10n.t('Selection'), specs: [selection], limit: 1 });
    const open = this.openEditorPaths();
    groups.push({ group: l10n.t('Open editors'), specs: open.map((path) => ({ kind: 'file', path })), limit: 8 });
    const openSet = new Set(open);
    groups.push({
      group: l10n.t('Files'),
      specs: files.files.filter((p) => !openSet.has(p)).map((path) => ({ kind: 'file', path })),
      limit: q === '' ? 10 : 25,
    });
    groups.push({ group: l10n.t('Folders'), specs: files.folders.map((path) => ({ kind: 'folder', path })), limit: q === '' ? 3 : 8 });
    groups.push({ group: l10n.t('Symbols'), specs: symbols, limit: 15 });
    const problems: MentionSpec[] = [{ kind: 'problems' }, ...problemFiles().map((file): MentionSpec => ({ kind: 'problems', file }))];
    groups.push({ group: l10n.t('Problems'), specs: problems, limit: 5 });
    groups.push({ group: l10n.t('Terminals'), specs: this.terminals.terminals().map((t): MentionSpec => ({ kind: 'terminal', name: t.name })), limit: 5 });
    if (this.root()) groups.push({ group: l10n.t('Git'), specs: [{ kind: 'gitDiff' }], limit: 1 });
    const out: MentionCandidate[] = [];
    for (const { group, specs, limit } of groups) {
      const chips = this.chips(specs);
      const ranked = rankByQuery(chips, q, (c) => [c.view.label, `${c.view.detail ?? ''} ${group}`], limit);
      for (const chip of ranked) out.push({ ...chip, group });
    }
    return out.slice(0, MAX_RESULTS);
  }

  /** Chips for URIs dropped on the composer (explorer files and folders, editor tabs). */
  async chipsForUris(uris: readonly string[]): Promise<MentionChip[]> {
    const specs: MentionSpec[] = [];
    for (const raw of uris.slice(0, 100)) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw.trim(), true);
      } catch {
        continue;
      }
      const spec = await this.specForUri(uri);
      if (spec) specs.push(spec);
    }
    return this.chips(specs);
  }

  async specForUri(uri: vscode.Uri): Promise<MentionSpec | undefined> {
    if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote') return undefined;
    const path = uri.fsPath;
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.file(path));
      return stat.type & vscode.FileType.Directory ? { kind: 'folder', path } : { kind: 'file', path };
    } catch {
      return undefined;
    }
  }

  /** The active editor's selection as whole lines (as Zed sends a selection), or undefined. */
  selectionSpec(editor = vscode.window.activeTextEditor): MentionSpec | undefined {
    if (!editor || editor.document.uri.scheme !== 'file' || editor.selection.isEmpty) return undefined;
    const { start, end } = editor.selection;
    // A selection ending at a line's start does not take that line.
    const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
    return { kind: 'selection', path: editor.document.uri.fsPath, range: { startLine: start.line + 1, endLine } };
  }

  /** Opens what a chip points at: a file at its line, the Problems view, a terminal, the diff. */
  async open(uri: string, openFile: (uri: string) => Promise<void>): Promise<void> {
    if (uri.startsWith('file:')) return openFile(uri);
    if (uri.startsWith('tandem://problems')) await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (uri.startsWith('tandem://terminal/')) {
      const name = decodeURIComponent(uri.slice('tandem://terminal/'.length));
      this.terminals
        .terminals()
        .find((t) => t.name === name)
        ?.show(false);
    } else if (uri.startsWith('tandem://git')) await vscode.commands.executeCommand('workbench.view.scm');
  }

  private root(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  private openEditorPaths(): string[] {
    const paths: string[] = [];
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === 'file') paths.push(active.fsPath);
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText && input.uri.scheme === 'file' && !paths.includes(input.uri.fsPath)) paths.push(input.uri.fsPath);
      }
    }
    return paths;
  }

  /** Symbols of the active file, plus the workspace's for a query of two characters or more. */
  private async symbols(query: string): Promise<MentionSpec[]> {
    const specs: MentionSpec[] = [];
    const doc = vscode.window.activeTextEditor?.document;
    try {
      if (doc?.uri.scheme === 'file') {
        const found = await withTimeout(
          vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>('vscode.executeDocumentSymbolProvider', doc.uri),
        );
        for (const symbol of flatten(found ?? [])) specs.push(symbolSpec(symbol.name, doc.uri.fsPath, symbol.range, symbol.kind));
      }
      if (query.length >= 2) {
        const found = await withTimeout(vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query));
        for (const s of (found ?? []).slice(0, 200)) {
          if (s.location.uri.scheme === 'file' && s.location.uri.fsPath !== doc?.uri.fsPath)
            specs.push(symbolSpec(s.name, s.location.uri.fsPath, s.location.range, s.kind));
        }
      }
    } catch (err) {
      // No symbol provider, or one that failed: files and the rest are still offered.
      console.warn(`Tandem: symbols for the @ picker failed: ${errorMessage(err)}`);
    }
    return specs;
  }
}

function symbolSpec(name: string, path: string, range: vscode.Range, kind: vscode.SymbolKind): MentionSpec {
  const symbolKind = symbolKindName(kind);
  return {
    kind: 'symbol',
    name: name.slice(0, 200) || nodePath.basename(path),
    path,
    range: { startLine: range.start.line + 1, endLine: range.end.line + 1 },
    ...(symbolKind ? { symbolKind } : {}),
  };
}

function flatten(
  symbols: ReadonlyArray<vscode.DocumentSymbol | vscode.SymbolInformation>,
): Array<{ name: string; range: vscode.Range; kind: vscode.SymbolKind }> {
  const out: Array<{ name: string; range: vscode.Range; kind: vscode.SymbolKind }> = [];
  const walk = (list: ReadonlyArray<vscode.DocumentSymbol | vscode.SymbolInformation>) => {
    for (const s of list) {
      if ('children' in s) {
        out.push({ name: s.name, range: s.range, kind: s.kind });
        walk(s.children);
      } else out.push({ name: s.name, range: s.location.range, kind: s.kind });
      if (out.length > 500) return;
    }
  };
  walk(symbols);
  return out;
}

async function withTimeout<T>(work: Thenable<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SYMBOL_WAIT_MS)));
  try {
    return await Promise.race([Promise.resolve(work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
