import * as l10n from '@vscode/l10n';
import { pinnedVersion } from './registryParse';
import type { BinaryTarget, PackageDistribution, PlatformKey, RegistryAgent } from './registryTypes';

/**
 * How to install one registry agent on one machine, decided without touching it: which
 * distribution, and what its `tandem.agents` entry will be. Platform and architecture are inputs so
 * every platform's plan can be tested anywhere.
 */

/** An entry of `tandem.agents` (the same shape as AgentServerConfig, without importing vscode). */
export interface AgentEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export type InstallKind = 'npx' | 'uvx' | 'binary';

interface PlanBase {
  agentId: string;
  version: string;
  /** What the user reads in the picker: "npx @scope/pkg@1.2.3", "download for linux-x86_64". */
  summary: string;
}

/** A package runner: nothing to download now; the runner fetches the pinned version on first start. */
export interface PackagePlan extends PlanBase {
  kind: 'npx' | 'uvx';
  /** The runner that must be on PATH. */
  runtime: 'npx' | 'uvx';
  entry: AgentEntry;
}

/** A download: fetched, verified and unpacked into a folder of Tandem's storage. */
export interface BinaryPlan extends PlanBase {
  kind: 'binary';
  platform: PlatformKey;
  target: BinaryTarget;
  /** Set when the target is for another architecture that this machine runs by emulation. */
  emulated?: string;
}

export type InstallPlan = PackagePlan | BinaryPlan;

export interface MachineInfo {
  platform: NodeJS.Platform;
  arch: string;
}

/** The registry's name for this machine, or undefined for platforms it has no builds for. */
export function platformKey(machine: MachineInfo): PlatformKey | undefined {
  const os = machine.platform === 'darwin' ? 'darwin' : machine.platform === 'linux' ? 'linux' : machine.platform === 'win32' ? 'windows' : undefined;
  const cpu = machine.arch === 'x64' ? 'x86_64' : machine.arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as PlatformKey) : undefined;
}

/**
 * Every way this agent can be installed here, best first: a native binary needs no runtime and is
 * pinned by URL (and checksum when published); then npx (Node is the most common runtime among
 * developers), then uvx. An x86_64 binary is still offered on Apple Silicon (Rosetta) and Windows on
 * Arm (emulation), after the package runners.
 */
export function installPlans(agent: RegistryAgent, machine: MachineInfo): InstallPlan[] {
  const plans: InstallPlan[] = [];
  const key = platformKey(machine);
  const binary = agent.distribution.binary;
  if (key && binary?.[key]) plans.push(binaryPlan(agent, key, binary[key]));
  if (agent.distribution.npx) plans.push(packagePlan(agent, 'npx', agent.distribution.npx));
  if (agent.distribution.uvx) plans.push(packagePlan(agent, 'uvx', agent.distribution.uvx));
  const emulatedKey = key === 'darwin-aarch64' ? 'darwin-x86_64' : key === 'windows-aarch64' ? 'windows-x86_64' : undefined;
  if (key && emulatedKey && !binary?.[key] && binary?.[emulatedKey]) {
    plans.push({ ...binaryPlan(agent, emulatedKey, binary[emulatedKey]), emulated: machine.platform === 'darwin' ? 'Rosetta 2' : l10n.t('x64 emulation') });
  }
  return plans;
}

/** Why nothing can be installed here (for the picker), or undefined when something can. */
export function unavailableReason(agent: RegistryAgent, machine: MachineInfo): string | undefined {
  if (installPlans(agent, machine).length > 0) return undefined;
  const platforms = Object.keys(agent.distribution.binary ?? {}).join(', ');
  return l10n.t('No build for {0} (available: {1}).', platformKey(machine) ?? `${machine.platform}-${machine.arch}`, platforms || l10n.t('none'));
}

/**
 * The pinned package spec: the registry's own pin when it has one (it is checked against the
 * agent's version when parsing), else the version appended in the runner's syntax (uvx accepts
 * `name@1.2.3` like npx).
 */
export function pinnedSpec(pkg: string, kind: 'npx' | 'uvx', version: string): string {
  return pinnedVersion(pkg, kind) !== undefined ? pkg : `${pkg}@${version}`;
}

function packagePlan(agent: RegistryAgent, kind: 'npx' | 'uvx', dist: PackageDistribution): PackagePlan {
  const spec = pinnedSpec(dist.package, kind, agent.version);
  // `-y`: npx would otherwise wait for a "Need to install … Ok to proceed?" answer on the agent's
  // stdin, which is the protocol stream. Options after the package (or cmd) go to the agent.
  const runner = kind === 'npx' ? (dist.cmd ? ['-y', '--package', spec, dist.cmd] : ['-y', spec]) : dist.cmd ? ['--from', spec, dist.cmd] : [spec];
  const args = [...runner, ...dist.args];
  return {
    kind,
    runtime: kind,
    agentId: agent.id,
    version: agent.version,
    summary: [kind, ...runner.filter((a) => a !== '-y')].join(' '),
    entry: { command: kind, args, env: { ...dist.env } },
  };
}

function binaryPlan(agent: RegistryAgent, platform: PlatformKey, target: BinaryTarget): BinaryPlan {
  return {
    kind: 'binary',
    agentId: agent.id,
    version: agent.version,
    platform,
    target,
    summary: target.sha256 ? l10n.t('download for {0} (checksum published)', platform) : l10n.t('download for {0}', platform),
  };
}

/** The settings entry of an unpacked binary: `cmd` resolved inside its folder. */
export function binaryEntry(plan: BinaryPlan, executable: string): AgentEntry {
  return { command: executable, args: [...plan.target.args], env: { ...plan.target.env } };
}

/**
 * Orders versions the semver way (numeric parts, then a pre-release below its release). Enough for
 * "is the registry's version newer than the installed one"; not a full semver implementation.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): { nums: number[]; pre: string } => {
    const [core = '', pre = ''] = v.replace(/\+.*$/, '').split(/-(.*)/s);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (!x.pre) return 1;
  if (!y.pre) return -1;
  return x.pre.localeCompare(y.pre, 'en', { numeric: true });
}
