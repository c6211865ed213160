import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';

/**
 * The variable a remote agent's token is kept under (SecretStorage, per agent, through the sign-in
 * card's password box): the launch configuration hands stored values over in `env`.
 */
export const REMOTE_TOKEN_VAR = 'TANDEM_REMOTE_TOKEN';
/** The sign-in method Tandem offers when a remote endpoint answers 401 or 403. */
export const REMOTE_TOKEN_METHOD = 'tandem-remote-token';

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const TOKEN_REF = '${token}';

export interface ResolvedHeaders {
  headers: Record<string, string>;
  /** The stored token has somewhere to go: a `${token}` header, or the default Authorization. */
  tokenPlace: boolean;
}

/**
 * The headers sent to a remote agent. Values may name variables of the editor's environment
 * (`${env:NAME}`, resolved here on the host) and the token the user entered (`${token}`). Without a
 * `${token}` anywhere, the token goes as `Authorization: Bearer <token>` — unless an Authorization
 * header is configured, which then wins (and a token would have nowhere to go). A header whose
 * `${token}` has no token yet is left out rather than sent half empty.
 */
export function remoteHeaders(
  configured: Record<string, string>,
  token: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: (text: string) => void,
): ResolvedHeaders {
  const headers: Record<string, string> = {};
  let templated = false;
  for (const [name, raw] of Object.entries(configured)) {
    const value = raw.replace(ENV_REF, (_m, variable: string) => {
      const found = env[variable];
      if (found === undefined || found === '') warn(`Header ${name} uses \${env:${variable}}, which is not set in the editor's environment.`);
      return found ?? '';
    });
    if (value.includes(TOKEN_REF)) {
      templated = true;
      if (token) headers[name] = value.split(TOKEN_REF).join(token);
      continue;
    }
    headers[name] = value;
  }
  const hasAuthorization = Object.keys(headers).some((n) => n.toLowerCase() === 'authorization');
  const tokenPlace = templated || !hasAuthorization;
  if (!templated && !hasAuthorization && token) headers.Authorization = `Bearer ${token}`;
  return { headers, tokenPlace };
}

/** The sign-in card's method for a remote endpoint: one password box, kept in SecretStorage. */
export function tokenMethod(host: string): acp.AuthMethod {
  // The auth-methods RFD's env_var shape, which the sign-in card reads (not in the stable schema's types).
  return {
    id: REMOTE_TOKEN_METHOD,
    name: l10n.t('Enter an access token'),
    description: l10n.t('{0} asks for credentials. The token is kept in VS Code’s secret storage and sent as a bearer token.', host),
    type: 'env_var',
    vars: [{ name: REMOTE_TOKEN_VAR, label: l10n.t('Access token for {0}', host) }],
  } as unknown as acp.AuthMethod;
}

/** The address for logs and messages, without a user name or password in it. */
export function withoutUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
