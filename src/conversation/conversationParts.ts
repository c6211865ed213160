import type { AccountView, ConversationChange, ReviewView, WorktreeView } from '../protocol/messages';
import type { ConversationMeta, TitleSource } from '../store/conversationMeta';
import type { AgentActivity } from '../thread/agentActivity';
import { Thread } from '../thread/thread';
import type { IDisposable } from '../util/disposable';
import { BranchStart } from './branchStart';
import { ConversationReview } from './conversationReview';
import { ConversationWorktree } from './conversationWorktree';
import { PermissionDesk } from './permissionDesk';
import type { ConversationPorts, ConversationState } from './ports';
import { PromptQueue } from './promptQueue';
import { QuestionDesk } from './questionDesk';
import { ReviewNoteDesk } from './reviewNoteDesk';
import { SessionLink } from './sessionLink';
import { SessionSettings } from './sessionSettings';
import { SignIn } from './signIn';
import { Steering } from './steering';
import { TurnRunner } from './turnRunner';

/**
 * The parts of one conversation. Only the files of src/conversation reach them (through
 * `Conversation.internals`; a lint rule keeps everyone else to the conversation's intents and queries),
 * so that what a click means is sequenced once, on the Conversation, not by each caller.
 */
export interface ConversationParts {
  readonly thread: Thread;
  readonly queue: PromptQueue;
  readonly link: SessionLink;
  readonly turns: TurnRunner;
  readonly review: ConversationReview;
  readonly notes: ReviewNoteDesk;
  /** The git worktree it works in, when it has one. */
  readonly worktree: ConversationWorktree | undefined;
  readonly signIn: SignIn;
  readonly questions: QuestionDesk;
  readonly permissions: PermissionDesk;
  readonly settings: SessionSettings;
  /** Messages written during a turn, into that turn (for an agent that advertises steering). */
  readonly steering: Steering;
  /** How it starts when it is a branch of an edited prompt (a fork, else the transcript). */
  readonly branchStart: BranchStart;
}

/** What the conversation lends its parts besides its state: where their news goes. */
export interface PartsHost {
  readonly c: ConversationState & { readonly meta: ConversationMeta; setSessionId(sessionId: string | undefined): void };
  /** Owns a disposable part (disposed with the conversation). */
  own<T extends IDisposable>(part: T): T;
  emit(changes: ConversationChange[]): void;
  setTitle(text: string, source: TitleSource): void;
  activityChanged(activity: AgentActivity): void;
  accountChanged(account: AccountView | undefined): void;
  /** Title, session id or worktree changed (saved with the index). */
  saved(): void;
}

/**
 * Builds and wires the parts: each gets the narrow ports and siblings it uses, and the callbacks
 * between them (a session that opened pumps the turns, a sign-in that succeeded connects again).
 */
export function wireParts(host: PartsHost, ports: ConversationPorts): ConversationParts {
  const { c, own, emit } = host;
  const { editor } = ports;
  // Siblings built later are reached lazily: the callbacks run only once everything is wired.
  const p = {} as { -readonly [K in keyof ConversationParts]: ConversationParts[K] };
  const followLive = (path: string, line: number | undefined) => {
    if (p.turns.active) ports.follow(path, line);
  };
  p.thread = new Thread({
    isInWorkspace: (path) => editor.policy.isInWorkspace(path),
    roots: () => editor.policy.roots(),
    warn: (text) => c.log.warn(text),
    emit,
    // Only live turns move the editor: a replayed or restored history must not open files.
    follow: followLive,
    titled: (title) => host.setTitle(title, 'agent'),
    changes: (paths) => p.review.agentChanges(paths),
    activity: (activity) => host.activityChanged(activity),
    offersRetry: (stopReason) => p.turns.retries.offers(stopReason),
  });
  p.queue = new PromptQueue((queue) => emit([{ type: 'queueChanged', queue }]));
  const reviewChanged = (review: ReviewView) => {
    emit([{ type: 'reviewChanged', review }]);
    // What the strip shows changed on disk: so may what is unapplied.
    p.worktree?.refreshSoon();
  };
  p.review = own(new ConversationReview(editor.review, c.log, reviewChanged));
  p.notes = new ReviewNoteDesk({
    roots: () => editor.policy.roots(),
    hunkAt: (path, start, end) => p.review.hunkAt(path, start, end),
    changed: (notes) => emit([{ type: 'notesChanged', notes }]),
    refused: (message) => p.thread.addNotice('warning', message),
  });
  p.worktree = worktreePart(host, ports, p);
  p.branchStart = new BranchStart({
    agentName: () => c.agentName,
    notice: (level, message) => p.thread.addNotice(level, message),
    warn: (text) => c.log.warn(text),
  });
  p.questions = new QuestionDesk(c, p.thread, (url) => editor.openExternal(url));
  p.permissions = own(new PermissionDesk(c, p.thread, editor.rules, (notice) => editor.permissionRequested(c.id, notice)));
  p.link = own(
    new SessionLink(c, {
      thread: p.thread,
      permissions: p.permissions,
      questions: p.questions,
      review: p.review,
      queue: p.queue,
      ports,
      turnActive: () => p.turns.active,
      opened: (token, created) => {
        // A new session gets the settings the user chose last time for this agent (when enabled).
        if (created) void p.settings.applyRemembered(token);
        p.turns.pump();
      },
      exited: () => p.turns.abandon(),
      accountChanged: (account) => host.accountChanged(account),
      followLive,
      branch: p.branchStart,
    }),
  );
  p.settings = new SessionSettings(c, p.thread, p.link, editor);
  p.signIn = new SignIn(c, p.thread, { runtime: () => p.link.agentRuntime, ports });
  p.turns = own(
    new TurnRunner(c, {
      thread: p.thread,
      queue: p.queue,
      review: p.review,
      notes: p.notes,
      link: p.link,
      permissions: p.permissions,
      questions: p.questions,
      signIn: p.signIn,
      ports,
      preface: p.branchStart,
      named: (text) => {
        if (c.meta.titleSource === 'none') host.setTitle(text, 'prompt');
      },
    }),
  );
  p.steering = new Steering(c, { thread: p.thread, queue: p.queue, link: p.link, turns: p.turns, ports });
  return p;
}

/** The worktree part, for a conversation that has one (and an editor that offers them). */
function worktreePart(host: PartsHost, ports: ConversationPorts, p: Pick<ConversationParts, 'thread' | 'review' | 'turns'>): ConversationWorktree | undefined {
  const { c } = host;
  const worktrees = ports.editor.worktrees;
  if (!c.meta.worktree || !worktrees) return undefined;
  const changed = (worktree: WorktreeView) => host.emit([{ type: 'worktreeChanged', worktree }]);
  const recreated = () => {
    c.setStatus({ kind: 'idle', agentName: c.agentName });
    p.turns.pump();
  };
  const parts = { host: worktrees, thread: p.thread, review: p.review, changed, saved: host.saved, recreated };
  return host.own(new ConversationWorktree(c, c.meta.worktree, parts));
}
