/**
 * The bridge's configuration: command-line flags, optionally on top of a JSON object read from an
 * environment variable (`--config-env NAME`) so an editor can pass headers and body without them
 * showing in the process list. Pure: argv and env in, a checked config (or a ConfigError) out.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { isRecord } from '../protocol/guards';
import { FORMATS, type HostedFormat } from './types';

/** The API key's environment variable (the advertised env_var auth method names it too). */
export const API_KEY_ENV = 'HOSTED_AGENT_API_KEY';
export const STATE_DIR_ENV = 'TANDEM_HOSTED_STATE_DIR';
// Above the hosted API's own 2-minute limit, after which it answers with a partial result: that
// answer (marked incomplete) must arrive before the bridge gives up on a silent request.
export const DEFAULT_TIMEOUT_MS = 150_000;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HostedConfig {
  url: string;
  format: HostedFormat;
  model?: string;
  /** tool-events only: `stream: true` (SSE) or `false` (one JSON answer). */
  stream: boolean;
  /** Merged into every request body, over the bridge's own fields. */
  body: Record<string, unknown>;
  /** Header templates: values may hold `${apiKey}` and `${env:NAME}`. */
  headers: Record<string, string>;
  stateDir: string;
  /** Longest silence from the server (no headers, no bytes) before the request fails. */
  timeoutMs: number;
  /** GET endpoint listing the server's tools (default: the chat URL's last segment replaced by `tools`). */
  toolsUrl?: string;
  maxBodyBytes: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const USAGE = `Usage: node hostedAgent.js --url URL --format tool-events|ui-message-stream [options]
  --model ID            sent as "model" in every request
  --no-stream           tool-events: ask for one JSON answer instead of SSE
  --body JSON           object merged into every request body (e.g. allowedTools, context)
  --header "Name: value"  extra header (repeatable); values may use \${apiKey} and \${env:NAME}
  --tools-url URL       where GET lists the server's tools (default: .../tools next to the chat URL)
  --state-dir DIR       where conversations are kept (env ${STATE_DIR_ENV}; default: one per URL in your own state folder, ~/.local/state/tandem-hosted)
  --timeout-ms N        longest silence from the server before giving up (default ${DEFAULT_TIMEOUT_MS})
  --config-env NAME     read {url, format, model, body, headers, stream, toolsUrl, timeoutMs} as JSON from env NAME
The API key comes from ${API_KEY_ENV}; it is sent as "Authorization: Bearer <key>" unless a header uses \${apiKey}.`;

interface Draft {
  url?: unknown;
  format?: unknown;
  model?: unknown;
  stream?: unknown;
  body?: unknown;
  headers?: Record<string, string>;
  stateDir?: unknown;
  timeoutMs?: unknown;
  toolsUrl?: unknown;
}

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isRecord(value)) throw new ConfigError(`${what} must be a JSON object.`);
  return value;
}

function headerLine(line: string): [string, string] {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new ConfigError(`--header wants "Name: value", got "${line.slice(0, 40)}".`);
  return [name, line.slice(colon + 1).trim()];
}

function fromEnvJson(name: string, env: NodeJS.ProcessEnv): Draft {
  const text = env[name];
  if (text === undefined || text === '') throw new ConfigError(`--config-env ${name}: the environment variable is not set.`);
  const obj = parseJsonObject(text, `The JSON in ${name}`);
  const draft: Draft = { ...obj };
  if (obj.headers !== undefined) {
    if (!isRecord(obj.headers) || !Object.values(obj.headers).every((v) => typeof v === 'string'))
      throw new ConfigError(`"headers" in ${name} must be an object of strings.`);
    draft.headers = obj.headers as Record<string, string>;
  }
  return draft;
}

function flags(argv: readonly string[], env: NodeJS.ProcessEnv): Draft {
  const draft: Draft = {};
  const headers: Record<string, string> = {};
  let base: Draft = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw new ConfigError(`${flag} needs a value.`);
      return next;
    };
    switch (flag) {
      case '--url':
        draft.url = value();
        break;
      case '--format':
        draft.format = value();
        break;
      case '--model':
        draft.model = value();
        break;
      case '--no-stream':
        draft.stream = false;
        break;
      case '--stream':
        draft.stream = true;
        break;
      case '--body':
        draft.body = parseJsonObject(value(), '--body');
        break;
      case '--header': {
        const [n, v] = headerLine(value());
        headers[n] = v;
        break;
      }
      case '--tools-url':
        draft.toolsUrl = value();
        break;
      case '--state-dir':
        draft.stateDir = value();
        break;
      case '--timeout-ms':
        draft.timeoutMs = Number(value());
        break;
      case '--config-env':
        base = fromEnvJson(value(), env);
        break;
      default:
        throw new ConfigError(`Unknown option ${arg}.`);
    }
  }
  const body = isRecord(base.body) && isRecord(draft.body) ? deepMerge(base.body, draft.body) : (draft.body ?? base.body);
  return { ...base, ...draft, body, headers: { ...(base.headers ?? {}), ...headers } };
}

/** `over` on top of `base`: objects merge key by key, anything else (arrays too) replaces. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] = isRecord(prev) && isRecord(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

function httpUrl(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${what} is required.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${what} is not a URL: ${value.slice(0, 200)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${what} must be http or https, not ${url.protocol}`);
  return url.toString();
}

/**
 * The default state folder (the CLI, Zed: Tandem passes its own): one per server URL, so two
 * hosted agents never share conversations, under the user's own state folder — never the shared
 * temp dir, where any local user can compute the name and create the folder first.
 */
export function defaultStateDir(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  return join(userStateRoot(env, platform, home), 'tandem-hosted', createHash('sha256').update(url).digest('hex').slice(0, 16));
}

/** `$XDG_STATE_HOME` (or `~/.local/state`) on Linux and the BSDs, Application Support on macOS, LocalAppData on Windows. */
function userStateRoot(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env.LOCALAPPDATA || join(home, 'AppData', 'Local');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  // The XDG spec: a relative value is invalid and ignored.
  const xdg = env.XDG_STATE_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'state');
}

export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): HostedConfig {
  const d = flags(argv, env);
  const url = httpUrl(d.url, '--url');
  if (typeof d.format !== 'string' || !FORMATS.includes(d.format as HostedFormat)) {
    throw new ConfigError(`--format must be one of ${FORMATS.join(', ')}${d.format === undefined ? '' : ` (got "${String(d.format)}")`}.`);
  }
  if (d.model !== undefined && typeof d.model !== 'string') throw new ConfigError('"model" must be a string.');
  if (d.stream !== undefined && typeof d.stream !== 'boolean') throw new ConfigError('"stream" must be true or false.');
  if (d.body !== undefined && !isRecord(d.body)) throw new ConfigError('"body" must be a JSON object.');
  const timeoutMs = d.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : Number(d.timeoutMs);
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1) throw new ConfigError('--timeout-ms must be a positive number of milliseconds.');
  const stateDir = typeof d.stateDir === 'string' && d.stateDir !== '' ? d.stateDir : env[STATE_DIR_ENV] || defaultStateDir(url, env);
  const cfg: HostedConfig = {
    url,
    format: d.format as HostedFormat,
    stream: d.stream !== false,
    body: isRecord(d.body) ? d.body : {},
    headers: d.headers ?? {},
    stateDir,
    timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
  };
  if (typeof d.model === 'string' && d.model !== '') cfg.model = d.model;
  if (d.toolsUrl !== undefined) cfg.toolsUrl = httpUrl(d.toolsUrl, '"toolsUrl"');
  return cfg;
}
