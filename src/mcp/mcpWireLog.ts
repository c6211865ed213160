import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { connectionLog, type ProtocolLog } from '../acp/protocolLog';

/** How the inspector names the `tandem` server's traffic with one agent: beside the agent's own rows, never mixed into them. */
export function mcpWireLabel(agent: string): string {
  return `${agent} · tandem MCP`;
}

/**
 * The `tandem` MCP server's JSON-RPC as Protocol Inspector rows: one connection of its own per
 * server (so its ids pair among themselves, never with the agent's ACP ids), tagged `channel:
 * 'mcp'` so the inspector's ACP checks skip it and transcripts (which are ACP) leave it out.
 * 'in' is from the agent (its MCP client asks), 'out' is the server's answer.
 *
 * Only the JSON-RPC message is written, never the transport's `extra` (it carries the HTTP request's
 * headers, the bearer token among them). Recording never throws into the transport.
 */
export class McpWireLog {
  private readonly log: ProtocolLog;

  constructor(log: ProtocolLog, agent: string) {
    this.log = connectionLog(log, mcpWireLabel(agent), 'mcp');
  }

  record(direction: 'in' | 'out', message: JSONRPCMessage): void {
    try {
      this.log.message(direction, JSON.stringify(message), { msg: message as unknown as Record<string, unknown>, channel: 'mcp' });
    } catch {
      // A log that fails must not fail the call it records.
    }
  }

  /** The transport to hand the SDK's `Server.connect` instead of `transport`; `transport` stays the one that handles requests. */
  wrap(transport: Transport): Transport {
    return new RecordedTransport(transport, this);
  }
}

/**
 * A transport that records each message and otherwise is `inner`: the SDK sets the handlers on
 * this one, which `inner`'s handlers call through.
 */
class RecordedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly setProtocolVersion?: (version: string) => void;

  constructor(
    private readonly inner: Transport,
    private readonly wire: McpWireLog,
  ) {
    inner.onmessage = (message, extra) => {
      wire.record('in', message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    if (inner.setProtocolVersion) this.setProtocolVersion = (version) => inner.setProtocolVersion?.(version);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.wire.record('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
