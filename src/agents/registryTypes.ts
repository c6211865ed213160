/**
 * The ACP registry's index, as Tandem keeps it after validation.
 *
 * What the registry looks like (checked against github.com/agentclientprotocol/registry: FORMAT.md,
 * agent.schema.json, registry.schema.json and .github/workflows/build_registry.py, and the page
 * agentclientprotocol.com/get-started/registry):
 *
 * - Served at https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json, rebuilt by CI
 *   from one `<id>/agent.json` per agent: `{ "version": "1.0.0", "agents": [...], "extensions": [] }`.
 * - Agent: `id` (`^[a-z][a-z0-9-]*$`), `name`, `version` (`^\d+\.\d+\.\d+…`), `description` are
 *   required; `repository`, `website`, `authors[]`, `license`, `license_url`, `icon` (a CDN URL set
 *   by the build) are optional; `distribution` has at least one of `npx`, `uvx`, `binary`.
 * - `npx` / `uvx`: `{ package, args?, env? }`. The package carries the pinned version in practice
 *   (`"@agentclientprotocol/codex-acp@1.4.0"`, `"fast-agent-acp==0.10.1"`); CI rejects `@latest`
 *   and a pin that differs from the agent's `version`. FORMAT.md also documents an optional `cmd`
 *   (run as `npx --package <package> <cmd>` / `uvx --from <package> <cmd>`).
 * - `binary`: per platform (`darwin-aarch64`, `darwin-x86_64`, `linux-aarch64`, `linux-x86_64`,
 *   `windows-aarch64`, `windows-x86_64`) `{ archive, cmd, args?, env?, sha256? }`. `archive` is a
 *   `.zip`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tbz2` or a raw binary; `cmd` is relative to the unpacked
 *   folder (`"./opencode"`); `sha256` (hex, 64 chars) is optional — most entries have none.
 *
 * Everything in the file is untrusted input: registryParse.ts turns it into these types or drops it.
 */

/** Where the index lives. */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** Platform keys of binary distributions, exactly as the registry spells them. */
export const PLATFORM_KEYS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

/** An `npx` or `uvx` distribution. */
export interface PackageDistribution {
  /** Package spec, usually pinned (`@scope/name@1.2.3`, `name==1.2.3`). */
  package: string;
  /** Executable inside the package, when it is not the package's default one. */
  cmd?: string;
  args: string[];
  /** Only variables that passed the reserved-name filter (registryParse.ts). */
  env: Record<string, string>;
}

/** One platform's download of a `binary` distribution. */
export interface BinaryTarget {
  /** https URL of the archive or raw executable. */
  archive: string;
  /** Path of the executable inside the unpacked archive; relative, never leaving it. */
  cmd: string;
  args: string[];
  env: Record<string, string>;
  /** Lower-case hex SHA-256 of the download, when the registry publishes one. */
  sha256?: string;
}

export interface AgentDistribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<PlatformKey, BinaryTarget>>;
}

/** One agent of the registry, validated. */
export interface RegistryAgent {
  /** Lower-case id, also used as a folder name under global storage. */
  id: string;
  name: string;
  version: string;
  description: string;
  repository?: string;
  website?: string;
  authors: string[];
  license?: string;
  icon?: string;
  distribution: AgentDistribution;
}

/** Something in the index that was wrong; `dropped` when the whole agent was left out because of it. */
export interface RegistryProblem {
  /** The agent's id, or `#index` when it had no usable id. */
  entry: string;
  reason: string;
  dropped: boolean;
}

/** The validated index. */
export interface ParsedRegistry {
  /** The index's own format version (`1.0.0` today). */
  formatVersion: string;
  agents: RegistryAgent[];
  problems: RegistryProblem[];
}
