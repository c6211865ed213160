/**
 * Transcripts written by hand, as a stranger could (the security review's repros): the handshake
 * of a recording made in RECORDED_CWD, then whatever lines a test wants — agent requests with any
 * id, garbage, batches. `replayCrafted` plays one through the real core (ConversationManager, the
 * bundled replay agent, the runtime's sandbox) and waits for it to be played to its end.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROPOSED_WRITE_PREFIX } from '../../src/conversation/permissionDesk';
import { TRANSCRIPT_TYPE } from '../../src/inspector/transcript';
import type { Entry, ToolCallEntry } from '../../src/protocol/entryViews';
import { until, type ScriptedSession, type ScriptedSessionOptions } from './scriptedSession';
import { replaySession } from './transcripts';

/** Where the crafted recordings say they were made; the replay rewrites it to the live folder. */
export const RECORDED_CWD = '/recorded/work';
export const SESSION = 'S1';

export type CraftedLine = { dir: 'in' | 'out'; msg: unknown } | { raw: string };

/** `in`: the agent sent it (the replay sends it again); `out`: the client sent it. */
export const agent = (msg: Record<string, unknown>): CraftedLine => ({ dir: 'in', msg: { jsonrpc: '2.0', ...msg } });
export const client = (msg: Record<string, unknown>): CraftedLine => ({ dir: 'out', msg: { jsonrpc: '2.0', ...msg } });

/** initialize and session/new as Tandem sends them, answered (`initializeResult` may offer sign-in methods). */
export function handshake(initializeResult: Record<string, unknown> = {}): CraftedLine[] {
  return [
    client({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }),
    agent({ id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], ...initializeResult } }),
    client({ id: 1, method: 'session/new', params: { cwd: RECORDED_CWD, mcpServers: [] } }),
    agent({ id: 1, result: { sessionId: SESSION } }),
  ];
}

export function transcriptText(lines: readonly CraftedLine[]): string {
  const header = { type: TRANSCRIPT_TYPE, version: 1, exportedAt: new Date(0).toISOString(), messages: lines.length };
  const body = lines.map((l, i) => ('raw' in l ? l.raw : JSON.stringify({ at: new Date(1000 + i).toISOString(), dir: l.dir, conn: 1, msg: l.msg })));
  return [JSON.stringify(header), ...body].join('\n');
}

/** Everything the replay agent said on stderr. */
export const replayNotes = (s: ScriptedSession): string => s.log.of('stderr').join('\n');

/** Writes the transcript to `dir`/`name`, starts its replay in `live` and waits until it is played to its end. */
export async function replayCrafted(
  dir: string,
  live: string,
  lines: readonly CraftedLine[],
  opts: ScriptedSessionOptions & { name?: string; answer?: (s: ScriptedSession) => void } = {},
): Promise<ScriptedSession> {
  const file = join(dir, `${opts.name ?? 'crafted'}.jsonl`);
  writeFileSync(file, transcriptText(lines));
  const s = replaySession(dir, file, { ...opts, cwd: live });
  try {
    await s.session.start();
    await until(
      () => {
        opts.answer?.(s);
        return /played to its end|stopped/.test(replayNotes(s));
      },
      'the replay to end',
      20_000,
    );
  } catch (err) {
    // The caller never gets the session to dispose: end the replay agent here, or its process keeps the test file alive.
    s.session.dispose();
    throw err;
  }
  return s;
}

/** The sandbox's cards proposing a write, with their path and prompt. */
export function proposals(s: ScriptedSession): ToolCallEntry[] {
  return (s.session.conversation.snapshot().entries as Entry[]).filter(
    (e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId.startsWith(PROPOSED_WRITE_PREFIX),
  );
}
