import * as l10n from '@vscode/l10n';
import { PLATFORM_KEYS } from './registryTypes';
import { isRecord } from '../protocol/guards';
import type { AgentDistribution, BinaryTarget, PackageDistribution, ParsedRegistry, PlatformKey, RegistryAgent, RegistryProblem } from './registryTypes';

/**
 * Validates the registry index, which is untrusted input: it decides what Tandem downloads, where it
 * unpacks it and which command it runs. Every field that reaches a path, a command line or a
 * settings entry is checked against a strict pattern; an agent with a bad required field is dropped
 * (with a reason, so the UI and the tests can tell why), a bad optional part is left out.
 */

/** The index as a whole is unusable (not JSON of the right shape). */
export class RegistryFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryFormatError';
  }
}

const ID = /^[a-z][a-z0-9-]{0,63}$/;
/** Semver-like; also safe as a folder name and inside a package spec. */
const VERSION = /^\d+\.\d+\.\d+[0-9A-Za-z.+-]{0,40}$/;
/**
 * npm package names with an optional version. Deliberately no paths, URLs, git specs or a leading
 * `-` (which npx would read as an option).
 */
const NPM_SPEC = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[0-9A-Za-z.+~^<>=-]+)?$/;
/** PEP 508 name, optional extras, optional version specifier (`name[extra]==1.2.3`, `name@1.2.3`). */
const PYPI_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?((==|===|>=|<=|~=|!=|@)[0-9A-Za-z.+!*-]+)?$/;
const EXECUTABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SHA256 = /^[a-fA-F0-9]{64}$/;
const MAX_ARGS = 64;
const MAX_TEXT = 2000;

/**
 * Variables a registry entry may not set: they would change how the process itself is loaded or
 * found (PATH, preloads, Node/Python options) rather than configure the agent. The registry's own
 * runner drops a similar list (registry_utils.py, AGENT_ENV_RESERVED_NAMES).
 */
const RESERVED_ENV = new Set([
  'PATH',
  'PATHEXT',
  'HOME',
  'USERPROFILE',
  'COMSPEC',
  'SYSTEMROOT',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'ELECTRON_RUN_AS_NODE',
  'SHELL',
  'TMPDIR',
  'TEMP',
  'TMP',
]);
const RESERVED_ENV_PREFIXES = ['LD_', 'DYLD_', 'NPM_CONFIG_', 'UV_', 'PIP_'];

/** Parses the whole index. Throws {@link RegistryFormatError} only when nothing can be used. */
export function parseRegistry(raw: unknown): ParsedRegistry {
  if (!isRecord(raw)) throw new RegistryFormatError(l10n.t('The registry is not a JSON object.'));
  if (!Array.isArray(raw.agents)) throw new RegistryFormatError(l10n.t('The registry has no "agents" list.'));
  const formatVersion = typeof raw.version === 'string' ? raw.version : 'unknown';
  const problems: RegistryProblem[] = [];
  const agents: RegistryAgent[] = [];
  const seen = new Set<string>();
  raw.agents.forEach((item, index) => {
    const agent = parseAgent(item, index, problems);
    if (!agent) return;
    if (seen.has(agent.id)) {
      problems.push({ entry: agent.id, reason: 'duplicate id (the first entry is kept)', dropped: true });
      return;
    }
    seen.add(agent.id);
    agents.push(agent);
  });
  agents.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  return { formatVersion, agents, problems };
}

/** One agent, or undefined (with the reason in `problems`) when it cannot be offered safely. */
export function parseAgent(raw: unknown, index: number, problems: RegistryProblem[]): RegistryAgent | undefined {
  const label = isRecord(raw) && typeof raw.id === 'string' && ID.test(raw.id) ? raw.id : `#${index}`;
  const drop = (reason: string): undefined => {
    problems.push({ entry: label, reason, dropped: true });
    return undefined;
  };
  if (!isRecord(raw)) return drop('not an object');
  if (typeof raw.id !== 'string' || !ID.test(raw.id)) return drop('missing or invalid "id" (lower-case letters, digits and hyphens)');
  const name = text(raw.name, 100);
  if (!name) return drop('missing "name"');
  if (typeof raw.version !== 'string' || !VERSION.test(raw.version)) return drop(`missing or invalid "version" (${JSON.stringify(raw.version)})`);
  const description = text(raw.description, MAX_TEXT);
  if (!description) return drop('missing "description"');
  if (!isRecord(raw.distribution)) return drop('missing "distribution"');

  const note = (reason: string): void => void problems.push({ entry: label, reason, dropped: false });
  const distribution = parseDistribution(raw.distribution, raw.version, note);
  if (!distribution.npx && !distribution.uvx && !distribution.binary) return drop('no usable distribution (npx, uvx or binary)');

  const agent: RegistryAgent = { id: raw.id, name, version: raw.version, description, authors: [], distribution };
  const repository = httpsUrl(raw.repository);
  if (repository) agent.repository = repository;
  const website = httpsUrl(raw.website);
  if (website) agent.website = website;
  const icon = httpsUrl(raw.icon);
  if (icon) agent.icon = icon;
  const license = text(raw.license, 100);
  if (license) agent.license = license;
  if (Array.isArray(raw.authors))
    agent.authors = raw.authors
      .map((a) => text(a, 200))
      .filter((a): a is string => Boolean(a))
      .slice(0, 20);
  return agent;
}

function parseDistribution(raw: Record<string, unknown>, version: string, note: (reason: string) => void): AgentDistribution {
  const out: AgentDistribution = {};
  if (raw.npx !== undefined) {
    const npx = parsePackage(raw.npx, 'npx', NPM_SPEC, version, note);
    if (npx) out.npx = npx;
  }
  if (raw.uvx !== undefined) {
    const uvx = parsePackage(raw.uvx, 'uvx', PYPI_SPEC, version, note);
    if (uvx) out.uvx = uvx;
  }
  if (raw.binary !== undefined) {
    const binary = parseBinary(raw.binary, note);
    if (binary) out.binary = binary;
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'npx' && key !== 'uvx' && key !== 'binary') note(`unknown distribution "${key}" ignored`);
  }
  return out;
}

function parsePackage(raw: unknown, kind: 'npx' | 'uvx', spec: RegExp, version: string, note: (reason: string) => void): PackageDistribution | undefined {
  if (!isRecord(raw) || typeof raw.package !== 'string' || !spec.test(raw.package)) {
    note(`${kind}: missing or unsupported "package" ${JSON.stringify(isRecord(raw) ? raw.package : raw)}`);
    return undefined;
  }
  const pinned = pinnedVersion(raw.package, kind);
  if (pinned !== undefined && pinned !== version) {
    note(`${kind}: package pins ${pinned} but the agent's version is ${version}`);
    return undefined;
  }
  const args = stringList(raw.args);
  if (!args) {
    note(`${kind}: "args" is not a list of strings`);
    return undefined;
  }
  const out: PackageDistribution = { package: raw.package, args, env: envMap(raw.env, kind, note) };
  if (raw.cmd !== undefined) {
    if (typeof raw.cmd !== 'string' || !EXECUTABLE_NAME.test(raw.cmd)) {
      note(`${kind}: invalid "cmd" ${JSON.stringify(raw.cmd)}`);
      return undefined;
    }
    out.cmd = raw.cmd;
  }
  return out;
}

function parseBinary(raw: unknown, note: (reason: string) => void): Partial<Record<PlatformKey, BinaryTarget>> | undefined {
  if (!isRecord(raw)) {
    note('binary: not an object');
    return undefined;
  }
  const out: Partial<Record<PlatformKey, BinaryTarget>> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(PLATFORM_KEYS as readonly string[]).includes(key)) {
      note(`binary: unknown platform "${key}" ignored`);
      continue;
    }
    const target = parseTarget(value, key, note);
    if (target) out[key as PlatformKey] = target;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function parseTarget(raw: unknown, platform: string, note: (reason: string) => void): BinaryTarget | undefined {
  const bad = (reason: string): undefined => {
    note(`binary ${platform}: ${reason}`);
    return undefined;
  };
  if (!isRecord(raw)) return bad('not an object');
  // http only for loopback: the registry CI demands public https URLs; tests serve archives locally.
  const archive = typeof raw.archive === 'string' && isDownloadUrl(raw.archive) ? raw.archive : undefined;
  if (!archive) return bad(`"archive" must be an https URL (${JSON.stringify(raw.archive)})`);
  if (typeof raw.cmd !== 'string' || !isSafeRelativePath(raw.cmd)) return bad(`"cmd" must be a path inside the archive (${JSON.stringify(raw.cmd)})`);
  if (raw.sha256 !== undefined && (typeof raw.sha256 !== 'string' || !SHA256.test(raw.sha256))) return bad('"sha256" is not 64 hex digits');
  const args = stringList(raw.args);
  if (!args) return bad('"args" is not a list of strings');
  const target: BinaryTarget = { archive, cmd: raw.cmd, args, env: envMap(raw.env, `binary ${platform}`, note) };
  if (typeof raw.sha256 === 'string') target.sha256 = raw.sha256.toLowerCase();
  return target;
}

/** The version a package spec pins, if it pins exactly one. */
export function pinnedVersion(spec: string, kind: 'npx' | 'uvx'): string | undefined {
  if (kind === 'npx') {
    const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
    return at > 0 ? spec.slice(at + 1) : undefined;
  }
  const match = /(?:===?|@)([0-9A-Za-z.+!-]+)$/.exec(spec);
  return match ? match[1] : undefined;
}

/** `./bin/agent`, `agent.exe`: relative, forward or back slashes, no `..`, no drive or root. */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.length > 300 || p.includes('\0')) return false;
  if (/^([a-zA-Z]:|[\\/])/.test(p)) return false;
  const parts = p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  return parts.length > 0 && parts.every((s) => s !== '..');
}

function isDownloadUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  } catch {
    return false;
  }
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function httpsUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 500) return undefined;
  try {
    return new URL(value).protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

function envMap(raw: unknown, where: string, note: (reason: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  if (!isRecord(raw)) {
    note(`${where}: "env" ignored (not an object)`);
    return out;
  }
  for (const [name, value] of Object.entries(raw)) {
    if (!ENV_NAME.test(name) || typeof value !== 'string' || value.includes('\0')) {
      note(`${where}: env ${JSON.stringify(name)} ignored (invalid)`);
    } else if (RESERVED_ENV.has(name.toUpperCase()) || RESERVED_ENV_PREFIXES.some((p) => name.toUpperCase().startsWith(p))) {
      note(`${where}: env ${name} ignored (reserved)`);
    } else {
      out[name] = value;
    }
  }
  return out;
}

function stringList(raw: unknown): string[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_ARGS || !raw.every((a) => typeof a === 'string' && !a.includes('\0'))) return undefined;
  return raw as string[];
}

/** A trimmed single-line string without control characters, or undefined when empty. */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return clean ? clean.slice(0, max) : undefined;
}
