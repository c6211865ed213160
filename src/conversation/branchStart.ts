import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { errorMessage } from '../util/errors';

/** How a branch's session starts (promptEditing.ts decides, the branch's SessionLink carries it out). */
export interface BranchPlan {
  /** Fork the agent's session `sessionId` after its message `messageId`; absent: the agent cannot, or there is nothing to fork after. */
  fork?: { sessionId: string; messageId: string };
  /** The conversation before the edited prompt, as Markdown; empty: nothing came before it. */
  transcript: string;
}

/** What the session opening does with a plan, once (sessionOpening.ts). */
export interface BranchOpening {
  readonly fork: BranchPlan['fork'];
  /** The fork was made: the agent remembers the conversation up to there. */
  forked(): void;
  /** No fork (not offered, or it failed): a new session, given the transcript with the first prompt; says so in the thread. */
  startedFresh(forkError?: unknown): void;
}

/**
 * One conversation's pending branch start: armed when the conversation is made from an edit, used
 * by the first session it opens (a fork, else a new session) and by the first prompt it sends (the
 * transcript, when the agent does not remember it). Afterwards the conversation is like any other.
 */
export class BranchStart {
  private plan: BranchPlan | undefined;
  private preface: string | undefined;

  constructor(
    private readonly ports: {
      agentName(): string;
      notice(level: 'info' | 'warning', message: string): void;
      warn(text: string): void;
    },
  ) {}

  arm(plan: BranchPlan): void {
    this.plan = plan;
    this.preface = undefined;
  }

  /** For the session being opened: the plan, once; undefined when there is none. */
  opening(): BranchOpening | undefined {
    const plan = this.plan;
    if (!plan) return undefined;
    this.plan = undefined;
    return {
      fork: plan.fork,
      forked: () => undefined,
      startedFresh: (forkError) => {
        const agent = this.ports.agentName();
        if (forkError !== undefined) this.ports.warn(`session/fork failed; a new session starts from the transcript instead: ${errorMessage(forkError)}`);
        if (plan.transcript.trim() === '') {
          this.ports.notice('info', l10n.t('New session: {0} starts from this prompt.', agent));
          return;
        }
        this.preface = plan.transcript;
        this.ports.notice(
          'info',
          l10n.t('New session: {0} starts from the transcript. The conversation above goes to it as context with the next prompt.', agent),
        );
      },
    };
  }

  /** The transcript for the first prompt of a new session (a resource when the agent takes embedded context), once. */
  takePreface(embeddedContext: boolean): acp.ContentBlock[] {
    const text = this.preface;
    if (text === undefined) return [];
    this.preface = undefined;
    const intro =
      "[Note from Tandem, the user's editor] This session continues an earlier conversation with you, which the user went back in and edited. " +
      'Its transcript up to the message that follows is attached: take it as what was said and done so far.';
    if (embeddedContext)
      return [
        { type: 'text', text: intro },
        { type: 'resource', resource: { uri: 'tandem:/conversation-so-far.md', mimeType: 'text/markdown', text } },
      ];
    return [{ type: 'text', text: `${intro}\n\n<conversation-so-far>\n${text}\n</conversation-so-far>` }];
  }
}
