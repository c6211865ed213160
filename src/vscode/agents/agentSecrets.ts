import type * as vscode from 'vscode';
import type { AgentLaunchConfig } from '../../acp/agentProcess';
import { Disposable, Emitter } from '../../util/disposable';
import { agentDestination } from './agentDestination';
import type { ResolvedAgent } from './agentSettings';

const KEY_PREFIX = 'tandem.agentSecrets.';

/** An agent's stored values: by destination, and those of older versions that kept no destination. */
interface Stored {
  byDestination: Record<string, Record<string, string>>;
  /** Stored by name only (before values were bound to a destination). */
  unbound: Record<string, string>;
}

/** What an agent entry gets of its stored values, and why it gets none when some are kept elsewhere. */
export interface StoredForAgent {
  /** By variable name (LaunchContext.secrets). */
  secrets: Record<string, string>;
  withheld?: AgentLaunchConfig['withheld'];
}

/**
 * What the user entered for an agent through the sign-in card (an API key, a token), kept in VS
 * Code's SecretStorage — the operating system's keychain — never in settings or logs. Kept under
 * the agent's name *and* its destination (agentDestination.ts: the address's origin, or the
 * command line): a value is handed only to an entry that points where it was entered for, so a
 * workspace's same-named entry with another URL or command gets nothing (and the sign-in card says
 * why). Values are read into memory once, so starting an agent stays synchronous, and handed to
 * the agent in the environment variable its sign-in method names. Sign Out forgets them.
 */
export class AgentSecrets extends Disposable {
  private readonly cache = new Map<string, Stored>();
  private readonly loaded = new Set<string>();
  private readonly changes = this.register(new Emitter<string>());
  /** An agent's stored values changed (its name). */
  readonly onDidChange = this.changes.event;

  constructor(private readonly storage: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete' | 'onDidChange'>) {
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

  /**
   * The values stored for this agent where it points now (empty when none, or not loaded yet). A
   * value an older version stored by name alone is bound to the entry's destination on this first
   * use only when the entry is the user's own (from user settings): one a workspace defines or
   * overrides never gets it.
   */
  forAgent(agent: Pick<ResolvedAgent, 'name' | 'entry' | 'origin'>): StoredForAgent {
    const destination = agentDestination(agent.entry);
    const stored = this.cache.get(agent.name);
    if (!stored) return { secrets: {} };
    const values = stored.byDestination[destination];
    if (values && Object.keys(values).length > 0) return { secrets: { ...values } };
    if (Object.keys(stored.unbound).length > 0) {
      if (agent.origin !== 'user') return { secrets: {}, withheld: { destination } };
      const bound = { ...stored.unbound };
      void this.save(agent.name, { byDestination: { ...stored.byDestination, [destination]: bound }, unbound: {} });
      return { secrets: { ...bound } };
    }
    const elsewhere = Object.keys(stored.byDestination).find((d) => Object.keys(stored.byDestination[d]).length > 0);
    return elsewhere ? { secrets: {}, withheld: { enteredFor: elsewhere, destination } } : { secrets: {} };
  }

  has(name: string): boolean {
    return this.valuesOf(name).length > 0;
  }

  /** Every stored value, wherever it goes (masked in the logs). */
  values(): string[] {
    return [...this.cache.keys()].flatMap((name) => this.valuesOf(name));
  }

  /** Keeps `value` in `variable` for the agent where it points now. */
  async set(agent: Pick<ResolvedAgent, 'name' | 'entry'>, variable: string, value: string): Promise<void> {
    const destination = agentDestination(agent.entry);
    const stored = this.cache.get(agent.name) ?? { byDestination: {}, unbound: {} };
    const next = { ...stored, byDestination: { ...stored.byDestination, [destination]: { ...stored.byDestination[destination], [variable]: value } } };
    this.loaded.add(agent.name);
    await this.save(agent.name, next);
    this.changes.fire(agent.name);
  }

  /** Forgets everything stored for the agent, for every destination; false when there was nothing. */
  async forget(name: string): Promise<boolean> {
    if (!this.has(name)) return false;
    this.cache.set(name, { byDestination: {}, unbound: {} });
    await this.storage.delete(KEY_PREFIX + name);
    this.changes.fire(name);
    return true;
  }

  private valuesOf(name: string): string[] {
    const stored = this.cache.get(name);
    if (!stored) return [];
    return [...Object.values(stored.unbound), ...Object.values(stored.byDestination).flatMap((v) => Object.values(v))];
  }

  private async save(name: string, stored: Stored): Promise<void> {
    this.cache.set(name, stored);
    const record = { version: 2, byDestination: stored.byDestination, ...(Object.keys(stored.unbound).length > 0 ? { unbound: stored.unbound } : {}) };
    await this.storage.store(KEY_PREFIX + name, JSON.stringify(record)).then(undefined, () => undefined);
  }
}

function strings(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The stored record: `{version: 2, byDestination}`, or an older version's `{VAR: value}` (unbound). */
function parse(raw: string | undefined): Stored {
  const empty: Stored = { byDestination: {}, unbound: {} };
  if (!raw) return empty;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return empty;
    const record = value as Record<string, unknown>;
    if (record.version !== 2) return { byDestination: {}, unbound: strings(record) };
    const byDestination: Record<string, Record<string, string>> = {};
    if (typeof record.byDestination === 'object' && record.byDestination !== null) {
      for (const [destination, values] of Object.entries(record.byDestination)) byDestination[destination] = strings(values);
    }
    return { byDestination, unbound: strings(record.unbound) };
  } catch {
    return empty;
  }
}
