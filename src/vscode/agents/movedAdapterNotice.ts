/**
 * Tells the user, once per entry, that an agent of `tandem.agents` runs an adapter that moved
 * (`@zed-industries/codex-acp` → `@agentclientprotocol/codex-acp`: movedAdapters.ts), with one click
 * to **Update** the entry where it is written — the user's settings or the workspace's — to the new
 * package, keeping its other fields. Check Agent offers the same Update every time it finds one
 * (`offerUpdate`). The old packages are not deprecated on npm: without this, `npx -y` keeps
 * starting last year's adapter and nothing says so.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { movedAdapterIn, movedEntries, rewriteMovedEntry, type MovedAdapter } from '../../agents/movedAdapters';
import { isRecord } from '../../protocol/guards';
import { Disposable } from '../../util/disposable';
import { affects, scopedSetting, updateScopedSetting, type SettingScope } from '../settings/settings';

/** globalState key: the entries already told (`name \0 old package`), so the notice comes once per entry. */
export const MOVED_NOTICE_KEY = 'tandem.movedAdapterNoticesShown';

/** The scopes an entry may be written in, in the order they are read for the notice. */
function scopes(): SettingScope[] {
  // A workspace's agents are not used in an untrusted workspace (tandem.agents is restricted): nothing to tell.
  return vscode.workspace.isTrusted ? ['user', 'workspace'] : ['user'];
}

function entriesIn(scope: SettingScope): Record<string, unknown> {
  const value = scopedSetting('agents', scope);
  return isRecord(value) ? value : {};
}

/** The moved adapter an agent of this name runs, in the first scope whose own part of the entry names one. */
export function movedAdapterOf(name: string): MovedAdapter | undefined {
  for (const scope of scopes()) {
    const entries = entriesIn(scope);
    const moved = Object.hasOwn(entries, name) ? movedAdapterIn(entries[name]) : undefined;
    if (moved) return moved;
  }
  return undefined;
}

/**
 * Rewrites the entry `name` in every scope whose own part of it runs a moved adapter. Returns the
 * scopes written (none: there was nothing this can rewrite).
 */
export async function updateMovedEntry(name: string): Promise<SettingScope[]> {
  const written: SettingScope[] = [];
  for (const scope of scopes()) {
    const entries = entriesIn(scope);
    if (!Object.hasOwn(entries, name)) continue;
    const rewritten = rewriteMovedEntry(entries[name]);
    if (!rewritten) continue;
    await updateScopedSetting('agents', { ...entries, [name]: rewritten }, scope);
    written.push(scope);
  }
  return written;
}

/** What the notice says of one entry. */
function sentence(name: string, moved: MovedAdapter): string {
  return moved.lastVersion
    ? l10n.t('The agent "{0}" runs {1}, which stopped at {2}: the adapter moved to {3}.', name, moved.from, moved.lastVersion, moved.to)
    : l10n.t('The agent "{0}" runs {1}, which is no longer updated: the adapter moved to {2}.', name, moved.from, moved.to);
}

/**
 * Shows the notice for one entry; with Update, rewrites it and says where. `moved.rewritable` false (a
 * file on another machine over ssh): what to do there instead, no button.
 */
export async function offerUpdate(name: string, moved: MovedAdapter): Promise<boolean> {
  if (!moved.rewritable) {
    void vscode.window.showWarningMessage(`${sentence(name, moved)} ${l10n.t('Install {0} on that machine and point the entry at it.', moved.to)}`);
    return false;
  }
  const update = l10n.t('Update');
  const answer = await vscode.window.showWarningMessage(
    `${sentence(name, moved)} ${l10n.t('Update the entry in your settings to run {0}?', moved.to)}`,
    update,
  );
  if (answer !== update) return false;
  const written = await updateMovedEntry(name);
  if (written.length === 0) {
    void vscode.window.showErrorMessage(l10n.t('The entry "{0}" could not be updated: edit tandem.agents to run {1}.', name, moved.to));
    return false;
  }
  void vscode.window.showInformationMessage(
    written.includes('workspace')
      ? l10n.t('"{0}" now runs {1} (the workspace settings were updated). New conversations with it start the new adapter.', name, moved.to)
      : l10n.t('"{0}" now runs {1}. New conversations with it start the new adapter.', name, moved.to),
  );
  return true;
}

/** The one-time notices: checked when Tandem loads and whenever `tandem.agents` changes. */
export class MovedAdapterNotice extends Disposable {
  constructor(private readonly memento: vscode.Memento) {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affects(event, 'agents')) this.check();
      }),
    );
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.check()));
  }

  /** Tells each entry running a moved adapter that has not been told yet (remembered before it shows). */
  check(): void {
    const told = new Set(this.memento.get<string[]>(MOVED_NOTICE_KEY, []));
    const fresh: Array<{ name: string; moved: MovedAdapter }> = [];
    for (const scope of scopes()) {
      for (const found of movedEntries(entriesIn(scope))) {
        const key = `${found.name}\u0000${found.moved.from}`;
        if (told.has(key)) continue;
        told.add(key);
        fresh.push(found);
      }
    }
    if (fresh.length === 0) return;
    void this.memento.update(MOVED_NOTICE_KEY, [...told]);
    // One toast, however many entries: several at once would push each other out of sight.
    if (fresh.length === 1) void offerUpdate(fresh[0].name, fresh[0].moved);
    else void offerUpdates(fresh);
  }
}

/** Several entries at once: one notice naming each, and one Update for those it can rewrite. */
async function offerUpdates(found: ReadonlyArray<{ name: string; moved: MovedAdapter }>): Promise<void> {
  const list = found.map(({ name, moved }) => l10n.t('"{0}" ({1} → {2})', name, moved.from, moved.to)).join(', ');
  const rewritable = found.filter((f) => f.moved.rewritable);
  const text = l10n.t('{0} agents run adapters that moved: {1}.', found.length, list);
  if (rewritable.length === 0) {
    void vscode.window.showWarningMessage(`${text} ${l10n.t('Install the new packages on those machines and point the entries at them.')}`);
    return;
  }
  const update = l10n.t('Update');
  const answer = await vscode.window.showWarningMessage(`${text} ${l10n.t('Update the entries in your settings to the new packages?')}`, update);
  if (answer !== update) return;
  const updated: string[] = [];
  for (const { name } of rewritable) if ((await updateMovedEntry(name)).length > 0) updated.push(name);
  const missed = found.filter((f) => !updated.includes(f.name)).map((f) => f.name);
  if (updated.length > 0)
    void vscode.window.showInformationMessage(
      l10n.t('Updated {0}. New conversations with them start the new adapters.', updated.map((n) => `"${n}"`).join(', ')),
    );
  if (missed.length > 0)
    void vscode.window.showWarningMessage(l10n.t('Not updated: {0}. Edit tandem.agents to run the new packages.', missed.map((n) => `"${n}"`).join(', ')));
}
