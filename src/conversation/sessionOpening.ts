import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { SessionEndpoint } from '../runtime/sessionPort';
import type { Thread } from '../thread/thread';
import type { BranchOpening } from './branchStart';
import { forkMeta } from './forkPoint';
import type { ConversationState } from './ports';

/** What one connect attempt opens its session with (SessionLink.open gathers it). */
export interface SessionOpening {
  c: Pick<ConversationState, 'agentName' | 'meta'>;
  thread: Pick<Thread, 'beginReplay' | 'replayAnswered' | 'sessionOpened' | 'addNotice' | 'entries' | 'size'>;
  runtime: AgentRuntime;
  /** The session to resume or load; undefined: a new one. */
  previous: string | undefined;
  /** The user asked for a new session (Start fresh): no "cannot restore" warning. */
  fresh: boolean;
  endpoint: SessionEndpoint;
  mcp: acp.McpServer[];
  roots: string[];
  /** False once the attempt is over (another connect, a close): nothing more is done. */
  live(): boolean;
  starting(detail: string): void;
  /** The session is attached (`created`: a new one, whose id the conversation keeps). */
  attached(sessionId: string, created: boolean): void;
  /** The conversation is a branch of an edited prompt opening its first session (branchStart.ts): a fork, else a new session. */
  branch?: BranchOpening;
}

/**
 * Opens the ACP session of a connect attempt: resumed or loaded when there is one and the agent
 * can, else a new one. Resolves with whether it was created, or undefined when the attempt ended
 * meanwhile. Failures are thrown (the link reports them).
 */
export async function openSession(o: SessionOpening): Promise<{ created: boolean } | undefined> {
  const { c, thread, runtime, previous } = o;
  const support = runtime.sessionSupport;
  if (previous !== undefined && (support.resume || support.load)) {
    // Resume shows nothing of the past: a conversation Tandem has no transcript of (opened from
    // the agent's own list) is loaded, so its history becomes the thread.
    const resume = support.resume && !(support.load && thread.size === 0);
    o.starting(resume ? l10n.t('Resuming the conversation…') : l10n.t('Loading the conversation…'));
    if (resume) {
      const result = await runtime.resumeSession(previous, c.meta.cwd, o.endpoint, o.mcp, o.roots);
      if (!o.live()) return undefined;
      thread.sessionOpened(result);
    } else {
      thread.beginReplay();
      const result = await runtime.loadSession(previous, c.meta.cwd, o.endpoint, o.mcp, o.roots);
      if (!o.live()) return undefined;
      thread.sessionOpened(result);
      thread.replayAnswered();
    }
    o.attached(previous, false);
    return { created: false };
  }
  const spoken = thread.entries().some((e) => e.kind === 'user' || e.kind === 'agent');
  const branch = o.branch;
  let forkError: unknown;
  if (branch?.fork && support.fork) {
    o.starting(l10n.t('Going on from the edited message…'));
    try {
      const forked = await runtime.forkSession(branch.fork.sessionId, c.meta.cwd, o.endpoint, o.mcp, o.roots, forkMeta(branch.fork.messageId));
      if (!o.live()) return undefined;
      o.attached(forked.sessionId, true);
      thread.sessionOpened(forked);
      branch.forked();
      return { created: false };
    } catch (err) {
      if (!o.live()) return undefined;
      // The agent could not cut there (a message it no longer knows): the transcript carries the conversation instead.
      forkError = err;
    }
  }
  o.starting(l10n.t('Opening a session…'));
  const result = await runtime.newSession(c.meta.cwd, o.endpoint, o.mcp, o.roots);
  if (!o.live()) return undefined;
  o.attached(result.sessionId, true);
  thread.sessionOpened(result);
  if (branch) branch.startedFresh(forkError);
  else if (spoken && !o.fresh)
    thread.addNotice('warning', l10n.t('{0} cannot restore earlier sessions, so it starts fresh: it does not remember the conversation above.', c.agentName));
  return { created: true };
}
