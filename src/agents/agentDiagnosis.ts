import * as l10n from '@vscode/l10n';
import * as acp from '@agentclientprotocol/sdk';
import { AgentExitedError, ProcessAgentConnection } from '../acp/agentConnection';
import { AgentProcess, AgentStartError, agentEnvironment } from '../acp/agentProcess';
import { resolveCommand } from '../acp/commandResolver';
import { MemoryProtocolLog } from '../acp/protocolLog';
import type { ProtocolLog } from '../acp/protocolLog';
import { readHostedCheckMethod } from '../protocol/bridgeFailure';
import { errorMessage } from '../util/errors';
import { shownCommandLine } from '../util/secretMask';
import { shownProxy } from '../util/agentProxy';
import type { AgentProxy, ProxyOrigin } from '../util/agentProxy';
import type { ConformanceSummary } from '../inspector/conformance';
import { captureWire, checkWire, type WireLine } from '../inspector/handshakeCheck';
import type { RemoteFailureKind } from '../acp/remoteFailure';
import { checkRuntimes } from './runtimeCheck';
import type { RuntimeCheck } from './runtimeCheck';
import type { MovedAdapter } from './movedAdapters';
import { checkEditorTools, type EditorToolsCheckOptions, type EditorToolsFinding } from './editorToolsCheck';

/**
 * The agent doctor's core: is the command there, are its runtimes there, does it start and answer
 * `initialize` in time, and what does it say it can do. It starts the agent exactly as a
 * conversation would (AgentProcess + AgentConnection), so what passes here starts in the panel too.
 */

/** The agent to check, as `tandem.agents` resolves it. */
export interface DoctorTarget {
  name: string;
  command: string;
  args: string[];
  /** Values are secrets: they never appear in the report. */
  env: Record<string, string>;
  cwd: string;
  /** More values never logged (AgentLaunchConfig.secrets: the address's credentials). */
  secrets?: string[];
  /** The proxy variables a conversation's launch adds (AgentLaunchConfig.proxy): the check gets the same. */
  proxy?: AgentProxy;
}

export interface DoctorOptions {
  clientInfo: { name: string; version: string };
  /** How long `initialize` may take (default 60 s: a first `npx -y` run downloads the package). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where the protocol traffic and stderr go (the output channel); the report reads stderr from the process. */
  log?: ProtocolLog;
  /**
   * Also check the `tandem` MCP server (editorToolsCheck.ts): its transport and, over loopback
   * HTTP, whether the agent lists the tools in a session the check opens. Absent: not checked.
   */
  editorTools?: EditorToolsCheckOptions;
}

/** One row of the capability table. */
export interface CapabilityRow {
  feature: string;
  supported: boolean;
  /** What it changes for the user. */
  meaning: string;
}

export type StartOutcome =
  | {
      ok: true;
      protocolVersion: number;
      agentInfo?: { name: string; version?: string; title?: string };
      capabilities: CapabilityRow[];
      authMethods: Array<{ id: string; name: string; description?: string }>;
      elapsedMs: number;
    }
  | {
      ok: false;
      /**
       * not_found: no such command; spawn: the OS refused; exited: it died before answering; error:
       * it answered with an error; timeout; cancelled; connect: a remote endpoint could not be used.
       */
      stage: 'not_found' | 'spawn' | 'exited' | 'error' | 'timeout' | 'cancelled' | 'connect';
      message: string;
      osCode?: string;
      /** connect: why (auth, tls, notAcp, unreachable…: see RemoteFailureKind). */
      remoteKind?: RemoteFailureKind;
    };

export interface DoctorReport {
  agentName: string;
  /** The command line as configured (args included, env values never). */
  commandLine: string;
  envNames: string[];
  cwd: string;
  /** Absolute path the command resolves to on PATH, when it does. */
  resolvedCommand?: string;
  runtimes: RuntimeCheck[];
  start: StartOutcome;
  /** Tandem's protocol version, to compare with the agent's. */
  expectedProtocolVersion: number;
  /** The agent's last stderr lines (redacted), kept on success too: warnings matter. */
  stderr: string;
  checkedAt: string;
  /**
   * Conformance warnings (src/inspector): of this check's own handshake, and of the agent's
   * conversations in this window so far (filled in by the editor, which keeps that recording).
   */
  conformance?: { handshake: ConformanceSummary; live?: ConformanceSummary };
  /**
   * A hosted chat API behind the bundled bridge: what its own check found (the validation-only
   * request and the server's tools), or why that check failed.
   */
  hosted?: { result: unknown } | { error: string };
  /** The proxy the agent got (its address shown without credentials) and from where; absent: none. */
  proxy?: ShownProxy;
  /** An agent on another machine, reached over ACP's WebSocket or Streamable HTTP transport. */
  remote?: { url: string; transport: 'WebSocket' | 'Streamable HTTP'; headerNames: string[]; clientTools: boolean; tokenStored: boolean };
  /** The entry runs an adapter that moved (movedAdapters.ts; filled in by the editor, which reads the entry as written). */
  moved?: MovedAdapter;
  /** The `tandem` MCP server: the transport the agent gets, and whether it listed the tools. */
  editorTools?: EditorToolsFinding;
}

/** What the report says of the agent's proxy: never the address's user or password. */
export interface ShownProxy {
  url?: string;
  origin?: ProxyOrigin;
  noProxy?: string;
  strictSSLOff?: boolean;
  elsewhere?: boolean;
}

function shownAgentProxy(proxy: AgentProxy | undefined): ShownProxy | undefined {
  if (!proxy || (!proxy.url && !proxy.elsewhere)) return undefined;
  return {
    ...(proxy.url ? { url: shownProxy(proxy.url), origin: proxy.origin } : {}),
    ...(proxy.noProxy ? { noProxy: proxy.noProxy } : {}),
    ...(proxy.strictSSLOff ? { strictSSLOff: true } : {}),
    ...(proxy.elsewhere ? { elsewhere: true } : {}),
  };
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Runs every check. Never throws: every failure becomes part of the report. */
export async function diagnoseAgent(target: DoctorTarget, opts: DoctorOptions): Promise<DoctorReport> {
  const env = agentEnvironment({ ...target.proxy?.env, ...target.env });
  const resolvedCommand = resolveCommand(target.command, env);
  const proxy = shownAgentProxy(target.proxy);
  const report: DoctorReport = {
    agentName: target.name,
    commandLine: shownCommandLine(target.command, target.args),
    envNames: Object.keys(target.env),
    cwd: target.cwd,
    resolvedCommand,
    runtimes: [],
    start: { ok: false, stage: 'not_found', message: l10n.t("'{0}' was not found on PATH.", target.command) },
    expectedProtocolVersion: acp.PROTOCOL_VERSION,
    stderr: '',
    checkedAt: new Date().toISOString(),
    ...(proxy ? { proxy } : {}),
  };
  const runtimes = checkRuntimes(target.command, resolvedCommand, env);
  if (resolvedCommand) {
    const wire: WireLine[] = [];
    const { start, stderr, hosted, editorTools } = await startAndInitialize(target, opts, wire);
    if (hosted) report.hosted = hosted;
    if (editorTools) report.editorTools = editorTools;
    report.start = start;
    report.stderr = stderr;
    report.conformance = { handshake: checkWire(wire) };
  }
  report.runtimes = await runtimes;
  return report;
}

/** The bridge's own check, when the agent says it has one (`_meta.tandem.hosted.checkMethod` in initialize). */
async function hostedCheck(conn: ProcessAgentConnection, stopped: Promise<StartOutcome>): Promise<DoctorReport['hosted'] | undefined> {
  const method = readHostedCheckMethod(conn.initializeResult._meta);
  if (method === undefined) return undefined;
  const gaveUp = stopped.then(() => ({ error: l10n.t('The check did not finish in time.') }));
  return Promise.race([
    conn.extension(method).then(
      (result) => ({ result }),
      (err: unknown) => ({ error: errorMessage(err) }),
    ),
    gaveUp,
  ]);
}

async function startAndInitialize(
  target: DoctorTarget,
  opts: DoctorOptions,
  wire: WireLine[],
): Promise<{ start: StartOutcome; stderr: string; hosted?: DoctorReport['hosted']; editorTools?: EditorToolsFinding }> {
  const log = captureWire(opts.log ?? new MemoryProtocolLog(), wire);
  let proc: AgentProcess;
  try {
    proc = AgentProcess.start(
      { name: target.name, command: target.command, args: target.args, env: target.env, cwd: target.cwd, secrets: target.secrets, proxy: target.proxy },
      log,
    );
  } catch (err) {
    const stage = err instanceof AgentStartError && err.code === 'not_found' ? 'not_found' : 'spawn';
    return { start: { ok: false, stage, message: errorMessage(err) }, stderr: '' };
  }
  let conn: ProcessAgentConnection | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const began = Date.now();
  try {
    conn = await ProcessAgentConnection.open(
      proc,
      { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      { log, onUpdate: () => undefined, clientInfo: opts.clientInfo },
    );
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const stopped = new Promise<StartOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, stage: 'timeout', message: l10n.t('No answer to initialize within {0} s.', Math.round(timeoutMs / 1000)) }),
        timeoutMs,
      );
      onAbort = () => resolve({ ok: false, stage: 'cancelled', message: l10n.t('The check was cancelled.') });
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const connection = conn;
    const answered = connection.initialize().then(
      (result): StartOutcome => describeInitialize(result, Date.now() - began),
      (err: unknown): StartOutcome => describeFailure(err),
    );
    const start = await Promise.race([answered, stopped]);
    const hosted = start.ok ? await hostedCheck(connection, stopped) : undefined;
    // The MCP traffic goes to the plain log (the inspector), not the handshake's capture: it is not ACP.
    const editorTools =
      start.ok && opts.editorTools
        ? await checkEditorTools(
            connection,
            connection.initializeResult,
            { agentName: target.name, cwd: target.cwd, version: opts.clientInfo.version, log: opts.log, signal: opts.signal },
            opts.editorTools,
          )
        : undefined;
    return { start, stderr: proc.stderrTail(40), ...(hosted ? { hosted } : {}), ...(editorTools ? { editorTools } : {}) };
  } catch (err) {
    return { start: describeFailure(err), stderr: proc.stderrTail(40) };
  } finally {
    clearTimeout(timer);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    conn?.dispose();
    await proc.kill();
  }
}

export function describeFailure(err: unknown): StartOutcome {
  if (err instanceof AgentExitedError) {
    if (err.exit.error) return { ok: false, stage: 'spawn', message: err.exit.error.message, osCode: err.exit.error.osCode };
    const message = err.exit.signal
      ? l10n.t('The agent was killed by {0} before answering initialize.', err.exit.signal)
      : l10n.t('The agent exited with code {0} before answering initialize.', err.exit.code ?? l10n.t('unknown'));
    return { ok: false, stage: 'exited', message };
  }
  if (err instanceof acp.RequestError)
    return { ok: false, stage: 'error', message: l10n.t('The agent answered initialize with error {0}: {1}', err.code, err.message) };
  return { ok: false, stage: 'error', message: errorMessage(err) };
}

export function describeInitialize(result: acp.InitializeResponse, elapsedMs: number): StartOutcome {
  const caps = result.agentCapabilities ?? {};
  const session = caps.sessionCapabilities ?? {};
  const prompt = caps.promptCapabilities ?? {};
  const mcp = caps.mcpCapabilities ?? {};
  const capabilities: CapabilityRow[] = [
    { feature: 'session/load', supported: caps.loadSession === true, meaning: l10n.t('reopens a conversation after a restart with its history replayed') },
    { feature: 'session/resume', supported: session.resume != null, meaning: l10n.t('continues a conversation after a restart without a replay') },
    { feature: 'session/list', supported: session.list != null, meaning: l10n.t('History shows sessions started in the agent’s own CLI') },
    { feature: 'session/close', supported: session.close != null, meaning: l10n.t('closing a tab frees the session in the agent') },
    { feature: l10n.t('Images in prompts'), supported: prompt.image === true, meaning: l10n.t('accepts image content blocks') },
    { feature: l10n.t('Audio in prompts'), supported: prompt.audio === true, meaning: l10n.t('accepts audio content blocks') },
    { feature: l10n.t('Embedded context'), supported: prompt.embeddedContext === true, meaning: l10n.t('accepts file contents embedded in prompts') },
    { feature: l10n.t('MCP servers over stdio'), supported: true, meaning: l10n.t('every ACP agent must accept them') },
    { feature: l10n.t('MCP servers over HTTP'), supported: mcp.http === true, meaning: l10n.t('accepts HTTP MCP servers') },
    { feature: l10n.t('MCP servers over SSE'), supported: mcp.sse === true, meaning: l10n.t('accepts SSE MCP servers') },
  ];
  const authMethods = (result.authMethods ?? []).map((m) => ({ id: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) }));
  const info = result.agentInfo;
  return {
    ok: true,
    protocolVersion: result.protocolVersion,
    ...(info ? { agentInfo: { name: info.name, ...(info.version ? { version: info.version } : {}), ...(info.title ? { title: info.title } : {}) } } : {}),
    capabilities,
    authMethods,
    elapsedMs,
  };
}
