/**
 * "Check Agent" for a hosted entry, without a chat turn: the seed API's validation-only request
 * (`validateOnly: true`, `contextStrategy: "report"`) says whether the configured context is enough
 * for the allowed tools, and `GET /api/v1/tools` lists the server's tools with what each needs.
 * AI SDK servers have neither: their check is whether the URL answers and the key is accepted.
 * Exposed to ACP clients as the extension method `_tandem/hosted/check`.
 */
import * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';
import type { HostedConfig } from './config';
import { exchange, type ExchangeEnv } from './exchange';
import { apiKey } from './secrets';
import { shownUrl } from '../util/secretShapes';
import type { HostedFormat } from './types';
import { requestBody } from './requestBody';

export const CHECK_METHOD = '_tandem/hosted/check';

export interface HostedTool {
  name: string;
  description?: string;
  requiredContext: string[];
}

export interface HostedCheck {
  /** The address as shown (no credentials, query values masked). */
  url: string;
  format: HostedFormat;
  /** Everything checked came back fine. */
  ok: boolean;
  /** `missing`: the server wants a key and none is set; `rejected`: the key was refused. */
  auth: 'ok' | 'missing' | 'rejected' | 'unknown';
  /** tool-events: the validation-only answer. */
  validation?: { ok: boolean; missingContext: string[]; tools: string[]; report: unknown };
  /** The server's tools (GET …/tools), when it lists them. */
  tools?: HostedTool[];
  /** What went wrong, one sentence each. */
  problems: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The tools endpoint: configured, or the chat URL's last segment replaced (`/api/v1/chat` → `/api/v1/tools`). */
export function toolsUrlFor(cfg: Pick<HostedConfig, 'url' | 'toolsUrl'>): string {
  if (cfg.toolsUrl) return cfg.toolsUrl;
  const url = new URL(cfg.url);
  url.pathname = url.pathname.replace(/\/[^/]*\/?$/, '/tools');
  url.search = '';
  return url.toString();
}

/** A tool list in the shapes servers use: `[…]`, `{ tools: […] }`, `{ data: { tools } }`, or a name → tool map. */
export function parseToolList(body: unknown): HostedTool[] {
  let list: unknown = body;
  for (let i = 0; i < 3 && isRecord(list); i++) list = list.data ?? list.tools ?? list;
  const entries: Array<[string | undefined, unknown]> = Array.isArray(list) ? list.map((t) => [undefined, t]) : isRecord(list) ? Object.entries(list) : [];
  const tools: HostedTool[] = [];
  for (const [key, raw] of entries) {
    const t = isRecord(raw) ? raw : {};
    const name = typeof t.name === 'string' ? t.name : (key ?? (typeof raw === 'string' ? raw : undefined));
    if (!name) continue;
    const tool: HostedTool = { name, requiredContext: strings(t.requiredContext ?? t.required_context) };
    if (typeof t.description === 'string') tool.description = t.description;
    tools.push(tool);
  }
  return tools;
}

/** The validation report's verdict and the context keys it names as missing. */
function readReport(body: unknown): NonNullable<HostedCheck['validation']> {
  const report = isRecord(body) && isRecord(body.data) ? body.data : body;
  const r = isRecord(report) ? report : {};
  const details = isRecord(r.details) ? r.details : r;
  const missingContext = strings(details.missingContext);
  const tools = strings(details.tools).concat(strings(isRecord(r.tools) ? r.tools.skipped : undefined));
  const flagged = r.valid === false || r.ok === false || (isRecord(body) && body.success === false);
  return { ok: !flagged && missingContext.length === 0, missingContext, tools, report };
}

interface Failed {
  kind: string;
  status?: number;
  missingContext?: string[];
  tools?: string[];
}

function failedData(err: unknown): Failed | undefined {
  const tandem = err instanceof acp.RequestError && isRecord(err.data) ? err.data.tandem : undefined;
  return isRecord(tandem) && typeof tandem.kind === 'string' ? (tandem as unknown as Failed) : undefined;
}

async function json(x: ExchangeEnv, method: 'GET' | 'POST', url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
  const res = await exchange(x, method, url, body, signal, 'application/json');
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function checkHosted(x: ExchangeEnv, signal?: AbortSignal): Promise<HostedCheck> {
  const cfg = x.cfg;
  const result: HostedCheck = { url: shownUrl(cfg.url), format: cfg.format, ok: true, auth: 'unknown', problems: [] };
  const note = (err: unknown): void => {
    const data = failedData(err);
    result.ok = false;
    if (data?.kind === 'auth') result.auth = data.status === undefined || !apiKey(x.env) ? 'missing' : 'rejected';
    result.problems.push(err instanceof Error ? err.message : String(err));
  };
  if (cfg.format === 'tool-events') {
    const probe = { id: 'check', role: 'user' as const, parts: [{ type: 'text', text: 'Validation only.' }] };
    const body = { ...requestBody({ ...cfg, stream: false }, [probe], { sessionId: 'check' }), validateOnly: true, contextStrategy: 'report' };
    try {
      result.validation = readReport(await json(x, 'POST', cfg.url, body, signal));
      result.auth = 'ok';
      if (!result.validation.ok) {
        result.ok = false;
        result.problems.push(
          `The server's validation failed${result.validation.missingContext.length > 0 ? `: missing context ${result.validation.missingContext.join(', ')}` : ''}.`,
        );
      }
    } catch (err) {
      const data = failedData(err);
      if (data?.kind === 'missingContext') {
        result.validation = {
          ok: false,
          missingContext: data.missingContext ?? [],
          tools: data.tools ?? [],
          report: err instanceof acp.RequestError ? err.data : undefined,
        };
        result.auth = 'ok';
        result.ok = false;
        result.problems.push(err instanceof Error ? err.message : String(err));
      } else note(err);
    }
  }
  if (cfg.format === 'tool-events' || cfg.toolsUrl) {
    try {
      result.tools = parseToolList(await json(x, 'GET', toolsUrlFor(cfg), undefined, signal));
      if (result.auth === 'unknown') result.auth = 'ok';
    } catch (err) {
      if (result.auth !== 'missing' && result.auth !== 'rejected') note(err);
    }
  } else {
    // An AI SDK route usually answers GET with 405: reachable, and the key got past any auth layer.
    try {
      await json(x, 'GET', cfg.url, undefined, signal);
      result.auth = 'ok';
    } catch (err) {
      const data = failedData(err);
      if (data?.kind === 'http' && data.status !== 404) result.auth = 'ok';
      else note(err);
    }
  }
  return result;
}
