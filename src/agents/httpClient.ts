import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// Node 20's fetch has no proxy support, and VS Code's own proxy patching does not reach every host
// (remote servers, code-server, a plain Node test). https-proxy-agent (TooTallNate's proxy-agents,
// the one npm and most of the ecosystem use) tunnels both http and https targets through an
// http(s) proxy with CONNECT, handles proxy credentials in the URL, and bundles with esbuild — a
// fraction of undici's size for the one thing we need.
import { HttpsProxyAgent } from 'https-proxy-agent';
import { isLoopback } from './registryParse';
import { proxyFor, proxyForDisplay } from '../util/proxyEnv';

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
  const res = await open(url, opts);
  const chunks: Buffer[] = [];
  let size = 0;
  const max = opts.maxBytes ?? 16 * 1024 * 1024;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.destroy();
      throw new HttpError(l10n.t('{0} is larger than {1} bytes.', url, max));
    }
    chunks.push(chunk);
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
    const res = await open(url, opts);
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
async function open(url: string, opts: HttpOptions, redirects = 0): Promise<http.IncomingMessage> {
  const target = new URL(url);
  // Plain http only to this machine (tests); a redirect cannot downgrade a download either.
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopback(target.hostname))) {
    throw new HttpError(l10n.t('Refusing to download over {0} from {1}: only https is allowed.', target.protocol, target.host));
  }
  opts.signal?.throwIfAborted();
  const res = await request(target, opts);
  const status = res.statusCode ?? 0;
  if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
    res.resume();
    if (redirects >= MAX_REDIRECTS) throw new HttpError(l10n.t('Too many redirects from {0}.', url));
    return open(new URL(res.headers.location, target).toString(), opts, redirects + 1);
  }
  if (status !== 200) {
    res.resume();
    throw new HttpError(l10n.t('{0} answered {1} for {2}.', target.host, `${status} ${res.statusMessage ?? ''}`.trim(), target.pathname), status);
  }
  return res;
}

function request(target: URL, opts: HttpOptions): Promise<http.IncomingMessage> {
  const proxy = proxyFor(target.toString(), opts);
  const get = target.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(
      target,
      { agent: proxy ? new HttpsProxyAgent(proxy) : undefined, headers: { 'user-agent': USER_AGENT, accept: '*/*' }, signal: opts.signal },
      resolve,
    );
    req.setTimeout(opts.idleTimeoutMs ?? 30_000, () => req.destroy(new HttpError(l10n.t('No answer from {0} (timed out).', target.host))));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'AbortError' || err instanceof HttpError) return reject(err);
      const why = err.code ?? err.message;
      reject(
        new HttpError(
          proxy
            ? l10n.t('Could not reach {0} via proxy {1}: {2}.', target.host, proxyForDisplay(proxy) ?? l10n.t('(invalid proxy URL)'), why)
            : l10n.t('Could not reach {0}: {1}.', target.host, why),
        ),
      );
    });
  });
}
