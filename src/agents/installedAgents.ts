import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import { writeFileAtomic } from '../util/atomicFile';
import { isRecord } from '../protocol/guards';
import type { AgentEntry, InstallKind } from './installPlan';

/**
 * What Tandem installed from the registry, kept beside the downloads (installed.json): per agent
 * the version in use and the one before it, each with the exact settings entry it had, so a
 * rollback restores a known-good entry without the registry (which only lists the latest version)
 * and without the network. Two versions are kept, no more: binaries are large.
 */

export interface InstalledVersion {
  version: string;
  kind: InstallKind;
  /** The `tandem.agents` entry that runs this version. */
  entry: AgentEntry;
  /** For binaries: the folder (relative to the install root) holding this version. */
  dir?: string;
  /** For binaries: whether the download was checked against a published sha256. */
  verified?: boolean;
  installedAt: string;
}

export interface InstalledAgent {
  /** The registry id. */
  id: string;
  /** The key in `tandem.agents`. */
  settingsName: string;
  current: InstalledVersion;
  /** What was in use before the last install or rollback; a rollback swaps the two. */
  previous?: InstalledVersion;
}

interface StateFile {
  version: 1;
  agents: InstalledAgent[];
}

export class InstalledAgents {
  private agents = new Map<string, InstalledAgent>();
  private loaded = false;

  constructor(private readonly file: string) {}

  /** Reads the file (once; `force` re-reads). A missing or corrupt file is an empty list. */
  async load(force = false): Promise<void> {
    if (this.loaded && !force) return;
    this.loaded = true;
    this.agents = new Map();
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.promises.readFile(this.file, 'utf8'));
    } catch {
      return;
    }
    const list = isRecord(raw) && Array.isArray(raw.agents) ? raw.agents : [];
    for (const item of list) {
      const agent = readAgent(item);
      if (agent) this.agents.set(agent.id, agent);
    }
  }

  list(): InstalledAgent[] {
    return [...this.agents.values()].map(clone);
  }

  get(id: string): InstalledAgent | undefined {
    const agent = this.agents.get(id);
    return agent && clone(agent);
  }

  bySettingsName(name: string): InstalledAgent | undefined {
    return this.list().find((a) => a.settingsName === name);
  }

  /**
   * Makes `version` current. A different version pushes the current one to `previous` (dropping
   * the older previous); reinstalling the same version keeps `previous`. Returns the folders no
   * version refers to any more, for the caller to delete.
   */
  async recordInstall(id: string, settingsName: string, version: InstalledVersion): Promise<string[]> {
    await this.load();
    const existing = this.agents.get(id);
    const next: InstalledAgent = { id, settingsName, current: version };
    if (existing) {
      const previous = existing.current.version === version.version && existing.current.kind === version.kind ? existing.previous : existing.current;
      if (previous) next.previous = previous;
    }
    this.agents.set(id, next);
    await this.save();
    return orphans(existing, next);
  }

  /** Swaps current and previous (so a second rollback rolls forward). Throws without a previous. */
  async rollback(id: string): Promise<InstalledAgent> {
    await this.load();
    const existing = this.agents.get(id);
    if (!existing?.previous) throw new Error(l10n.t('There is no earlier version of {0} to roll back to.', id));
    const next: InstalledAgent = { id, settingsName: existing.settingsName, current: existing.previous, previous: existing.current };
    this.agents.set(id, next);
    await this.save();
    return clone(next);
  }

  /** Forgets the agent; returns its record (with the folders to delete), or undefined if unknown. */
  async remove(id: string): Promise<{ agent: InstalledAgent; dirs: string[] } | undefined> {
    await this.load();
    const existing = this.agents.get(id);
    if (!existing) return undefined;
    this.agents.delete(id);
    await this.save();
    return { agent: clone(existing), dirs: orphans(existing, undefined) };
  }

  /** Every folder some kept version refers to (the rest of the install root is garbage). */
  referencedDirs(): Set<string> {
    const dirs = new Set<string>();
    for (const a of this.agents.values()) {
      for (const v of [a.current, a.previous]) if (v?.dir) dirs.add(v.dir);
    }
    return dirs;
  }

  private async save(): Promise<void> {
    const state: StateFile = { version: 1, agents: [...this.agents.values()] };
    await writeFileAtomic(this.file, JSON.stringify(state, null, 2));
  }
}

/** Folders of `before` that `after` no longer refers to. */
function orphans(before: InstalledAgent | undefined, after: InstalledAgent | undefined): string[] {
  const kept = new Set([after?.current.dir, after?.previous?.dir].filter((d): d is string => Boolean(d)));
  const old = [before?.current.dir, before?.previous?.dir].filter((d): d is string => Boolean(d));
  return [...new Set(old)].filter((d) => !kept.has(d));
}

function clone(agent: InstalledAgent): InstalledAgent {
  return structuredClone(agent);
}

/** The state file is ours, but may be corrupt or from another version: keep only what is sound. */
function readAgent(raw: unknown): InstalledAgent | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string' || typeof raw.settingsName !== 'string') return undefined;
  const current = readVersion(raw.current);
  if (!current) return undefined;
  const agent: InstalledAgent = { id: raw.id, settingsName: raw.settingsName, current };
  const previous = readVersion(raw.previous);
  if (previous) agent.previous = previous;
  return agent;
}

function readVersion(raw: unknown): InstalledVersion | undefined {
  if (!isRecord(raw) || typeof raw.version !== 'string' || !['npx', 'uvx', 'binary'].includes(raw.kind as string)) return undefined;
  const e = raw.entry;
  if (!isRecord(e) || typeof e.command !== 'string' || !Array.isArray(e.args) || !e.args.every((a) => typeof a === 'string')) return undefined;
  const env = isRecord(e.env) ? Object.fromEntries(Object.entries(e.env).filter((kv): kv is [string, string] => typeof kv[1] === 'string')) : {};
  const version: InstalledVersion = {
    version: raw.version,
    kind: raw.kind as InstallKind,
    entry: { command: e.command, args: e.args as string[], env },
    installedAt: typeof raw.installedAt === 'string' ? raw.installedAt : '',
  };
  // Only a plain folder name: the folder is deleted on uninstall, so it must stay inside the root.
  if (typeof raw.dir === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(raw.dir)) version.dir = raw.dir;
  if (typeof raw.verified === 'boolean') version.verified = raw.verified;
  return version;
}
