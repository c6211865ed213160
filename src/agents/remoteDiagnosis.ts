import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import { MemoryAcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import { MemoryProtocolLog } from '../acp/protocolLog';
import { RemoteAgentConnection } from '../acp/remoteConnection';
import { describeRemoteFailure, RemoteConnectionError } from '../acp/remoteFailure';
import { REMOTE_TOKEN_VAR } from '../acp/remoteHeaders';
import { shownUrl } from '../util/secretShapes';
import { captureWire, checkWire, type WireLine } from '../inspector/handshakeCheck';
import { DEFAULT_TIMEOUT_MS, describeFailure, describeInitialize, type DoctorOptions, type DoctorReport, type StartOutcome } from './agentDiagnosis';

/**
 * Check Agent for an agent on another machine: connect over its transport (WebSocket or Streamable
 * HTTP, with the headers, `${env:…}` values and stored token a conversation would send) and run
 * `initialize` within the time limit — exactly what a conversation does first, so what passes here
 * connects in the panel too. Never throws: every failure becomes part of the report.
 */
export async function diagnoseRemote(
  agent: AgentLaunchConfig & { remote: NonNullable<AgentLaunchConfig['remote']> },
  opts: DoctorOptions,
): Promise<DoctorReport> {
  const { remote } = agent;
  const url = shownUrl(remote.url);
  const report: DoctorReport = {
    agentName: agent.name,
    commandLine: url,
    envNames: [],
    cwd: agent.cwd,
    runtimes: [],
    start: { ok: false, stage: 'connect', message: '' },
    expectedProtocolVersion: acp.PROTOCOL_VERSION,
    stderr: '',
    checkedAt: new Date().toISOString(),
    remote: {
      url,
      transport: /^wss?:/.test(url) ? 'WebSocket' : 'Streamable HTTP',
      headerNames: Object.keys(remote.headers),
      clientTools: remote.clientTools,
      tokenStored: Boolean(agent.env[REMOTE_TOKEN_VAR]),
    },
  };
  const wire: WireLine[] = [];
  report.start = await connectAndInitialize(agent, opts, wire);
  report.conformance = { handshake: checkWire(wire) };
  return report;
}

async function connectAndInitialize(agent: AgentLaunchConfig, opts: DoctorOptions, wire: WireLine[]): Promise<StartOutcome> {
  const log = captureWire(opts.log ?? new MemoryProtocolLog(), wire);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const host = new URL(agent.remote?.url ?? '').host;
  let conn: RemoteAgentConnection | undefined;
  let onAbort: (() => void) | undefined;
  const began = Date.now();
  try {
    conn = await RemoteAgentConnection.open(
      agent,
      { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      { log, onUpdate: () => undefined, clientInfo: opts.clientInfo },
      { cookies: new MemoryAcpCookieStore(), initializeTimeoutMs: timeoutMs, limits: { answerTimeoutMs: Math.min(timeoutMs, 30_000) } },
    );
    const cancelled = new Promise<StartOutcome>((resolve) => {
      onAbort = () => resolve({ ok: false, stage: 'cancelled', message: l10n.t('The check was cancelled.') });
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const answered = conn.initialize().then(
      (result): StartOutcome => describeInitialize(result, Date.now() - began),
      (err: unknown): StartOutcome => remoteFailure(err, host),
    );
    return await Promise.race([answered, cancelled]);
  } catch (err) {
    return remoteFailure(err, host);
  } finally {
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    await conn?.kill();
  }
}

function remoteFailure(err: unknown, host: string): StartOutcome {
  // The agent's own JSON-RPC error to initialize (other than the 401 the transport turns into one).
  const data = (err as { data?: { status?: unknown } } | undefined)?.data;
  if (err instanceof acp.RequestError && typeof data?.status !== 'number') return describeFailure(err);
  const failure = err instanceof acp.RequestError ? new RemoteConnectionError('auth', err.message) : describeRemoteFailure(err, host);
  if (failure.kind === 'timeout') return { ok: false, stage: 'timeout', message: failure.message, remoteKind: failure.kind };
  return { ok: false, stage: 'connect', message: failure.message, remoteKind: failure.kind };
}
