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
  const snapshot: ConversationSnapshot = {
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
  };
  const usage = session.usage();
  if (usage) snapshot.usage = usage;
  const suggestion = session.promptSuggestion();
  if (suggestion !== undefined) snapshot.promptSuggestion = suggestion;
  const quota = session.quota();
  if (quota) snapshot.quota = quota;
  if (c.meta.sessionId !== undefined) snapshot.sessionId = c.meta.sessionId;
  const caps = promptCapabilities(c.internals);
  if (caps) snapshot.promptCapabilities = caps;
  const account = c.account;
  if (account) snapshot.account = account;
  if (c.canSignOut) snapshot.canSignOut = true;
  if (worktree) snapshot.worktree = worktree.view();
  return snapshot;
}

/** What the agent takes in a prompt besides text and links; undefined until it initialized. */
export function promptCapabilities(parts: Pick<ConversationParts, 'link'>): PromptCapabilitiesView | undefined {
  const init = parts.link.agentRuntime?.initializeResult;
  if (!init) return undefined;
  const p = init.agentCapabilities?.promptCapabilities;
  return { image: p?.image === true, audio: p?.audio === true, embeddedContext: p?.embeddedContext === true };
}

/** One conversation as its tab shows it. */
export function conversationTab(
  c: Pick<ViewedConversation, 'id' | 'agentName' | 'meta' | 'status' | 'internals' | 'attention' | 'activity' | 'agentWaiting'>,
): TabView {
  const tab: TabView = { id: c.id, title: c.meta.title, agentName: c.agentName, status: c.status.kind };
  // A waiting prompt is a state, not an event: it shows for as long as it waits.
  // The agent's own "waiting on approval" counts too (codex says it before, and besides, its prompt).
  const attention = c.internals.thread.hasPendingPermission || c.agentWaiting ? 'permission' : c.attention;
  if (c.activity) tab.activity = c.activity;
  if (attention) tab.attention = attention;
  if (c.meta.worktree) tab.branch = c.meta.worktree.branch;
  return tab;
}

export function conversationTranscript(parts: Pick<ConversationParts, 'thread' | 'queue' | 'review' | 'notes'>): ConversationTranscript {
  const transcript: ConversationTranscript = {
    entries: parts.thread.storedEntries(),
    terminals: parts.thread.terminals(),
    queue: parts.queue.view().items,
    review: parts.review.state(),
  };
  const notes = parts.notes.view();
  if (notes.length > 0) transcript.notes = notes;
  return transcript;
}
