/**
 * The API key and the request headers built from it. The key comes from the environment
 * (HOSTED_AGENT_API_KEY) — never argv, never the state folder — and goes out as
 * `Authorization: Bearer <key>`, or wherever a header template says `${apiKey}`.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { API_KEY_ENV } from './config';
import { addSecret } from './redact';

/** The auth method the bridge advertises: the client asks the user for the key and restarts it with the variable set. */
export const API_KEY_METHOD_ID = 'hosted-api-key';

export function apiKeyMethod(host: string): acp.AuthMethod {
  // `type: "env_var"` and `vars` are the ACP auth-methods RFD's shape (not yet in the SDK's stable
  // types); `_meta.tandem.envVar` says the same for clients that read only `_meta`, and the name
  // spells the variable for clients that read neither.
  const method = {
    id: API_KEY_METHOD_ID,
    name: `API key (${API_KEY_ENV})`,
    description: `The API key for ${host}. Set ${API_KEY_ENV} in the agent's environment; it is sent as "Authorization: Bearer <key>" unless a configured header uses \${apiKey}.`,
    type: 'env_var',
    vars: [{ name: API_KEY_ENV, label: 'API key', secret: true }],
    varName: API_KEY_ENV,
    _meta: { tandem: { envVar: API_KEY_ENV } },
  };
  return method as unknown as acp.AuthMethod;
}

export function apiKey(env: NodeJS.ProcessEnv): string | undefined {
  const key = env[API_KEY_ENV]?.trim();
  return key ? key : undefined;
}

export interface ResolvedHeaders {
  headers: Record<string, string>;
  /** A template uses `${apiKey}` but no key is set: the request must not go out. */
  keyMissing: boolean;
  /** `${env:NAME}` templates whose variable is not set. */
  missingEnv: string[];
}

/** Header names whose values are secret even when typed literally. */
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|cookie|password/i;

/** The headers of one request: templates filled in, every secret value registered for redaction. */
export function resolveHeaders(templates: Record<string, string>, env: NodeJS.ProcessEnv): ResolvedHeaders {
  const key = apiKey(env);
  addSecret(key);
  let usesKey = false;
  let keyMissing = false;
  const missingEnv: string[] = [];
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(templates)) {
    const value = template.replace(/\$\{(apiKey|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (_m, what: string, envName: string | undefined) => {
      if (what === 'apiKey') {
        usesKey = true;
        if (!key) keyMissing = true;
        return key ?? '';
      }
      const v = env[envName ?? ''];
      if (v === undefined) missingEnv.push(envName ?? '');
      addSecret(v);
      return v ?? '';
    });
    if (SECRET_HEADER.test(name)) addSecret(value);
    headers[name] = value;
  }
  const hasAuthorization = Object.keys(headers).some((n) => n.toLowerCase() === 'authorization');
  if (key && !usesKey && !hasAuthorization) headers.Authorization = `Bearer ${key}`;
  return { headers, keyMissing, missingEnv };
}

/** True when the configuration itself says a key is needed (a template uses it). */
export function templatesNeedKey(templates: Record<string, string>): boolean {
  return Object.values(templates).some((v) => v.includes('${apiKey}'));
}
