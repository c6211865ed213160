import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectArchiveKind, locateExecutable, markExecutable, unpackArchive } from './archive';
import { downloadFile } from './httpClient';
import type { HttpOptions, ProgressListener } from './httpClient';
import { binaryEntry } from './installPlan';
import type { AgentEntry, BinaryPlan, InstallKind, InstallPlan } from './installPlan';
import { InstalledAgents } from './installedAgents';
import type { InstalledAgent, InstalledVersion } from './installedAgents';

/**
 * Installs registry agents into one folder (the extension's global storage), in two steps so the
 * editor can write its settings in between: {@link prepare} does everything that can fail (download,
 * checksum, unpack) without touching what is in use; {@link commit} records the version once the
 * settings point at it. Layout: `<root>/<id>/<version>-<random>/…` per binary version, and
 * `<root>/installed.json` (installedAgents.ts).
 */

/** The download did not match the checksum the registry published. */
export class ChecksumError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(l10n.t("The download does not match the registry's checksum (expected sha256 {0}, got {1}). It was deleted.", expected, actual));
    this.name = 'ChecksumError';
  }
}

export type InstallStage = 'download' | 'unpack';

export interface PrepareOptions {
  signal?: AbortSignal;
  onStage?: (stage: InstallStage) => void;
  onProgress?: ProgressListener;
}

/** A version ready to be used: its settings entry, and for binaries the folder it lives in. */
export interface PreparedInstall {
  agentId: string;
  version: string;
  kind: InstallKind;
  entry: AgentEntry;
  /** Binaries: folder relative to the root (`<id>/<version>-<random>`). */
  dir?: string;
  /** Binaries: true when a published sha256 matched; false when none was published. */
  verified?: boolean;
}

export interface AgentInstallServiceOptions {
  root: string;
  http?: HttpOptions;
  now?: () => Date;
}

export class AgentInstallService {
  readonly installed: InstalledAgents;

  constructor(private readonly opts: AgentInstallServiceOptions) {
    this.installed = new InstalledAgents(path.join(opts.root, 'installed.json'));
  }

  get root(): string {
    return this.opts.root;
  }

  /** Downloads and unpacks a binary; for npx/uvx only builds the entry (the runner fetches later). */
  async prepare(plan: InstallPlan, options: PrepareOptions = {}): Promise<PreparedInstall> {
    if (plan.kind !== 'binary') return { agentId: plan.agentId, version: plan.version, kind: plan.kind, entry: structuredClone(plan.entry) };
    return this.prepareBinary(plan, options);
  }

  /** Makes a prepared version the current one; the version it replaces becomes `previous`. */
  async commit(prepared: PreparedInstall, settingsName: string): Promise<InstalledAgent> {
    const version: InstalledVersion = {
      version: prepared.version,
      kind: prepared.kind,
      entry: prepared.entry,
      installedAt: (this.opts.now?.() ?? new Date()).toISOString(),
    };
    if (prepared.dir) version.dir = prepared.dir;
    if (prepared.verified !== undefined) version.verified = prepared.verified;
    const unused = await this.installed.recordInstall(prepared.agentId, settingsName, version);
    await this.removeDirs(unused);
    const agent = this.installed.get(prepared.agentId);
    if (!agent) throw new Error(l10n.t('Recording {0} failed.', prepared.agentId));
    return agent;
  }

  /** Throws away a prepared version that will not be used (the settings could not be written). */
  async discard(prepared: PreparedInstall): Promise<void> {
    if (prepared.dir && !this.installed.referencedDirs().has(prepared.dir)) await this.removeDirs([prepared.dir]);
  }

  /** Makes the previous version current again; the caller writes its entry to the settings. */
  rollback(agentId: string): Promise<InstalledAgent> {
    return this.installed.rollback(agentId);
  }

  /** Forgets the agent and deletes its downloads. Returns what it was, or undefined if unknown. */
  async uninstall(agentId: string): Promise<InstalledAgent | undefined> {
    const removed = await this.installed.remove(agentId);
    if (!removed) return undefined;
    await this.removeDirs(removed.dirs);
    await fs.promises.rmdir(path.join(this.opts.root, agentId)).catch(() => undefined);
    return removed.agent;
  }

  private async prepareBinary(plan: BinaryPlan, options: PrepareOptions): Promise<PreparedInstall> {
    await this.installed.load();
    const agentDir = path.join(this.opts.root, plan.agentId);
    await fs.promises.mkdir(agentDir, { recursive: true });
    const nonce = randomBytes(4).toString('hex');
    const download = path.join(agentDir, `.download-${nonce}`);
    const folder = `${plan.version}-${nonce}`;
    const target = path.join(agentDir, folder);
    const staging = path.join(agentDir, `.unpack-${nonce}`);
    try {
      options.onStage?.('download');
      const { sha256 } = await downloadFile(plan.target.archive, download, { ...this.opts.http, signal: options.signal, onProgress: options.onProgress });
      if (plan.target.sha256 && sha256 !== plan.target.sha256) throw new ChecksumError(plan.target.sha256, sha256);
      options.signal?.throwIfAborted();
      options.onStage?.('unpack');
      const kind = await detectArchiveKind(download, plan.target.archive);
      await unpackArchive(download, kind, staging, plan.target.cmd);
      const executable = await locateExecutable(staging, plan.target.cmd);
      if (!executable) throw new Error(l10n.t('The archive has no {0} (the command the registry names).', plan.target.cmd));
      await markExecutable(executable);
      const relative = path.relative(await fs.promises.realpath(staging), executable);
      options.signal?.throwIfAborted();
      // Unpacked under a temporary name and renamed whole, so a folder named after a version is
      // always complete.
      await fs.promises.rename(staging, target);
      return {
        agentId: plan.agentId,
        version: plan.version,
        kind: 'binary',
        entry: binaryEntry(plan, path.join(target, relative)),
        dir: `${plan.agentId}/${folder}`,
        verified: Boolean(plan.target.sha256),
      };
    } catch (err) {
      await fs.promises.rm(staging, { recursive: true, force: true });
      await fs.promises.rm(target, { recursive: true, force: true });
      throw err;
    } finally {
      await fs.promises.rm(download, { force: true });
    }
  }

  /** Best effort: on Windows a running agent holds its files, and the folder is retried next time. */
  private async removeDirs(dirs: string[]): Promise<void> {
    for (const dir of dirs) {
      const full = path.resolve(this.opts.root, dir);
      if (!full.startsWith(path.resolve(this.opts.root) + path.sep)) continue;
      await fs.promises.rm(full, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
