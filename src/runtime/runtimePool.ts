import { MemoryAcpCookieStore, type AcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import { ProcessAgentConnection } from '../acp/agentConnection';
import type { AgentLaunchConfig } from '../acp/agentProcess';
import type { AgentConnector } from '../acp/agentPort';
import type { ProtocolLog } from '../acp/protocolLog';
import { RemoteAgentConnection } from '../acp/remoteConnection';
import type { FileAccess } from '../client/fsHandler';
import type { PathPolicy } from '../client/pathPolicy';
import type { IDisposable } from '../util/disposable';
import { AgentRuntime, type AgentRuntimeDeps } from './agentRuntime';

export interface RuntimePoolDeps {
  /** The launch configuration of a configured agent, or undefined (looked up at each start). */
  launchConfig(name: string): AgentLaunchConfig | undefined;
  log: ProtocolLog;
  clientInfo: { name: string; version: string };
  files: FileAccess;
  policy: PathPolicy;
  /** Client capabilities beyond the handlers, per agent (terminal sign-in is not for every agent). */
  extraCapabilities?(agent: AgentLaunchConfig): AgentRuntimeDeps['extraCapabilities'];
  /** How an agent is started and reached; default: its process over stdio. Tests pass a stub. */
  connector?(agent: AgentLaunchConfig): AgentConnector;
}

/**
 * One live agent process per agent name, shared by every conversation with that agent. A runtime
 * that exited or failed is replaced on the next request, with the settings as they are then (the
 * usual fix for "command not found" is an edit of `tandem.agents`).
 */
export class RuntimePool implements IDisposable {
  private readonly runtimes = new Map<string, AgentRuntime>();
  /** Each remote entry's cookies (servers route by affinity cookies), kept across its reconnects. */
  private readonly cookies = new Map<string, AcpCookieStore>();

  constructor(private readonly deps: RuntimePoolDeps) {}

  /** A live runtime for `agentName`, created (not started) when none is running. */
  get(agentName: string): AgentRuntime | undefined {
    const existing = this.runtimes.get(agentName);
    if (existing?.alive) return existing;
    existing?.dispose();
    this.runtimes.delete(agentName);
    const agent = this.deps.launchConfig(agentName);
    if (!agent) return undefined;
    const { log, clientInfo, files, policy } = this.deps;
    const connect = this.deps.connector?.(agent) ?? this.connector(agent);
    const extraCapabilities = this.deps.extraCapabilities?.(agent);
    const runtime = new AgentRuntime({ agent, connect, log, clientInfo, files, policy, extraCapabilities });
    this.runtimes.set(agentName, runtime);
    return runtime;
  }

  /** A process over stdio, or an agent on another machine over WebSocket or Streamable HTTP. */
  private connector(agent: AgentLaunchConfig): AgentConnector {
    if (!agent.remote) return ProcessAgentConnection.connector(agent);
    const key = `${agent.name}\n${agent.remote.url}`;
    let cookies = this.cookies.get(key);
    if (!cookies) this.cookies.set(key, (cookies = new MemoryAcpCookieStore()));
    return RemoteAgentConnection.connector(agent, { cookies });
  }

  /** The running runtime of `agentName`, without starting one. */
  peek(agentName: string): AgentRuntime | undefined {
    return this.runtimes.get(agentName);
  }

  /** Stops `agentName`'s process (every conversation using it sees an intentional exit). */
  async stop(agentName: string, runtime = this.runtimes.get(agentName)): Promise<void> {
    if (!runtime) return;
    if (this.runtimes.get(agentName) === runtime) this.runtimes.delete(agentName);
    await runtime.stop();
    runtime.dispose();
  }

  /** Stops the processes of agents no open conversation uses any more. */
  retain(used: ReadonlySet<string>): void {
    for (const [name, runtime] of this.runtimes) {
      if (used.has(name)) continue;
      this.runtimes.delete(name);
      runtime.dispose();
    }
  }

  dispose(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.runtimes.clear();
  }
}
