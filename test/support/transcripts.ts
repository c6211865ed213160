/**
 * Recording and replaying conversations in tests: a protocol log that also feeds a WireStore (as the
 * output log does in the extension), transcripts exported from it, a real ConversationManager whose
 * agent is the bundled replay agent, and the shapes of a thread's cards to compare two runs by.
 */
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { MemoryProtocolLog, type ProtocolLog } from '../../src/acp/protocolLog';
import { ConformanceMonitor } from '../../src/inspector/conformance';
import { exportTranscript, type ExportScope } from '../../src/inspector/transcriptExport';
import { WireStore } from '../../src/inspector/wireStore';
import type { Entry } from '../../src/protocol/entryViews';
import { repoRoot, scriptedSession, type ScriptedSession, type ScriptedSessionOptions } from './scriptedSession';

export const replayAgentJs = join(repoRoot, 'dist', 'replayAgent.js');

/** A log that keeps everything in memory and records every message in `store`. */
export function recordingLog(store: WireStore, memory = new MemoryProtocolLog()): ProtocolLog {
  return {
    message: (direction, raw, origin) => {
      store.message(direction, raw, origin);
      memory.message(direction, raw);
    },
    info: (text) => memory.info(text),
    warn: (text) => memory.warn(text),
    error: (text) => memory.error(text),
    stderr: (agent, line) => {
      store.stderr(agent, line);
      memory.stderr(agent, line);
    },
  };
}

export interface Recorder {
  store: WireStore;
  monitor: ConformanceMonitor;
  log: ProtocolLog;
  /** The transcript of what was recorded (JSON lines). */
  transcript(scope?: ExportScope, secrets?: string[]): Promise<string>;
  dispose(): void;
}

export function recorder(): Recorder {
  const store = new WireStore();
  const monitor = new ConformanceMonitor(store, { startDelayMs: 60_000 });
  return {
    store,
    monitor,
    log: recordingLog(store),
    transcript: async (scope = {}, secrets = []) =>
      (await exportTranscript(store, monitor, { scope, tandemVersion: 'test', protocolVersion: acp.PROTOCOL_VERSION, secrets })).text,
    dispose: () => monitor.dispose(),
  };
}

/** A conversation whose agent is the replay agent playing `transcriptPath` (fast by default), sandboxed as Replay Transcript makes it. */
export function replaySession(dir: string, transcriptPath: string, opts: ScriptedSessionOptions & { pace?: 'fast' | 'recorded' } = {}): ScriptedSession {
  const s = scriptedSession(dir, {}, { name: 'Replay', ...opts });
  const args = [replayAgentJs, transcriptPath, ...(opts.pace === 'recorded' ? [] : ['--fast'])];
  s.session.updateAgent({ ...s.agent, args, env: {}, sandbox: 'replay' });
  return s;
}

const VOLATILE_KEYS = new Set(['id', 'requestId', 'checkpoint', 'diffId']);

/**
 * A thread's cards as compared between a recording and its replay: host-made ids dropped, the
 * working folder written `<cwd>` (the replay runs in another one).
 */
export function cardShapes(entries: readonly Entry[], cwd: string): unknown[] {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(cwd).join('<cwd>');
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE_KEYS.has(k))
        .map(([k, v]) => [k, walk(v)]),
    );
  };
  return entries.map(walk);
}
