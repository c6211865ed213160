/** Feeds JSON-RPC messages to a WireStore the way the transport tap does (line + parsed object + origin). */
import type { WireStore } from '../../src/inspector/wireStore';

export interface Feeder {
  /** A message from the agent. */
  agent(msg: Record<string, unknown>): void;
  /** A message from Tandem. */
  client(msg: Record<string, unknown>): void;
}

export function feeder(store: WireStore, agent = 'Agent', connection = 1): Feeder {
  const send = (dir: 'in' | 'out', msg: Record<string, unknown>): void => store.message(dir, JSON.stringify(msg), { msg, agent, connection });
  return { agent: (msg) => send('in', { jsonrpc: '2.0', ...msg }), client: (msg) => send('out', { jsonrpc: '2.0', ...msg }) };
}

/** A `session/update` notification. */
export const update = (sessionId: string, u: Record<string, unknown>): Record<string, unknown> => ({
  method: 'session/update',
  params: { sessionId, update: u },
});
