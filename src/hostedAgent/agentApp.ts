/**
 * The ACP side of the hosted bridge: initialize (with the API-key auth method), sessions that
 * persist and load, prompts run by `turn.ts`, cancel, and the `_tandem/hosted/check` extension
 * method. Every error leaving here has its message and data redacted.
 */
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { API_KEY_METHOD_ID, apiKey, apiKeyMethod, bridgeRedactor } from './secrets';
import { checkHosted, CHECK_METHOD } from './check';
import { API_KEY_ENV, type HostedConfig } from './config';
import { failure } from './failures';
import { historyUpdates } from './updates';
import { isSafeSessionId, SessionStore, type StoredSession } from './sessionStore';
import { runTurn } from './turn';
import type { Warn } from './types';
import { shownUrl } from '../util/secretShapes';
import { hostedAgentMeta } from '../protocol/bridgeFailure';
import type { SecretRedactor } from '../util/redactor';

export const AGENT_NAME = 'tandem-hosted';
export const AGENT_VERSION = '0.1.0';

export interface BridgeOptions {
  cfg: HostedConfig;
  env: NodeJS.ProcessEnv;
  warn: Warn;
  /** The process's secrets (main.ts registers the key and the address's; the headers add theirs). A fresh one by default. */
  secrets?: SecretRedactor;
}

interface Live {
  stored: StoredSession;
  running?: AbortController;
  /** Settles when the running turn has ended (saved, updates sent). */
  done?: Promise<unknown>;
}

/** Errors as the client sees them: RequestErrors redacted, anything else an internal error without the key. */
function clean(err: unknown, secrets: SecretRedactor): acp.RequestError {
  const e = err instanceof acp.RequestError ? err : failure('badAnswer', `The bridge failed: ${err instanceof Error ? err.message : String(err)}`);
  return new acp.RequestError(e.code, secrets.text(e.message), secrets.deep(e.data));
}

export function hostedAgentApp(opts: BridgeOptions): acp.AgentApp {
  const { cfg, env, warn } = opts;
  const secrets = opts.secrets ?? bridgeRedactor();
  // Every error leaves through here, redacted: failures are built plain wherever they happen.
  const guarded = async <T>(work: () => T | Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw clean(err, secrets);
    }
  };
  const host = new URL(cfg.url).host;
  const store = new SessionStore(cfg.stateDir, warn);
  const live = new Map<string, Live>();
  const newId = (prefix: string) => `${prefix}-${randomUUID()}`;

  const sessionOf = (sessionId: string): Live => {
    const known = live.get(sessionId);
    if (known) return known;
    const stored = store.load(sessionId);
    if (!stored) throw acp.RequestError.sessionNotFound(sessionId);
    const entry: Live = { stored };
    live.set(sessionId, entry);
    return entry;
  };

  return acp
    .agent({ name: AGENT_NAME })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentInfo: { name: AGENT_NAME, title: `Hosted agent (${host})`, version: AGENT_VERSION },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {}, delete: {} },
      },
      authMethods: [apiKeyMethod(host)],
      _meta: hostedAgentMeta({ url: shownUrl(cfg.url), format: cfg.format, stream: cfg.stream, checkMethod: CHECK_METHOD }),
    }))
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      if (params.methodId !== API_KEY_METHOD_ID) throw acp.RequestError.invalidParams({ methodId: params.methodId }, `Unknown auth method ${params.methodId}`);
      // The key is read from the environment: the client sets it and restarts the bridge.
      return guarded(() => {
        if (!apiKey(env))
          throw failure('auth', `${API_KEY_ENV} is not set: start the agent with the API key for ${host} in that variable.`, { envVar: API_KEY_ENV });
        return {};
      });
    })
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const sessionId = newId('hosted');
      const now = new Date().toISOString();
      live.set(sessionId, { stored: { sessionId, cwd: params.cwd, createdAt: now, updatedAt: now, messages: [], notices: [], alwaysAllow: [] } });
      return { sessionId };
    })
    .onRequest(acp.methods.agent.session.load, ({ params, client }) =>
      guarded(async () => {
        if (!isSafeSessionId(params.sessionId)) throw acp.RequestError.sessionNotFound(params.sessionId);
        const entry = sessionOf(params.sessionId);
        entry.stored.cwd = params.cwd;
        for (const update of historyUpdates(entry.stored.messages, entry.stored.notices)) {
          await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
        }
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.list, ({ params }) => ({ sessions: store.list(params.cwd ?? undefined) }))
    .onRequest(acp.methods.agent.session.delete, ({ params }) =>
      guarded(async () => {
        live.get(params.sessionId)?.running?.abort();
        live.delete(params.sessionId);
        await store.remove(params.sessionId);
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.prompt, ({ params, client, signal }) =>
      guarded(async () => {
        const entry = sessionOf(params.sessionId);
        // One turn at a time: a new prompt supersedes a running one, as if it had been cancelled,
        // and starts once that one has closed its reply (so the history stays in order).
        entry.running?.abort();
        const previous = entry.done;
        const controller = new AbortController();
        entry.running = controller;
        const onAbort = () => controller.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        let finished: () => void = () => undefined;
        entry.done = new Promise<void>((resolve) => (finished = resolve));
        try {
          await previous;
          if (controller.signal.aborted) return { stopReason: 'cancelled' as const };
          return await runTurn(
            {
              cfg,
              env,
              store,
              warn,
              secrets,
              newId,
              update: (update) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update }),
              requestPermission: (p) => client.request(acp.methods.client.session.requestPermission, p),
            },
            entry.stored,
            params.prompt,
            controller.signal,
          );
        } finally {
          signal.removeEventListener('abort', onAbort);
          if (entry.running === controller) entry.running = undefined;
          finished();
        }
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      live.get(params.sessionId)?.running?.abort();
    })
    .onRequest(
      CHECK_METHOD,
      (p: unknown) => p,
      ({ signal }) => guarded(async () => secrets.deep(await checkHosted({ cfg, env, warn, secrets }, signal))),
    );
}
