/**
 * One entry of `tandem.agents`, read defensively (settings are user-edited JSON). An entry is one of
 * three kinds, told apart by its keys — the contract of the settings:
 * - `command` (+ `args`, `env`): an agent process Tandem starts and speaks ACP to over stdio;
 * - `url` + `format: "tool-events" | "ui-message-stream"` (+ `model`, `body`, `headers`, `stream`):
 *   a hosted chat API, reached through the bundled bridge agent (dist/hostedAgent.js);
 * - `url` with no `format`, or `format: "acp"` (+ `headers`, `clientTools`): an ACP agent on another
 *   machine, over ACP's WebSocket or HTTP transport.
 * `headers` values may use `${env:NAME}`. Nothing here touches the editor, so it is unit-tested.
 */
import { isSsh } from '../acp/agentProcess';
import { isRecord } from '../protocol/guards';
import { shownCommandLine } from '../util/secretMask';
import { shownUrl } from '../util/secretShapes';

export const HOSTED_FORMATS = ['tool-events', 'ui-message-stream'] as const;
export type HostedFormat = (typeof HOSTED_FORMATS)[number];

export interface CommandEntry {
  kind: 'command';
  /** Executable name (looked up on PATH) or path. Never run through a shell. */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Only for agents Tandem makes itself (a replay): never parsed from settings. */
  sandbox?: 'replay';
}

export interface HostedEntry {
  kind: 'hosted';
  url: string;
  format: HostedFormat;
  model?: string;
  /** Merged into every request body (`allowedTools`, `context`, …). */
  body?: Record<string, unknown>;
  headers: Record<string, string>;
  /** `false` for servers that only answer JSON. */
  stream: boolean;
}

export interface RemoteEntry {
  kind: 'remote';
  /** `ws://`, `wss://`, `http://` or `https://`. */
  url: string;
  headers: Record<string, string>;
  /** Whether Tandem serves the agent's fs and terminal requests from this workspace (default true). */
  clientTools: boolean;
}

export type AgentEntry = CommandEntry | HostedEntry | RemoteEntry;

export type ParsedEntry = { entry: AgentEntry } | { problem: string };

function strings(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function url(value: unknown, schemes: readonly string[]): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed = new URL(value.trim());
    return schemes.includes(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The entry, or why it cannot be used (shown to the user once). */
export function parseAgentEntry(value: unknown): ParsedEntry {
  if (!isRecord(value)) return { problem: 'not an object' };
  if (typeof value.command === 'string' && value.command.trim() !== '') {
    const args = Array.isArray(value.args) ? value.args.filter((a): a is string => typeof a === 'string') : [];
    return { entry: { kind: 'command', command: value.command, args, env: strings(value.env) } };
  }
  if (value.url === undefined) return { problem: 'it has neither a "command" nor a "url"' };
  const format = value.format;
  if (format === undefined || format === 'acp') {
    const target = url(value.url, ['ws:', 'wss:', 'http:', 'https:']);
    if (!target) return { problem: `"url" must be a ws://, wss://, http:// or https:// address (got ${JSON.stringify(value.url)})` };
    return { entry: { kind: 'remote', url: target.toString(), headers: strings(value.headers), clientTools: value.clientTools !== false } };
  }
  if (typeof format !== 'string' || !(HOSTED_FORMATS as readonly string[]).includes(format)) {
    return { problem: `"format" must be "acp", "tool-events" or "ui-message-stream" (got ${JSON.stringify(format)})` };
  }
  const target = url(value.url, ['http:', 'https:']);
  if (!target) return { problem: `"url" must be an http:// or https:// address (got ${JSON.stringify(value.url)})` };
  const entry: HostedEntry = {
    kind: 'hosted',
    url: target.toString(),
    format: format as HostedFormat,
    headers: strings(value.headers),
    stream: value.stream !== false,
  };
  if (typeof value.model === 'string' && value.model !== '') entry.model = value.model;
  if (isRecord(value.body)) entry.body = value.body;
  return { entry };
}

/**
 * How the entry reads in the agent pickers, Check Agent's list and the problem report: the command
 * line with credential arguments masked (`env OPENAI_API_KEY=*** codex-acp`), or the address without
 * its user, password and query values.
 */
export function describeEntry(entry: AgentEntry): string {
  switch (entry.kind) {
    case 'command':
      return shownCommandLine(entry.command, entry.args);
    case 'hosted':
      return `${shownUrl(entry.url)} (${entry.format})`;
    case 'remote':
      return shownUrl(entry.url);
  }
}

/** The host an entry runs on, for the header: undefined for a process on this machine. */
export function entryHost(entry: AgentEntry): string | undefined {
  if (entry.kind !== 'command') return new URL(entry.url).host;
  return isSsh(entry.command) ? sshDestination(entry.args) : undefined;
}

/** ssh(1)'s options that take a value (`-p 2222`, `-p2222`). */
const SSH_VALUE_OPTIONS = new Set('BbcDEeFIiJLlmOoPpQRSWw');

/** The host of `ssh [options] destination [command]`: `host` of `user@host` or `ssh://user@host:port`. */
export function sshDestination(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return hostOf(args[i + 1]);
    if (!arg.startsWith('-') || arg === '-') return hostOf(arg);
    // A flag cluster (`-tt`, `-Ap2222`): the first letter that takes a value ends it.
    for (let j = 1; j < arg.length; j++) {
      if (!SSH_VALUE_OPTIONS.has(arg[j])) continue;
      if (j === arg.length - 1) i++;
      break;
    }
  }
  return undefined;
}

function hostOf(destination: string | undefined): string | undefined {
  if (!destination) return undefined;
  if (destination.startsWith('ssh://')) {
    try {
      return new URL(destination).host || undefined;
    } catch {
      return undefined;
    }
  }
  return destination.slice(destination.lastIndexOf('@') + 1) || undefined;
}
