/**
 * The hosted-agent bridge as a real process over stdio, driven by a real SDK 2.x client, against
 * the fake hosted server (test/fixtures/hostedServer). The bundle is built here with build.mjs's
 * options (only this entry), so the tests run the same code the .vsix ships.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as esbuild from 'esbuild';
import * as acp from '@agentclientprotocol/sdk';

const root = path.resolve(__dirname, '../..');
export const HOSTED_AGENT_JS = path.join(root, 'out/hostedAgent/hostedAgent.js');
let built: Promise<unknown> | undefined;

export function buildHostedAgent(): Promise<unknown> {
  built ??= esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/hostedAgent/main.ts'],
    outfile: HOSTED_AGENT_JS,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return built;
}

export type PermissionAnswer = (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export interface BridgeClient {
  conn: acp.ClientConnection;
  child: ChildProcess;
  init: acp.InitializeResponse;
  /** Every session/update, in arrival order. */
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  /** The bridge's stderr so far (its log). */
  stderr(): string;
  stateDir: string;
  /** How permission requests are answered (default: the first allow_once option). */
  answer: PermissionAnswer;
  newSession(cwd?: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** Updates of one session, of the given kinds (all kinds when omitted). */
  of(sessionId: string, ...kinds: Array<acp.SessionUpdate['sessionUpdate']>): acp.SessionUpdate[];
  /** Agent text of a session (message chunks joined). */
  text(sessionId: string): string;
  /** Resolves once `check` is true of the updates (polls; fails after 10 s). */
  until(check: () => boolean, what: string): Promise<void>;
  /** Closes stdin and waits for the process to exit. */
  stop(): Promise<void>;
}

export interface StartOptions {
  args: string[];
  env?: Record<string, string | undefined>;
  /** Reuse a state folder (restart tests); a fresh one otherwise; `default`: no --state-dir (the bridge's own choice). */
  stateDir?: string | 'default';
  /** Called as each update arrives (the bench times the last one). */
  onUpdate?: (n: acp.SessionNotification) => void;
}

/** The environment a bridge gets: this one without proxies or a key, plus `extra`. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'HOSTED_AGENT_API_KEY', 'TANDEM_HOSTED_STATE_DIR'])
    delete env[k];
  for (const [k, v] of Object.entries(extra))
    if (v === undefined) delete env[k];
    else env[k] = v;
  return env;
}

export async function startBridge(t: { after: (fn: () => Promise<void> | void) => void }, opts: StartOptions): Promise<BridgeClient> {
  await buildHostedAgent();
  const ownDir = opts.stateDir === undefined;
  const stateDir = opts.stateDir ?? mkdtempSync(path.join(tmpdir(), 'tandem-hosted-test-'));
  const stateArgs = stateDir === 'default' ? [] : ['--state-dir', stateDir];
  const child = spawn(process.execPath, [HOSTED_AGENT_JS, ...stateArgs, ...opts.args], {
    env: childEnv(opts.env ?? {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const client: BridgeClient = {} as BridgeClient;
  client.answer = (req) => ({ outcome: { outcome: 'selected', optionId: req.options.find((o) => o.kind === 'allow_once')!.optionId } });
  const app = acp
    .client({ name: 'hosted-bridge-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      opts.onUpdate?.(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return client.answer(params);
    });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
  };
  t.after(async () => {
    await stop();
    if (ownDir) rmSync(stateDir, { recursive: true, force: true });
  });
  const init = await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const of = (sessionId: string, ...kinds: Array<acp.SessionUpdate['sessionUpdate']>) =>
    updates.filter((u) => u.sessionId === sessionId && (kinds.length === 0 || kinds.includes(u.update.sessionUpdate))).map((u) => u.update);
  Object.assign(client, {
    conn,
    child,
    init,
    updates,
    permissions,
    stateDir,
    stderr: () => stderr,
    newSession: async (cwd = stateDir) => (await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId: string, text: string) => conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }),
    of,
    text: (sessionId: string) =>
      of(sessionId, 'agent_message_chunk')
        .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
        .join(''),
    until: async (check: () => boolean, what: string) => {
      for (let i = 0; i < 1000; i++) {
        if (check()) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`timed out waiting for ${what}`);
    },
    stop,
  } satisfies Omit<BridgeClient, 'answer'>);
  return client;
}

/** The last state of every tool call of a session: the tool_call merged with its updates. */
export function toolCards(updates: acp.SessionUpdate[]): Map<string, Record<string, unknown>> {
  const cards = new Map<string, Record<string, unknown>>();
  for (const u of updates) {
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') continue;
    const { sessionUpdate: _kind, ...fields } = u;
    const prev = cards.get(u.toolCallId) ?? {};
    cards.set(u.toolCallId, { ...prev, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)) });
  }
  return cards;
}

/** Awaits a promise that must reject with an ACP RequestError, and returns it. */
export async function rejects(promise: Promise<unknown>): Promise<acp.RequestError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof acp.RequestError) return err;
    throw new Error(`expected a RequestError, got ${String(err)}`);
  }
  throw new Error('expected a rejection');
}
