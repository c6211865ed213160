/**
 * A bare ACP client made of Tandem's own core handlers (src/client) on the plain disk, for driving
 * the real Claude agents (claude-code-acp, claude-agent-acp) against the fake Anthropic server. Shared
 * by claudeAgent.test.ts and claudeAgentAcp.test.ts. Besides the handlers' own records it taps the
 * JSON-RPC lines both ways ("wire"), so a test can list which requests the agent made to the client
 * and tell whether an update arrived before or after a given response.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { FsHandler } from '../../src/client/fsHandler';
import { NodeFileAccess } from '../../src/client/nodeFileAccess';
import { PathPolicy } from '../../src/client/pathPolicy';
import { PermissionBroker } from '../../src/client/permissionBroker';
import { TerminalManager } from '../../src/client/terminalManager';

export interface TermRecord {
  command: string;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
}

/** One JSON-RPC message seen on the agent's stdio, in the order the client saw them. */
export interface WireMessage {
  from: 'agent' | 'client';
  kind: 'request' | 'notification' | 'response';
  method?: string;
  id?: string | number;
  /** For session/update: the update's `sessionUpdate`. */
  update?: string;
}

function toWire(from: WireMessage['from'], line: string): WireMessage | undefined {
  let m: { id?: string | number; method?: string; params?: { update?: { sessionUpdate?: string } } };
  try {
    m = JSON.parse(line) as typeof m;
  } catch {
    return undefined;
  }
  if (m.method === undefined) return { from, kind: 'response', id: m.id };
  const kind = m.id === undefined ? 'notification' : 'request';
  return { from, kind, method: m.method, id: m.id, update: m.params?.update?.sessionUpdate };
}

/** Passes bytes through unchanged and hands every complete line to `onLine`. */
function lineTap(onLine: (line: string) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffered = '';
  return new TransformStream({
    transform(chunk, controller) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * Connects to an agent child process. The "user" answers every permission request with the first
 * option of kind `pick` (else the first option), after a short pause as a person would;
 * `onPermission` runs as each request arrives, before it is answered.
 */
export function connectClient(
  child: ChildProcess,
  workspace: string,
  pick: acp.PermissionOptionKind,
  onPermission?: (params: acp.RequestPermissionRequest) => void,
) {
  const updates: acp.SessionUpdate[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const fsCalls: string[] = [];
  const wire: WireMessage[] = [];
  const terms = new Map<string, TermRecord>();
  const policy = new PathPolicy({ roots: () => [workspace], allowOutside: () => false, askOutside: async () => false });
  const fsHandler = new FsHandler({ files: new NodeFileAccess(), policy, onTouched: (path, _line, op) => fsCalls.push(`${op} ${path}`) });
  const terminals = new TerminalManager({ defaultCwd: workspace, baseEnv: process.env, policy });
  terminals.onDidChange((e) => {
    if (e.kind === 'created') terms.set(e.terminalId, { command: e.command, output: '' });
    else if (e.kind === 'output') terms.get(e.terminalId)!.output += e.text;
    else terms.get(e.terminalId)!.exit = { exitCode: e.exitCode, signal: e.signal };
  });
  const broker = new PermissionBroker();
  broker.onDidChange((e) => {
    if (e.kind !== 'added') return;
    permissions.push(e.params);
    onPermission?.(e.params);
    const option = e.params.options.find((o) => o.kind === pick) ?? e.params.options[0];
    setTimeout(() => broker.respond(e.requestId, option.optionId), 20);
  });
  const app = acp
    .client({ name: 'claude-agent-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => broker.request(params, signal).response)
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => fsHandler.readTextFile(params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => fsHandler.writeTextFile(params))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params));
  const record = (from: WireMessage['from']) => (line: string) => {
    const w = toWire(from, line);
    if (w) wire.push(w);
  };
  const toAgent = lineTap(record('client'));
  toAgent.readable.pipeTo(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>).catch(() => {
    // The agent went away (killed by the test); the connection reports that on its own.
  });
  const fromAgent = (Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>).pipeThrough(lineTap(record('agent')));
  const conn = app.connect(acp.ndJsonStream(toAgent.writable, fromAgent));
  const cancel = async (sessionId: string): Promise<void> => {
    await conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    broker.cancelAll(sessionId);
  };
  const dispose = async (): Promise<void> => {
    broker.dispose();
    await terminals.disposeAll();
  };
  /** The methods of the requests the agent sent to the client, in order. */
  const agentRequests = (): string[] => wire.flatMap((w) => (w.from === 'agent' && w.kind === 'request' && w.method ? [w.method] : []));
  return { conn, updates, permissions, terms, fsCalls, wire, agentRequests, cancel, dispose };
}

export type ClaudeClient = ReturnType<typeof connectClient>;

/**
 * Starts `node <entry>` in its own process group (so killing it also kills the Claude CLI it spawns)
 * and collects its stderr for failure messages.
 */
export function spawnAgent(entry: string, cwd: string, env: Record<string, string>) {
  const stderr: string[] = [];
  const child = spawn(process.execPath, [entry], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  /** SIGKILLs the whole group and waits for the agent to exit; safe to call twice. */
  const kill = async (): Promise<void> => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already exited.
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
  };
  return { child, stderr, kill };
}

/** Everything the agent said as text, joined. */
export const textOf = (updates: acp.SessionUpdate[]): string =>
  updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [])).join('');
