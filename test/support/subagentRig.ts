/**
 * The recorded subagent stream of the real claude-agent-acp 0.101 and a parent session to play it
 * into: SessionRouter → a real Thread, as a conversation wires them (the child's updates carry the
 * child's session id). Permission prompts are allowed once, and answered in the thread too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { SessionRouter } from '../../src/runtime/sessionRouter';
import type { SessionEndpoint } from '../../src/runtime/sessionPort';
import { Thread } from '../../src/thread/thread';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { ConversationChange } from '../../src/protocol/messages';
import { replacePaths, type RecordedPayload } from '../fixtures/agentPayloads/recordPayloads';
import { repoRoot } from './scriptedSession';

/** The workspace the recording's `<cwd>` stands for. */
export const SUBAGENT_CWD = '/work/space';
const RECORDING = join(repoRoot, 'test', 'fixtures', 'agentPayloads', 'claude-agent-acp-0.101-subagents.json');

/** The recording's payloads, in the order the agent sent them. */
export function subagentPayloads(): RecordedPayload[] {
  const raw = JSON.parse(readFileSync(RECORDING, 'utf8')) as { payloads: RecordedPayload[] };
  return replacePaths(raw.payloads, '<cwd>', SUBAGENT_CWD);
}

export interface RoutedThread {
  thread: Thread;
  router: SessionRouter;
  log: MemoryProtocolLog;
}

/** The parent session `<parent>` attached to a router, its endpoint a real Thread. */
export function routedThread(opts: {
  warn?: (text: string) => void;
  emit?: (changes: readonly ConversationChange[]) => void;
  /** Called with the session id each permission request named. */
  asked?: (sessionId: string) => void;
}): RoutedThread {
  const thread = new Thread({
    isInWorkspace: (p) => p.startsWith(`${SUBAGENT_CWD}/`),
    warn: opts.warn ?? (() => {}),
    emit: opts.emit ?? (() => {}),
    follow: () => {},
    titled: () => {},
    roots: () => [SUBAGENT_CWD],
  });
  const log = new MemoryProtocolLog();
  const router = new SessionRouter({ log, files: () => ({}) as never }, () => undefined);
  let request = 0;
  const endpoint: SessionEndpoint = {
    live: () => true,
    update: (u) => thread.dispatch(u),
    childUpdate: (id, u) => thread.dispatchChild(id, u),
    requestPermission: async (params: acp.RequestPermissionRequest) => {
      opts.asked?.(params.sessionId);
      const requestId = `r${++request}`;
      thread.attachPermission(params.toolCall, requestId, params.options);
      const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0];
      thread.resolvePermission(requestId, { kind: 'selected', optionId: allow.optionId });
      return { outcome: { outcome: 'selected', optionId: allow.optionId } };
    },
    terminal: () => {},
    touched: () => {},
    beforeWrite: async () => {},
    proposeWrite: async () => {},
    elicit: async () => ({ action: 'decline' }),
    elicitationComplete: () => {},
  };
  router.attach('<parent>', endpoint);
  return { thread, router, log };
}
