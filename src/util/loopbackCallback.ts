/**
 * The loopback address an OAuth sign-in asks the browser to come back to — `redirect_uri=
 * http://localhost:PORT/…` in the link an agent's login opens. When VS Code runs remotely (SSH, a
 * container, Codespaces, WSL) the agent's callback server listens on the remote host, and the
 * browser on this machine only reaches it through a forwarded port. Pure, so it is unit-tested.
 */
export interface LoopbackCallback {
  /** `http://localhost:PORT`, to forward. */
  origin: string;
  port: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function loopbackCallback(url: string): LoopbackCallback | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  for (const [key, value] of parsed.searchParams) {
    if (!/redirect|callback|return/i.test(key)) continue;
    try {
      const target = new URL(value);
      if (target.protocol === 'http:' && LOOPBACK.has(target.hostname) && target.port) return { origin: target.origin, port: Number(target.port) };
    } catch {
      // Not a URL: not a callback.
    }
  }
  return undefined;
}
