import type { ConversationSnapshot, Entry, PromptCapabilitiesView, QueuedPromptView, ReviewNoteView, TabView, TerminalView } from '../protocol/messages';
import type { ReviewState } from '../store/conversationFormat';
import type { ConversationParts } from './conversationParts';
import type { ConversationState } from './ports';

/** What a stored transcript holds (see ConversationStore). */
export interface ConversationTranscript {
  /** Diff items carry both texts here (StoredDiffContent); restoring strips them again. */
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  queue?: QueuedPromptView[];
  /** The review's baseline checkpoint and who changed what, so the changed-files strip survives a restart. */
  review?: ReviewState;
  notes?: ReviewNoteView[];
}

/**
 * What the views read of a conversation: its state and parts, never the Conversation class (so
 * that these views, the parts and the conversation import in one direction only).
 */
export interface ViewedConversation extends Pick<ConversationState, 'id' | 'agentName' | 'meta' | 'status'> {
  readonly internals: Pick<ConversationParts, 'thread' | 'queue' | 'review' | 'notes' | 'worktree' | 'link'>;
  readonly account: SnapshotAccount;
  readonly canSignOut: boolean;
  readonly attention: TabView['attention'];
  readonly activity: TabView['activity'];
  readonly agentWaiting: boolean;
}
type SnapshotAccount = ConversationSnapshot['account'];

/** What the panel is sent of a conversation: everything at once when it is shown (a tab switch, a reload). */
export function conversationSnapshot(c: Omit<ViewedConversation, 'attention' | 'activity' | 'agentWaiting'>): ConversationSnapshot {
  const { thread, queue, review, notes, worktree } = c.internals;
  const { session } = thread;
  const usage = session.usage();
  const suggestion = session.promptSuggestion();
  const quota = session.quota();
  const caps = promptCapabilities(c.internals);
  const account = c.account;
  // Optional fields only when set, so the snapshot carries no `undefined` keys.
  return {
    conversationId: c.id,
    title: c.meta.title,
    status: c.status,
    entries: thread.entries(),
    terminals: thread.terminals(),
    commands: session.commands(),
    modes: session.modes(),
    configOptions: session.configOptions(),
    queue: queue.view(),
    review: review.view(),
    notes: notes.view(),
    ...(usage ? { usage } : {}),
    ...(suggestion !== undefined ? { promptSuggestion: suggestion } : {}),
    ...(quota ? { quota } : {}),
    ...(c.meta.sessionId !== undefined ? { sessionId: c.meta.sessionId } : {}),
    ...(caps ? { promptCapabilities: caps } : {}),
    ...(account ? { account } : {}),
    ...(c.canSignOut ? { canSignOut: true } : {}),
    ...(worktree ? { worktree: worktree.view() } : {}),
  };
}

/** What the agent takes in a prompt besides text and links; undefined until it initialized. */
export function promptCapabilities(parts: Pick<ConversationParts, 'link'>): PromptCapabilitiesView | undefined {
  const init = parts.link.agentRuntime?.initializeResult;
  if (!init) return undefined;
  const p = init.agentCapabilities?.promptCapabilities;
  const view = { image: p?.image === true, audio: p?.audio === true, embeddedContext: p?.embeddedContext === true };
  return parts.link.agentRuntime?.steering !== undefined ? { ...view, steering: true } : view;
}

/** One conversation as its tab shows it. */
export function conversationTab(
  c: Pick<ViewedConversation, 'id' | 'agentName' | 'meta' | 'status' | 'internals' | 'attention' | 'activity' | 'agentWaiting'>,
): TabView {
  // A waiting prompt is a state, not an event: it shows for as long as it waits.
  // The agent's own "waiting on approval" counts too (codex says it before, and besides, its prompt).
  const attention = c.internals.thread.hasPendingPermission || c.agentWaiting ? 'permission' : c.attention;
  return {
    id: c.id,
    title: c.meta.title,
    agentName: c.agentName,
    status: c.status.kind,
    ...(c.activity ? { activity: c.activity } : {}),
    ...(attention ? { attention } : {}),
    ...(c.meta.worktree ? { branch: c.meta.worktree.branch } : {}),
  };
}

export function conversationTranscript(parts: Pick<ConversationParts, 'thread' | 'queue' | 'review' | 'notes'>): ConversationTranscript {
  const transcript: ConversationTranscript = {
    entries: parts.thread.storedEntries(),
    terminals: parts.thread.terminals(),
    // The view's items are readonly; the transcript's own list (a shallow copy, small).
    queue: [...parts.queue.view().items],
    review: parts.review.state(),
  };
  const notes = parts.notes.view();
  if (notes.length > 0) transcript.notes = notes;
  return transcript;
}
