/**
 * The API key, the headers built from it, and the rule that no secret is ever printed.
 *
 * The key comes from the environment (HOSTED_AGENT_API_KEY) — never argv, never the state folder —
 * and goes out as `Authorization: Bearer <key>`, or wherever a header template says `${apiKey}`.
 * It, and every header value that came from the environment or names a secret, is registered with
 * the process's one {@link SecretRedactor} (made in main.ts and passed down), and every stderr line
 * and every error sent to the client goes through it (a server that echoes the key in an error body
 * cannot leak it either). stderr is the agent's log in Tandem.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { API_KEY_ENV } from './config';
import { addDefaultBearer, envVariable, expandVariables } from '../util/settingVariables';
import { SecretRedactor } from '../util/redactor';

/**
 * The bridge's redactor: `***`, in the forms the editor's masker knows (src/util/secretMask.ts):
 * `Bearer <key>` is masked whole by the key itself, base64 of it (Basic auth) too. Not JSON lines:
 * a key that looks like a number is masked as well.
 */
export function bridgeRedactor(): SecretRedactor {
  return new SecretRedactor({ jsonLines: false });
}

/** The bridge's stderr: every line redacted. */
export function stderrLog(redactor: SecretRedactor): { log(text: string): void; warn(text: string): void } {
  const log = (text: string): void => void process.stderr.write(`[hosted-agent] ${redactor.text(text)}\n`);
  return { log, warn: (text) => log(`warning: ${text}`) };
}

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
export function resolveHeaders(templates: Record<string, string>, env: NodeJS.ProcessEnv, secrets: SecretRedactor): ResolvedHeaders {
  const key = apiKey(env);
  secrets.add(key);
  let usesKey = false;
  let keyMissing = false;
  const missingEnv: string[] = [];
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(templates)) {
    const value = expandVariables(template, (ref) => {
      if (ref === 'apiKey') {
        usesKey = true;
        if (!key) keyMissing = true;
        return key ?? '';
      }
      const variable = envVariable(ref);
      if (variable === undefined) return undefined;
      const v = env[variable];
      if (v === undefined) missingEnv.push(variable);
      secrets.add(v);
      return v ?? '';
    });
    if (SECRET_HEADER.test(name)) secrets.add(value);
    headers[name] = value;
  }
  addDefaultBearer(headers, key, usesKey);
  return { headers, keyMissing, missingEnv };
}

/** True when the configuration itself says a key is needed (a template uses it). */
export function templatesNeedKey(templates: Record<string, string>): boolean {
  return Object.values(templates).some((v) => v.includes('${apiKey}'));
}
