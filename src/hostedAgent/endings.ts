/**
 * How a server's answer ended, in both dialects, and what that means for the ACP turn: a normal
 * end, a partial answer at the server's own step or time limit (the seed: "returns the partial
 * result, marked incomplete"), a server-side error, or a stop the server chose.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';

export interface Ending {
  /** The answer reached its end marker (`done`, `finish`, `[DONE]`, a whole JSON body). */
  finished: boolean;
  /** Set when the server says the answer is partial: the limit it hit, as it named it. */
  incomplete?: string;
  /** AI SDK `finish.finishReason`. */
  finishReason?: string;
  /** Error events / chunks, in order (the stream may go on after one). */
  errors: string[];
  /** AI SDK `abort`: the server stopped the reply itself. */
  aborted?: string;
}

export function newEnding(): Ending {
  return { finished: false, errors: [] };
}

/** Reasons that name a step or time limit rather than a normal end. */
const LIMIT_REASONS =
  /^(max[-_ ]?steps?|steps?[-_ ]?limit|max[-_ ]?turns?|turn[-_ ]?limit|timeout|time[-_ ]?limit|time[-_ ]?out|max[-_ ]?duration|deadline|incomplete|partial)$/i;

/**
 * The incomplete marking of a `done` event, a JSON answer's `data` or an AI SDK finish's
 * metadata. The seed does not spell the field out, so the usual spellings are all read:
 * `incomplete: true`, `partial: true`, `complete: false`, `status: "incomplete" | "partial"`,
 * or a `finishReason` / `stopReason` / `reason` naming a step or time limit. Returns the reason
 * (or `"incomplete"`), or undefined for a complete answer.
 */
export function incompleteMarker(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const reason = [value.reason, value.finishReason, value.stopReason, value.limit].find((r): r is string => typeof r === 'string' && r !== '');
  const flagged =
    value.incomplete === true ||
    value.partial === true ||
    value.complete === false ||
    value.truncated === true ||
    (typeof value.status === 'string' && /^(incomplete|partial)$/i.test(value.status));
  if (flagged) return reason ?? 'incomplete';
  if (reason && LIMIT_REASONS.test(reason)) return reason;
  for (const nested of [value.metadata, value.meta, value.limits]) {
    const inner = nested === value ? undefined : incompleteMarker(nested);
    if (inner) return inner;
  }
  return undefined;
}

/** A notice the bridge shows in the thread (kept out of the history sent to the server). */
export interface Notice {
  kind: 'incomplete' | 'maxTokens' | 'toolsSkipped' | 'serverStopped' | 'refusal';
  text: string;
  /** Structured details for clients that render notices themselves. */
  details?: Record<string, unknown>;
}

/** What a notice is on the wire: an agent message any client shows, typed in `_meta` for Tandem. */
export function noticeUpdate(notice: Notice): acp.SessionUpdate {
  return {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: `\n\n> ${notice.text}\n\n` },
    _meta: { tandem: { notice: { kind: notice.kind, ...(notice.details ?? {}) } } },
  };
}

/** The stop reason and notice for a reply that ended without an error. */
export function stopFor(ending: Ending, pendingApprovals: number): { stopReason: acp.StopReason; notice?: Notice } {
  if (ending.incomplete) {
    return {
      stopReason: 'max_turn_requests',
      notice: {
        kind: 'incomplete',
        text: `Incomplete: the server stopped at its step or time limit (${ending.incomplete}). The reply above is partial; send another message to continue.`,
        details: { reason: ending.incomplete },
      },
    };
  }
  if (ending.aborted !== undefined) {
    return {
      stopReason: 'end_turn',
      notice: {
        kind: 'serverStopped',
        text: `The server stopped the reply${ending.aborted ? ` (${ending.aborted})` : ''}.`,
        details: { reason: ending.aborted },
      },
    };
  }
  switch (ending.finishReason) {
    case 'length':
      return { stopReason: 'max_tokens', notice: { kind: 'maxTokens', text: 'Incomplete: the model reached its output limit. The reply above is cut short.' } };
    case 'content-filter':
      return { stopReason: 'refusal', notice: { kind: 'refusal', text: "The server's content filter stopped the reply." } };
    case 'tool-calls':
      // The model still wanted to call tools when the server stopped: its step limit (an approval
      // request also ends with this reason, but then the turn goes on instead of stopping here).
      if (pendingApprovals === 0) {
        return {
          stopReason: 'max_turn_requests',
          notice: {
            kind: 'incomplete',
            text: 'Incomplete: the server stopped at its step limit while the model still had tools to call. Send another message to continue.',
            details: { reason: 'tool-calls' },
          },
        };
      }
      return { stopReason: 'end_turn' };
    default:
      return { stopReason: 'end_turn' };
  }
}
