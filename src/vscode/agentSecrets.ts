import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { Disposable, Emitter } from '../util/disposable';

const KEY_PREFIX = 'tandem.agentSecrets.';

/**
 * What the user entered for an agent through the sign-in card (an API key, a token), kept in VS
 * Code's SecretStorage — the operating system's keychain — never in settings or logs. Values are
 * read into memory once, so starting an agent stays synchronous, and handed to the agent in the
 * environment variable its sign-in method names. Sign Out forgets them.
 */
export class AgentSecrets extends Disposable {
  private readonly cache = new Map<string, Record<string, string>>();
  private readonly loaded = new Set<string>();
  private readonly changes = this.register(new Emitter<string>());
  /** An agent's stored values changed (its name). */
  readonly onDidChange = this.changes.event;

  constructor(private readonly storage: vscode.SecretStorage) {
    super();
    this.register(
      storage.onDidChange((e) => {
        if (!e.key.startsWith(KEY_PREFIX)) return;
        const name = e.key.slice(KEY_PREFIX.length);
        this.loaded.delete(name);
        void this.load([name]).then(() => this.changes.fire(name));
      }),
    );
  }

  /** Reads the stored values of these agents into memory (each once). */
  async load(names: readonly string[]): Promise<void> {
    await Promise.all(
      names
        .filter((n) => !this.loaded.has(n))
        .map(async (name) => {
          this.loaded.add(name);
          const raw = await this.storage.get(KEY_PREFIX + name).then(undefined, () => undefined);
          this.cache.set(name, parse(raw));
        }),
    );
  }

  /** The agent's stored values by variable name (empty when none, or not loaded yet). */
  get(name: string): Record<string, string> {
    return { ...(this.cache.get(name) ?? {}) };
  }

  has(name: string): boolean {
    return Object.keys(this.cache.get(name) ?? {}).length > 0;
  }

  /** Every stored value (masked in the logs). */
  values(): string[] {
    return [...this.cache.values()].flatMap((v) => Object.values(v));
  }

  async set(name: string, variable: string, value: string): Promise<void> {
    const next = { ...this.get(name), [variable]: value };
    this.cache.set(name, next);
    this.loaded.add(name);
    await this.storage.store(KEY_PREFIX + name, JSON.stringify(next));
    this.changes.fire(name);
  }

  /** Forgets everything stored for the agent; false when there was nothing. */
  async forget(name: string): Promise<boolean> {
    if (!this.has(name)) return false;
    this.cache.set(name, {});
    await this.storage.delete(KEY_PREFIX + name);
    this.changes.fire(name);
    return true;
  }

  /**
   * Asks the user for a value (a password box that says where it is kept), and stores it; false
   * when they cancelled.
   */
  async ask(name: string, variable: { name: string; label?: string }): Promise<boolean> {
    const label = variable.label ?? variable.name;
    const value = await vscode.window.showInputBox({
      title: l10n.t('Sign in to {0}', name),
      prompt: l10n.t('{0} for {1}. Kept in VS Code’s secret storage, never in settings or logs.', label, name),
      placeHolder: variable.name,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? l10n.t('Enter the {0}, or press Escape to cancel.', label) : undefined),
    });
    if (value === undefined || value.trim() === '') return false;
    await this.set(name, variable.name, value.trim());
    return true;
  }
}

function parse(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
