import * as l10n from '@vscode/l10n';
import { errorMessage } from '../util/errors';
import { shownUrl } from '../util/secretShapes';

/**
 * Why a connection to an agent on another machine failed or ended, in the user's words. The SDK's
 * transports and `ws` report failures as they come (an `Error` with an OS or TLS code, "Unexpected
 * server response: 401", an HTTP error with a `status`, "missing Acp-Connection-Id"); this sorts
 * them into what the user can do about each, and whether trying again later may help.
 */
export type RemoteFailureKind =
  /** Nothing answers at the address (refused, reset, DNS): the server may be restarting. */
  | 'unreachable'
  /** It accepted the connection but did not answer in time. */
  | 'timeout'
  /** The server's certificate was not accepted. */
  | 'tls'
  /** 401 / 403: credentials missing or refused. */
  | 'auth'
  /** Something answers, but not ACP (an HTML page, 404, a JSON that is not JSON-RPC). */
  | 'notAcp'
  /** A message over the size limit: the connection was closed. */
  | 'tooLarge'
  /** An open connection closed (the server went away, the network dropped). */
  | 'closed'
  /** The server answered with an HTTP error of its own (5xx, 409, 410…). */
  | 'server';

/** Kinds where another attempt later may succeed (a reconnect goes on); the rest need the user. */
const TRANSIENT: ReadonlySet<RemoteFailureKind> = new Set(['unreachable', 'timeout', 'closed', 'server']);

const TLS_CODES = /^(CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_|HOSTNAME_MISMATCH)/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET']);

/** A failure of a remote agent's connection, with what it means. */
export class RemoteConnectionError extends Error {
  constructor(
    readonly kind: RemoteFailureKind,
    message: string,
    /** The HTTP status, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteConnectionError';
  }

  get transient(): boolean {
    return TRANSIENT.has(this.kind);
  }
}

/** The OS/TLS code of an error or of its cause (fetch wraps the network error in `cause`). */
function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The message of the innermost cause (fetch's own is only "fetch failed"). */
function innerMessage(err: unknown): string {
  let e = err;
  for (let depth = 0; depth < 4 && (e as { cause?: unknown })?.cause; depth++) e = (e as { cause?: unknown }).cause;
  return errorMessage(e);
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return status;
  const match = /(?:Unexpected server response|failed): (\d{3})\b/.exec(errorMessage(err));
  return match ? Number(match[1]) : undefined;
}

/**
 * Sorts a transport failure and says it for the agent at `host`. `redact` masks header values and
 * tokens in whatever text came from the server (an error body may echo them).
 */
export function describeRemoteFailure(err: unknown, host: string, redact: (text: string) => string = (t) => t): RemoteConnectionError {
  if (err instanceof RemoteConnectionError) return err;
  const message = redact(errorMessage(err));
  const code = codeOf(err);
  const status = statusOf(err);
  if (code && TLS_CODES.test(code)) {
    return new RemoteConnectionError(
      'tls',
      l10n.t(
        'The TLS certificate of {0} was not accepted ({1}: {2}). If the server uses a private certificate authority, start VS Code with NODE_EXTRA_CA_CERTS set to its certificate file.',
        host,
        code,
        redact(innerMessage(err)),
      ),
    );
  }
  if (status === 401 || status === 403) {
    return new RemoteConnectionError('auth', l10n.t('{0} refused the connection ({1}): it needs a valid token or other credentials.', host, status), status);
  }
  if (status === 404) {
    return new RemoteConnectionError(
      'notAcp',
      l10n.t('Nothing answers ACP at this address of {0} (404). Check the `url` in tandem.agents: it usually ends in /acp.', host),
      status,
    );
  }
  if (
    (status !== undefined && status >= 200 && status < 300) ||
    /missing Acp-Connection-Id|not a JSON-RPC response|response id did not match|Unexpected token|is not valid JSON/i.test(message)
  ) {
    return new RemoteConnectionError(
      'notAcp',
      l10n.t('{0} answered, but not as an ACP endpoint ({1}). Check the `url` in tandem.agents.', host, message.slice(0, 300)),
      status,
    );
  }
  if (err instanceof Error && err.name === 'MessageTooLargeError') return tooLarge(host);
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' || /Max payload size exceeded/i.test(message)) return tooLarge(host);
  if (status !== undefined) {
    return new RemoteConnectionError('server', l10n.t('{0} answered with HTTP {1}: {2}', host, status, message.slice(0, 300)), status);
  }
  if (/handshake has timed out|timed out|timeout/i.test(message) || code === 'ETIMEDOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new RemoteConnectionError('timeout', l10n.t('{0} accepted the connection but did not answer in time.', host));
  }
  if ((code && NETWORK_CODES.has(code)) || /fetch failed|socket hang up|ECONNREFUSED/i.test(message)) {
    return new RemoteConnectionError('unreachable', l10n.t('Could not reach {0}: {1}.', host, redact(innerMessage(err))));
  }
  return new RemoteConnectionError('closed', l10n.t('The connection to {0} failed: {1}', host, message));
}

function tooLarge(host: string): RemoteConnectionError {
  return new RemoteConnectionError('tooLarge', l10n.t('{0} sent a message over the size limit; the connection was closed.', host));
}

/**
 * A 3xx from the agent's address, which Tandem does not follow (the request carried the
 * configured headers): says where it pointed (credentials and query values masked), and that
 * nothing was sent there. Not transient: the address needs fixing.
 */
export function redirected(from: string, status: number, location: string | undefined): RemoteConnectionError {
  const host = hostOf(from);
  let target: string | undefined;
  try {
    target = location ? shownUrl(new URL(location, from).toString()) : undefined;
  } catch {
    target = undefined;
  }
  return new RemoteConnectionError(
    'notAcp',
    target
      ? l10n.t("{0} redirected to {1} ({2}); set the agent's url to the final address. No headers were sent there.", host, target, status)
      : l10n.t(
          "{0} answered with a redirect ({1}) that names no address; set the agent's url to the final address. No headers were sent elsewhere.",
          host,
          status,
        ),
    status,
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
