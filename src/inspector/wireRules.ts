import * as l10n from '@vscode/l10n';
import { STOP_REASONS } from './acpSchemas';
import type { Finding } from './schemaCheck';

/** What one session has shown of itself on the wire, as the rules need it. */
interface SessionState {
  toolCalls: Map<string, ToolCallState>;
  /** Turns started (`session/prompt` sent), and the one running, if any. */
  turn: number;
  prompting: boolean;
  /** `loading`: `session/load` sent; `answered`: its answer came, and no turn has started since. */
  load?: 'loading' | 'answered';
  replayNoted: boolean;
}

interface ToolCallState {
  /** A `tool_call` introduced it (not only an update or a permission request). */
  announced: boolean;
  /** Known from a permission request's `toolCall` first (agents do that: not a warning). */
  viaPermission: boolean;
  status?: string;
  /** The turn that last touched it. */
  turn: number;
}

/** Updates that only a turn or a load's replay may carry. */
const HISTORY_KINDS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);
const OPEN_STATUSES = new Set(['pending', 'in_progress']);
/** Tool calls named in one warning at most. */
const NAMED = 4;

const warn = (rule: string, text: string): Finding => ({ rule, severity: 'warning', text });

/**
 * The ordering rules of the spec that no schema can check, over one connection's messages in
 * arrival order: updates for tool calls nobody announced, a `tool_call` after its updates, a
 * permission request outside a turn, a stop reason outside the enum, `end_turn` with tool calls
 * still open, a load's replay after the load was answered, updates for a session nobody opened.
 * Findings only; Tandem itself stays tolerant of all of them.
 */
export class SessionRules {
  private readonly sessions = new Map<string, SessionState>();
  /** `session/new` requests in flight: updates for a session not known yet may belong to one. */
  private creating = 0;

  /** Tandem sent a request (its params), before any answer. */
  clientRequest(method: string, params: Record<string, unknown> | undefined): void {
    const sessionId = typeof params?.sessionId === 'string' ? params.sessionId : undefined;
    if (method === 'session/new') this.creating++;
    if (!sessionId) return;
    const s = this.session(sessionId);
    if (method === 'session/prompt') {
      s.turn++;
      s.prompting = true;
      s.load = undefined;
    } else if (method === 'session/load') {
      s.load = 'loading';
      s.replayNoted = false;
    }
  }

  /** The agent answered one of Tandem's requests (`result` undefined: with an error). */
  agentAnswer(method: string, sessionId: string | undefined, result: Record<string, unknown> | undefined, failed: boolean): Finding[] {
    if (method === 'session/new') {
      this.creating = Math.max(0, this.creating - 1);
      if (typeof result?.sessionId === 'string') this.session(result.sessionId);
      return [];
    }
    if (!sessionId) return [];
    const s = this.session(sessionId);
    if (method === 'session/load' && s.load === 'loading') s.load = failed ? undefined : 'answered';
    if (method !== 'session/prompt') return [];
    s.prompting = false;
    if (failed) return [];
    const stopReason = result?.stopReason;
    if (typeof stopReason !== 'string' || !STOP_REASONS.includes(stopReason)) {
      return [
        {
          rule: 'stop-reason',
          severity: 'error',
          text: l10n.t('Stop reason {0} is not one of {1}.', JSON.stringify(stopReason) ?? 'undefined', STOP_REASONS.join(', ')),
        },
      ];
    }
    if (stopReason !== 'end_turn') return [];
    const open = [...s.toolCalls.entries()]
      .filter(([, c]) => c.turn === s.turn && OPEN_STATUSES.has(c.status ?? (c.announced ? 'pending' : '')))
      .map(([id]) => id);
    if (open.length === 0) return [];
    return [warn('end-turn-pending', l10n.t('The turn ended (end_turn) with {0} tool calls still pending or in progress: {1}.', open.length, named(open)))];
  }

  /** A `session/update` from the agent. */
  update(sessionId: string, update: Record<string, unknown>): Finding[] {
    const findings = this.knownSession(sessionId);
    const s = this.session(sessionId);
    const kind = String(update.sessionUpdate);
    if (HISTORY_KINDS.has(kind) && s.load === 'answered' && !s.prompting && !s.replayNoted) {
      s.replayNoted = true;
      findings.push(
        warn(
          'replay-after-load',
          l10n.t('A replayed {0} arrived after the session/load answer: the replay should be complete before the agent answers the load.', kind),
        ),
      );
    }
    if (kind !== 'tool_call' && kind !== 'tool_call_update') return findings;
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : undefined;
    if (!id) return findings;
    const status = typeof update.status === 'string' ? update.status : undefined;
    const call = s.toolCalls.get(id);
    if (kind === 'tool_call') {
      if (call && !call.announced && !call.viaPermission)
        findings.push(
          warn('late-tool-call', l10n.t('The tool_call for {0} arrived after its tool_call_update: a tool call is announced before it is updated.', id)),
        );
      s.toolCalls.set(id, { announced: true, viaPermission: call?.viaPermission ?? false, status: status ?? call?.status ?? 'pending', turn: s.turn });
      return findings;
    }
    if (!call) {
      findings.push(warn('unknown-tool-call', l10n.t('tool_call_update for {0}, which no tool_call announced.', id)));
      s.toolCalls.set(id, { announced: false, viaPermission: false, status, turn: s.turn });
      return findings;
    }
    if (status) call.status = status;
    call.turn = s.turn;
    return findings;
  }

  /** `session/request_permission` from the agent. */
  permission(sessionId: string, toolCall: Record<string, unknown> | undefined): Finding[] {
    const findings = this.knownSession(sessionId);
    const s = this.session(sessionId);
    if (!s.prompting)
      findings.push(
        warn(
          'permission-after-turn',
          l10n.t('A permission request arrived while no turn is running in this session (after the session/prompt answer, or before any prompt).'),
        ),
      );
    const id = typeof toolCall?.toolCallId === 'string' ? toolCall.toolCallId : undefined;
    if (id && !s.toolCalls.has(id))
      s.toolCalls.set(id, { announced: false, viaPermission: true, status: typeof toolCall?.status === 'string' ? toolCall.status : undefined, turn: s.turn });
    return findings;
  }

  /** Another request of the agent about a session (fs, terminals, elicitation). */
  sessionRequest(sessionId: string): Finding[] {
    return this.knownSession(sessionId);
  }

  /** A session Tandem opened (new, load or resume); while a `session/new` is in flight, any may be. */
  private knownSession(sessionId: string): Finding[] {
    if (this.sessions.has(sessionId) || this.creating > 0) return [];
    return [warn('unknown-session', l10n.t('Session {0} was never opened on this connection (no session/new answer, load or resume named it).', sessionId))];
  }

  private session(sessionId: string): SessionState {
    let s = this.sessions.get(sessionId);
    if (!s) this.sessions.set(sessionId, (s = { toolCalls: new Map(), turn: 0, prompting: false, replayNoted: false }));
    return s;
  }
}

function named(ids: string[]): string {
  const shown = ids.slice(0, NAMED).join(', ');
  return ids.length > NAMED ? l10n.t('{0} and {1} more', shown, ids.length - NAMED) : shown;
}
