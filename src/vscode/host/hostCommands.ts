import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { HostMessage } from '../../protocol/messages';
import type { RuleStore } from '../../permissions/ruleStore';
import type { Conversation } from '../../conversation/conversation';
import type { ConversationManager } from '../../conversation/conversationManager';
import { choiceDescription, DEMO_AGENT_NAME, type AgentSettings } from '../agents/agentSettings';
import { showHistory, type AgentSessionItem } from '../pickers/historyPicker';
import { searchConversations, type SearchTarget } from '../pickers/searchPicker';
import type { ConversationSearch } from '../../store/conversationSearch';
import type { MentionSource } from '../mentions/mentionSource';
import { manageRules } from '../pickers/rulesPicker';
import type { ChatSurface } from './chatSurface';
import { newConversationInWorktree } from '../../conversation/worktreeLifecycle';
import { errorMessage } from '../../util/errors';
import type { EditorWorktrees } from '../worktree/editorWorktrees';
import { setting, updateUserSetting } from '../settings/settings';

/** The parts of the session host the commands use. */
export interface CommandHost {
  manager: ConversationManager;
  settings: AgentSettings;
  rules: RuleStore;
  mentions: MentionSource;
  surface(): ChatSurface | undefined;
  post(message: HostMessage): void;
  init(): Promise<void>;
  cwd(): string;
  followEnabled(): boolean;
  /** Forgets the keys kept for an agent (SecretStorage); false when there were none. */
  forgetSecrets(agentName: string): Promise<boolean>;
  /** Conversation worktrees; undefined without a folder. */
  worktrees: EditorWorktrees | undefined;
  /** The text search over the kept conversations. */
  search: ConversationSearch;
}

/**
 * What the command palette, menus and keybindings run (`Tandem: …`), and the notification for a
 * permission prompt the user cannot see. Each acts on the shown conversation.
 */
export class HostCommands {
  constructor(private readonly host: CommandHost) {}

  stop(): void {
    this.host.manager.active?.stop();
  }

  async restart(): Promise<void> {
    await this.host.manager.restart();
  }

  /** A new conversation: in its own worktree when `tandem.newConversationsInWorktree` says so and it can have one. */
  async newConversation(): Promise<void> {
    await this.host.init();
    if (setting('newConversationsInWorktree') === true && (await this.host.worktrees?.offer())?.available) return this.newConversationInWorktree();
    this.host.manager.newConversation(this.host.manager.active?.agentName || undefined);
    this.host.surface()?.reveal();
  }

  /** `Tandem: New Conversation in Worktree`: a new branch from HEAD in Tandem's worktrees folder, and a conversation working there. */
  async newConversationInWorktree(): Promise<void> {
    await this.host.init();
    const { worktrees, manager } = this.host;
    const offer = await worktrees?.offer();
    if (!worktrees || !offer?.available) {
      const reason = offer?.reason ?? l10n.t('Open a folder first: worktrees are made from its git repository.');
      void vscode.window.showWarningMessage(l10n.t('Tandem: a conversation cannot have its own worktree here. {0}', reason));
      return;
    }
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Tandem: creating a worktree…') }, () =>
        newConversationInWorktree(manager, worktrees, this.host.cwd(), manager.active?.agentName || undefined),
      );
      this.host.surface()?.reveal();
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('Tandem: the worktree could not be created. {0}', errorMessage(err)));
    }
  }

  /** "Open the worktree": the conversation's worktree in a new window. */
  async openWorktree(conversationId: string | undefined): Promise<void> {
    const binding = this.host.manager.get(conversationId)?.meta.worktree;
    if (binding) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(binding.path), { forceNewWindow: true });
  }

  async closeConversation(): Promise<void> {
    const active = this.host.manager.active;
    if (active) await this.host.manager.close(active.id);
  }

  /** Ctrl+PageDown-like switching from the keyboard: the next (or previous) tab, wrapping. */
  cycleConversation(step: 1 | -1): void {
    const tabs = this.host.manager.tabs();
    const index = tabs.findIndex((t) => t.id === this.host.manager.active?.id);
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (next) this.host.manager.show(next.id);
  }

  async showHistory(): Promise<void> {
    await this.host.init();
    await showHistory(this.host.manager, () => this.listAgentSessions(), { search: this.host.search, open: (target) => this.openAt(target) });
    this.host.surface()?.reveal();
  }

  /** `Tandem: Search Conversations…`: a match in any kept conversation, opened at its entry. */
  async searchConversations(): Promise<void> {
    await this.host.init();
    const target = await searchConversations(this.host.manager, this.host.search);
    if (target) await this.openAt(target);
  }

  /** Opens a conversation (from the history if closed) and has the panel land on the entry, highlighted. */
  async openAt(target: SearchTarget): Promise<void> {
    await this.host.manager.reopen(target.conversationId);
    this.host.surface()?.reveal();
    if (target.entryId !== '') this.host.post({ type: 'revealEntry', conversationId: target.conversationId, entryId: target.entryId, query: target.query });
  }

  /**
   * `Tandem: Sign Out`: Tandem forgets the keys it keeps for the shown conversation's agent (the
   * agent restarts without them), and the agent forgets its own credentials when it supports that.
   */
  async signOut(conversationId?: string): Promise<void> {
    await this.host.init();
    // The panel's Sign out names its conversation; the command means the shown one.
    const conversation = this.host.manager.get(conversationId);
    if (!conversation) return;
    const name = conversation.agentName;
    const outcome = await conversation.signOut(() => this.host.forgetSecrets(name));
    if (outcome.kind === 'failed') void vscode.window.showErrorMessage(l10n.t('Tandem: signing out of {0} failed: {1}', name, outcome.error));
    if (outcome.forgotKeys || outcome.kind !== 'unsupported') return;
    void vscode.window.showInformationMessage(
      outcome.running
        ? l10n.t('Tandem: {0} does not support signing out from the editor; use its own command line.', name)
        : l10n.t('Tandem: the agent is not running; start a conversation with it first.'),
    );
  }

  async manageRules(ruleId?: string): Promise<void> {
    await this.host.init();
    await manageRules(this.host.rules, this.host.manager.active?.id, ruleId);
  }

  /** `Tandem: Add Selection to Chat` / `Add File to Chat`: chips in the shown conversation's composer. */
  async addToChat(uris: readonly vscode.Uri[] | undefined): Promise<void> {
    await this.host.init();
    let chips;
    if (uris && uris.length > 0) chips = await this.host.mentions.chipsForUris(uris.map((u) => u.toString()));
    else {
      const selection = this.host.mentions.selectionSpec();
      const file = vscode.window.activeTextEditor?.document.uri;
      if (selection) chips = this.host.manager.chips([selection]);
      else if (file) chips = await this.host.mentions.chipsForUris([file.toString()]);
    }
    if (!chips || chips.length === 0) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: select text in an editor, or pick files in the Explorer, to add them to the chat.'));
      return;
    }
    let conversation = this.host.manager.active;
    if (!conversation) conversation = this.host.manager.newConversation(undefined);
    this.host.post({ type: 'mentionsAdded', conversationId: conversation.id, chips });
    this.host.surface()?.reveal();
  }

  async pickAgent(): Promise<void> {
    const picked = await this.agentPick(l10n.t('Select the ACP agent to chat with'), this.host.manager.active?.agentName);
    if (picked) await this.host.manager.selectAgent(picked);
  }

  /** The configured agents in a quick pick (the current one marked); the picked agent's name. */
  private async agentPick(placeHolder: string, current: string | undefined): Promise<string | undefined> {
    const picked = await vscode.window.showQuickPick(
      this.host.settings.choices().map((c) => ({ label: c.name, description: choiceDescription(c), picked: c.name === current })),
      { placeHolder },
    );
    return picked?.label;
  }

  /**
   * `Tandem: Continue with Another Agent…` (also in the panel's … menu): the shown conversation goes
   * on in a new one with the agent picked, which gets the conversation so far as context with its
   * first prompt (a chip in its composer the user can remove) and says what it continues. The files
   * stay as they are.
   */
  async continueWithAgent(): Promise<void> {
    await this.host.init();
    const source = this.host.manager.active;
    if (!source?.hasHistory) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: this conversation has nothing to continue yet.'));
      return;
    }
    const agentName = await this.agentPick(l10n.t('Continue “{0}” with which agent?', source.meta.title || source.agentName), source.agentName);
    if (!agentName) return;
    const handed = this.host.manager.continueWithAgent(source.id, agentName);
    if (!handed) return;
    this.host.post({ type: 'mentionsAdded', conversationId: handed.conversation.id, chips: handed.chips });
    this.host.surface()?.reveal();
  }

  /**
   * `Tandem: Try the Demo Agent` (the walkthrough's button): the built-in agent, which needs no
   * install or sign-in, in the shown panel.
   */
  async tryDemo(): Promise<void> {
    await this.host.init();
    await this.host.manager.selectAgent(DEMO_AGENT_NAME);
    this.host.surface()?.reveal();
  }

  async toggleFollow(): Promise<void> {
    await updateUserSetting('followAgent', !this.host.followEnabled());
  }

  /** A permission prompt the user may not see: a notification with the one-time answers. */
  notifyPermission(conversation: Conversation, requestId: string, title: string, options: Array<{ optionId: string; name: string; kind?: string }>): void {
    if (this.host.surface()?.isVisible() && conversation === this.host.manager.active) return;
    const text =
      this.host.manager.tabs().length > 1
        ? l10n.t('{0} asks permission in "{1}": {2}', conversation.agentName, conversation.meta.title, title)
        : l10n.t('{0} asks permission: {1}', conversation.agentName, title);
    // Only one-time answers here: a standing "always" is chosen deliberately, in the panel.
    const labels = options
      .filter((o) => o.kind === 'allow_once' || o.kind === 'reject_once')
      .slice(0, 2)
      .map((o) => o.name);
    const showPanel = l10n.t('Show Panel');
    void vscode.window.showInformationMessage(text, ...labels, showPanel).then((choice) => {
      if (choice === showPanel) {
        this.host.manager.show(conversation.id);
        this.host.surface()?.reveal();
        // The panel lands on the prompt itself (in a collapsed subagent too), focus on its first one-time option.
        this.host.post({ type: 'revealPrompt', conversationId: conversation.id, requestId });
      }
      const option = options.find((o) => o.name === choice);
      if (option) conversation.respondPermission(requestId, option.optionId);
    });
  }

  /** Sessions the running agents know for this folder (`session/list`), for the history. */
  private async listAgentSessions(): Promise<AgentSessionItem[]> {
    const names = new Set(
      this.host.manager
        .all()
        .map((c) => c.meta.agentName)
        .filter((n) => n !== ''),
    );
    const lists = await Promise.all(
      [...names].map(async (agentName) => {
        const runtime = this.host.manager.runtimeFor(agentName);
        if (!runtime) return [];
        await runtime.start();
        if (!runtime.sessionSupport.list) return [];
        const sessions = await runtime.listSessions(this.host.cwd());
        return sessions.map((s) => ({
          agentName,
          sessionId: s.sessionId,
          title: s.title ?? undefined,
          updatedAt: s.updatedAt ? Date.parse(s.updatedAt) || undefined : undefined,
        }));
      }),
    );
    return lists.flat();
  }
}
