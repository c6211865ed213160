import type { ConversationChange, ReviewNoteView, ReviewView, TabView } from '../protocol/messages';
import { Disposable, Emitter } from '../util/disposable';
import type { Conversation } from './conversation';

/** A conversation's review notes changed (added, sent, removed): the whole list as it is now. */
export interface NotesChanged {
  readonly conversation: Conversation;
  readonly notes: readonly ReviewNoteView[];
}

/** What the agent changed on disk in a conversation (its review strip) changed. */
export interface FilesChanged {
  readonly conversation: Conversation;
  readonly review: ReviewView;
}

/**
 * The domain events the editor listens to, fired by `ConversationManager`. They say what happened
 * to the conversations, never how the panel is told: the panel's wire (`HostMessage`) is the panel
 * connection's alone, so the editor adapters (review comments, worktree badges, the status bar) do
 * not depend on what the panel happens to be sent, nor on which conversation it shows. Unlike the
 * panel's messages, the per-conversation events fire for every open conversation, shown or not.
 */
export class ConversationEvents extends Disposable {
  private readonly shownEmitter = this.register(new Emitter<Conversation>());
  private readonly tabsEmitter = this.register(new Emitter<readonly TabView[]>());
  private readonly notesEmitter = this.register(new Emitter<NotesChanged>());
  private readonly filesEmitter = this.register(new Emitter<FilesChanged>());

  /** Another conversation is shown (a tab switch, a new or reopened conversation). */
  readonly onShown = this.shownEmitter.event;
  /** The tabs changed: opened, closed, reordered, renamed, or a status, badge or activity moved. */
  readonly onTabsChanged = this.tabsEmitter.event;
  readonly onNotesChanged = this.notesEmitter.event;
  readonly onFilesChanged = this.filesEmitter.event;

  shown(conversation: Conversation): void {
    this.shownEmitter.fire(conversation);
  }

  tabsChanged(tabs: readonly TabView[]): void {
    this.tabsEmitter.fire(tabs);
  }

  /** A conversation's changes, read for what the editor cares about (the rest is the panel's). */
  changed(conversation: Conversation, changes: readonly ConversationChange[]): void {
    for (const change of changes) {
      if (change.type === 'notesChanged') this.notesEmitter.fire({ conversation, notes: change.notes });
      else if (change.type === 'reviewChanged') this.filesEmitter.fire({ conversation, review: change.review });
    }
  }
}
