import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import { writeFileAtomic } from '../util/atomicFile';
import { relativeTime } from '../protocol/displayLanguage';
import { errorMessage } from '../util/errors';
import { getText } from './httpClient';
import type { HttpOptions } from './httpClient';
import { parseRegistry } from './registryParse';
import type { ParsedRegistry } from './registryTypes';

/**
 * The registry index with a local cache: fetched at most once an hour (the CDN is rebuilt a few
 * times a day, and every install dialog would otherwise cost a round trip), and when the network
 * fails, the cache — however old — or else the snapshot bundled with the extension, so the dialog
 * always has something to show and says how old it is.
 */

export const REGISTRY_MAX_AGE_MS = 60 * 60 * 1000;

export interface RegistryClientOptions {
  url: string;
  /** The cache file (in the extension's global storage). */
  cacheFile: string;
  /** The snapshot shipped with the extension, used when there is neither network nor cache. */
  snapshotFile?: string;
  http?: HttpOptions;
  maxAgeMs?: number;
  now?: () => number;
}

/** Where the index came from. `cache` is fresh unless `offline` says the refresh failed. */
export type RegistryOrigin = 'network' | 'cache' | 'snapshot';

export interface LoadedRegistry extends ParsedRegistry {
  origin: RegistryOrigin;
  /** When the index was fetched from the network (ms since epoch); the snapshot's file time for it. */
  fetchedAt: number;
  /** Set when the network was tried and failed: why. The UI says it is showing older data. */
  offline?: string;
}

/** What the cache file holds: the raw index (re-validated on every read, the file is not trusted). */
interface CacheFile {
  url: string;
  fetchedAt: number;
  registry: unknown;
}

export class RegistryClient {
  constructor(private readonly opts: RegistryClientOptions) {}

  /**
   * The index: from the cache while it is fresh (unless `refresh`), else from the network, else
   * the stale cache or the snapshot with `offline` set. Throws only when all of them fail.
   */
  async load(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<LoadedRegistry> {
    const now = (this.opts.now ?? Date.now)();
    const cached = await this.readCache();
    const maxAge = this.opts.maxAgeMs ?? REGISTRY_MAX_AGE_MS;
    if (cached && !options.refresh && now - cached.fetchedAt >= 0 && now - cached.fetchedAt < maxAge) {
      return { ...cached.parsed, origin: 'cache', fetchedAt: cached.fetchedAt };
    }
    let failure: string;
    try {
      const body = await getText(this.opts.url, { ...this.opts.http, signal: options.signal ?? this.opts.http?.signal });
      const raw: unknown = JSON.parse(body);
      const parsed = parseRegistry(raw);
      await this.writeCache({ url: this.opts.url, fetchedAt: now, registry: raw });
      return { ...parsed, origin: 'network', fetchedAt: now };
    } catch (err) {
      if (options.signal?.aborted) throw err;
      failure = err instanceof SyntaxError ? l10n.t('the registry is not valid JSON ({0})', err.message) : errorMessage(err);
    }
    if (cached) return { ...cached.parsed, origin: 'cache', fetchedAt: cached.fetchedAt, offline: failure };
    const snapshot = await this.readSnapshot();
    if (snapshot) return { ...snapshot.parsed, origin: 'snapshot', fetchedAt: snapshot.fetchedAt, offline: failure };
    throw new Error(l10n.t('The ACP registry could not be loaded: {0}', failure));
  }

  private async readCache(): Promise<{ parsed: ParsedRegistry; fetchedAt: number } | undefined> {
    try {
      const file = JSON.parse(await fs.promises.readFile(this.opts.cacheFile, 'utf8')) as Partial<CacheFile>;
      // A cache of another registry URL (a changed setting, a test) is not this registry.
      if (file.url !== this.opts.url || typeof file.fetchedAt !== 'number') return undefined;
      return { parsed: parseRegistry(file.registry), fetchedAt: file.fetchedAt };
    } catch {
      // Missing or corrupt: as if there were none; the next successful fetch rewrites it.
      return undefined;
    }
  }

  private async writeCache(file: CacheFile): Promise<void> {
    try {
      await writeFileAtomic(this.opts.cacheFile, JSON.stringify(file));
    } catch {
      // Only a cache: the index in hand is still good.
    }
  }

  private async readSnapshot(): Promise<{ parsed: ParsedRegistry; fetchedAt: number } | undefined> {
    if (!this.opts.snapshotFile) return undefined;
    try {
      const [text, stat] = await Promise.all([fs.promises.readFile(this.opts.snapshotFile, 'utf8'), fs.promises.stat(this.opts.snapshotFile)]);
      const raw = JSON.parse(text) as Record<string, unknown>;
      // The snapshot records when it was taken; the file time is only a fallback (a .vsix resets it).
      const takenAt = typeof raw.snapshotTakenAt === 'string' ? Date.parse(raw.snapshotTakenAt) : NaN;
      return { parsed: parseRegistry(raw), fetchedAt: Number.isFinite(takenAt) ? takenAt : stat.mtimeMs };
    } catch {
      return undefined;
    }
  }
}

/** "3 minutes ago", "2 days ago": how old the data on screen is, in the display language. */
export function describeAge(fetchedAt: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - fetchedAt) / 60_000));
  if (minutes < 1) return l10n.t('just now');
  return relativeTime(now - minutes * 60_000, now);
}
