import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
// The ESM build: the UMD main loads its parts with a dynamic require that bundling cannot follow.
import { parse, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import * as vscode from 'vscode';
import { mcpSecrets, parseMcpServers, type McpDropped, type McpServerSpec } from '../../conversation/mcpServers';
import { Disposable, Emitter } from '../../util/disposable';
import { affects, setting } from '../settings/settings';

/**
 * The MCP servers Tandem hands to agents: `tandem.mcpServers` (user or workspace settings) and,
 * when `tandem.useWorkspaceMcpJson` is on, the `servers` of the workspace's `.vscode/mcp.json`
 * (JSON with comments, as VS Code writes it). Read once and again when either changes.
 * jsonc-parser (Microsoft's, the parser VS Code itself uses for JSONC) reads the file.
 */
export class McpSettings extends Disposable {
  private cached: { servers: McpServerSpec[]; problems: McpDropped[] } | undefined;
  private readonly changes = this.register(new Emitter<void>());
  /** The configured servers (or their secrets) changed. */
  readonly onDidChange = this.changes.event;

  constructor() {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'mcpServers', 'useWorkspaceMcpJson')) this.invalidate();
      }),
    );
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json'));
    this.register(watcher.onDidChange(() => this.invalidate()));
    this.register(watcher.onDidCreate(() => this.invalidate()));
    this.register(watcher.onDidDelete(() => this.invalidate()));
  }

  servers(): McpServerSpec[] {
    return this.read().servers;
  }

  problems(): McpDropped[] {
    return this.read().problems;
  }

  /** Header and env values of the servers: masked in every log. */
  secrets(): string[] {
    return mcpSecrets(this.read().servers);
  }

  private invalidate(): void {
    this.cached = undefined;
    this.changes.fire();
  }

  private read(): { servers: McpServerSpec[]; problems: McpDropped[] } {
    if (this.cached) return this.cached;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const vars = { workspaceFolder: folder, env: process.env };
    const fromSettings = parseMcpServers(setting('mcpServers'), 'tandem.mcpServers', vars);
    const servers = [...fromSettings.servers];
    const problems = [...fromSettings.dropped];
    // Off by default: a repository's mcp.json may start programs, and only the user decides that.
    if (setting('useWorkspaceMcpJson') === true && folder && vscode.workspace.isTrusted) {
      const file = path.join(folder, '.vscode', 'mcp.json');
      try {
        const errors: ParseError[] = [];
        const json = parse(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true }) as { servers?: unknown } | undefined;
        if (errors.length > 0) problems.push({ name: '.vscode/mcp.json', reason: l10n.t('the file is not valid JSON') });
        else {
          const fromFile = parseMcpServers(json?.servers, '.vscode/mcp.json', vars);
          servers.push(...fromFile.servers);
          problems.push(...fromFile.dropped);
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          problems.push({ name: '.vscode/mcp.json', reason: l10n.t('it could not be read ({0})', (err as Error).message) });
      }
    }
    this.cached = { servers, problems };
    return this.cached;
  }
}
