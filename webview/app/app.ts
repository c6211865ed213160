/**
 * Wires the panel: host messages go into the store at once, and the DOM catches up at most once
 * per animation frame with only what changed. Malformed messages are logged and skipped.
 */
import * as l10n from '@vscode/l10n';
import type { HostMessage } from '../../src/protocol/messages';
import { Announcements } from './announcements';
import { Announcer } from '../core/announcer';
import { setCodeBlockActions } from '../markdown/codeBlock';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { ColdSections } from '../entries/coldSections';
import { editLastPrompt } from '../entries/promptEdit';
import { Composer } from '../composer/composer';
import { receiveDiffLines } from '../review/diffRequests';
import { h } from '../core/dom';
import { Header } from '../header/header';
import { installPermissionShortcuts } from '../tools/permission';
import { ChangedFiles } from '../review/changedFiles';
import { NoteBoard, setNoteBoard } from '../review/reviewNotes';
import { WorktreeBar } from '../review/worktreeBar';
import { QueueView } from '../composer/queueView';
import { Store } from '../store/store';
import { Tabs } from './tabs';
import { TerminalRegistry } from '../terminal/terminalView';
import { Thread } from '../thread/thread';
import type { ViewContext } from '../entries/viewContext';
import { mismatchIn, versionNotice } from '../core/versionNotice';
import { Host } from '../core/vscodeApi';

export class App {
  private readonly store = new Store();
  private readonly host = new Host();
  private readonly root: HTMLElement;
  private readonly header: Header;
  private readonly thread: Thread;
  private readonly composer: Composer;
  private readonly tabs: Tabs;
  private readonly queue: QueueView;
  private readonly changedFiles: ChangedFiles;
  private readonly worktreeBar: WorktreeBar;
  private readonly notes: NoteBoard;
  private readonly announcements: Announcements;
  /** The page's heading (for screen readers' heading navigation): the shown conversation's title. */
  private readonly heading: HTMLElement;
  private frameRequested = false;
  private restoredScroll = false;
  /** Set once the host turned out to be of another protocol version: nothing from it is applied. */
  private mismatched = false;

  constructor(container: HTMLElement) {
    const ctx: ViewContext = { host: this.host, store: this.store, terminals: new TerminalRegistry(this.store, this.host), cold: new ColdSections() };
    // The panel is the page's main content: one landmark holding all of it.
    this.root = h('main', { class: 'tandem' });
    this.heading = h('h1', { class: 'visually-hidden' }, l10n.t('Conversation'));
    this.header = new Header(this.store, this.host, this.root);
    this.thread = new Thread(ctx);
    this.composer = new Composer(this.store, this.host);
    this.composer.editLastPrompt = () => editLastPrompt(this.store);
    this.tabs = new Tabs(this.store, this.host);
    this.queue = new QueueView(this.store, this.host);
    this.notes = new NoteBoard(this.host, () => this.store.worktrees.notes);
    setNoteBoard(this.notes);
    this.changedFiles = new ChangedFiles(this.store, this.host);
    this.worktreeBar = new WorktreeBar(this.store, this.host);
    const announcer = new Announcer();
    this.announcements = new Announcements(this.store, announcer);
    setCodeBlockActions({ post: (message) => this.host.post(message), say: (text) => announcer.say(text) });
    this.root.append(
      this.heading,
      this.tabs.element,
      this.header.element,
      this.header.controls.menuElement,
      this.header.notice,
      this.thread.element,
      this.worktreeBar.element,
      this.changedFiles.element,
      this.queue.element,
      this.composer.element,
      announcer.element,
    );
    container.replaceChildren(this.root);
    this.header.renderStatus();
    this.header.renderAgents();
    this.header.renderModes();
    this.composer.render();
    installPermissionShortcuts(this.root);
    this.interceptLinks();
  }

  start(): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
    this.host.post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    // The host notifies about permission prompts only when the user is not looking at the panel.
    const focus = (focused: boolean) => this.host.post({ type: 'focusChanged', focused });
    window.addEventListener('focus', () => focus(true));
    window.addEventListener('blur', () => focus(false));
    if (document.hasFocus()) focus(true);
  }

  receive(data: unknown): void {
    if (this.mismatched) return;
    const mismatch = mismatchIn(data);
    if (mismatch) {
      this.mismatched = true;
      this.root.replaceChildren(versionNotice(() => this.host.post({ type: 'reloadView' }), mismatch));
      return;
    }
    try {
      this.store.apply(data as HostMessage);
    } catch (error) {
      console.error('Tandem: ignoring malformed host message', error, data);
    }
    this.requestFrame();
    // Answers to a diff view's request for lines go to that view, not through the store.
    receiveDiffLines(data);
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.flush();
    });
  }

  private flush(): void {
    if (!this.store.hasChanges()) return;
    const changes = this.store.takeChanges();
    try {
      // UI state (drafts, expanded rows) and commands belong to the conversation being shown.
      const previousScope = this.host.scope;
      const switched = previousScope !== this.store.conversationId;
      this.host.scope = this.store.conversationId;
      this.thread.render(changes);
      // The last screens are in the DOM and paint at the end of this frame; the rest may come now.
      if (changes.reset && this.store.olderPending > 0) this.host.post({ type: 'olderEntriesWanted', conversationId: this.store.conversationId });
      if (changes.conversation) {
        this.thread.renderConversation();
        this.heading.textContent = this.store.title || l10n.t('Conversation');
      }
      if (switched) {
        this.composer.conversationChanged(previousScope);
        if (this.restoredScroll) this.thread.scrollToBottom();
      }
      // After a switch, so results and chips meet the right conversation's composer.
      if (changes.mentions) this.composer.mentionsChanged();
      if (changes.tabs || changes.status || changes.conversation) this.tabs.render();
      if (changes.queue || changes.status) this.queue.render();
      if (changes.review) this.changedFiles.render();
      if (changes.worktree) {
        this.worktreeBar.render();
        this.header.renderWorktree();
        this.tabs.renderOffer();
        this.notes.refresh();
        this.composer.notesChanged();
      }
      if (changes.status || changes.reset) {
        this.header.renderStatus();
        this.composer.render();
        this.thread.refreshStreaming();
      }
      if (changes.agents || changes.tabs || changes.conversation) this.header.renderAgents();
      if (changes.modes) this.header.renderModes();
      if (changes.options) this.header.controls.renderOptions();
      if (changes.modes || changes.options) this.header.approval.render();
      if (changes.account || changes.status) this.header.account.render();
      if (changes.usage) {
        this.header.controls.renderUsage();
        this.header.quota.render(this.store.quota);
      }
      if (changes.commands) this.composer.renderCommands();
      if (changes.suggestion) this.composer.renderSuggestion();
      if (changes.reset || changes.entries.size > 0) this.header.renderWaiting();
      // The notification's "Show": land on the prompt once it is rendered (it may come in a later frame).
      const reveal = this.store.reveal;
      if (reveal && (this.header.focusFirstPrompt(reveal.requestId) || Date.now() > reveal.until)) this.store.reveal = undefined;
      // A search match: land on its entry once it is here (older entries may come in a later frame).
      const landing = this.store.revealEntry;
      if (landing && (this.thread.revealEntry(landing.entryId, landing.query) || Date.now() > landing.until)) this.store.revealEntry = undefined;
      if (changes.entries.size > 0) this.header.noteFlow();
      this.announcements.render(changes);
      if (changes.reset && !this.restoredScroll && this.store.hasSnapshot) {
        this.restoredScroll = true;
        this.thread.restoreScroll();
      }
      this.root.setAttribute('data-entries', String(this.store.entryIds.length));
    } catch (error) {
      console.error('Tandem: render failed', error);
    }
  }

  /** Links never navigate the webview: the host opens them (editor or browser). */
  private interceptLinks(): void {
    document.addEventListener('click', (event) => {
      const target = event.target instanceof Element ? event.target.closest('a') : null;
      if (!target) return;
      event.preventDefault();
      const href = target.getAttribute('href');
      if (!href || href.startsWith('#')) return;
      this.host.post({ type: 'openLink', href });
    });
  }
}
