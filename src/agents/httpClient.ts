import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isLoopback } from './registryParse';
import { HttpCoreError, openFollowing, type Exchange } from '../util/httpCore';
import { proxyFor } from '../util/proxyEnv';

// Re-exported: callers and tests import the proxy rules from here.
export { proxyFor };

/** How requests reach the network. */
export interface HttpOptions {
  /** Proxy URL from the editor (`http.proxy`); wins over the environment when set. */
  proxy?: string;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Socket idle time before a request fails (default 30 s). */
  idleTimeoutMs?: number;
}

/** A request that failed for a reason worth telling the user (status, offline, too big). */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const MAX_REDIRECTS = 5;
const USER_AGENT = 'tandem-acp (VS Code extension)';

/** GET as text (the registry index). */
export async function getText(url: string, opts: HttpOptions & { maxBytes?: number } = {}): Promise<string> {
  const exchange = await open(url, opts);
  const chunks: Buffer[] = [];
  let size = 0;
  const max = opts.maxBytes ?? 16 * 1024 * 1024;
  try {
    for await (const chunk of exchange.chunks(max)) {
      size += chunk.length;
      chunks.push(chunk);
    }
  } catch (err) {
    if (!(err instanceof HttpCoreError)) throw err;
    if (err.kind === 'tooLarge') throw new HttpError(l10n.t('{0} is larger than {1} bytes.', url, max));
    // A body cut short of its Content-Length (no socket error to pass on).
    if (err.kind === 'connectionLost' && err.cause === undefined) {
      throw new HttpError(l10n.t('The download ended early ({0} of {1} bytes).', size, exchange.response.headers['content-length'] ?? '?'));
    }
    throw worded(err);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Download progress: bytes so far and, when the server says, the total. */
export type ProgressListener = (received: number, total: number | undefined) => void;

/**
 * Streams `url` into `file`, hashing on the way, so a large archive is never held in memory and the
 * checksum costs no second read. The file is removed when anything fails (or is cancelled).
 */
export async function downloadFile(
  url: string,
  file: string,
  opts: HttpOptions & { onProgress?: ProgressListener; maxBytes?: number } = {},
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const max = opts.maxBytes ?? 2 * 1024 * 1024 * 1024;
  try {
    const { response: res } = await open(url, opts);
    const length = Number(res.headers['content-length']);
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        if (bytes > max) return done(new HttpError(l10n.t('The download is larger than {0} bytes.', max)));
        hash.update(chunk);
        opts.onProgress?.(bytes, total);
        done(null, chunk);
      },
    });
    await pipeline(res, meter, fs.createWriteStream(file), opts.signal ? { signal: opts.signal } : {});
    if (total !== undefined && bytes !== total) throw new HttpError(l10n.t('The download ended early ({0} of {1} bytes).', bytes, total));
    return { bytes, sha256: hash.digest('hex') };
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
}

/** Resolves with a 200 response, following redirects; rejects with {@link HttpError} otherwise. */
async function open(url: string, opts: HttpOptions): Promise<Exchange> {
  let exchange: Exchange;
  try {
    exchange = await openFollowing(
      {
        url: new URL(url),
        method: 'GET',
        headers: { 'user-agent': USER_AGENT, accept: '*/*' },
        timeoutMs: opts.idleTimeoutMs ?? 30_000,
        proxy: opts,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      { max: MAX_REDIRECTS, allow: httpsOnly },
    );
  } catch (err) {
    throw err instanceof HttpCoreError ? worded(err) : err;
  }
  const { response: res, url: target } = exchange;
  const status = res.statusCode ?? 0;
  if (status !== 200) {
    res.resume();
    throw new HttpError(l10n.t('{0} answered {1} for {2}.', target.host, `${status} ${res.statusMessage ?? ''}`.trim(), target.pathname), status);
  }
  return exchange;
}

/** Plain http only to this machine (tests); a redirect cannot downgrade a download either. */
function httpsOnly(target: URL): void {
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopback(target.hostname))) {
    throw new HttpError(l10n.t('Refusing to download over {0} from {1}: only https is allowed.', target.protocol, target.host));
  }
}

/** The core's failure in the installer's words. */
function worded(err: HttpCoreError): Error {
  const { host, why = '', proxy, url, limit } = err.facts;
  switch (err.kind) {
    case 'timeout':
      return new HttpError(l10n.t('No answer from {0} (timed out).', host));
    case 'unreachable':
      return new HttpError(
        proxy
          ? l10n.t('Could not reach {0} via proxy {1}: {2}.', host, proxy.display ?? l10n.t('(invalid proxy URL)'), why)
          : l10n.t('Could not reach {0}: {1}.', host, why),
      );
    case 'redirects':
      return new HttpError(l10n.t('Too many redirects from {0}.', url));
    case 'tooLarge':
      return new HttpError(l10n.t('{0} is larger than {1} bytes.', url, limit ?? 0));
    case 'connectionLost':
      // A connection lost mid-answer surfaces as the socket's own error, as it always did.
      return err.cause instanceof Error ? err.cause : err;
    default: {
      const never: never = err.kind;
      return never;
    }
  }
}
