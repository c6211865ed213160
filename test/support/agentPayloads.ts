/**
 * The recorded payloads of real agents (test/fixtures/agentPayloads) played into a ThreadReducer as
 * Tandem's core plays them: updates dispatched in order, permission requests attached (and answered
 * with their first option when the next message arrives), the workspace `<cwd>` put back as `cwd`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThreadReducer } from '../../src/thread/threadReducer';
import type { Entry, ToolCallEntry } from '../../src/protocol/messages';
import { replacePaths, type PayloadAgent, type PayloadRecording } from '../fixtures/agentPayloads/recordPayloads';
import { repoRoot } from './scriptedSession';

export function loadRecording(agent: PayloadAgent, cwd: string): PayloadRecording {
  const raw = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'agentPayloads', `${agent}.json`), 'utf8')) as PayloadRecording;
  return replacePaths(raw, '<cwd>', cwd);
}

/** A reducer rooted at `cwd` (lexically: paths under it are in the workspace), with its warnings. */
export function payloadReducer(cwd: string): { reducer: ThreadReducer; warnings: string[] } {
  const warnings: string[] = [];
  const reducer = new ThreadReducer({ isInWorkspace: (p) => p === cwd || p.startsWith(`${cwd}/`), warn: (t) => warnings.push(t), roots: () => [cwd] });
  return { reducer, warnings };
}

/** Plays a recording into `reducer`; returns the entries. */
export function playRecording(reducer: ThreadReducer, recording: PayloadRecording): Entry[] {
  let request = 0;
  for (const payload of recording.payloads) {
    if (payload.method === 'session/update') reducer.applyUpdate(payload.params.update);
    else {
      const requestId = `r${++request}`;
      reducer.attachPermission(payload.params.toolCall, requestId, payload.params.options);
      const options = payload.params.options as Array<{ optionId: string; kind: string }>;
      const allow = options.find((o) => o.kind === 'allow_once') ?? options[0];
      reducer.resolvePermission(requestId, { kind: 'selected', optionId: allow.optionId });
    }
  }
  return reducer.entries();
}

export function toolCards(entries: readonly Entry[]): ToolCallEntry[] {
  return entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
}
