import type { ConversationSnapshot, Entry, PromptCapabilitiesView, QueuedPromptView, ReviewNoteView, TabView, TerminalView } from '../protocol/messages';
import type { ReviewState } from '../store/conversationFormat';
import type { Conversation } from './conversation';

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

/** What the panel is sent of a conversation: everything at once when it is shown (a tab switch, a reload). */
export function conversationSnapshot(c: Conversation): ConversationSnapshot {
  const { session } = c.thread;
  const snapshot: ConversationSnapshot = {
    conversationId: c.id,
    title: c.meta.title,
    status: c.status,
    entries: c.thread.entries(),
    terminals: c.thread.terminals(),
    commands: session.commands(),
    modes: session.modes(),
    configOptions: session.configOptions(),
    queue: c.queue.view(),
    review: c.review.view(),
    notes: c.notes.view(),
  };
  const usage = session.usage();
  if (usage) snapshot.usage = usage;
  const suggestion = session.promptSuggestion();
  if (suggestion !== undefined) snapshot.promptSuggestion = suggestion;
  const quota = session.quota();
  if (quota) snapshot.quota = quota;
  if (c.meta.sessionId !== undefined) snapshot.sessionId = c.meta.sessionId;
  const caps = promptCapabilities(c);
  if (caps) snapshot.promptCapabilities = caps;
  const account = c.account;
  if (account) snapshot.account = account;
  if (c.canSignOut) snapshot.canSignOut = true;
  if (c.worktree) snapshot.worktree = c.worktree.view();
  return snapshot;
}

/** What the agent takes in a prompt besides text and links; undefined until it initialized. */
export function promptCapabilities(c: Pick<Conversation, 'link'>): PromptCapabilitiesView | undefined {
  const init = c.link.agentRuntime?.initializeResult;
  if (!init) return undefined;
  const p = init.agentCapabilities?.promptCapabilities;
  return { image: p?.image === true, audio: p?.audio === true, embeddedContext: p?.embeddedContext === true };
}

/** One conversation as its tab shows it. */
export function conversationTab(c: Conversation): TabView {
  const tab: TabView = { id: c.id, title: c.meta.title, agentName: c.agentName, status: c.status.kind };
  // A waiting prompt is a state, not an event: it shows for as long as it waits.
  // The agent's own "waiting on approval" counts too (codex says it before, and besides, its prompt).
  const attention = c.thread.hasPendingPermission || c.agentWaiting ? 'permission' : c.attention;
  if (c.activity) tab.activity = c.activity;
  if (attention) tab.attention = attention;
  if (c.meta.worktree) tab.branch = c.meta.worktree.branch;
  return tab;
}

export function conversationTranscript(c: Conversation): ConversationTranscript {
  const transcript: ConversationTranscript = {
    entries: c.thread.storedEntries(),
    terminals: c.thread.terminals(),
    queue: c.queue.view().items,
    review: c.review.state(),
  };
  const notes = c.notes.view();
  if (notes.length > 0) transcript.notes = notes;
  return transcript;
}
