import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { addDefaultBearer, envVariable, expandVariables, hasAuthorization } from '../util/settingVariables';

/**
 * The variable a remote agent's token is kept under (SecretStorage, per agent, through the sign-in
 * card's password box): the launch configuration hands stored values over in `env`.
 */
export const REMOTE_TOKEN_VAR = 'TANDEM_REMOTE_TOKEN';
/** The sign-in method Tandem offers when a remote endpoint answers 401 or 403. */
export const REMOTE_TOKEN_METHOD = 'tandem-remote-token';

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
  secret: (value: string) => void = () => undefined,
): ResolvedHeaders {
  const headers: Record<string, string> = {};
  let templated = false;
  for (const [name, raw] of Object.entries(configured)) {
    let usesToken = false;
    const value = expandVariables(raw, (ref) => {
      if (ref === 'token') {
        usesToken = true;
        return token ?? '';
      }
      const variable = envVariable(ref);
      if (variable === undefined) return undefined;
      const found = env[variable];
      // The bare value too: `k=${env:KEY}` masked whole would still leave KEY's value readable alone.
      if (found) secret(found);
      if (found === undefined || found === '') warn(`Header ${name} uses \${env:${variable}}, which is not set in the editor's environment.`);
      return found ?? '';
    });
    templated ||= usesToken;
    // A header whose token is not there yet is left out rather than sent half empty.
    if (usesToken && !token) continue;
    headers[name] = value;
  }
  const tokenPlace = templated || !hasAuthorization(headers);
  addDefaultBearer(headers, token, templated);
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

/**
 * What must not be shown of the headers sent: each value whole, and the credential of an
 * `Authorization`-style value alone (`Bearer <token>`: an error or log line may quote the token
 * without its scheme).
 */
export function headerSecrets(headers: Record<string, string>): string[] {
  return Object.values(headers).flatMap((value) => {
    const credential = /^\s*(?:bearer|basic|token|digest|apikey)\s+(\S+)\s*$/i.exec(value)?.[1];
    return credential ? [value, credential] : [value];
  });
}
